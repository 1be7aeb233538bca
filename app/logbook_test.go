// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"events/app"
	"events/models"
)

// The logbook lists, day by day, the events the summary counts: the same
// constructed days as TestSummaryOfConstructedDays, each day's entries by
// title, and per day as many of each kind as the summary's counts.
func TestLogbookAgreesWithTheSummary(t *testing.T) {
	s, _, clk := newService(t, ts("2026-11-20T00:00:00Z"))
	create(t, s, `{"kind":"activity_log","title":"M","started_at":"2026-11-19T09:00:00+09:00","ended_at":"2026-11-19T10:00:00+09:00"}`)
	clk.Set(ts("2026-11-21T10:00:00+09:00"))
	x := create(t, s, `{"kind":"task","title":"dropped"}`)
	mustOperate(t, s, x.ID, models.OpCancel, "")
	create(t, s, `{"kind":"calendar_event","title":"J","start_at":"2026-11-21T23:30:00+09:00","end_at":"2026-11-22T00:30:00+09:00"}`)
	create(t, s, `{"kind":"activity_log","title":"A","started_at":"2026-11-21T23:00:00+09:00","ended_at":"2026-11-22T01:00:00+09:00","project_tag":"work"}`)
	create(t, s, `{"kind":"activity_log","title":"B","started_at":"2026-11-22T09:00:00+09:00","ended_at":"2026-11-22T10:00:00+09:00"}`)
	create(t, s, `{"kind":"activity_log","title":"E","started_at":"2026-11-22T15:00:00+09:00","ended_at":"2026-11-22T15:00:00+09:00"}`)
	d := create(t, s, `{"kind":"activity_log","title":"D","started_at":"2026-11-22T12:00:00+09:00","ended_at":"2026-11-22T13:00:00+09:00"}`)
	clk.Set(ts("2026-11-22T13:05:00+09:00"))
	mustOperate(t, s, d.ID, models.OpCancel, "")
	g := create(t, s, `{"kind":"task","title":"G"}`)
	clk.Set(ts("2026-11-22T18:00:00+09:00"))
	mustOperate(t, s, g.ID, models.OpComplete, "")
	create(t, s, `{"kind":"task","title":"I","status":"done"}`) // done without completed_at: in no day
	clk.Set(ts("2026-11-23T09:00:00+09:00"))
	h := create(t, s, `{"kind":"task","title":"H"}`)
	mustOperate(t, s, h.ID, models.OpComplete, "")
	mustOperate(t, s, h.ID, models.OpReactivate, "") // undone: not in the logbook
	create(t, s, `{"kind":"calendar_event","title":"L","all_day":true,"start_at":"2026-11-23T00:00:00+09:00"}`)
	create(t, s, `{"kind":"activity_log","title":"F","status":"in_progress","started_at":"2026-11-23T13:00:00+09:00"}`)
	create(t, s, `{"kind":"activity_log","title":"later","status":"in_progress","started_at":"2026-11-23T16:00:00+09:00"}`) // starts after now: a point
	clk.Set(ts("2026-11-23T14:30:00+09:00"))

	from, to := ts("2026-11-20T00:00:00+09:00"), ts("2026-11-24T00:00:00+09:00")
	sum, err := s.Summary(context.Background(), &from, &to, seoul)
	if err != nil {
		t.Fatal(err)
	}
	entries, more, err := s.Logbook(context.Background(), sum.From, sum.To, seoul)
	if err != nil || more {
		t.Fatalf("logbook: %v, more %v", err, more)
	}
	got := map[string][]string{}
	for _, e := range entries {
		got[e.Date] = append(got[e.Date], e.What+":"+e.Event.Title)
		if e.Event.ID == 0 {
			t.Errorf("an entry without its event: %+v", e)
		}
	}
	want := map[string][]string{
		"2026-11-21": {"cancelled:dropped", "log:A", "calendar:J"},
		"2026-11-22": {"calendar:J", "log:A", "log:B", "cancelled:D", "log:E", "completed:G"},
		"2026-11-23": {"calendar:L", "log:F", "log:later"},
	}
	for day, w := range want {
		if !slices.Equal(got[day], w) {
			t.Errorf("%s: %q, want %q (in time order)", day, got[day], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("days with entries: %v", got)
	}
	for _, d := range sum.Days {
		n := map[string]int64{}
		for _, e := range got[d.Date] {
			n[strings.SplitN(e, ":", 2)[0]]++
		}
		if n[app.LogbookLog] != d.Logs || n[app.LogbookCompleted] != d.TasksCompleted || n[app.LogbookCalendar] != d.CalendarEvents || n[app.LogbookCancelled] != d.Cancelled {
			t.Errorf("%s: logbook %v, summary %+v", d.Date, n, d.SummaryCounts)
		}
	}
}

// A cancelled log is listed on the day it was logged for, while its
// cancellation is counted on the day it happened; a task due on a day still
// ahead is in that day's plan.
func TestLogbookListsACancelledLogOnItsDay(t *testing.T) {
	s, _, clk := newService(t, ts("2026-11-20T12:00:00+09:00"))
	f := create(t, s, `{"kind":"activity_log","title":"F","started_at":"2026-11-20T09:00:00+09:00","ended_at":"2026-11-20T10:00:00+09:00"}`)
	clk.Set(ts("2026-11-23T11:00:00+09:00"))
	mustOperate(t, s, f.ID, models.OpCancel, "")
	create(t, s, `{"kind":"task","title":"T","due_at":"2026-11-24T15:00:00+09:00"}`)
	from, to := ts("2026-11-20T00:00:00+09:00"), ts("2026-11-25T00:00:00+09:00")
	sum, err := s.Summary(context.Background(), &from, &to, seoul)
	if err != nil {
		t.Fatal(err)
	}
	entries, _, err := s.Logbook(context.Background(), sum.From, sum.To, seoul)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Date+" "+e.What+":"+e.Event.Title)
	}
	if want := []string{"2026-11-20 cancelled:F", "2026-11-24 due:T"}; !slices.Equal(got, want) {
		t.Errorf("logbook %q, want %q", got, want)
	}
	if sum.Days[0].Cancelled != 0 || sum.Days[3].Cancelled != 1 || sum.Days[4].TasksDue != 1 || sum.Total.TasksDue != 1 {
		t.Errorf("the cancellation is counted on the 23rd, the task due on the 24th: %+v", sum.Days)
	}
}
