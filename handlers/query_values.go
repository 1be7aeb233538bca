// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"maps"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// queryValues parses the query string. A name or value that is not UTF-8
// text, or holds a control character (NUL included), is 400 naming the
// parameter: no such value is a tab, a filter, a time or a cursor, and it
// must never reach a statement (bun writes arguments into the SQL text).
func queryValues(c *fiber.Ctx) (url.Values, error) {
	q, err := url.ParseQuery(string(c.Request().URI().QueryString()))
	if err != nil {
		return nil, models.BadRequest("", models.CodeBadFormat, "the query string does not parse: %s", err)
	}
	for name, vs := range q {
		if !plainText(name) {
			return nil, models.BadRequest("", models.CodeBadFormat, "a parameter's name is not UTF-8 text without control characters")
		}
		for _, v := range vs {
			if !plainText(v) {
				return nil, models.BadRequest(name, models.CodeControlCharacter, "must be UTF-8 text without control characters")
			}
		}
	}
	return q, nil
}

func plainText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl)
}

// noQuery refuses a query string on an address that takes none (GET
// /api/events/{id}): 400 naming the first parameter, as a listing refuses
// a parameter it does not take.
func noQuery(c *fiber.Ctx) error {
	q, err := queryValues(c)
	if err != nil {
		return err
	}
	if len(q) == 0 {
		return nil
	}
	names := slices.Sorted(maps.Keys(q))
	return models.BadRequest(names[0], models.CodeUnknownField, "is not a parameter of this address (it takes none)")
}
