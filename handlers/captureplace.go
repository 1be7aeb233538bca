// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"html/template"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/internal/i18n"
	"events/models"
)

// sendCaptured answers a task the task line made (created). Sent from
// Today, Upcoming or Activity (the page's address, HX-Current-URL, names
// the tab), the answer is the tab drawn again, retargeted at it, with the
// new task marked where a reload puts it: on Today in the section its due
// time makes (Schedule for a clock time, To do for a day), on Upcoming
// under its day. When the tab does not hold it (a task due next week typed
// on Today), a sentence above the list says what was understood and where
// the task is, with a link. Elsewhere (Inbox, a tag's listing, a request
// without the address) it is the row alone, for the top of the list.
func (h *Handlers) sendCaptured(c *fiber.Ctx, e models.Event, r rowView) error {
	current, ok := capturedOn(c.Get("HX-Current-URL"))
	if !ok {
		return sendRow(c, r)
	}
	slots := rowSlots{notes: map[int64]string{e.ID: r.Note}}
	view, items, err := h.tabView(c, &slots, current)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(items, func(x models.Event) bool { return x.ID == e.ID }) {
		view.Notice = h.whereItWent(langOf(c), e, r.Note)
	}
	c.Set("HX-Retarget", "#tabbed")
	c.Set("HX-Reswap", "outerHTML")
	return h.render(c, &slots, "partials/tabbed", view)
}

// capturedOn is the tab of /events that the page address u shows, when it
// is one that places a new task itself: Today (also /events alone),
// Upcoming or Activity.
func capturedOn(u string) (tab, bool) {
	p, err := url.Parse(u)
	if err != nil || p.Path != "/events" {
		return tab{}, false
	}
	q := p.Query()
	name := "today"
	for k, v := range q {
		if k != "tab" || len(v) != 1 {
			return tab{}, false
		}
		name = v[0]
	}
	if name != "today" && name != "upcoming" && name != "activity" {
		return tab{}, false
	}
	return findTab(name)
}

// whereItWent is the sentence above a tab that does not hold the task the
// task line just made: what was understood (note, capture.go), and where
// the task is: Today, Upcoming under its day, the Inbox, or past Upcoming's
// days the review of its week, which lists the tasks due.
func (h *Handlers) whereItWent(l *i18n.Lang, e models.Event, note string) template.HTML {
	loc, today, now := h.svc.Zone(), h.today(), h.svc.Now()
	title := shown(e.Title)
	note = strings.Replace(note, "Added:", "Added “"+title+"”:", 1)
	var id, href, link string
	at := e.DueAt
	if at == nil {
		at = e.StartAt
	}
	switch {
	case at == nil:
		id, href, link = "went_inbox", "/events?tab=inbox", l.T("tab_inbox")
	case at.Before(models.DayStart(now, loc, 1)):
		id, href, link = "went_today", "/events", l.T("tab_today")
	case at.Before(now.AddDate(0, 0, upcomingDays)):
		id, href, link = "went_upcoming", "/events?tab=upcoming", l.T("went_upcoming_link", "Day", dayLabel(l, at.In(loc).Format(time.DateOnly), today, loc))
	default:
		week := weekStart(*at, loc)
		day := week.In(loc).Format("2 Jan")
		if l != i18n.English {
			day = l.Date(week.In(loc), false)
		}
		id, href, link = "went_week", reviewLink(week, models.DayStart(week, loc, 7), loc), l.T("went_week_link", "Week", day)
	}
	a := `<a href="` + template.HTMLEscapeString(href) + `">` + template.HTMLEscapeString(link) + `</a>`
	out := template.HTMLEscapeString(note) + " " + l.T(id, "Link", a)
	if e.Kind == models.KindCalendarEvent {
		out += " " + string(appendUndoCreate(nil, e.ID, "closest p", l))
	}
	return template.HTML(out)
}

// Undo of a line that made a calendar entry (issue 55, point 5): the entry
// is stored, so undoing the create cancels it (it then counts nowhere, and
// the row's own Undo brings it back), and the button says so. On the row
// it answers the row, cancelled; on the sentence above a tab that does
// not show the entry, a sentence saying it is off the calendar.

// idNotice is the id of the sentence above a tab (partials/tabbed).
const idNotice = "tab-notice"

// UndoesCreate reports whether the row offers the undo of its create: a
// calendar entry, not cancelled, that a line just made.
func (r rowView) UndoesCreate() bool {
	return r.Added && r.Kind == models.KindCalendarEvent && r.Note != "" && r.Status != models.StatusCancelled
}

// appendUndoCreate appends the undo of the create of calendar entry id,
// its answer going to target.
func appendUndoCreate(b []byte, id int64, target string, l *i18n.Lang) []byte {
	b = append(b, `<button type="button" class="undo-create" hx-post="/api/events/`...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `/cancel" hx-target="`...)
	b = appendEscaped(b, target)
	b = append(b, `" hx-swap="outerHTML">`...)
	b = appendEscaped(b, l.T("undo_create_calendar"))
	return append(b, "</button>"...)
}

// sendCreateUndone answers the undo on the sentence above a tab: the
// sentence again, saying the entry is off the calendar.
func sendCreateUndone(c *fiber.Ctx, e models.Event) error {
	l := langOf(c)
	b := append([]byte(`<p class="tab-notice" id="`), idNotice...)
	b = append(b, `" role="status">`...)
	b = appendEscaped(b, l.T("undo_create_done", "Title", shown(e.Title)))
	b = append(b, "</p>"...)
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Send(b)
}
