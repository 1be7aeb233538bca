// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/models"
)

// The names in use (DESIGN.md, Labels and places): GET /api/events/names,
// the projects or labels that begin with what is typed, for the record and
// task lines' suggestions (app.js) and for clients such as the importer.
// An htmx request gets the list's options as HTML (partials/names).

// Bounds of a names request.
const (
	namesDefaultLimit = 10
	namesMaxLimit     = 50
	// namesMaxPrefix is the longest prefix, in characters: no project tag
	// or label is longer, so a longer one names nothing.
	namesMaxPrefix = max(models.MaxProjectTag, models.MaxLabel)
)

// namesAnswer is the JSON answer.
type namesAnswer struct {
	Of     string     `json:"of"`
	Prefix string     `json:"prefix"`
	Names  []app.Name `json:"names"`
}

// names: GET /api/events/names?of=project|label&prefix&limit.
func (h *Handlers) names(c *fiber.Ctx) error {
	values, err := queryValues(c)
	if err != nil {
		return err
	}
	for name, vs := range values {
		if name != "of" && name != "prefix" && name != "limit" {
			return models.BadRequest(name, models.CodeUnknownField, "is not a parameter here (it takes of, prefix and limit)")
		}
		if len(vs) > 1 {
			return models.BadRequest(name, models.CodeRepeated, "appears more than once")
		}
	}
	of := values.Get("of")
	if of != "project" && of != "label" {
		if of == "" {
			return models.BadRequest("of", models.CodeRequired, "is required: project or label")
		}
		return models.BadRequest("of", models.CodeBadFormat, "must be project or label")
	}
	prefix := strings.TrimSpace(values.Get("prefix"))
	if utf8.RuneCountInString(prefix) > namesMaxPrefix {
		return models.BadRequest("prefix", models.CodeTooLong, "must be at most %d characters (no name is longer)", namesMaxPrefix)
	}
	limit := namesDefaultLimit
	if values.Has("limit") {
		v := values.Get("limit")
		n, err := strconv.Atoi(v)
		digits := v != "" && strings.TrimLeft(v, "0123456789") == ""
		if !digits || err != nil && !errors.Is(err, strconv.ErrRange) {
			return models.BadRequest("limit", models.CodeBadFormat, "must be a whole number from 1 to %d", namesMaxLimit)
		}
		if err != nil || n < 1 || n > namesMaxLimit {
			return models.BadRequest("limit", models.CodeOutOfRange, "must be a whole number from 1 to %d", namesMaxLimit)
		}
		limit = n
	}
	found, err := h.svc.Names(c.UserContext(), of, prefix, limit)
	if err != nil {
		return err
	}
	if fragment(c) {
		return h.page(c, "partials/names", found)
	}
	return c.JSON(namesAnswer{Of: of, Prefix: prefix, Names: found})
}
