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
	"events/internal/i18n"
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
	from, to, loc, err := windowParams(values, h.svc.Zone(), true)
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
	loc, now := h.svc.Zone(), h.svc.Now()
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
	view := newReview(h.lang(c), sum, entries, loc, now)
	view.More = more
	view.chrome = h.chrome(c, h.lang(c).T("review_page_title", "Range", view.Range))
	view.Nav = "review"
	if !sum.From.Equal(thisWeek) || len(sum.Days) != 7 {
		view.ThisWeek = reviewLink(thisWeek, models.DayStart(thisWeek, loc, 7), loc)
	}
	return h.page(c, "pages/review", view)
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
	Labels     []reviewLabel // each label's time: a union within the label; they overlap
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

// reviewLabel is one label's time (a union within the label, like timew
// summary per tag), linked to the label's listing.
type reviewLabel struct {
	Name, Href string
	Seconds    int64
	Text       string
}

func reviewLabels(ls []app.LabelSeconds) []reviewLabel {
	out := make([]reviewLabel, len(ls))
	for i, l := range ls {
		out[i] = reviewLabel{Name: l.Label, Href: string(appendListingHref(nil, "label", l.Label)), Seconds: l.Seconds, Text: duration(l.Seconds)}
	}
	return out
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
	Labels   []reviewLabel
	Entries  []reviewEntry
	// Ahead: today or a day after it. Such a day's tasks due and calendar
	// entries are its Plan, apart from what was logged and done.
	Ahead    bool
	Later    bool // a day after today: no "no time logged" when empty
	Plan     []reviewEntry
	PlanText string // the plan in words: "2 tasks due · 1 calendar entry"
	Empty    bool   // nothing logged, done, planned or cancelled
	l        *i18n.Lang
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

// newReview draws a window's review (app.NewReview) in words and colours.
func newReview(l *i18n.Lang, sum app.Summary, entries []app.LogbookEntry, loc *time.Location, now time.Time) reviewPage {
	r := app.NewReview(sum, entries, loc, now)
	from, to := sum.From.In(loc), sum.To.In(loc)
	n := len(sum.Days)
	v := reviewPage{
		Range:      dateRangeIn(l, from, to.AddDate(0, 0, -1)),
		Prev:       reviewLink(models.DayStart(from, loc, -n), from, loc),
		Next:       reviewLink(to, models.DayStart(to, loc, n), loc),
		Export:     exportLink(sum.From, sum.To, "csv"),
		NDJSON:     exportLink(sum.From, sum.To, "ndjson"),
		Logged:     shownDuration(l, r.Minutes, sum.Total.LoggedSeconds),
		Counts:     counts(l, sum.Total),
		Scale:      r.Scale,
		AllAhead:   r.AllAhead,
		MaxEntries: app.MaxLogbookEntries,
	}
	for i, p := range sum.Total.Projects {
		v.Projects = append(v.Projects, project(l, p, i, r.ProjectMinutes[i]))
	}
	v.Labels = reviewLabels(sum.Total.Labels)
	if r.Plan != nil {
		v.Plan = planText(l, *r.Plan)
	}
	if r.AllAhead { // the plan says it
		v.Counts = ""
	}
	for _, d := range r.Days {
		v.Days = append(v.Days, v.day(l, d, loc, now))
	}
	return v
}

// day draws one day of the review; v.Projects are the window's.
func (v *reviewPage) day(l *i18n.Lang, d app.ReviewDay, loc *time.Location, now time.Time) reviewDay {
	date, _ := time.ParseInLocation(time.DateOnly, d.Date, loc)
	day := reviewDay{Date: d.Date, Label: l.Date(date, false), Today: d.Today,
		Logged: d.LoggedSeconds, Text: shownDuration(l, d.Minutes, d.LoggedSeconds), Counts: counts(l, d.Counts),
		Ahead: d.Ahead, Later: d.Later, Empty: d.Empty, l: l, Labels: reviewLabels(d.Labels)}
	if d.Ahead {
		day.PlanText = planText(l, d.SummaryCounts)
	}
	for _, e := range d.Entries {
		day.Entries = append(day.Entries, entryIn(l, e, d.Ahead, loc, now))
	}
	for _, e := range d.Plan {
		day.Plan = append(day.Plan, entryIn(l, e, d.Ahead, loc, now))
	}
	for _, p := range d.Bar {
		tp := v.Projects[p.Rank]
		rp := reviewProject{Name: tp.Name, None: tp.None, Class: tp.Class, Seconds: p.Seconds, Text: shownDuration(l, p.Minutes, p.Seconds)}
		day.Projects = append(day.Projects, rp)
		day.Segments = append(day.Segments, reviewSegment{Class: rp.Class, X: p.X, Width: p.Seconds, Title: rp.Name + ": " + rp.Text})
	}
	return day
}

// planText is a plan in words: "2 tasks due · 1 calendar entry", or
// "nothing planned". A calendar entry across midnight is in each day's.
func planText(l *i18n.Lang, c app.SummaryCounts) string {
	if s := countWords(l, []counted{
		{c.TasksDue, "count_tasks_due"},
		{c.CalendarEvents, "count_calendar_entries"},
	}); s != "" {
		return s
	}
	return l.T("review_nothing_planned_lower")
}

// counts says what a day or the window holds besides its time.
func counts(l *i18n.Lang, c app.SummaryCounts) string {
	return countWords(l, []counted{
		{c.Logs, "count_logs"},
		{c.TasksCompleted, "count_tasks_done"},
		{c.CalendarEvents, "count_calendar_entries"},
		{c.Cancelled, "count_cancelled"},
	})
}

// counted is a number of things and the id of their words, a plural
// message of the catalogue ("1 log", "2 logs"; Korean "기록 2개").
type counted struct {
	n  int64
	id string
}

// countWords says the numbers that are not 0: "2 logs · 1 task done".
func countWords(l *i18n.Lang, cs []counted) string {
	var parts []string
	for _, p := range cs {
		if p.n > 0 {
			parts = append(parts, l.T(p.id, "Count", p.n))
		}
	}
	return strings.Join(parts, " · ")
}

func name(l *i18n.Lang, p app.ProjectSeconds) string {
	if p.ProjectTag == nil {
		return l.T("review_no_project")
	}
	return shown(*p.ProjectTag)
}

// project is the window's project at rank i (seconds descending).
func project(l *i18n.Lang, p app.ProjectSeconds, i int, minutes int64) reviewProject {
	rp := reviewProject{Name: name(l, p), None: p.ProjectTag == nil, Seconds: p.Seconds, Text: shownDuration(l, minutes, p.Seconds)}
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
	return entryIn(i18n.English, e, ahead, loc, now)
}

// entryIn is entry in the language l.
func entryIn(l *i18n.Lang, e app.LogbookEntry, ahead bool, loc *time.Location, now time.Time) reviewEntry {
	ev := e.Event
	r := reviewEntry{Class: e.What, ID: ev.ID, Title: shown(ev.Title)}
	if r.Title == "" {
		r.Title = l.T("untitled_kind", "Kind", l.T("kind_name_"+string(ev.Kind)))
	}
	if ev.ProjectTag != nil {
		r.Tag = shown(*ev.ProjectTag)
	}
	at := e.At.In(loc)
	r.When = localTime{Text: at.Format(clockLayout), Attr: models.FormatTime(e.At)}
	switch e.What {
	case app.LogbookCompleted:
		r.What = l.T("entry_done")
	case app.LogbookCancelled:
		r.What = l.T("entry_cancelled")
		if ev.Kind == models.KindActivityLog { // listed on the day it was logged for, with its span
			logWhen(l, &r, &ev, e.Date, loc, now)
		}
	case app.LogbookDue:
		r.What = l.T("entry_due")
		if !ahead {
			r.What = l.T("entry_overdue")
		}
		if models.DueDayOnly(*ev.DueAt, loc) {
			r.When.Text = l.T("entry_any_time")
		}
	case app.LogbookCalendar:
		r.What = l.T("kind_label_calendar_event")
		if ev.AllDay {
			r.When.Text = l.T("entry_all_day")
		} else if ev.StartAt != nil {
			r.When = localTime{Text: ev.StartAt.In(loc).Format(clockLayout), Attr: models.FormatTime(*ev.StartAt)}
			if ev.EndAt != nil && ev.EndAt.After(*ev.StartAt) {
				r.When.Text += "–" + until(*ev.StartAt, *ev.EndAt, loc)
			}
		}
	case app.LogbookLog:
		r.What = l.T("kind_label_activity_log")
		logWhen(l, &r, &ev, e.Date, loc, now)
	}
	return r
}

// logWhen sets a log's entry's time, span and length on the local date day.
func logWhen(l *i18n.Lang, r *reviewEntry, ev *models.Event, day string, loc *time.Location, now time.Time) {
	start := ev.StartedAt
	if start == nil {
		start = ev.EndedAt
	}
	if start != nil {
		r.When = localTime{Text: onDay(l, *start, day, loc), Attr: models.FormatTime(*start)}
	}
	if ev.Running() && start != nil {
		r.When.Text += "–" + l.T("entry_now")
		r.Span = l.T("entry_so_far", "Time", l.Duration(models.Seconds(*start, now)))
		if piece, ok := dayPiece(*start, now, day, loc); ok {
			r.Span = l.T("entry_piece_of", "Piece", l.Duration(piece), "Whole", r.Span)
		}
	} else if d, ok := logLength(ev); ok {
		r.When.Text += "–" + onDay(l, *ev.EndedAt, day, loc)
		r.Span = l.Duration(d) // as its row on Today says it
		if piece, ok := dayPiece(*start, *ev.EndedAt, day, loc); ok {
			r.Span = l.T("entry_piece_of", "Piece", l.Duration(piece), "Whole", r.Span)
		}
	}
}

// dayPiece is the seconds of [start, end) inside the local date day, and
// whether that is only a piece of it (the span crosses a midnight of the
// zone): the day shows and counts its own piece (DESIGN.md, Summary, Days).
func dayPiece(start, end time.Time, day string, loc *time.Location) (int64, bool) {
	for _, p := range models.DayPieces(start, end, loc) {
		if p.Date == day && (!p.Start.Equal(start) || !p.End.Equal(end)) {
			return models.Seconds(p.Start, p.End), true
		}
	}
	return 0, false
}

// onDay is t's clock time, with its weekday when t is not on the local
// date day (a log across midnight: "Fri 23:30" on Saturday).
func onDay(lang *i18n.Lang, t time.Time, day string, loc *time.Location) string {
	l := t.In(loc)
	if l.Format(time.DateOnly) == day {
		return l.Format(clockLayout)
	}
	return lang.T("weekday_"+strings.ToLower(l.Weekday().String()[:3])) + " " + l.Format(clockLayout)
}

// shownDuration is a total or a part as shown (DESIGN.md, Summary, Shown
// minutes) in words, as a row gives a log's length: "3 h 10 min",
// "45 min"; "under 1 min" for a few seconds that round to none, "0 min"
// when nothing was logged.
func shownDuration(l *i18n.Lang, minutes, seconds int64) string {
	switch {
	case minutes > 0:
		return l.Duration(minutes * 60)
	case seconds > 0:
		return l.T("duration_under_minute")
	}
	return l.T("duration_zero")
}

// duration is a total of seconds in words, as a row gives a log's length
// (durationText: "3 h 10 min", "45 min", "under 1 min"), and "0 min" when
// nothing was logged.
func duration(seconds int64) string {
	if seconds <= 0 {
		return "0 min"
	}
	return durationText(seconds)
}

// dateRange is the dates first..last in words: "16 – 22 Nov 2026",
// "30 Nov – 6 Dec 2026", "29 Dec 2026 – 4 Jan 2027", or one date.
func dateRange(first, last time.Time) string { return dateRangeIn(i18n.English, first, last) }

// dateRangeIn is dateRange in l: Korean writes "2026년 11월 16일 – 22일",
// "11월 30일 – 12월 6일".
func dateRangeIn(l *i18n.Lang, first, last time.Time) string {
	if l == i18n.Korean {
		switch {
		case first.Format(time.DateOnly) == last.Format(time.DateOnly):
			return l.Date(first, true)
		case first.Year() != last.Year():
			return first.Format("2006년 1월 2일") + " – " + last.Format("2006년 1월 2일")
		case first.Month() != last.Month():
			return first.Format("2006년 1월 2일") + " – " + last.Format("1월 2일")
		}
		return first.Format("2006년 1월 2일") + " – " + last.Format("2일")
	}
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
	v := newReview(i18n.English, sum, []app.LogbookEntry{{Date: sum.Days[0].Date, What: app.LogbookLog, At: now, Event: e},
		{Date: sum.Days[0].Date, What: app.LogbookDue, At: now, Event: task}}, loc, now) // today: a plan too
	v.chrome, v.ThisWeek, v.More = page, "/events/review", true
	return v
}
