// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"html/template"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/internal/i18n"
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
	Empty  string   // what the tab says when it has no row: an id of the catalogue
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

// dayLabel is a day's heading in lang: Today, Tomorrow, Yesterday, else
// the weekday and date ("Mon 30 Nov", "11월 30일 (월)"), with the year
// when it is not today's.
func dayLabel(lang *i18n.Lang, date string, today time.Time, loc *time.Location) string {
	d, err := time.ParseInLocation(time.DateOnly, date, loc)
	if err != nil {
		return date
	}
	t := today.In(loc)
	switch date {
	case t.Format(time.DateOnly):
		return lang.T("heading_today")
	case models.DayStart(t, loc, 1).Format(time.DateOnly):
		return lang.T("heading_tomorrow")
	case models.DayStart(t, loc, -1).Format(time.DateOnly):
		return lang.T("heading_yesterday")
	}
	return lang.Date(d, d.Year() != t.Year())
}

// groupByDay places events (in the listing's order) in s as groups by day.
// after is the day drawn last on the page ("" for a first page): a first
// group of that day has no heading. A first page always starts with
// today's group, empty or not. logged holds Activity's seconds per day.
// pieces are Activity's rows of the other days' pieces of logs across
// midnight, by local date (activityPieces): each day's come first in its
// group (they end at its midnight, or now), and a day that holds only
// such pieces gets a group of its own.
func groupByDay(lang *i18n.Lang, s *rowSlots, events []models.Event, mode dayMode, after string, logged map[string]int64,
	pieces map[string][]rowView, loc *time.Location, today, now time.Time) []dayGroup {
	todayDate := today.In(loc).Format(time.DateOnly)
	rows := make([]rowView, 0, len(events))
	var groups []dayGroup
	var from []int // where each group's rows start in rows
	open := func(date string) {
		g := dayGroup{Date: date}
		if date != after {
			g.Label = dayLabel(lang, date, today, loc)
			g.Capture = date == todayDate
			if secs, ok := logged[date]; ok && mode == daysActivity && secs > 0 {
				g.Logged = &loggedText{Seconds: secs, Text: lang.Duration(secs)}
			}
		}
		groups = append(groups, g)
		from = append(from, len(rows))
		rows = append(rows, pieces[date]...)
		delete(pieces, date)
	}
	// the days of pieces after date (newest first) that have no group yet
	openPiecesAfter := func(date string) {
		var days []string
		for d := range pieces {
			if d > date && (after == "" || d < after) {
				days = append(days, d)
			}
		}
		slices.Sort(days)
		for i := len(days) - 1; i >= 0; i-- {
			if len(groups) > 0 && groups[len(groups)-1].Date <= days[i] {
				continue // drawn with its day's group already
			}
			open(days[i])
		}
	}
	if after == "" {
		open(todayDate)
	}
	for i := range events {
		date := dayOf(&events[i], mode, loc, today)
		if len(groups) == 0 || groups[len(groups)-1].Date != date {
			openPiecesAfter(date)
			open(date)
		}
		r := listRow(&events[i], loc, today, now, "")
		if mode == daysActivity {
			r.Piece = pieceOn(&events[i], date, loc, now)
		}
		rows = append(rows, r)
	}
	openPiecesAfter("")
	for k := range groups {
		end := len(rows)
		if k+1 < len(groups) {
			end = from[k+1]
		}
		groups[k].Rows = s.place(rows[from[k]:end], "\n      ", "")
	}
	return groups
}

// pieceOn is the piece on the local date day of a log that crosses
// midnight (a running one up to now), nil for any other event.
func pieceOn(e *models.Event, day string, loc *time.Location, now time.Time) *models.DayPiece {
	if e.Kind != models.KindActivityLog || e.StartedAt == nil {
		return nil
	}
	end := now
	if e.EndedAt != nil {
		end = *e.EndedAt
	}
	ps := models.DayPieces(*e.StartedAt, end, loc)
	if len(ps) < 2 {
		return nil
	}
	for i := range ps {
		if ps[i].Date == day {
			return &ps[i]
		}
	}
	return nil
}

// activityPieces are the rows of the pieces of logs across midnight
// (crossing, newest end first) on the days of a page of Activity other
// than the day each log is listed on: from the day before after (today on
// a first page) down to low, the last day the page reaches.
func activityPieces(crossing []models.Event, after, low string, loc *time.Location, today, now time.Time) map[string][]rowView {
	out := map[string][]rowView{}
	for i := range crossing {
		e := &crossing[i]
		own := dayOf(e, daysActivity, loc, today)
		end := now
		if e.EndedAt != nil {
			end = *e.EndedAt
		}
		for _, p := range models.DayPieces(*e.StartedAt, end, loc) {
			if p.Date == own || p.Date < low || (after != "" && p.Date >= after) || (after == "" && p.Date > today.In(loc).Format(time.DateOnly)) {
				continue
			}
			r := listRow(e, loc, today, now, "")
			piece := p
			r.Piece, r.Extra = &piece, true
			out[p.Date] = append(out[p.Date], r)
		}
	}
	return out
}

// dayGroups draws a page of the tab current's listing by day.
func (h *Handlers) dayGroups(c *fiber.Ctx, s *rowSlots, mode dayMode, items []models.Event, after, next string) (*dayGroupsView, error) {
	loc, today, now := h.svc.Zone(), h.today(), h.svc.Now()
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
	var pieces map[string][]rowView
	if mode == daysActivity {
		// the days this page reaches: down to its last row's day, or to the
		// window's first day on the last page
		low := models.DayStart(now, loc, -6).Format(time.DateOnly)
		if next != "" && len(items) > 0 {
			low = dayOf(&items[len(items)-1], mode, loc, today)
		}
		first, _ := time.ParseInLocation(time.DateOnly, low, loc)
		crossing, err := h.svc.CrossingLogs(c.UserContext(), first, models.DayStart(now, loc, 1), loc)
		if err != nil {
			return nil, err
		}
		if err := h.markOverlaps(c, s, crossing); err != nil {
			return nil, err
		}
		pieces = activityPieces(crossing, after, low, loc, today, now)
	}
	v := &dayGroupsView{Mode: mode, Groups: groupByDay(langOf(c), s, items, mode, after, logged, pieces, loc, today, now)}
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
	if err := h.markOverlaps(c, &slots, page.Items); err != nil {
		return true, err
	}
	v, err := h.dayGroups(c, &slots, mode, page.Items, after, more)
	if err != nil {
		return true, err
	}
	return true, h.render(c, &slots, "partials/day_group_list", v)
}

// sampleDays is a tab by day with every part present, rendered once at
// start (templates.go).
func sampleDays() *dayGroupsView {
	return &dayGroupsView{Mode: daysActivity, Empty: "tab_empty_activity", More: &dayMore{URL: "/api/events/activity?cursor=x", Headers: `{"a":"b"}`},
		Groups: []dayGroup{{Date: "2026-11-22", Rows: "<li></li>\n"},
			{Date: "2026-11-21", Label: i18n.English.T("heading_yesterday"), Logged: &loggedText{Seconds: 60, Text: "1 min"}, Capture: true, Rows: "<li></li>\n"}}}
}
