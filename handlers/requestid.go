// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"strconv"
	"strings"
	"unicode/utf8"

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

// maxLoggedPath bounds the path a log line holds: a head may be 64 KiB, and
// a client's path of that length must not make every log line as long.
const maxLoggedPath = 256

// loggedPath is the request's path for the log, cut at maxLoggedPath bytes
// (on a character boundary) with the length it had.
func loggedPath(c *fiber.Ctx) string {
	p := c.Path()
	if len(p) <= maxLoggedPath {
		return p
	}
	cut := maxLoggedPath
	for cut > 0 && !utf8.RuneStart(p[cut]) {
		cut--
	}
	return p[:cut] + "…(" + strconv.Itoa(len(p)) + " bytes)"
}
