// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"bytes"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// strictFraming refuses a request whose framing is ambiguous, which a proxy
// in front may have read differently (request smuggling): Transfer-Encoding
// together with Content-Length, Content-Length given twice (fasthttp itself
// refuses that since 1.5x, as nginx does; this keeps the rule whatever the
// parser does), a Transfer-Encoding other than chunked, and an HTTP/1.1
// request without Host. fasthttp has already read such a request its own
// way (chunked wins over Content-Length) when this runs, so the answer is 400 and the connection is closed: whatever follows
// on it is never read as a request. See the README (Deploying behind nginx)
// for what only the edge can refuse.
func strictFraming(c *fiber.Ctx) error {
	h := &c.Request().Header
	var lengths [][]byte
	te, host := 0, false
	for line := range bytes.SplitSeq(h.RawHeaders(), []byte("\n")) {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		name, value = bytes.TrimSpace(name), bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte(fiber.HeaderContentLength)):
			lengths = append(lengths, value)
		case bytes.EqualFold(name, []byte(fiber.HeaderTransferEncoding)):
			te++
			if !bytes.EqualFold(value, []byte("chunked")) {
				return refuseFraming(c, "Transfer-Encoding other than chunked is not accepted.")
			}
		case bytes.EqualFold(name, []byte(fiber.HeaderHost)):
			host = len(value) > 0
		}
	}
	switch {
	case te > 1:
		return refuseFraming(c, "Transfer-Encoding is given more than once.")
	case te > 0 && len(lengths) > 0:
		return refuseFraming(c, "A request must not carry both Transfer-Encoding and Content-Length.")
	case len(lengths) > 1:
		return refuseFraming(c, "Content-Length is given more than once.")
	case !host && c.Request().Header.IsHTTP11():
		return refuseFraming(c, "An HTTP/1.1 request needs a Host header.")
	}
	return c.Next()
}

func refuseFraming(c *fiber.Ctx, detail string) error {
	lingerOnClose(c)
	return models.BadRequest("", models.CodeBadFormat, "%s", detail)
}
