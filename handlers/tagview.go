// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"net/url"
	"slices"
	"strconv"

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

// labelLink is one of a row's labels, linked to the label's listing.
type labelLink struct{ Name, Href string }

// LabelLinks are the row's labels, each with the address of its listing
// (/events?label=회의).
func (r rowView) LabelLinks() []labelLink {
	out := make([]labelLink, len(r.Labels))
	for i, l := range r.Labels {
		out[i] = labelLink{Name: l, Href: string(appendListingHref(nil, "label", l))}
	}
	return out
}

// logLength is how long a finished activity log took; false for anything
// else, a running log included. A row shows it (appendRow), and the
// review's logbook says the same (entry).
func logLength(e *models.Event) (seconds int64, ok bool) {
	if e.Kind != models.KindActivityLog || e.StartedAt == nil || e.EndedAt == nil || !e.EndedAt.After(*e.StartedAt) {
		return 0, false
	}
	return models.Seconds(*e.StartedAt, *e.EndedAt), true
}

// durationText is seconds in hours and minutes, rounded to the minute
// (seconds, not a time.Duration, which ends at about 292 years).
func durationText(seconds int64) string { return string(appendDuration(nil, seconds)) }

// appendDuration appends durationText(seconds).
func appendDuration(b []byte, seconds int64) []byte {
	m := (seconds + 30) / 60
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
//
// A label's listing is the same page: GET /events?label=회의 lists
// GET /api/events?label=회의 under "Labelled @회의".
func (h *Handlers) tagPage(c *fiber.Ctx, values url.Values) error {
	param, mark, verb, emptyID, argName := "project_tag", "#", "tagged", "tag_empty", "Tag"
	if values.Has("label") {
		param, mark, verb, emptyID, argName = "label", "@", "labelled", "label_empty", "Label"
	}
	for key, v := range values {
		if key != param || len(v) != 1 {
			return models.BadRequest(key, models.CodeUnknownField, "is not a parameter of a tag's listing; it takes project_tag or label once")
		}
	}
	tag := values.Get(param)
	if tag == "" {
		return models.BadRequest(param, models.CodeRequired, "must name a tag")
	}
	l := listings[slices.IndexFunc(listings, func(l listing) bool { return l.Name == models.ListEvents })]
	q := url.Values{param: {tag}}
	page, err := h.load(c, l, q)
	if err != nil {
		return err
	}
	var slots rowSlots
	if err := h.markOverlaps(c, &slots, page.Items); err != nil {
		return err
	}
	rows := h.rows(&slots, page.Items)
	current := tab{Name: "tag", Label: mark + shown(tag), Listing: l, Path: l.apiPath(),
		Empty: emptyID, EmptyArgs: []any{argName, shown(tag)}}
	view := newTabbed(current, rows, more(current.Path, q, page.NextCursor))
	view.Tag = shown(tag)
	view.TagMark, view.TagVerb = mark, verb
	if fragment(c) {
		return h.render(c, &slots, "partials/tabbed", view)
	}
	return h.render(c, &slots, "pages/events", h.newEventsPage(c, current.Label, view))
}
