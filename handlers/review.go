// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/models"
)

// The summary of days (DESIGN.md, Summary): GET /api/events/summary, and
// the review page /events/review that draws it a week at a time with each
// day's logbook.

// summary: GET /api/events/summary?from&to&tz.
func (h *Handlers) summary(c *fiber.Ctx) error {
	values, err := queryValues(c)
	if err != nil {
		return err
	}
	from, to, loc, err := windowParams(values, h.svc.Location(), true)
	if err != nil {
		return err
	}
	sum, err := h.svc.Summary(c.UserContext(), from, to, loc)
	if err != nil {
		return err
	}
	return c.JSON(sum)
}

// windowParams reads from, to and (when api) tz, each at most once; the
// API takes RFC 3339 times, the page also dates (a local midnight) and
// offset-less times, read in loc.
func windowParams(values url.Values, loc *time.Location, api bool) (from, to *time.Time, zone *time.Location, err error) {
	zone = loc
	allowed := "from and to"
	if api {
		allowed = "from, to and tz"
	}
	for name, vs := range values {
		if name != "from" && name != "to" && (name != "tz" || !api) {
			return nil, nil, nil, models.BadRequest(name, models.CodeUnknownField, "is not a parameter here (it takes %s)", allowed)
		}
		if len(vs) > 1 {
			return nil, nil, nil, models.BadRequest(name, models.CodeRepeated, "appears more than once")
		}
	}
	if values.Has("tz") {
		if zone, err = models.LoadZone(values.Get("tz")); err != nil {
			return nil, nil, nil, models.BadRequest("tz", models.CodeBadFormat, "%s", err)
		}
	}
	var read *time.Location // the API: RFC 3339 only
	if !api {
		read = zone
	}
	for _, p := range []struct {
		name string
		dst  **time.Time
	}{{"from", &from}, {"to", &to}} {
		if !values.Has(p.name) {
			continue
		}
		v := values.Get(p.name)
		t, code, msg := models.ParseTime(v, read)
		if msg != "" {
			if strings.Contains(v, " ") {
				msg += " (a + in a query must be sent as %2B, e.g. with curl -G --data-urlencode)"
			}
			return nil, nil, nil, models.BadRequest(p.name, code, "%s", msg)
		}
		*p.dst = &t
	}
	return from, to, zone, nil
}

// reviewPage: GET /events/review, a week at a time (this local week, Monday
// first, by default), or the whole local days of ?from&to.
func (h *Handlers) reviewPage(c *fiber.Ctx) error {
	values, err := queryValues(c)
	if err != nil {
		return err
	}
	loc, now := h.svc.Location(), h.svc.Now()
	from, to, _, err := windowParams(values, loc, false)
	if err != nil {
		return err
	}
	thisWeek := weekStart(now, loc)
	if from == nil && to == nil {
		end := models.DayStart(thisWeek, loc, 7)
		from, to = &thisWeek, &end
	}
	sum, err := h.svc.Summary(c.UserContext(), from, to, loc)
	if err != nil {
		return err
	}
	entries, more, err := h.svc.Logbook(c.UserContext(), sum.From, sum.To, loc)
	if err != nil {
		return err
	}
	view := newReview(sum, entries, loc, now)
	view.More = more
	view.chrome = h.chrome(c, "Review: "+view.Range)
	view.Nav = "review"
	if !sum.From.Equal(thisWeek) || len(sum.Days) != 7 {
		view.ThisWeek = reviewLink(thisWeek, models.DayStart(thisWeek, loc, 7), loc)
	}
	return c.Render("pages/review", view)
}

// weekStart is the start of the local Monday of now's week.
func weekStart(now time.Time, loc *time.Location) time.Time {
	back := (int(now.In(loc).Weekday()) + 6) % 7 // days since Monday
	return models.DayStart(now, loc, -back)
}

// reviewLink is the review page of the local days [from, to): to is the
// day after the last one shown, as in the API.
func reviewLink(from, to time.Time, loc *time.Location) string {
	return "/events/review?from=" + from.In(loc).Format(time.DateOnly) + "&to=" + to.In(loc).Format(time.DateOnly)
}

// exportLink is the export of the window (GET /api/events/export) in
// format.
func exportLink(from, to time.Time, format string) string {
	return "/api/events/export?from=" + url.QueryEscape(models.FormatTime(from)) +
		"&to=" + url.QueryEscape(models.FormatTime(to)) + "&format=" + format
}

// reviewPage is the view model of /events/review.
type reviewPage struct {
	chrome
	Range      string // the window's dates in words
	Prev, Next string // the windows of the same length before and after
	ThisWeek   string // this week's page, when another window is shown
	Export     string // the window's CSV export
	NDJSON     string // the window's NDJSON export
	Logged     string // the window's logged time in words
	Counts     string // the window's counts in words
	Plan       string // the plan of the window's days from today on, in words; "" when all are past
	AllAhead   bool   // every day is after today: nothing can have been logged yet
	Projects   []reviewProject
	Days       []reviewDay
	Scale      int64 // seconds that fill a bar: the fullest day of the window, at least an hour
	More       bool  // the logbook was cut at app.MaxLogbookEntries
	MaxEntries int
}

// reviewProject is one project's time: in the legend and totals, or in a
// day's text.
type reviewProject struct {
	Name    string // the tag, or "no project"
	None    bool   // logs without a project tag
	Class   string // its colour: proj0 .. proj7, proj-none, or proj-other past the eighth project
	Seconds int64
	Text    string // "3 h 10 min"
}

// reviewSegment is one project's part of a day's bar, in seconds.
type reviewSegment struct {
	Class    string
	X, Width int64
	Title    string
}

// reviewDay is one local day of the window.
type reviewDay struct {
	Date     string // YYYY-MM-DD
	Label    string // "Mon 16 Nov"
	Today    bool
	Logged   int64
	Text     string // the logged time in words
	Counts   string // the day's counts in words
	Segments []reviewSegment
	Projects []reviewProject
	Entries  []reviewEntry
	// Ahead: today or a day after it. Such a day's tasks due and calendar
	// entries are its Plan, apart from what was logged and done.
	Ahead    bool
	Later    bool // a day after today: no "no time logged" when empty
	Plan     []reviewEntry
	PlanText string // the plan in words: "2 tasks due · 1 calendar entry"
	Empty    bool   // nothing logged, done, planned or cancelled
}

// reviewEntry is one line of a day's logbook.
type reviewEntry struct {
	What  string // Done, Log, Calendar, Cancelled
	Class string // the entry kind, for its mark
	ID    int64
	Title string
	When  localTime
	Span  string // its duration in words, for logs
	Tag   string
}

// paletteSize is the number of colours the bars tell apart; projects past
// it share the "other" colour (their own text stays).
const paletteSize = 8

func newReview(sum app.Summary, entries []app.LogbookEntry, loc *time.Location, now time.Time) reviewPage {
	from, to := sum.From.In(loc), sum.To.In(loc)
	n := len(sum.Days)
	v := reviewPage{
		Range:      dateRange(from, to.AddDate(0, 0, -1)),
		Prev:       reviewLink(models.DayStart(from, loc, -n), from, loc),
		Next:       reviewLink(to, models.DayStart(to, loc, n), loc),
		Export:     exportLink(sum.From, sum.To, "csv"),
		NDJSON:     exportLink(sum.From, sum.To, "ndjson"),
		Logged:     duration(sum.Total.LoggedSeconds),
		Counts:     counts(sum.Total),
		MaxEntries: app.MaxLogbookEntries,
	}
	classes := map[string]string{}
	for i, p := range sum.Total.Projects {
		rp := project(p, i)
		classes[rp.Name] = rp.Class
		v.Projects = append(v.Projects, rp)
	}
	today := now.In(loc).Format(time.DateOnly)
	byDay, planned := map[string][]reviewEntry{}, map[string][]reviewEntry{}
	for _, e := range entries {
		ahead := e.Date >= today
		if ahead && (e.What == app.LogbookDue || e.What == app.LogbookCalendar) {
			planned[e.Date] = append(planned[e.Date], entry(e, ahead, loc, now))
		} else {
			byDay[e.Date] = append(byDay[e.Date], entry(e, ahead, loc, now))
		}
	}
	var plan app.SummaryCounts // the plan of the days from today on
	anyAhead := false
	v.Scale = 3600
	for _, d := range sum.Days {
		var s int64
		for _, p := range d.Projects {
			s += p.Seconds
		}
		v.Scale = max(v.Scale, s)
	}
	for _, d := range sum.Days {
		date, _ := time.ParseInLocation(time.DateOnly, d.Date, loc)
		day := reviewDay{Date: d.Date, Label: date.Format("Mon 2 Jan"), Today: d.Date == today,
			Logged: d.LoggedSeconds, Text: duration(d.LoggedSeconds), Counts: counts(d.SummaryCounts),
			Entries: byDay[d.Date], Ahead: d.Date >= today, Plan: planned[d.Date]}
		if day.Ahead {
			anyAhead = true
			plan.TasksDue += d.TasksDue
			plan.CalendarEvents += d.CalendarEvents
			day.PlanText = planText(d.SummaryCounts)
			day.Later = d.Date > today
			c := d.SummaryCounts
			c.CalendarEvents = 0 // in the plan
			day.Counts = counts(c)
		}
		// the bar's parts in the order of the window's totals, so a project
		// sits at the same place in every day's bar
		for _, tp := range v.Projects {
			for _, p := range d.Projects {
				if name(p) != tp.Name {
					continue
				}
				rp := reviewProject{Name: tp.Name, None: tp.None, Class: classes[tp.Name], Seconds: p.Seconds, Text: duration(p.Seconds)}
				day.Projects = append(day.Projects, rp)
				var x int64
				if k := len(day.Segments); k > 0 {
					x = day.Segments[k-1].X + day.Segments[k-1].Width
				}
				day.Segments = append(day.Segments, reviewSegment{Class: rp.Class, X: x, Width: p.Seconds, Title: rp.Name + ": " + rp.Text})
			}
		}
		day.Empty = len(day.Entries) == 0 && len(day.Plan) == 0 && d.LoggedSeconds == 0
		v.Days = append(v.Days, day)
	}
	if anyAhead {
		v.Plan = planText(plan)
	}
	if len(v.Days) > 0 && v.Days[0].Later { // all ahead: the plan says it
		v.Counts = ""
		v.AllAhead = true
	}
	return v
}

// planText is a plan in words: "2 tasks due · 1 calendar entry", or
// "nothing planned". A calendar entry across midnight is in each day's.
func planText(c app.SummaryCounts) string {
	var parts []string
	for _, p := range []struct {
		n         int64
		one, many string
	}{
		{c.TasksDue, "task due", "tasks due"},
		{c.CalendarEvents, "calendar entry", "calendar entries"},
	} {
		switch {
		case p.n == 1:
			parts = append(parts, "1 "+p.one)
		case p.n > 1:
			parts = append(parts, strconv.FormatInt(p.n, 10)+" "+p.many)
		}
	}
	if len(parts) == 0 {
		return "nothing planned"
	}
	return strings.Join(parts, " · ")
}

func name(p app.ProjectSeconds) string {
	if p.ProjectTag == nil {
		return "no project"
	}
	return shown(*p.ProjectTag)
}

// project is the window's project at rank i (seconds descending).
func project(p app.ProjectSeconds, i int) reviewProject {
	rp := reviewProject{Name: name(p), None: p.ProjectTag == nil, Seconds: p.Seconds, Text: duration(p.Seconds)}
	switch {
	case rp.None:
		rp.Class = "proj-none"
	case i < paletteSize:
		rp.Class = "proj" + strconv.Itoa(i)
	default:
		rp.Class = "proj-other"
	}
	return rp
}

// entry is one line of a day's logbook or plan; ahead tells a day from
// today on (a task due on a day gone by is overdue).
func entry(e app.LogbookEntry, ahead bool, loc *time.Location, now time.Time) reviewEntry {
	ev := e.Event
	r := reviewEntry{Class: e.What, ID: ev.ID, Title: shown(ev.Title)}
	if r.Title == "" {
		r.Title = "Untitled " + kindNames[ev.Kind]
	}
	if ev.ProjectTag != nil {
		r.Tag = shown(*ev.ProjectTag)
	}
	at := e.At.In(loc)
	r.When = localTime{Text: at.Format(clockLayout), Attr: models.FormatTime(e.At)}
	switch e.What {
	case app.LogbookCompleted:
		r.What = "Done"
	case app.LogbookCancelled:
		r.What = "Cancelled"
		if ev.Kind == models.KindActivityLog { // listed on the day it was logged for, with its span
			logWhen(&r, &ev, e.Date, loc, now)
		}
	case app.LogbookDue:
		r.What = "Due"
		if !ahead {
			r.What = "Overdue"
		}
		if models.DueDayOnly(*ev.DueAt, loc) {
			r.When.Text = "any time"
		}
	case app.LogbookCalendar:
		r.What = "Calendar"
		if ev.AllDay {
			r.When.Text = "all day"
		} else if ev.StartAt != nil {
			r.When = localTime{Text: ev.StartAt.In(loc).Format(clockLayout), Attr: models.FormatTime(*ev.StartAt)}
			if ev.EndAt != nil && ev.EndAt.After(*ev.StartAt) {
				r.When.Text += "–" + until(*ev.StartAt, *ev.EndAt, loc)
			}
		}
	case app.LogbookLog:
		r.What = "Log"
		logWhen(&r, &ev, e.Date, loc, now)
	}
	return r
}

// logWhen sets a log's entry's time, span and length on the local date day.
func logWhen(r *reviewEntry, ev *models.Event, day string, loc *time.Location, now time.Time) {
	start := ev.StartedAt
	if start == nil {
		start = ev.EndedAt
	}
	if start != nil {
		r.When = localTime{Text: onDay(*start, day, loc), Attr: models.FormatTime(*start)}
	}
	if ev.Running() && start != nil {
		r.When.Text += "–now"
		r.Span = durationText(now.Sub(*start)) + " so far"
	} else if d, ok := logLength(ev); ok {
		r.When.Text += "–" + onDay(*ev.EndedAt, day, loc)
		r.Span = durationText(d) // as its row on Today says it
	}
}

// onDay is t's clock time, with its weekday when t is not on the local
// date day (a log across midnight: "Fri 23:30" on Saturday).
func onDay(t time.Time, day string, loc *time.Location) string {
	l := t.In(loc)
	if l.Format(time.DateOnly) == day {
		return l.Format(clockLayout)
	}
	return l.Format("Mon " + clockLayout)
}

// duration is a total of seconds in words, as a row gives a log's length
// (durationText: "3 h 10 min", "45 min", "under 1 min"), and "0 min" when
// nothing was logged.
func duration(seconds int64) string {
	if seconds <= 0 {
		return "0 min"
	}
	return durationText(time.Duration(seconds) * time.Second)
}

// counts says what a day or the window holds besides its time.
func counts(c app.SummaryCounts) string {
	var parts []string
	for _, p := range []struct {
		n         int64
		one, many string
	}{
		{c.Logs, "log", "logs"},
		{c.TasksCompleted, "task done", "tasks done"},
		{c.CalendarEvents, "calendar entry", "calendar entries"},
		{c.Cancelled, "cancelled", "cancelled"},
	} {
		switch {
		case p.n == 1:
			parts = append(parts, "1 "+p.one)
		case p.n > 1:
			parts = append(parts, strconv.FormatInt(p.n, 10)+" "+p.many)
		}
	}
	return strings.Join(parts, " · ")
}

// dateRange is the dates first..last in words: "16 – 22 Nov 2026",
// "30 Nov – 6 Dec 2026", "29 Dec 2026 – 4 Jan 2027", or one date.
func dateRange(first, last time.Time) string {
	switch {
	case first.Format(time.DateOnly) == last.Format(time.DateOnly):
		return first.Format("Mon 2 Jan 2006")
	case first.Year() != last.Year():
		return first.Format("2 Jan 2006") + " – " + last.Format("2 Jan 2006")
	case first.Month() != last.Month():
		return first.Format("2 Jan") + " – " + last.Format("2 Jan 2006")
	}
	return first.Format("2") + " – " + last.Format("2 Jan 2006")
}

// sampleReview is a review page with every part present, rendered once at
// start (templates.go).
func sampleReview(page chrome, loc *time.Location) reviewPage {
	now := time.Date(2026, 11, 23, 3, 0, 0, 0, time.UTC)
	tag := "work"
	sum := app.Summary{From: now, To: now.AddDate(0, 0, 1), TZ: loc.String(),
		Days: []app.SummaryDay{{Date: now.In(loc).Format(time.DateOnly), SummaryCounts: app.SummaryCounts{LoggedSeconds: 60,
			Projects: []app.ProjectSeconds{{ProjectTag: &tag, Seconds: 60}}, Logs: 1}}}}
	sum.Total = sum.Days[0].SummaryCounts
	e := models.Event{ID: 1, Kind: models.KindActivityLog, Status: models.StatusDone, StartedAt: &now, EndedAt: &now, ProjectTag: &tag}
	task := models.Event{ID: 2, Kind: models.KindTask, Status: models.StatusPlanned, Title: "t", DueAt: &now}
	v := newReview(sum, []app.LogbookEntry{{Date: sum.Days[0].Date, What: app.LogbookLog, At: now, Event: e},
		{Date: sum.Days[0].Date, What: app.LogbookDue, At: now, Event: task}}, loc, now) // today: a plan too
	v.chrome, v.ThisWeek, v.More = page, "/events/review", true
	return v
}
