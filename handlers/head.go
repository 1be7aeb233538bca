// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// HeaderBlockLimit is the largest header block (every header line, cookies
// included, without the request line) the service serves: 64 KiB, what
// the edge lets through (large_client_header_buffers 4 16k). A larger one
// is 431. From a trusted proxy, which adds its own headers
// (X-Forwarded-For, X-Real-IP ...), up to HeadLimit is served.
const HeaderBlockLimit = 64 << 10

// strictHead refuses what a request's head says ambiguously or too much of:
// a header block over HeaderBlockLimit (431, as docs/operations.md says),
// and two Authorization headers (400: which credential is meant is
// unknowable, and each reader of the header would take the first).
func strictHead(c *fiber.Ctx) error {
	h := &c.Request().Header
	if n := len(h.RawHeaders()); n > HeaderBlockLimit && !c.IsProxyTrusted() {
		return fiber.NewError(fiber.StatusRequestHeaderFieldsTooLarge,
			"the header block is "+strconv.Itoa(n)+" bytes, over "+strconv.Itoa(HeaderBlockLimit))
	}
	if n := len(h.PeekAll(fiber.HeaderAuthorization)); n > 1 {
		return models.BadRequest(fiber.HeaderAuthorization, models.CodeBadFormat, "is sent %d times; send one credential", n)
	}
	return c.Next()
}
