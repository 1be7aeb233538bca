package handlers

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/utils"
)

// requestID gives every request an id, sent back as X-Request-Id and
// written on each of its log lines. A client's X-Request-Id is kept only
// when it is 1 to 64 of [A-Za-z0-9._-] (a UUID, a trace id), so a log line
// never holds what a client chose beyond that; otherwise a fresh UUID.
func requestID(c *fiber.Ctx) error {
	rid := c.Get(fiber.HeaderXRequestID)
	if !validRequestID(rid) {
		rid = utils.UUID()
	} else {
		rid = strings.Clone(rid) // fasthttp reuses the request's buffer
	}
	c.Set(fiber.HeaderXRequestID, rid)
	return c.Next()
}

func validRequestID(s string) bool {
	if len(s) < 1 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !('a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '.' || b == '_' || b == '-') {
			return false
		}
	}
	return true
}
