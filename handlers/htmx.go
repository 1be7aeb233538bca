// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"errors"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// fragment reports whether the answer is an HTML fragment for htmx: an htmx
// request that is neither a full-page navigation nor a history restore. It
// is the one place that decides, and so the one place that says the answer
// varies with HX-Request.
func fragment(c *fiber.Ctx) bool {
	c.Vary("HX-Request")
	return c.Get("HX-Request") == "true" &&
		c.Get("HX-History-Restore-Request") != "true" &&
		c.Get("HX-Request-Type") != "full"
}

// pageTarget names the part of a page an htmx request updates, from its
// HX-Target header: the detail section, the new-event form, or (anything
// else) a row of a list.
type pageTarget int

const (
	toRow pageTarget = iota
	toDetail
	toNewForm
	toNotice // the sentence above a tab about what a line just made (captureplace.go)
)

func targetOf(c *fiber.Ctx) pageTarget {
	switch c.Get("HX-Target") {
	case "section#" + idDetail:
		return toDetail
	case "form#" + idNewForm:
		return toNewForm
	case "p#" + idNotice:
		return toNotice
	}
	return toRow
}

// changed tells the page that an event changed, so its history refreshes.
// The event is sent to the body: the button that asked is gone by then.
func changed(c *fiber.Ctx) {
	if fragment(c) {
		c.Set("HX-Trigger", `{"`+triggerChanged+`":{"target":"body"}}`)
	}
}

// refused answers a refused write in the terms of the page part that sent
// it: the new-event form or the edit form with each error by its field and
// the typed values kept; a row or the detail, as it now is, with the reason.
// Every other refusal (and every API client's) goes to the error handler.
func (h *Handlers) refused(c *fiber.Ctx, id int64, err error) error {
	if !fragment(c) {
		return err
	}
	p := problemFor(err)
	var fields models.FieldErrors
	isFields := errors.As(err, &fields)
	target := targetOf(c)
	if target == toNewForm {
		if !isFields {
			return err
		}
		form, _ := url.ParseQuery(string(c.Body()))
		kind := models.Kind(form.Get("kind"))
		if !kind.Valid() {
			return err
		}
		c.Status(p.Status)
		return h.page(c, "partials/new_form", newEventForm(kind, form, fields, h.svc.Zone()))
	}
	if id == 0 || (p.Status != fiber.StatusConflict && p.Status != fiber.StatusUnprocessableEntity && p.Status != fiber.StatusBadRequest) {
		return err
	}
	e, gerr := h.svc.Get(c.UserContext(), id)
	if gerr != nil {
		return err
	}
	if target == toDetail && c.Method() == fiber.MethodPatch && isFields {
		form, _ := url.ParseQuery(string(c.Body()))
		c.Status(p.Status)
		return h.page(c, "partials/detail", h.detail(c, e, form, fields, "", ""))
	}
	return h.sendEvent(c, p.Status, e, "", sentence(problemIn(h.lang(c), p).Detail))
}

// sentence starts s with a capital letter.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// wantsPage reports whether an error should be an HTML page: a page's
// address, or a browser asking anywhere outside the API.
func wantsPage(c *fiber.Ctx) bool {
	path := c.Path()
	if isAPI(path) {
		return false
	}
	return path == "/events" || strings.HasPrefix(path, "/events/") ||
		c.Accepts(fiber.MIMEApplicationJSON, fiber.MIMETextHTML) == fiber.MIMETextHTML
}
