// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"events/app"
	"events/models"
)

// listingFilters are the documented filters of GET /api/events and their
// common combinations: each is read from an index (DESIGN.md, Listings).
var listingFilters = []string{
	"",
	"kind=task",
	"kind=task,calendar_event",
	"status=planned",
	"status=done,cancelled",
	"kind=task&status=planned,waiting",
	"project_tag=work",
	"project_tag=",
	"source=email",
	"source=email,chat",
	"from=2026-10-01T00:00:00Z&to=2026-11-01T00:00:00Z",
	"from=2026-10-01T00:00:00Z",
	"to=2026-10-01T00:00:00Z",
	"kind=activity_log&from=2026-10-01T00:00:00Z&to=2026-11-01T00:00:00Z",
	"status=planned,tentative,in_progress,waiting,deferred,done&from=2026-10-01T00:00:00Z&to=2026-10-15T00:00:00Z",
}

// sortedBuffers runs EXPLAIN (ANALYZE, BUFFERS) of query on conn, twice
// (the second with hint bits set), and returns the buffers the second
// touched, and its plan.
func sortedBuffers(t *testing.T, conn bun.Conn, query string, args ...any) (float64, string) {
	t.Helper()
	var plan string
	for range 2 {
		var out []string
		if err := conn.NewRaw("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) "+query, args...).Scan(context.Background(), &out); err != nil {
			t.Fatal(err)
		}
		plan = strings.Join(out, "")
	}
	var doc []struct {
		Plan struct {
			Hit  float64 `json:"Shared Hit Blocks"`
			Read float64 `json:"Shared Read Blocks"`
		} `json:"Plan"`
	}
	if err := json.Unmarshal([]byte(plan), &doc); err != nil || len(doc) != 1 {
		t.Fatalf("EXPLAIN: %v %s", err, plan)
	}
	return doc[0].Plan.Hit + doc[0].Plan.Read, plan
}

// seedYears adds n events, one every 20 minutes back from 2027-01-01 (a
// calendar entry of an hour, a task due, or a log of 25 minutes in turn;
// mostly done, some open or cancelled; a project on most, a source on a
// few), and analyses the table.
func seedYears(t *testing.T, db *bun.DB, from, n int) {
	t.Helper()
	if _, err := db.Exec(`
INSERT INTO events (kind, status, title, start_at, end_at, due_at, started_at, ended_at, cancelled_at, project_tag, source, source_ref)
SELECT k, st, 'event ' || i,
    CASE WHEN k = 'calendar_event' THEN at END, CASE WHEN k = 'calendar_event' THEN at + interval '1 hour' END,
    CASE WHEN k = 'task' THEN at END,
    CASE WHEN k = 'activity_log' THEN at END, CASE WHEN k = 'activity_log' THEN at + interval '25 minutes' END,
    CASE WHEN st = 'cancelled' THEN at END,
    (ARRAY['work', 'home', NULL])[1 + i % 3],
    CASE WHEN i % 40 = 0 THEN 'email' WHEN i % 40 = 1 THEN 'chat' END::event_source,
    CASE WHEN i % 40 IN (0, 1) THEN 'ref-' || i END
FROM generate_series(?0::int, ?1::int) i,
LATERAL (SELECT (ARRAY['task', 'calendar_event', 'activity_log'])[1 + i % 3]::event_kind AS k,
    timestamptz '2027-01-01T00:00:00Z' - i * interval '20 minutes' AS at) a,
LATERAL (SELECT CASE WHEN i % 29 = 0 THEN 'cancelled'
    WHEN k = 'task' AND i % 11 = 0 THEN 'planned' WHEN k = 'task' AND i % 13 = 0 THEN 'waiting'
    ELSE 'done' END::event_status AS st) s`, from, from+n-1); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("ANALYZE events"); err != nil {
		t.Fatal(err)
	}
}

// TestEveryListingReadsAnIndex: each documented filter of GET /api/events,
// first page and a page deep in the listing, touches as many buffers at
// 80,000 events as at 20,000 (give or take an index level): every part is
// an ordered range of an index, never a scan and sort of the table. Before
// the order's indexes, the unfiltered listing read the whole table for
// every page.
func TestEveryListingReadsAnIndex(t *testing.T) {
	t.Parallel()
	s, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	ctx := context.Background()
	deep := ts("2026-06-01T00:00:00Z")
	// Sorts made dear: on a table this small, the planner rightly prefers
	// sorting the 2,700 cancelled events of events_cancelled_idx to
	// walking the order's index; at a million it walks the index (the
	// plans in bin/bench.md). What this test proves is that an ordered
	// index range serves each statement.
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET enable_sort = off"); err != nil {
		t.Fatal(err)
	}
	plans := map[string]string{}
	cost := func() map[string]float64 {
		out := map[string]float64{}
		for _, filter := range listingFilters {
			for _, page := range []string{"first", "deep"} {
				v, _ := url.ParseQuery(filter)
				q := listQuery(t, models.ListEvents, filter)
				if page == "deep" {
					v.Set("cursor", q.Cursor(models.Position{T: &deep, ID: 0}))
					q = listQuery(t, models.ListEvents, v.Encode())
				}
				sql, args := app.ListSQL(s, q)
				buffers, plan := sortedBuffers(t, conn, sql, args...)
				out[filter+" "+page], plans[filter+" "+page] = buffers, plan
				if t.Failed() {
					t.Fatalf("%s, %s page:\n%s", filter, page, plan)
				}
				if _, err := s.List(ctx, q); err != nil {
					t.Fatalf("%s: %v", filter, err)
				}
			}
		}
		return out
	}
	seedYears(t, db, 1, 20_000)
	for _, filter := range listingFilters {
		walkEqualsReference(t, s, db, filter)
	}
	small := cost()
	seedYears(t, db, 20_001, 60_000)
	large := cost()
	for _, filter := range listingFilters {
		for _, page := range []string{"first", "deep"} {
			k := filter + " " + page
			if large[k] > 1.5*small[k]+30 {
				t.Errorf("?%s, %s page: %.0f buffers at 80,000 events, %.0f at 20,000: the work grows with the table:\n%s", filter, page, large[k], small[k], plans[k])
			}
		}
	}
}

// walkEqualsReference walks the listing of filter, 700 at a time, and
// compares the ids with those of the plain statement the filter means
// (every row filtered, then sorted).
func walkEqualsReference(t *testing.T, s *app.Service, db *bun.DB, filter string) {
	t.Helper()
	v, _ := url.ParseQuery(filter)
	conds := []string{"TRUE"}
	var args []any
	for name, values := range v {
		value := values[0]
		switch name {
		case "kind", "status", "source":
			conds = append(conds, "e."+name+"::text = ANY(string_to_array(?, ','))")
			args = append(args, value)
			if name == "status" && !strings.Contains(value, "cancelled") {
				conds = append(conds, "e.status <> 'cancelled'")
			}
		case "project_tag":
			conds = append(conds, "e.project_tag IS NOT DISTINCT FROM nullif(?, '')")
			args = append(args, value)
		}
	}
	conds = append(conds, "e.span && tstzrange(?::timestamptz, ?::timestamptz, '[)')")
	args = append(args, nullIfEmpty(v.Get("from")), nullIfEmpty(v.Get("to")))
	if !v.Has("from") && !v.Has("to") {
		conds[len(conds)-1] = "TRUE"
		args = args[:len(args)-2]
	}
	var want []int64
	if err := db.NewRaw("SELECT e.id FROM events e WHERE "+strings.Join(conds, " AND ")+
		" ORDER BY coalesce(lower(e.span), 'infinity'), e.id", args...).Scan(context.Background(), &want); err != nil {
		t.Fatal(err)
	}
	if len(want) < 100 {
		t.Fatalf("?%s: the seed holds %d such events, too few to page through", filter, len(want))
	}
	var got []int64
	v.Set("limit", "700")
	for {
		page, err := s.List(context.Background(), listQuery(t, models.ListEvents, v.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Items {
			got = append(got, e.ID)
		}
		if page.NextCursor == nil {
			break
		}
		v.Set("cursor", *page.NextCursor)
	}
	if !slices.Equal(got, want) {
		t.Errorf("?%s lists %d events, the plain statement %d (or another order)", filter, len(got), len(want))
	}
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// TestWalkWhileEventsMove: walking the time-ordered listing a page at a
// time while other events move (rescheduled, completed, created) lists
// every event that did not move exactly once, in order: a cursor is the
// last row's place in the order, not an offset, so what moves elsewhere
// shifts nothing (a complete copy uses the change token: DESIGN.md, Sync).
func TestWalkWhileEventsMove(t *testing.T) {
	t.Parallel()
	s, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	ctx := context.Background()
	seedYears(t, db, 1, 3000)
	var all []int64
	if err := db.NewRaw("SELECT id FROM events ORDER BY id").Scan(ctx, &all); err != nil {
		t.Fatal(err)
	}
	for _, filter := range []string{"limit=40", "limit=40&kind=task,calendar_event", "limit=40&from=2026-11-01T00:00:00Z"} {
		members := walkIDs(t, s, filter)
		moved := map[int64]bool{}
		seen := map[int64]int{}
		q := listQuery(t, models.ListEvents, filter)
		var last *models.Event
		for page := 0; ; page++ {
			p, err := s.List(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for i := range p.Items {
				e := p.Items[i]
				seen[e.ID]++
				if last != nil && !moved[e.ID] && !moved[last.ID] && spanBefore(&e, last) {
					t.Errorf("%s: %d listed after %d, earlier in time", filter, e.ID, last.ID)
				}
				last = &p.Items[i]
			}
			if p.NextCursor == nil {
				break
			}
			// between pages, three events move: a task rescheduled far
			// back or ahead, one completed, one created
			for k := range 3 {
				id := all[(page*37+k*1009)%len(all)]
				moved[id] = true
				if _, err := db.Exec(`UPDATE events SET due_at = due_at + (? * interval '90 days'), updated_at = now() WHERE id = ? AND kind = 'task'`,
					[]int{-1, 1, 3}[k], id); err != nil {
					t.Fatal(err)
				}
			}
			n := create(t, s, fmt.Sprintf(`{"kind":"task","title":"new %d","due_at":"2026-10-%02dT09:00:00+09:00"}`, page, 1+page%28))
			moved[n.ID] = true
			v, _ := url.ParseQuery(filter)
			v.Set("cursor", *p.NextCursor)
			q = listQuery(t, models.ListEvents, v.Encode())
		}
		want := 0
		for _, id := range members {
			if moved[id] {
				continue
			}
			want++
			if seen[id] != 1 {
				t.Errorf("%s: event %d, which did not move, listed %d times", filter, id, seen[id])
			}
		}
		if want < 100 {
			t.Fatalf("%s: only %d events to check", filter, want)
		}
	}
}

// spanBefore says whether a comes before b in the listing's time order.
func spanBefore(a, b *models.Event) bool {
	ta, tb := a.SpanStart(), b.SpanStart()
	switch {
	case ta == nil:
		return false
	case tb == nil:
		return true
	case !ta.Equal(*tb):
		return ta.Before(*tb)
	}
	return a.ID < b.ID
}

// walkIDs is every id of GET /api/events?filter, walked to the end.
func walkIDs(t *testing.T, s *app.Service, filter string) []int64 {
	t.Helper()
	var out []int64
	v, _ := url.ParseQuery(filter)
	for {
		p, err := s.List(context.Background(), listQuery(t, models.ListEvents, v.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ids(p.Items)...)
		if p.NextCursor == nil {
			return out
		}
		v.Set("cursor", *p.NextCursor)
	}
}
