// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"html/template"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/models"
)

// Upcoming and Activity by day. Their rows are drawn under a heading per
// local day of the page's zone (Today, Tomorrow, Yesterday, Mon 30 Nov),
// each day's rows a list of their own (partials/day_groups); Activity's
// headings carry the day's logged time, the summary's logged_seconds
// (DESIGN.md, Summary), so it agrees with the review page. The days follow
// the listing's order: Upcoming by where it places an event (upcomingAt,
// an event already under way on today), Activity by a log's end (its start
// while it runs), newest first. Today's group is drawn even when empty
// (hidden by the stylesheet until it has a row), so the capture lines have
// a list under Today to insert into.
//
// "Show more" fetches the listing's next page from the API, as on the
// other tabs, with the header headerDayGroups naming the tab and the last
// day drawn: the API answers the page's rows grouped the same way, the
// first group without a heading when it continues the day drawn last.

// headerDayGroups asks a listing's HTML fragment for rows grouped by day:
// "upcoming DATE" or "activity DATE", DATE the day drawn last.
const headerDayGroups = "X-Day-Groups"

// dayMode is how a tab groups its rows by day.
type dayMode string

const (
	daysUpcoming dayMode = "upcoming"
	daysActivity dayMode = "activity"
)

// dayModeOf is the day grouping of the tab named name, "" for none.
func dayModeOf(name string) dayMode {
	switch name {
	case "upcoming":
		return daysUpcoming
	case "activity":
		return daysActivity
	}
	return ""
}

// dayGroupsView is a tab's rows by day, or a later page of them.
type dayGroupsView struct {
	Mode   dayMode
	Groups []dayGroup
	More   *dayMore // the next page, if any
	Empty  string   // what the tab says when it has no row
}

// dayGroup is one local day's rows.
type dayGroup struct {
	Date    string // YYYY-MM-DD
	Label   string // "Today", "Tomorrow", "Mon 30 Nov"; "" continues the day drawn last
	Logged  *loggedText
	Capture bool          // today's list: the capture lines insert here
	Rows    template.HTML // placed (rowSlots.place)
}

// loggedText is a day's logged time on Activity.
type loggedText struct {
	Seconds int64
	Text    string
}

// dayMore is the "Show more" of a tab by day.
type dayMore struct {
	URL     string
	Headers string // the hx-headers JSON: headerDayGroups
}

// dayOf is the local date e is drawn under in mode, in loc, on the day that
// starts at today.
func dayOf(e *models.Event, mode dayMode, loc *time.Location, today time.Time) string {
	var at *time.Time
	if mode == daysActivity {
		at = e.EndedAt
		if at == nil {
			at = e.StartedAt
		}
	} else {
		at = upcomingAt(e)
		if at != nil && at.Before(today) {
			at = &today // under way: it is on today
		}
	}
	if at == nil {
		return today.In(loc).Format(time.DateOnly)
	}
	return at.In(loc).Format(time.DateOnly)
}

// dayLabel is a day's heading: Today, Tomorrow, Yesterday, else the
// weekday and date ("Mon 30 Nov"), with the year when it is not today's.
func dayLabel(date string, today time.Time, loc *time.Location) string {
	d, err := time.ParseInLocation(time.DateOnly, date, loc)
	if err != nil {
		return date
	}
	t := today.In(loc)
	switch date {
	case t.Format(time.DateOnly):
		return "Today"
	case models.DayStart(t, loc, 1).Format(time.DateOnly):
		return "Tomorrow"
	case models.DayStart(t, loc, -1).Format(time.DateOnly):
		return "Yesterday"
	}
	if d.Year() != t.Year() {
		return d.Format("Mon 2 Jan 2006")
	}
	return d.Format("Mon 2 Jan")
}

// groupByDay places events (in the listing's order) in s as groups by day.
// after is the day drawn last on the page ("" for a first page): a first
// group of that day has no heading. A first page always starts with
// today's group, empty or not. logged holds Activity's seconds per day.
func groupByDay(s *rowSlots, events []models.Event, mode dayMode, after string, logged map[string]int64,
	loc *time.Location, today, now time.Time) []dayGroup {
	todayDate := today.In(loc).Format(time.DateOnly)
	rows := make([]rowView, 0, len(events))
	var groups []dayGroup
	var from []int // where each group's rows start in rows
	open := func(date string) {
		g := dayGroup{Date: date}
		if date != after {
			g.Label = dayLabel(date, today, loc)
			g.Capture = date == todayDate
			if secs, ok := logged[date]; ok && mode == daysActivity && secs > 0 {
				g.Logged = &loggedText{Seconds: secs, Text: duration(secs)}
			}
		}
		groups = append(groups, g)
		from = append(from, len(rows))
	}
	if after == "" {
		open(todayDate)
	}
	for i := range events {
		date := dayOf(&events[i], mode, loc, today)
		if len(groups) == 0 || groups[len(groups)-1].Date != date {
			open(date)
		}
		rows = append(rows, listRow(&events[i], loc, today, now, ""))
	}
	for k := range groups {
		end := len(rows)
		if k+1 < len(groups) {
			end = from[k+1]
		}
		groups[k].Rows = s.place(rows[from[k]:end], "\n      ", "")
	}
	return groups
}

// dayGroups draws a page of the tab current's listing by day.
func (h *Handlers) dayGroups(c *fiber.Ctx, s *rowSlots, mode dayMode, items []models.Event, after, next string) (*dayGroupsView, error) {
	loc, today, now := h.svc.Location(), h.today(), h.svc.Now()
	var logged map[string]int64
	if mode == daysActivity {
		// the Activity listing's default window is the summary's
		sum, err := h.svc.Summary(c.UserContext(), nil, nil, loc)
		if err != nil {
			return nil, err
		}
		logged = make(map[string]int64, len(sum.Days))
		for _, d := range sum.Days {
			logged[d.Date] = d.LoggedSeconds
		}
	}
	v := &dayGroupsView{Mode: mode, Groups: groupByDay(s, items, mode, after, logged, loc, today, now)}
	if next != "" {
		last := after
		if n := len(v.Groups); n > 0 {
			last = v.Groups[n-1].Date
		}
		v.More = &dayMore{URL: next, Headers: `{"` + headerDayGroups + `":"` + string(mode) + " " + last + `"}`}
	}
	return v, nil
}

// dayGroupsAsked reads headerDayGroups: the mode and the day drawn last,
// or ok false when the request did not ask for days (or asked wrongly:
// then the rows come ungrouped, as before).
func dayGroupsAsked(c *fiber.Ctx) (mode dayMode, after string, ok bool) {
	c.Vary(headerDayGroups)
	m, day, found := strings.Cut(c.Get(headerDayGroups), " ")
	mode = dayModeOf(m)
	if !found || mode == "" {
		return "", "", false
	}
	if _, err := time.Parse(time.DateOnly, day); err != nil {
		return "", "", false
	}
	return mode, day, true
}

// sendDayList answers a later page of a tab by day (sendList), when the
// request asked for it.
func (h *Handlers) sendDayList(c *fiber.Ctx, page app.Page[models.Event], more string) (bool, error) {
	mode, after, ok := dayGroupsAsked(c)
	if !ok {
		return false, nil
	}
	var slots rowSlots
	v, err := h.dayGroups(c, &slots, mode, page.Items, after, more)
	if err != nil {
		return true, err
	}
	return true, h.render(c, &slots, "partials/day_group_list", v)
}

// sampleDays is a tab by day with every part present, rendered once at
// start (templates.go).
func sampleDays() *dayGroupsView {
	return &dayGroupsView{Mode: daysActivity, Empty: "e", More: &dayMore{URL: "/api/events/activity?cursor=x", Headers: `{"a":"b"}`},
		Groups: []dayGroup{{Date: "2026-11-22", Rows: "<li></li>\n"},
			{Date: "2026-11-21", Label: "Yesterday", Logged: &loggedText{Seconds: 60, Text: "1 min"}, Capture: true, Rows: "<li></li>\n"}}}
}
