// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// Tags link to a filtered listing (DESIGN.md, "Capture text" and "Tag
// links"): /events?project_tag=work is the events page whose list is
// GET /api/events?project_tag=work, every kind and status in span order.

// tagHref is the address of the listing of tag.
func tagHref(tag string) string { return string(appendTagHref(nil, tag)) }

// TagHref is the address of the row's tag listing ("" without a tag).
func (r rowView) TagHref() string {
	if r.ProjectTag == nil {
		return ""
	}
	return tagHref(*r.ProjectTag)
}

// logLength is how long a finished activity log took; false for anything
// else, a running log included. A row shows it (appendRow), and the
// review's logbook says the same (entry).
func logLength(e *models.Event) (time.Duration, bool) {
	if e.Kind != models.KindActivityLog || e.StartedAt == nil || e.EndedAt == nil || !e.EndedAt.After(*e.StartedAt) {
		return 0, false
	}
	return e.EndedAt.Sub(*e.StartedAt), true
}

// durationText is d in hours and minutes, rounded to the minute.
func durationText(d time.Duration) string { return string(appendDuration(nil, d)) }

// appendDuration appends durationText(d).
func appendDuration(b []byte, d time.Duration) []byte {
	m := int64((d + 30*time.Second) / time.Minute)
	switch {
	case m < 1:
		return append(b, "under 1 min"...)
	case m < 60:
		return append(strconv.AppendInt(b, m, 10), " min"...)
	case m%60 == 0:
		return append(strconv.AppendInt(b, m/60, 10), " h"...)
	}
	b = append(strconv.AppendInt(b, m/60, 10), " h "...)
	return append(strconv.AppendInt(b, m%60, 10), " min"...)
}

// tagPage: GET /events?project_tag=work, the events page listing the tag's
// events (the API's GET /api/events?project_tag=work); the tabs stay, none
// selected. It takes project_tag once and nothing else.
func (h *Handlers) tagPage(c *fiber.Ctx, values url.Values) error {
	for key, v := range values {
		if key != "project_tag" || len(v) != 1 {
			return models.BadRequest(key, models.CodeUnknownField, "is not a parameter of a tag's listing; it takes project_tag once")
		}
	}
	tag := values.Get("project_tag")
	if tag == "" {
		return models.BadRequest("project_tag", models.CodeRequired, "must name a tag")
	}
	l := listings[slices.IndexFunc(listings, func(l listing) bool { return l.Name == models.ListEvents })]
	q := url.Values{"project_tag": {tag}}
	page, err := h.load(c, l, q)
	if err != nil {
		return err
	}
	var slots rowSlots
	rows := h.rows(&slots, page.Items)
	current := tab{Name: "tag", Label: "#" + shown(tag), Listing: l, Path: l.apiPath(),
		Empty: "No events are tagged #" + shown(tag) + "."}
	view := newTabbed(current, rows, more(current.Path, q, page.NextCursor))
	view.Tag = shown(tag)
	if fragment(c) {
		return h.render(c, &slots, "partials/tabbed", view)
	}
	return h.render(c, &slots, "pages/events", h.newEventsPage(c, current.Label, view))
}
