// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"events/app"
	"events/models"
)

// summaryJSON runs a summary and answers its JSON.
func summaryJSON(t *testing.T, s *app.Service, from, to string, loc *time.Location) string {
	t.Helper()
	var f, tt *time.Time
	if from != "" {
		v := ts(from)
		f = &v
	}
	if to != "" {
		v := ts(to)
		tt = &v
	}
	sum, err := s.Summary(context.Background(), f, tt, loc)
	if err != nil {
		t.Fatalf("summary %s..%s: %v", from, to, err)
	}
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compactJSON removes the layout of a wanted answer.
func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad wanted JSON: %v", err)
	}
	// re-encode keeping the key order of s: compact the text instead
	out := make([]byte, 0, len(s))
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' && (i == 0 || s[i-1] != '\\') {
			inString = !inString
		}
		if !inString && (c == ' ' || c == '\n' || c == '\t') {
			continue
		}
		out = append(out, c)
	}
	return string(out)
}

// Four Seoul days, 20 to 23 November 2026, built event by event; it is 14:30
// on the 23rd. The 20th stays empty.
func TestSummaryOfConstructedDays(t *testing.T) {
	s, _, clk := newService(t, ts("2026-11-20T00:00:00Z"))

	// before the window: not counted
	create(t, s, `{"kind":"activity_log","title":"M","started_at":"2026-11-19T09:00:00+09:00","ended_at":"2026-11-19T10:00:00+09:00","project_tag":"work"}`)
	// 21st: a task cancelled at 10:00; a calendar entry across midnight into the 22nd
	clk.Set(ts("2026-11-21T10:00:00+09:00"))
	x := create(t, s, `{"kind":"task","title":"dropped"}`)
	mustOperate(t, s, x.ID, models.OpCancel, "")
	create(t, s, `{"kind":"calendar_event","title":"J","start_at":"2026-11-21T23:30:00+09:00","end_at":"2026-11-22T00:30:00+09:00"}`)
	// a log across midnight: an hour on each day
	create(t, s, `{"kind":"activity_log","title":"A","started_at":"2026-11-21T23:00:00+09:00","ended_at":"2026-11-22T01:00:00+09:00","project_tag":"work"}`)
	// 22nd: two overlapping logs (09:00-10:30 united; #work and no project
	// share the half hour they overlap), a point, a cancelled log
	create(t, s, `{"kind":"activity_log","title":"B","started_at":"2026-11-22T09:00:00+09:00","ended_at":"2026-11-22T10:00:00+09:00","project_tag":"work"}`)
	create(t, s, `{"kind":"activity_log","title":"C","started_at":"2026-11-22T09:30:00+09:00","ended_at":"2026-11-22T10:30:00+09:00"}`)
	create(t, s, `{"kind":"activity_log","title":"E","started_at":"2026-11-22T15:00:00+09:00","ended_at":"2026-11-22T15:00:00+09:00","project_tag":"point"}`)
	d := create(t, s, `{"kind":"activity_log","title":"D","started_at":"2026-11-22T12:00:00+09:00","ended_at":"2026-11-22T13:00:00+09:00","project_tag":"work"}`)
	clk.Set(ts("2026-11-22T13:05:00+09:00"))
	mustOperate(t, s, d.ID, models.OpCancel, "")
	k := create(t, s, `{"kind":"calendar_event","title":"K","start_at":"2026-11-22T16:00:00+09:00"}`)
	mustOperate(t, s, k.ID, models.OpCancel, "")
	// a task completed on the 22nd; one created done (no completed_at)
	g := create(t, s, `{"kind":"task","title":"G"}`)
	clk.Set(ts("2026-11-22T18:00:00+09:00"))
	mustOperate(t, s, g.ID, models.OpComplete, "")
	create(t, s, `{"kind":"task","title":"I","status":"done"}`)
	// 23rd: a completion undone by reactivate; an all-day entry; a running log since 13:00
	clk.Set(ts("2026-11-23T09:00:00+09:00"))
	h := create(t, s, `{"kind":"task","title":"H"}`)
	mustOperate(t, s, h.ID, models.OpComplete, "")
	mustOperate(t, s, h.ID, models.OpReactivate, "")
	create(t, s, `{"kind":"calendar_event","title":"L","all_day":true,"start_at":"2026-11-23T00:00:00+09:00"}`)
	create(t, s, `{"kind":"activity_log","title":"F","status":"in_progress","started_at":"2026-11-23T13:00:00+09:00","project_tag":"work"}`)
	clk.Set(ts("2026-11-23T14:30:00+09:00"))

	got := summaryJSON(t, s, "2026-11-20T00:00:00+09:00", "2026-11-24T00:00:00+09:00", seoul)
	want := compactJSON(t, `{"from":"2026-11-19T15:00:00.000000Z","to":"2026-11-23T15:00:00.000000Z","tz":"Asia/Seoul",
	 "days":[
	  {"date":"2026-11-20","logged_seconds":0,"projects":[],"labels":[],"logs":0,"tasks_completed":0,"calendar_events":0,"cancelled":0,"tasks_due":0},
	  {"date":"2026-11-21","logged_seconds":3600,"projects":[{"project_tag":"work","seconds":3600}],"labels":[],
	   "logs":1,"tasks_completed":0,"calendar_events":1,"cancelled":1,"tasks_due":0},
	  {"date":"2026-11-22","logged_seconds":9000,"projects":[{"project_tag":"work","seconds":6300},{"project_tag":null,"seconds":2700}],"labels":[],
	   "logs":4,"tasks_completed":1,"calendar_events":1,"cancelled":2,"tasks_due":0},
	  {"date":"2026-11-23","logged_seconds":5400,"projects":[{"project_tag":"work","seconds":5400}],"labels":[],
	   "logs":1,"tasks_completed":0,"calendar_events":1,"cancelled":0,"tasks_due":0}],
	 "total":{"logged_seconds":18000,"projects":[{"project_tag":"work","seconds":15300},{"project_tag":null,"seconds":2700}],"labels":[],
	   "logs":5,"tasks_completed":1,"calendar_events":2,"cancelled":3,"tasks_due":0}}`)
	if got != want {
		t.Errorf("summary =\n %s\nwant\n %s", got, want)
	}

	// An hour later the running log has run an hour more.
	clk.Add(time.Hour)
	sum, err := s.Summary(context.Background(), nil, nil, seoul)
	if err != nil {
		t.Fatal(err)
	}
	last := sum.Days[len(sum.Days)-1]
	if len(sum.Days) != 7 || sum.Days[0].Date != "2026-11-17" || last.Date != "2026-11-23" || last.LoggedSeconds != 9000 {
		t.Errorf("default window: %d days, %s..%s, last day %d s", len(sum.Days), sum.Days[0].Date, last.Date, last.LoggedSeconds)
	}
}

// ?tz= moves the day boundary: the same events, read in Seoul and in New York.
func TestSummaryDayBoundaryFollowsTheZone(t *testing.T) {
	s, _, clk := newService(t, ts("2026-11-22T00:00:00Z"))
	ny := mustZone("America/New_York")
	// 03:00-05:00Z: 12:00-14:00 on the 22nd in Seoul, 22:00-24:00 on the 21st in New York
	create(t, s, `{"kind":"activity_log","title":"a","started_at":"2026-11-22T03:00:00Z","ended_at":"2026-11-22T05:00:00Z"}`)
	// 14:00-16:00Z: 23:00-01:00 across the 22nd/23rd in Seoul, 09:00-11:00 on the 22nd in New York
	create(t, s, `{"kind":"activity_log","title":"b","started_at":"2026-11-22T14:00:00Z","ended_at":"2026-11-22T16:00:00Z","project_tag":"late"}`)
	// completed at 04:00Z: the 22nd in Seoul, 23:00 on the 21st in New York
	task := create(t, s, `{"kind":"task","title":"t"}`)
	clk.Set(ts("2026-11-22T04:00:00Z"))
	mustOperate(t, s, task.ID, models.OpComplete, "")
	clk.Set(ts("2026-11-25T00:00:00Z"))

	type day struct {
		date          string
		logged, tasks int64
	}
	for _, c := range []struct {
		loc      *time.Location
		from, to string
		want     []day
	}{
		{seoul, "2026-11-21T00:00:00+09:00", "2026-11-24T00:00:00+09:00", []day{{"2026-11-21", 0, 0}, {"2026-11-22", 10800, 1}, {"2026-11-23", 3600, 0}}},
		{ny, "2026-11-21T00:00:00-05:00", "2026-11-24T00:00:00-05:00", []day{{"2026-11-21", 7200, 1}, {"2026-11-22", 7200, 0}, {"2026-11-23", 0, 0}}},
	} {
		from, to := ts(c.from), ts(c.to)
		sum, err := s.Summary(context.Background(), &from, &to, c.loc)
		if err != nil {
			t.Fatal(err)
		}
		var got []day
		for _, d := range sum.Days {
			got = append(got, day{d.Date, d.LoggedSeconds, d.TasksCompleted})
		}
		if !equalDays(got, c.want) || sum.TZ != c.loc.String() || !sum.From.Equal(from) || !sum.To.Equal(to) {
			t.Errorf("%s: %s..%s days %v, want %v", c.loc, sum.From, sum.To, got, c.want)
		}
		if sum.Total.LoggedSeconds != 14400 || sum.Total.Logs != 2 || sum.Total.TasksCompleted != 1 {
			t.Errorf("%s: total %+v", c.loc, sum.Total)
		}
	}
}

func equalDays[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A day of 25 hours (New York falls back on 1 November 2026) and a day that
// starts at 01:00 (Santiago skips midnight on 6 September 2026).
func TestSummaryDaysThatAreNot24Hours(t *testing.T) {
	s, _, _ := newService(t, ts("2026-12-01T00:00:00Z"))
	ny, santiago := mustZone("America/New_York"), mustZone("America/Santiago")
	create(t, s, `{"kind":"activity_log","title":"all of 1 Nov","started_at":"2026-11-01T00:00:00-04:00","ended_at":"2026-11-02T00:00:00-05:00"}`)
	create(t, s, `{"kind":"activity_log","title":"across the skipped midnight","started_at":"2026-09-05T23:00:00-04:00","ended_at":"2026-09-06T02:00:00-03:00"}`)

	from, to := ts("2026-10-31T00:00:00-04:00"), ts("2026-11-03T00:00:00-05:00")
	sum, err := s.Summary(context.Background(), &from, &to, ny)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Days) != 3 || sum.Days[1].Date != "2026-11-01" || sum.Days[1].LoggedSeconds != 25*3600 || sum.Days[2].LoggedSeconds != 0 {
		t.Errorf("New York around the fall back: %+v", sum.Days)
	}
	from, to = ts("2026-09-05T00:00:00-04:00"), ts("2026-09-07T00:00:00-03:00")
	sum, err = s.Summary(context.Background(), &from, &to, santiago)
	if err != nil {
		t.Fatal(err)
	}
	// 23:00-24:00 on the 5th (an hour), then 01:00-02:00 on the 6th (the day's first hour)
	if len(sum.Days) != 2 || sum.Days[0].LoggedSeconds != 3600 || sum.Days[1].LoggedSeconds != 3600 || sum.Total.Logs != 1 {
		t.Errorf("Santiago around the skipped midnight: %+v", sum.Days)
	}
}

// The window: whole local days, the last seven by default, at most 366.
func TestSummaryWindow(t *testing.T) {
	now := ts("2026-11-23T05:30:00Z") // 14:30 in Seoul
	p := func(s string) *time.Time { v := ts(s); return &v }
	for _, c := range []struct {
		from, to         *time.Time
		wantFrom, wantTo string
		bad              string // the field a 400 names
	}{
		{nil, nil, "2026-11-17T00:00:00+09:00", "2026-11-24T00:00:00+09:00", ""},
		{p("2026-11-20T10:00:00+09:00"), p("2026-11-21T10:00:00+09:00"), "2026-11-20T00:00:00+09:00", "2026-11-22T00:00:00+09:00", ""},
		{p("2026-11-20T00:00:00+09:00"), p("2026-11-21T00:00:00+09:00"), "2026-11-20T00:00:00+09:00", "2026-11-21T00:00:00+09:00", ""},
		{p("2026-11-20T10:00:00+09:00"), nil, "2026-11-20T00:00:00+09:00", "2026-11-27T00:00:00+09:00", ""},
		{nil, p("2026-11-20T00:00:00+09:00"), "2026-11-13T00:00:00+09:00", "2026-11-20T00:00:00+09:00", ""},
		{p("2026-01-01T00:00:00+09:00"), p("2027-01-02T00:00:00+09:00"), "2026-01-01T00:00:00+09:00", "2027-01-02T00:00:00+09:00", ""}, // 366 days
		{p("2026-01-01T00:00:00+09:00"), p("2027-01-02T00:00:01+09:00"), "", "", "to"},                                                 // 367
		{p("2026-11-20T00:00:00+09:00"), p("2026-11-20T00:00:00+09:00"), "", "", "from"},
		{p("2026-11-21T00:00:00+09:00"), p("2026-11-20T00:00:00+09:00"), "", "", "from"},
		{p("0001-01-01T00:00:00Z"), p("0001-01-05T00:00:00Z"), "", "", "from"},
	} {
		f, to, err := app.SummaryWindow(c.from, c.to, seoul, now)
		if c.bad != "" {
			var bad *models.BadRequestError
			if !errors.As(err, &bad) || bad.Field != c.bad {
				t.Errorf("%v..%v: %v, want a 400 naming %s", c.from, c.to, err, c.bad)
			}
			continue
		}
		if err != nil || !f.Equal(ts(c.wantFrom)) || !to.Equal(ts(c.wantTo)) {
			t.Errorf("%v..%v: %s..%s, %v; want %s..%s", c.from, c.to, f, to, err, c.wantFrom, c.wantTo)
		}
	}

	// The longest window answers all its days.
	s, _, _ := newService(t, now)
	create(t, s, `{"kind":"activity_log","title":"x","started_at":"2026-06-01T09:00:00+09:00","ended_at":"2026-06-01T09:15:00+09:00"}`)
	sum, err := s.Summary(context.Background(), p("2026-01-01T00:00:00+09:00"), p("2027-01-02T00:00:00+09:00"), seoul)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Days) != 366 || sum.Days[365].Date != "2027-01-01" || sum.Total.LoggedSeconds != 900 {
		t.Errorf("366 days: %d days, last %s, total %+v", len(sum.Days), sum.Days[len(sum.Days)-1].Date, sum.Total)
	}
}

// TestSummaryUsesTheIndexes proves with EXPLAIN, on a year of rows shaped
// like real use and analysed, that the summary of a week reads its logs and
// calendar entries from the span index and its completions and cancellations
// from their partial indexes, never scanning the table; so do the logs'
// parts it shares out and the review page's logbook.
func TestSummaryUsesTheIndexes(t *testing.T) {
	now := ts("2026-11-22T03:00:00Z")
	s, db, clk := newService(t, now)
	ctx := context.Background()
	seedAt(t, db, now, []string{
		`INSERT INTO events (kind, status, title, started_at, ended_at, cancelled_at, project_tag, created_at)
		 SELECT 'activity_log', CASE WHEN i % 50 = 0 THEN 'cancelled' ELSE 'done' END::event_status, 'log ' || i,
		        ts - interval '25 minutes', ts, CASE WHEN i % 50 = 0 THEN ts END, (ARRAY['work', 'home', NULL])[i % 3 + 1], ts
		 FROM generate_series(1, 4000) i, LATERAL (SELECT ?::timestamptz - i * interval '130 minutes' AS ts) t`,
		`INSERT INTO events (kind, status, title, due_at, completed_at, cancelled_at, created_at)
		 SELECT 'task', CASE WHEN i % 20 = 0 THEN 'cancelled' ELSE 'done' END::event_status, 'task ' || i, ts,
		        CASE WHEN i % 20 <> 0 THEN ts END, CASE WHEN i % 20 = 0 THEN ts END, ts - interval '3 days'
		 FROM generate_series(1, 2000) i, LATERAL (SELECT ?::timestamptz - i * interval '4 hours' AS ts) t`,
		`INSERT INTO events (kind, status, title, start_at, end_at, created_at)
		 SELECT 'calendar_event', 'done', 'meeting ' || i, ts, ts + interval '1 hour', ts - interval '7 days'
		 FROM generate_series(-40, 800) i, LATERAL (SELECT ?::timestamptz - i * interval '11 hours' AS ts) t`,
		`INSERT INTO events (kind, status, title) SELECT 'task', 'planned', 'inbox ' || i FROM generate_series(1, 300) i`,
		`ANALYZE events`,
	}...)
	log := &queryLog{}
	s = app.NewService(db.WithQueryHook(log), seoul, clk.Now)
	sum, err := s.Summary(ctx, nil, nil, seoul)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total.Logs == 0 || sum.Total.TasksCompleted == 0 || sum.Total.Cancelled == 0 || sum.Total.CalendarEvents == 0 {
		t.Fatalf("the seed does not reach the week: %+v", sum.Total)
	}
	var query string
	for _, q := range log.queries {
		if strings.Contains(q, "WITH days AS") {
			query = q
		}
	}
	used, plan := planIndexes(t, db, query)
	for _, idx := range []string{"events_span_idx", "events_completed_idx", "events_cancelled_idx"} {
		if !used[idx] {
			t.Errorf("the plan does not use %s (uses %v):\n%s", idx, used, plan)
		}
	}
	if strings.Contains(string(plan), "Seq Scan on events") {
		t.Errorf("the counts scan the table (the tasks due?):\n%s", plan)
	}
	// the logs' parts, from which the logged time is shared out
	query = ""
	for _, q := range log.queries {
		if strings.Contains(q, "AS start_s") {
			query = q
		}
	}
	if query == "" {
		t.Fatal("no statement of the logs' parts ran")
	}
	if used, plan := planIndexes(t, db, query); !used["events_span_idx"] || strings.Contains(string(plan), "Seq Scan on events") {
		t.Errorf("the logs' parts do not come from events_span_idx (uses %v):\n%s", used, plan)
	}
	// the review page's logbook of the same week: its cancelled logs and
	// tasks due from the span indexes too
	if _, _, err := s.Logbook(ctx, sum.From, sum.To, seoul); err != nil {
		t.Fatal(err)
	}
	query = ""
	for _, q := range log.queries {
		if strings.Contains(q, "'due'") {
			query = q
		}
	}
	if used, plan := planIndexes(t, db, query); !used["events_cancelled_span_idx"] || strings.Contains(string(plan), "Seq Scan on events") {
		t.Errorf("the logbook scans the table (uses %v):\n%s", used, plan)
	}
}

// Overlapping logs share their time (DESIGN.md, Summary): inside a project
// a union, across projects an equal share, three ways with the second left
// over going in tag order; a log across midnight in Seoul on both days; a
// running log up to now, cut down to the second. Each day's projects add up
// to its logged seconds, and the window's to its total.
func TestSummarySharesOverlaps(t *testing.T) {
	s, _, clk := newService(t, ts("2026-11-24T08:00:00+09:00"))
	for _, body := range []string{
		// within #work: 09:00-10:30 united
		`{"kind":"activity_log","title":"w1","started_at":"2026-11-24T09:00:00+09:00","ended_at":"2026-11-24T10:00:00+09:00","project_tag":"work"}`,
		`{"kind":"activity_log","title":"w2","started_at":"2026-11-24T09:30:00+09:00","ended_at":"2026-11-24T10:30:00+09:00","project_tag":"work"}`,
		// #home and #work overlap half an hour: 15 minutes each
		`{"kind":"activity_log","title":"h","started_at":"2026-11-24T13:00:00+09:00","ended_at":"2026-11-24T14:00:00+09:00","project_tag":"home"}`,
		`{"kind":"activity_log","title":"w3","started_at":"2026-11-24T13:30:00+09:00","ended_at":"2026-11-24T14:30:00+09:00","project_tag":"work"}`,
		// three ways over ten seconds: 3 each, the second left over to #a
		`{"kind":"activity_log","title":"c","started_at":"2026-11-24T16:00:00+09:00","ended_at":"2026-11-24T16:00:10+09:00","project_tag":"c"}`,
		`{"kind":"activity_log","title":"b","started_at":"2026-11-24T16:00:00+09:00","ended_at":"2026-11-24T16:00:10+09:00","project_tag":"b"}`,
		`{"kind":"activity_log","title":"a","started_at":"2026-11-24T16:00:00+09:00","ended_at":"2026-11-24T16:00:10+09:00","project_tag":"a"}`,
		// across Seoul's midnight: an hour on each day
		`{"kind":"activity_log","title":"n","started_at":"2026-11-24T23:00:00+09:00","ended_at":"2026-11-25T01:00:00+09:00","project_tag":"night"}`,
		// running since 09:00 on the 25th, no project
		`{"kind":"activity_log","title":"r","status":"in_progress","started_at":"2026-11-25T09:00:00+09:00"}`,
	} {
		create(t, s, body)
	}
	clk.Set(ts("2026-11-25T10:00:00.600000+09:00"))

	got := summaryJSON(t, s, "2026-11-24T00:00:00+09:00", "2026-11-26T00:00:00+09:00", seoul)
	want := compactJSON(t, `{"from":"2026-11-23T15:00:00.000000Z","to":"2026-11-25T15:00:00.000000Z","tz":"Asia/Seoul",
	 "days":[
	  {"date":"2026-11-24","logged_seconds":14410,"projects":[{"project_tag":"work","seconds":8100},{"project_tag":"night","seconds":3600},
	    {"project_tag":"home","seconds":2700},{"project_tag":"a","seconds":4},{"project_tag":"b","seconds":3},{"project_tag":"c","seconds":3}],"labels":[],
	   "logs":8,"tasks_completed":0,"calendar_events":0,"cancelled":0,"tasks_due":0},
	  {"date":"2026-11-25","logged_seconds":7200,"projects":[{"project_tag":"night","seconds":3600},{"project_tag":null,"seconds":3600}],"labels":[],
	   "logs":2,"tasks_completed":0,"calendar_events":0,"cancelled":0,"tasks_due":0}],
	 "total":{"logged_seconds":21610,"projects":[{"project_tag":"work","seconds":8100},{"project_tag":"night","seconds":7200},
	    {"project_tag":null,"seconds":3600},{"project_tag":"home","seconds":2700},{"project_tag":"a","seconds":4},{"project_tag":"b","seconds":3},{"project_tag":"c","seconds":3}],"labels":[],
	   "logs":9,"tasks_completed":0,"calendar_events":0,"cancelled":0,"tasks_due":0}}`)
	if got != want {
		t.Errorf("summary =\n %s\nwant\n %s", got, want)
	}
}

// ShareDay's arithmetic, part by part: the shares always add up to the
// union, and no share is a second or more off its exact value.
func TestShareDay(t *testing.T) {
	tag := func(s string) *string { return &s }
	for _, c := range []struct {
		name  string
		parts []app.LogPart
		total int64
		want  string
	}{
		{"nothing", nil, 0, ``},
		{"a point", []app.LogPart{{Tag: tag("x"), Start: 5, End: 5}}, 0, ``},
		{"one project's overlap counts once", []app.LogPart{{Tag: tag("w"), Start: 0, End: 60}, {Tag: tag("w"), Start: 30, End: 90}}, 90, `w:90`},
		{"two projects share the overlap", []app.LogPart{{Tag: tag("w"), Start: 0, End: 60}, {Tag: nil, Start: 30, End: 90}}, 90, `w:45 -:45`},
		{"an odd second goes to the tag first in order", []app.LogPart{{Tag: nil, Start: 0, End: 1}, {Tag: tag("z"), Start: 0, End: 1}}, 1, `z:1`},
		{"three ways", []app.LogPart{{Tag: tag("c"), Start: 0, End: 10}, {Tag: tag("b"), Start: 0, End: 10}, {Tag: tag("a"), Start: 0, End: 10}}, 10, `a:4 b:3 c:3`},
		// b covers 0-2 alone (2 s) and shares 2-3 with a and 3-4 with c:
		// exact shares a 1/2, b 3, c 1/2: a's and c's halves are one second
		// between them, to a (tag order)
		{"fractions left over go by size, then tag", []app.LogPart{{Tag: tag("b"), Start: 0, End: 4}, {Tag: tag("a"), Start: 2, End: 3}, {Tag: tag("c"), Start: 3, End: 4}}, 4, `b:3 a:1`},
		// fractions that add up past a second: a has 1/3 + 1/3 + 1/2 = 1 1/6,
		// b and c 2/3, d 1/2: a keeps 1, the two seconds left go to b and c
		{"fractions of several stretches", []app.LogPart{{Tag: tag("a"), Start: 0, End: 1}, {Tag: tag("b"), Start: 0, End: 1}, {Tag: tag("c"), Start: 0, End: 1},
			{Tag: tag("a"), Start: 10, End: 11}, {Tag: tag("b"), Start: 10, End: 11}, {Tag: tag("c"), Start: 10, End: 11}, {Tag: tag("a"), Start: 20, End: 21}, {Tag: tag("d"), Start: 20, End: 21}}, 3, `a:1 b:1 c:1`},
	} {
		total, ps := app.ShareDay(c.parts)
		var got []string
		var sum int64
		for _, p := range ps {
			name := "-"
			if p.ProjectTag != nil {
				name = *p.ProjectTag
			}
			got = append(got, name+":"+strconv.FormatInt(p.Seconds, 10))
			sum += p.Seconds
		}
		if total != c.total || strings.Join(got, " ") != c.want || sum != total {
			t.Errorf("%s: %d s, %q (sum %d); want %d s, %q", c.name, total, strings.Join(got, " "), sum, c.total, c.want)
		}
	}
}

// ShareParts gives each log's part its share of its project's time: two
// overlapping logs of one project halve their overlap, logs of k projects
// overlapping share it k ways, and a project's parts add up to its share
// exactly, on random days too. The CSV's counted_minutes are read from it.
func TestShareParts(t *testing.T) {
	tag := func(s string) *string { return &s }
	parts := []app.LogPart{{ID: 1, Tag: tag("w"), Start: 0, End: 60}, {ID: 2, Tag: tag("w"), Start: 30, End: 90},
		{ID: 3, Tag: nil, Start: 60, End: 120}, {ID: 4, Tag: tag("w"), Start: 200, End: 200}}
	// 0-30 w alone (1); 30-60 two w parts (15 each); 60-90 w (part 2) and
	// none share: 15 each; 90-120 none alone (30)
	total, _, each := app.ShareParts(parts)
	if got := fmt.Sprint(total, each); got != "120 [45 30 45 0]" {
		t.Errorf("ShareParts = %s, want 120 [45 30 45 0]", got)
	}
	r := rand.New(rand.NewPCG(55, 2))
	tags := []*string{nil, tag("a"), tag("b"), tag("c")}
	for range 500 {
		parts := make([]app.LogPart, 1+r.IntN(8))
		for i := range parts {
			s := r.Int64N(1000)
			parts[i] = app.LogPart{ID: int64(i), Tag: tags[r.IntN(len(tags))], Start: s, End: s + r.Int64N(400)}
		}
		total, projects, each := app.ShareParts(parts)
		byTag := map[string]int64{}
		for i, p := range parts {
			name := "-"
			if p.Tag != nil {
				name = *p.Tag
			}
			byTag[name] += each[i]
		}
		var sum int64
		for _, p := range projects {
			name := "-"
			if p.ProjectTag != nil {
				name = *p.ProjectTag
			}
			if byTag[name] != p.Seconds {
				t.Fatalf("%v: the parts of %s add up to %d s, its share is %d s", parts, name, byTag[name], p.Seconds)
			}
			sum += p.Seconds
		}
		if sum != total {
			t.Fatalf("%v: shares %d, total %d", parts, sum, total)
		}
	}
}
