// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"reflect"
	"testing"
	"time"

	"events/app"
	"events/models"
)

// TestNewReviewArrangesTheDays: the review's arithmetic, apart from its
// words. With the clock on the second of three days, a task due the day
// before is in that day's logbook (overdue), today's and tomorrow's tasks
// due and calendar entries are the plan and add up to the window's plan,
// a day ahead counts its calendar entries in its plan only, each day's
// bar follows the window's project order from 0, and the scale is the
// fullest day (at least an hour).
func TestNewReviewArrangesTheDays(t *testing.T) {
	work, home := "work", "home"
	from := time.Date(2026, 11, 22, 0, 0, 0, 0, seoul)
	now := time.Date(2026, 11, 23, 15, 0, 0, 0, seoul)
	sum := app.Summary{From: from, To: from.AddDate(0, 0, 3), TZ: "Asia/Seoul",
		Total: app.SummaryCounts{LoggedSeconds: 7300, Projects: []app.ProjectSeconds{{ProjectTag: &work, Seconds: 5000}, {ProjectTag: &home, Seconds: 2200}, {Seconds: 100}}},
		Days: []app.SummaryDay{
			{Date: "2026-11-22", SummaryCounts: app.SummaryCounts{LoggedSeconds: 5200, Logs: 2, CalendarEvents: 1,
				Projects: []app.ProjectSeconds{{ProjectTag: &work, Seconds: 5000}, {Seconds: 100}, {ProjectTag: &home, Seconds: 100}}}},
			{Date: "2026-11-23", SummaryCounts: app.SummaryCounts{LoggedSeconds: 2100, Logs: 1, TasksDue: 2, CalendarEvents: 1,
				Projects: []app.ProjectSeconds{{ProjectTag: &home, Seconds: 2100}}}},
			{Date: "2026-11-24", SummaryCounts: app.SummaryCounts{TasksDue: 1, CalendarEvents: 2}},
		}}
	task := models.Event{ID: 1, Kind: models.KindTask}
	cal := models.Event{ID: 2, Kind: models.KindCalendarEvent}
	log := models.Event{ID: 3, Kind: models.KindActivityLog}
	entries := []app.LogbookEntry{
		{Date: "2026-11-22", What: app.LogbookDue, Event: task},
		{Date: "2026-11-22", What: app.LogbookCalendar, Event: cal},
		{Date: "2026-11-22", What: app.LogbookLog, Event: log},
		{Date: "2026-11-23", What: app.LogbookDue, Event: task},
		{Date: "2026-11-23", What: app.LogbookLog, Event: log},
		{Date: "2026-11-24", What: app.LogbookCalendar, Event: cal},
	}
	r := app.NewReview(sum, entries, seoul, now)
	if r.Today != "2026-11-23" || r.AllAhead || r.Scale != 5200 || len(r.Days) != 3 {
		t.Fatalf("today %s, all ahead %v, scale %d, %d days", r.Today, r.AllAhead, r.Scale, len(r.Days))
	}
	if r.Plan == nil || r.Plan.TasksDue != 3 || r.Plan.CalendarEvents != 1 {
		t.Errorf("plan %+v, want 3 tasks due and 1 calendar entry (entries, not days)", r.Plan)
	}
	whats := func(es []app.LogbookEntry) (w []string) {
		for _, e := range es {
			w = append(w, e.What)
		}
		return w
	}
	for i, want := range []struct {
		today, ahead, later, empty bool
		entries, plan              []string
		calendar                   int64 // in Counts
		bar                        []app.BarPart
	}{
		{entries: []string{"due", "calendar", "log"}, calendar: 1,
			bar: []app.BarPart{{Rank: 0, X: 0, Seconds: 5000, Minutes: 83}, {Rank: 1, X: 5000, Seconds: 100, Minutes: 2}, {Rank: 2, X: 5100, Seconds: 100, Minutes: 2}}},
		{today: true, ahead: true, entries: []string{"log"}, plan: []string{"due"},
			bar: []app.BarPart{{Rank: 1, X: 0, Seconds: 2100, Minutes: 35}}},
		{ahead: true, later: true, plan: []string{"calendar"}},
	} {
		d := r.Days[i]
		if d.Today != want.today || d.Ahead != want.ahead || d.Later != want.later || d.Empty != want.empty ||
			!reflect.DeepEqual(whats(d.Entries), want.entries) || !reflect.DeepEqual(whats(d.Plan), want.plan) ||
			d.Counts.CalendarEvents != want.calendar || !reflect.DeepEqual(d.Bar, want.bar) {
			t.Errorf("%s: today %v ahead %v later %v empty %v, entries %v plan %v, calendar %d, bar %+v; want %+v",
				d.Date, d.Today, d.Ahead, d.Later, d.Empty, whats(d.Entries), whats(d.Plan), d.Counts.CalendarEvents, d.Bar, want)
		}
	}

	// a window wholly ahead: nothing can have been logged
	ahead := sum
	ahead.Days = sum.Days[2:]
	if r := app.NewReview(ahead, nil, seoul, now); !r.AllAhead || r.Plan == nil || r.Scale != 3600 || !r.Days[0].Empty {
		t.Errorf("a window ahead: all ahead %v, plan %v, scale %d, empty %v", r.AllAhead, r.Plan, r.Scale, r.Days[0].Empty)
	}
	// a window gone by has no plan
	if r := app.NewReview(sum, nil, seoul, now.AddDate(0, 0, 7)); r.Plan != nil || r.AllAhead {
		t.Errorf("a week later: plan %v, all ahead %v", r.Plan, r.AllAhead)
	}
}
