// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// The pages: /events with its tabs, /events/{id} and /events/new. They read
// through the same listings and use cases as the API, and their buttons and
// forms post to the API, which answers them with fragments. The tabs are
// declared with their listings in listings.go and drawn in tabs.go; what an
// htmx request gets is in htmx.go, the names pages and app.js share in
// contract.go, the view models in rowview.go, formview.go and historyview.go.

type eventsPage struct {
	chrome
	Tabbed tabbedView
}

// newEventsPage is /events, a tab or a tag's listing, titled title: its
// skip link goes to the quick-record line.
func (h *Handlers) newEventsPage(c *fiber.Ctx, title string, view tabbedView) eventsPage {
	p := eventsPage{chrome: h.chrome(c, title), Tabbed: view}
	p.Skip = skipToQuickRecord
	return p
}

type detailPage struct {
	chrome
	Detail  detailView
	History historyView
}

// kindChoice is one entry of /events/new's kind chooser; Label and Hint
// are the ids of its words in the catalogue.
type kindChoice struct {
	Kind     models.Kind
	Label    string
	Hint     string
	Selected bool
}

func kindChoices(selected models.Kind) []kindChoice {
	var choices []kindChoice
	for _, c := range []struct {
		kind models.Kind
		hint string
	}{
		{models.KindTask, "kind_hint_task"},
		{models.KindCalendarEvent, "kind_hint_calendar_event"},
		{models.KindActivityLog, "kind_hint_activity_log"},
	} {
		choices = append(choices, kindChoice{Kind: c.kind, Label: "kind_choice_" + string(c.kind), Hint: c.hint, Selected: c.kind == selected})
	}
	return choices
}

type newPage struct {
	chrome
	Kinds []kindChoice
	Form  *formView
}

type errorPage struct {
	chrome
	Problem problem
}

// eventsPage: GET /events?tab=today|inbox|upcoming|activity. A tab click
// asks for the tab list and the rows only.
func (h *Handlers) eventsPage(c *fiber.Ctx) error {
	values, err := queryValues(c)
	if err != nil {
		return err
	}
	if values.Has("project_tag") || values.Has("label") {
		return h.tagPage(c, values) // a tag's listing: tagview.go
	}
	name := "today"
	for key, v := range values {
		if key != "tab" || len(v) != 1 {
			return models.BadRequest(key, models.CodeUnknownField, "is not a parameter of this page; it takes tab once")
		}
		name = v[0]
	}
	current, ok := findTab(name)
	if !ok {
		return models.BadRequest("tab", models.CodeBadFormat, "must be one of %s", tabNames())
	}
	var slots rowSlots
	view, _, err := h.tabView(c, &slots, current)
	if err != nil {
		return err
	}
	if fragment(c) {
		return h.render(c, &slots, "partials/tabbed", view)
	}
	return h.render(c, &slots, "pages/events", h.newEventsPage(c, current.Label, view))
}

// tabView is the tab current drawn, its rows placed in slots, and the
// events it holds.
func (h *Handlers) tabView(c *fiber.Ctx, slots *rowSlots, current tab) (tabbedView, []models.Event, error) {
	q := current.query(h.svc.Now())
	if current.Name == "today" {
		q.Set("limit", todayLimit) // the sections need the whole day
	}
	page, err := h.load(c, current.Listing, q)
	if err != nil {
		return tabbedView{}, nil, err
	}
	if err := h.markOverlaps(c, slots, page.Items); err != nil {
		return tabbedView{}, nil, err
	}
	next := more(current.Path, q, page.NextCursor)
	var view tabbedView
	switch current.Name {
	case "today":
		view = newTabbed(current, "", next)
		view.Sections = h.todaySections(slots, page.Items)
		return view, page.Items, nil
	case "upcoming":
		if page.Items, err = h.withDeferred(c, page.Items, h.svc.Now()); err != nil {
			return tabbedView{}, nil, err
		}
	}
	if mode := dayModeOf(current.Name); mode != "" {
		view = newTabbed(current, "", "")
		if view.Days, err = h.dayGroups(c, slots, mode, page.Items, "", next); err != nil {
			return tabbedView{}, nil, err
		}
		view.Days.Empty = current.Empty
		return view, page.Items, nil
	}
	return newTabbed(current, h.rows(slots, page.Items), next), page.Items, nil
}

// detailPage: GET /events/{id}.
func (h *Handlers) detailPage(c *fiber.Ctx) error {
	e, err := h.event(c)
	if err != nil {
		return err
	}
	id := e.ID
	q, err := models.ParseListQuery(models.ListHistory, url.Values{}, h.svc.Zone())
	if err != nil {
		return err
	}
	history, err := h.svc.History(c.UserContext(), id, q)
	if err != nil {
		return err
	}
	title := isolated(e.Title)
	if e.Title == "" {
		title = h.lang(c).T("untitled_kind", "Kind", h.lang(c).T("kind_name_"+string(e.Kind)))
	}
	return h.page(c, "pages/detail", detailPage{
		chrome: h.chrome(c, title),
		Detail: h.detail(c, e, nil, nil, "", ""),
		History: historyView{ID: id, Items: history.Items, Loc: h.svc.Zone(),
			More: more("/api/events/"+itoa(id)+"/history", url.Values{}, history.NextCursor)},
	})
}

// newPage: GET /events/new, then /events/new?kind=… for the kind's form.
func (h *Handlers) newPage(c *fiber.Ctx) error {
	values, err := queryValues(c)
	if err != nil {
		return err
	}
	var kind models.Kind
	for key, v := range values {
		if key != "kind" || len(v) != 1 {
			return models.BadRequest(key, models.CodeUnknownField, "is not a parameter of this page; it takes kind once")
		}
		kind = models.Kind(v[0])
		if !kind.Valid() {
			return models.BadRequest("kind", models.CodeBadFormat, "must be task, calendar_event or activity_log")
		}
	}
	page := newPage{chrome: h.chrome(c, "new_event"), Kinds: kindChoices(kind)}
	if kind != "" {
		form := newEventForm(kind, nil, nil, h.svc.Zone())
		form.Fields[0].Autofocus = true // the title: the person starts typing at once
		page.Form = &form
		page.Title = h.lang(c).T("new_kind", "Kind", h.lang(c).T("kind_name_"+string(kind)))
	}
	if fragment(c) && page.Form != nil {
		return h.page(c, "partials/new_form", *page.Form)
	}
	return h.page(c, "pages/new", page)
}

// notesPage: GET /notes, while EVENTS_NOTES_URL is not set: what the
// sidebar's Notes entry is for and how to point it at the notes.
func (h *Handlers) notesPage(c *fiber.Ctx) error {
	ch := h.chrome(c, "nav_notes")
	ch.Nav = "notes"
	return h.page(c, "pages/notes", ch)
}

// itoa is strconv.FormatInt for ids.
func itoa(id int64) string { return strconv.FormatInt(id, 10) }
