// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"events/app"
	"events/internal/dbtest"
	"events/migrations"
)

// poison stores an event around the service, with SQL, holding a time the
// API cannot write (PostgreSQL's timestamptz takes 4713 BC to 294276 AD),
// and returns its id. The checks <field>_in_years_1_to_9999 refuse such a
// row, so they go first, as in a database that held the row before the
// check came (it is NOT VALID: such rows stay).
func (s *server) poison(columns, values string) int64 {
	s.t.Helper()
	ctx := context.Background()
	down, err := migrations.FS.ReadFile("20261127002300_time_bounds.tx.down.sql")
	if err != nil {
		s.t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, string(down)); err != nil {
		s.t.Fatal(err)
	}
	var id int64
	if err := s.db.QueryRowContext(ctx,
		"INSERT INTO events ("+columns+") VALUES ("+values+") RETURNING id").Scan(&id); err != nil {
		s.t.Fatalf("storing a poisoned row: %v", err)
	}
	return id
}

// TestPoisonedRowsDoNotFailReads: rows holding a time outside the years
// 0001 to 9999, stored with SQL (the service refuses them), are left out
// of every listing, page, search, the review and the export, each with an
// error in the log, and the rest is answered 200 with every page of a
// walk; only a GET of such an event fails. Before, each of these reads
// answered 500 as long as one such row was among its rows.
func TestPoisonedRowsDoNotFailReads(t *testing.T) {
	s := newServer(t)
	logs := &dbtest.LogBuffer{}
	s.svc.SetLogger(slog.New(slog.NewTextHandler(logs, nil)))
	good := []int64{
		s.create(`{"kind":"activity_log","text":"fine log 15m #p"}`).ID,
		s.create(`{"kind":"task","title":"fine inbox task"}`).ID,
		s.create(`{"kind":"task","title":"fine task due","due_at":"2026-11-22T18:00:00+09:00"}`).ID,
		s.create(`{"kind":"calendar_event","title":"fine entry","start_at":"9999-12-31T22:00:00Z"}`).ID,
		s.create(`{"kind":"activity_log","title":"fine late log","started_at":"9999-12-31T22:30:00Z","ended_at":"9999-12-31T23:30:00Z"}`).ID,
	}
	poisoned := []int64{
		// the row: a log ending in the year 10000
		s.poison("kind, status, title, started_at, ended_at",
			"'activity_log', 'done', 'poison end', '9999-12-31 23:00:00+00', '10000-01-01 23:00:00+00'"),
		// a log of the last days of 9999 that ends in 10000: the review's
		s.poison("kind, status, title, started_at, ended_at",
			"'activity_log', 'done', 'poison long', '9999-12-20 00:00:00+00', '10000-06-01 00:00:00+00'"),
		// an Inbox task made in 12026
		s.poison("kind, status, title, created_at", "'task', 'planned', 'poison created', '12026-01-01 00:00:00+00'"),
		// a running log on Today, changed in 1 BC
		s.poison("kind, status, title, started_at, updated_at",
			"'activity_log', 'in_progress', 'poison running', '2026-11-22 02:00:00+00', '0001-06-01 00:00:00+00 BC'"),
		// a calendar entry of today that ends in 294276, the last year PostgreSQL takes
		s.poison("kind, status, title, start_at, end_at",
			"'calendar_event', 'planned', 'poison entry', '2026-11-22 01:00:00+00', '294276-12-31 00:00:00+00'"),
	}
	isPoisoned := func(id int64) bool {
		for _, p := range poisoned {
			if p == id {
				return true
			}
		}
		return false
	}

	// The JSON listings, walked a row a page (so a poisoned row is the
	// last of a page, whose cursor it gives), and in one page.
	for _, target := range []string{
		"/api/events", "/api/events/today", "/api/events/inbox",
		"/api/events/activity?from=2026-11-15T00:00:00Z&to=9999-12-31T23:59:59Z",
		"/api/events?q=poison", "/api/events?q=fine",
		"/api/events?from=9999-12-31T00:00:00Z&to=9999-12-31T23:59:59.999999Z",
		"/api/events?from=2026-11-22T00:00:00Z&to=2026-11-23T00:00:00Z",
	} {
		seen := map[int64]bool{}
		sep := "?"
		if strings.Contains(target, "?") {
			sep = "&"
		}
		for _, page := range s.walk(target + sep + "limit=1") {
			for _, id := range page {
				seen[id] = true
				if isPoisoned(id) {
					t.Errorf("GET %s: the poisoned event %d is listed", target, id)
				}
			}
		}
		whole := s.get(target).page(t)
		if len(whole.Items) != len(seen) {
			t.Errorf("GET %s: %d events in one page, %d walked a row a page", target, len(whole.Items), len(seen))
		}
	}
	all := s.get("/api/events").page(t)
	if got := ids(all.Items); len(got) != len(good) {
		t.Errorf("GET /api/events lists %v, want the %d good events %v", got, len(good), good)
	}

	// Pages, the review and the exports.
	for _, target := range []string{
		"/events", "/events?tab=inbox", "/events?tab=upcoming", "/events?tab=activity",
		"/events/search?q=poison", "/events/search?q=fine",
		"/events/review?from=9999-12-25&to=9999-12-31T23:59",
		"/events/review?from=2026-11-16&to=2026-11-23",
		"/api/events/summary?from=9999-12-25T00:00:00Z&to=9999-12-30T00:00:00Z&tz=UTC",
		"/api/events/export?format=csv", "/api/events/export?format=ndjson",
		"/api/events/export?format=csv&from=9999-12-30T00:00:00Z&to=9999-12-31T23:59:59Z",
	} {
		a := s.get(target).want(t, http.StatusOK)
		for _, title := range []string{"poison end", "poison long", "poison created", "poison running", "poison entry"} {
			if strings.Contains(string(a.Body), title) {
				t.Errorf("GET %s shows the poisoned event %q", target, title)
			}
		}
	}
	for _, target := range []string{"/api/events/export?format=csv", "/api/events/export?format=ndjson"} {
		body := string(s.get(target).want(t, http.StatusOK).Body)
		for _, title := range []string{"fine log", "fine inbox task", "fine entry", "fine late log"} {
			if !strings.Contains(body, title) {
				t.Errorf("GET %s lost %q:\n%s", target, title, body)
			}
		}
	}

	// Each left-out row is an error in the log, naming the event.
	out := logs.String()
	for _, id := range poisoned {
		if !strings.Contains(out, "level=ERROR") || !strings.Contains(out, "id="+strconv.FormatInt(id, 10)+" ") {
			t.Errorf("the log names no left-out event %d:\n%s", id, out)
		}
	}

	// The event itself may fail (its row cannot be written), and only it.
	for _, id := range poisoned {
		res, err := s.f.Test(httptest.NewRequest("GET", path(id), nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK && res.StatusCode < 500 {
			t.Errorf("GET %s: %d, want 200 or a 5xx", path(id), res.StatusCode)
		}
	}
	for _, id := range good {
		s.get(path(id)).want(t, http.StatusOK)
		s.get("/events/"+strconv.FormatInt(id, 10)).want(t, http.StatusOK)
	}
}

// boundaryInstants are the edges of the years 0001 to 9999, just inside
// and just outside, in UTC and at far offsets.
var boundaryInstants = []string{
	"0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000001Z", "0001-01-01T09:00:00+09:00",
	"9999-12-31T23:59:59.999999Z", "9999-12-31T23:00:00Z", "9999-12-31T09:59:59+14:00",
	"0000-12-31T23:59:59.999999Z", "0001-01-01T00:00:00+14:00", "0001-01-01T13:59:59.999999+14:00",
	"10000-01-01T00:00:00Z", "9999-12-31T23:59:59-12:00", "9999-12-31T23:59:59.999999-00:01",
}

// boundaryClocks are the clocks the service runs at: an ordinary day, and
// the first and last hours of the years it holds.
var boundaryClocks = []time.Time{
	t0,
	time.Date(9999, 12, 31, 20, 0, 0, 0, time.UTC),
	time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC),
	time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
	time.Date(1, 1, 1, 10, 0, 0, 0, time.UTC),
}

// TestBoundaryInstantsNeverFail sends the boundary instants through every
// path that computes a time (capture durations, since and ranges, all-day
// spans, defer presets and a custom defer, PATCH, the lifecycle, the
// windows of the summary, the review and the listings), with the service's
// clock at the boundaries and its zone from UTC-12 to UTC+14 (Seoul, and
// ?tz= of others), then reads every listing, page and export. Nothing
// answers 5xx, and every answer the API describes matches it (checkAPI: a
// time in the year 10000 is no RFC 3339 date-time). Before, a create
// stored ended_at in 10000 and the reads after it answered 500.
func TestBoundaryInstantsNeverFail(t *testing.T) {
	for _, zone := range []string{"Asia/Seoul", "Etc/GMT-14", "Etc/GMT+12", "America/St_Johns"} {
		t.Run(zone, func(t *testing.T) {
			loc, err := time.LoadLocation(zone)
			if err != nil {
				t.Fatal(err)
			}
			t.Parallel()
			c := dbtest.NewClock(t0)
			svc := app.NewService(dbtest.New(t), loc, c.Now)
			s := &server{t: t, f: newApp(t, svc), svc: svc, clock: c}
			for i, clock := range boundaryClocks {
				s.clock.Set(clock)
				boundaryWrites(s, zone)
				boundaryReads(s, zone, i == len(boundaryClocks)-1)
			}
		})
	}
}

// no5xx fails the test on an answer of 5xx.
func no5xx(t *testing.T, a answer) answer {
	t.Helper()
	if a.Status >= 500 {
		t.Errorf("%s", a)
	}
	return a
}

func boundaryWrites(s *server, zone string) {
	t := s.t
	q := "?tz=" + url.QueryEscape(zone)
	post := func(body string) answer { return no5xx(t, s.json("POST", "/api/events"+q, body)) }
	created := func(a answer) int64 {
		if a.Status != http.StatusCreated {
			return 0
		}
		return a.event(t, http.StatusCreated).ID
	}
	js := func(s string) string { return strconv.Quote(s) }

	// capture text: durations, since and ranges on the clock, in the zone
	for _, text := range []string{"x 24h", "x 1m", "x since 0:00", "x since 23:59", "x 23:00-01:00", "x 0:00-0:01",
		"x 9:30-10:15", "x 23:59-0:00", "#tag quick"} {
		post(`{"kind":"activity_log","text":` + js(text) + `}`)
	}
	post(`{"kind":"activity_log"}`)
	post(`{"kind":"activity_log","status":"in_progress"}`)
	for _, text := range []string{"t today", "t tomorrow", "t 12/31", "t 9999-12-31", "t 0001-01-01 0:00", "t 월요일 9시", "t 23:59"} {
		post(`{"kind":"task","text":` + js(text) + `}`)
	}
	for _, text := range []string{"c 12/31", "c 12/31-1/1", "c 9999-12-31", "c 9999-12-30~9999-12-31", "c 0001-01-01 0:00-1:00",
		"c 0001-01-01", "c 9999-12-31 23:00-01:00", "c 9999-12-31 23:30 1h", "c 23:59"} {
		post(`{"kind":"calendar_event","text":` + js(text) + `}`)
	}

	task := created(post(`{"kind":"task","title":"to defer"}`))
	entry := created(post(`{"kind":"calendar_event","title":"to move","start_at":"2026-11-25T09:00:00Z"}`))
	for _, in := range boundaryInstants {
		// a duration carried from an explicit end, both ways
		post(`{"kind":"activity_log","text":"x 24h","started_at":` + js(in) + `}`)
		post(`{"kind":"activity_log","text":"x 1m","ended_at":` + js(in) + `}`)
		post(`{"kind":"activity_log","started_at":` + js(in) + `}`)
		post(`{"kind":"activity_log","status":"in_progress","started_at":` + js(in) + `}`)
		post(`{"kind":"task","title":"t","due_at":` + js(in) + `}`)
		post(`{"kind":"calendar_event","title":"c","start_at":` + js(in) + `}`)
		// all-day spans, read in the service's zone
		post(`{"kind":"calendar_event","title":"c","all_day":true,"start_at":` + js(in) + `}`)
		post(`{"kind":"calendar_event","title":"c","all_day":true,"start_at":"9999-12-30T00:00:00Z","end_at":` + js(in) + `}`)
		// PATCH (a reschedule) and a custom defer
		if entry != 0 {
			no5xx(t, s.json("PATCH", path(entry), `{"start_at":`+js(in)+`,"end_at":null,"all_day":false}`))
			no5xx(t, s.json("PATCH", path(entry), `{"all_day":true,"start_at":`+js(in)+`}`))
			no5xx(t, s.json("PATCH", path(entry), `{"all_day":false,"start_at":"2026-11-25T09:00:00Z","end_at":null}`))
		}
		if task != 0 {
			no5xx(t, s.json("POST", path(task, "/defer"), `{"defer_until":`+js(in)+`}`))
		}
	}
	// a form's local times and dates, in the service's zone
	for _, v := range []string{"9999-12-31", "9999-12-31T23:59", "0001-01-01", "0001-01-01T00:00"} {
		no5xx(t, s.form("POST", "/api/events", url.Values{"kind": {"calendar_event"}, "title": {"f"}, "all_day": {"true"}, "start_at": {v}}))
		no5xx(t, s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {"x 24h"}, "started_at": {v}}))
		if entry != 0 {
			no5xx(t, s.form("PATCH", path(entry), url.Values{"title": {"to move"}, "start_at": {v}, "end_at": {""}}))
		}
	}
	// the defer presets as app.js resolves them (handlers/contract.go):
	// in 3 hours, tomorrow 09:00, next Monday 09:00, in the page's zone
	if task != 0 {
		now := s.svc.Now()
		l := now.In(s.svc.Zone())
		ahead := (int(time.Monday) - int(l.Weekday()) + 7) % 7
		if ahead == 0 {
			ahead = 7
		}
		for _, until := range []time.Time{
			now.Add(3 * time.Hour),
			time.Date(l.Year(), l.Month(), l.Day()+1, 9, 0, 0, 0, l.Location()),
			time.Date(l.Year(), l.Month(), l.Day()+ahead, 9, 0, 0, 0, l.Location()),
		} {
			no5xx(t, s.json("POST", path(task, "/defer"), `{"defer_until":`+js(until.Format(time.RFC3339Nano))+`}`))
			no5xx(t, s.form("POST", path(task, "/defer"), url.Values{"defer_until": {until.Format("2006-01-02T15:04")}}))
		}
		for _, op := range []string{"reactivate", "complete", "reactivate", "cancel", "reactivate"} {
			no5xx(t, s.json("POST", path(task, "/"+op), ""))
		}
	}
	if run := created(post(`{"kind":"activity_log","status":"in_progress","text":"x since 0:00"}`)); run != 0 {
		no5xx(t, s.json("POST", path(run, "/complete"), ""))
	}
}

// boundaryReads reads every listing, window and page at the clock; with
// each, also every event's answer, history and page.
func boundaryReads(s *server, zone string, each bool) {
	t := s.t
	tz := "tz=" + url.QueryEscape(zone)
	targets := []string{
		"/api/events?limit=1000", "/api/events/today?" + tz, "/api/events/inbox", "/api/events/activity?" + tz,
		"/api/events/summary?" + tz, "/api/events/export", "/api/events/export?format=ndjson",
		"/events", "/events?tab=inbox", "/events?tab=upcoming", "/events?tab=activity", "/events/review",
		"/events/search?q=x", "/events/new",
	}
	for i, from := range boundaryInstants {
		to := boundaryInstants[(i+4)%len(boundaryInstants)]
		w := "from=" + url.QueryEscape(from) + "&to=" + url.QueryEscape(to)
		targets = append(targets,
			"/api/events?"+w, "/api/events/activity?"+w+"&"+tz, "/api/events/summary?"+w+"&"+tz,
			"/api/events/summary?from="+url.QueryEscape(from)+"&"+tz, "/api/events/summary?to="+url.QueryEscape(from),
			"/api/events/export?"+w, "/events/review?"+w,
			"/events/review?from="+url.QueryEscape(from[:10]), "/events/review?to="+url.QueryEscape(from[:10]))
	}
	for _, target := range targets {
		no5xx(t, s.get(target))
	}
	if !each {
		return
	}
	for _, e := range s.get("/api/events?limit=1000").page(t).Items {
		no5xx(t, s.get(path(e.ID)))
		no5xx(t, s.get(path(e.ID, "/history")))
		no5xx(t, s.get("/events/"+strconv.FormatInt(e.ID, 10)))
	}
}
