package handlers_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"events/internal/dbtest"
)

// poison stores an event around the service, with SQL, holding a time the
// API cannot write (PostgreSQL's timestamptz takes 4713 BC to 294276 AD),
// and returns its id.
func (s *server) poison(columns, values string) int64 {
	s.t.Helper()
	var id int64
	if err := s.db.QueryRowContext(context.Background(),
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
