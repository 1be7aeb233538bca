// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"html/template"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

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
		view.Notice = h.whereItWent(e, r.Note)
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
func (h *Handlers) whereItWent(e models.Event, note string) template.HTML {
	loc, today, now := h.svc.Location(), h.today(), h.svc.Now()
	title := shown(e.Title)
	note = strings.Replace(note, "Added:", "Added “"+title+"”:", 1)
	var where, href, link string
	at := e.DueAt
	if at == nil {
		at = e.StartAt
	}
	switch {
	case at == nil:
		where, href, link = "It waits in the ", "/events?tab=inbox", "Inbox"
	case at.Before(models.DayStart(now, loc, 1)):
		where, href, link = "It is on ", "/events", "Today"
	case at.Before(now.AddDate(0, 0, upcomingDays)):
		where, href, link = "It is in ", "/events?tab=upcoming", "Upcoming, under "+dayLabel(at.In(loc).Format(time.DateOnly), today, loc)
	default:
		week := weekStart(*at, loc)
		where, href, link = "It is in the ", reviewLink(week, models.DayStart(week, loc, 7), loc), "plan of the week of "+week.In(loc).Format("2 Jan")
	}
	return template.HTML(template.HTMLEscapeString(note) + " " + template.HTMLEscapeString(where) +
		`<a href="` + template.HTMLEscapeString(href) + `">` + template.HTMLEscapeString(link) + `</a>.`)
}
