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
	_, err := onlyQuery(c)
	return err
}

// onlyQuery is the query string of an address that takes only the
// parameters names: any other is 400 naming it (the first by name), as a
// listing refuses a parameter it does not take. A write checks its query
// before anything is written.
func onlyQuery(c *fiber.Ctx, names ...string) (url.Values, error) {
	q, err := queryValues(c)
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(q)) {
		if !slices.Contains(names, name) {
			takes := "none"
			if len(names) > 0 {
				takes = strings.Join(names, ", ")
			}
			return nil, models.BadRequest(name, models.CodeUnknownField, "is not a parameter of this address (it takes %s)", takes)
		}
	}
	return q, nil
}
