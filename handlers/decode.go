// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"bytes"
	"mime"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// decode reads a JSON or form body into the one input type.
func (h *Handlers) decode(c *fiber.Ctx, set models.FieldSet) (models.Input, error) {
	body := c.Body()
	lifecycle := set == models.NoFields || set == models.DeferFields
	if len(body) == 0 && lifecycle {
		return models.Input{}, nil
	}
	switch mediaType(c) {
	case "application/json":
		return models.DecodeJSON(body, set)
	case "application/x-www-form-urlencoded":
		if t := bytes.TrimSpace(body); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
			return models.Input{}, jsonAsForm{}
		}
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return models.Input{}, models.BadRequest("", models.CodeBadFormat, "the form body does not parse: %s", err)
		}
		return models.DecodeForm(form, set, h.svc.Zone())
	case "":
		if len(body) == 0 {
			return models.Input{}, models.BadRequest("", models.CodeBadFormat, "the body is empty: send a JSON object")
		}
	}
	return models.Input{}, models.ErrUnsupportedMediaType
}

// jsonAsForm is a JSON body sent as a form, as curl -d does without -H:
// 415, saying what to send.
type jsonAsForm struct{}

func (jsonAsForm) Error() string {
	return "the body looks like JSON but came as a form (Content-Type: application/x-www-form-urlencoded, " +
		"which curl -d sends by default): send Content-Type: application/json"
}

func (jsonAsForm) Unwrap() error { return models.ErrUnsupportedMediaType }

func mediaType(c *fiber.Ctx) string {
	ct := c.Get(fiber.HeaderContentType)
	if ct == "" {
		return ""
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "invalid"
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		// a body in another character set is not read as UTF-8 (415)
		return "invalid"
	}
	if strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json") {
		return "application/json"
	}
	return mt
}

// actor is who a request acts for: the pages (htmx, or a form they post) or an API client.
func actor(c *fiber.Ctx) models.Actor {
	if c.Get("HX-Request") == "true" || mediaType(c) == "application/x-www-form-urlencoded" {
		return models.ActorUser
	}
	return models.ActorAPI
}
