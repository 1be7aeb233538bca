// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"events/docs"
)

// The keys of an event answer: those of docs/openapi.json, the document
// every answer is checked against.
var eventKeys = docs.EventKeys()

func TestCreateAnswers201WithLocationAndTheEvent(t *testing.T) {
	s := newServer(t)
	a := s.json("POST", "/api/events",
		`{"kind": "task", "title": "  Pay rent  ", "due_at": "2026-11-25T09:00:00+09:00", "priority": 2, "project_tag": "home"}`)
	e := a.event(t, http.StatusCreated)
	if e.ID < 1 {
		t.Fatalf("id = %d, want a positive number", e.ID)
	}
	if got, want := a.Header.Get("Location"), "/api/events/"+strconv.FormatInt(e.ID, 10); got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(a.Body, &raw); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := slices.Clone(eventKeys)
	slices.Sort(want)
	if !slices.Equal(keys, want) {
		t.Errorf("keys = %q, want %q", keys, want)
	}
	if string(raw["id"]) != strconv.FormatInt(e.ID, 10) {
		t.Errorf("id = %s, want a JSON number", raw["id"])
	}

	now := "2026-11-22T03:00:00.000000Z"
	checks := []struct{ name, got, want string }{
		{"kind", e.Kind, "task"},
		{"status", e.Status, "planned"},
		{"title", e.Title, "Pay rent"},
		{"description", e.Description, ""},
		{"start_at", str(e.StartAt), "null"},
		{"end_at", str(e.EndAt), "null"},
		{"all_day", strconv.FormatBool(e.AllDay), "false"},
		{"due_at", str(e.DueAt), "2026-11-25T00:00:00.000000Z"},
		{"started_at", str(e.StartedAt), "null"},
		{"ended_at", str(e.EndedAt), "null"},
		{"priority", strconv.Itoa(e.Priority), "2"},
		{"project_tag", str(e.ProjectTag), "home"},
		{"completed_at", str(e.CompletedAt), "null"},
		{"cancelled_at", str(e.CancelledAt), "null"},
		{"defer_until", str(e.DeferUntil), "null"},
		{"source", str(e.Source), "null"},
		{"source_ref", str(e.SourceRef), "null"},
		{"reactivate_to", str(e.ReactivateTo), "null"},
		{"created_at", e.CreatedAt, now},
		{"updated_at", e.UpdatedAt, now},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %s, want %s", c.name, c.got, c.want)
		}
	}

	// GET answers the same object.
	g := s.get(path(e.ID)).want(t, http.StatusOK)
	if string(g.Body) != string(a.Body) {
		t.Errorf("GET %d = %s, want the created event %s", e.ID, g.Body, a.Body)
	}
	h := s.history(e.ID)
	if len(h) != 1 || h[0].ChangeKind != "create" || h[0].Actor != "api" || h[0].StatusAfter != "planned" ||
		h[0].StatusBefore != nil || h[0].OccurredAt != now || h[0].EventID != e.ID {
		t.Errorf("history = %+v, want one create row by api at %s", h, now)
	}
}

// Times are answered in UTC at microsecond precision, whatever offset and
// precision the request used.
func TestTimesAreUTCMicroseconds(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"calendar_event","title":"x","start_at":"2026-11-25T09:00:00.123456789+09:00","end_at":"2026-11-25T01:30:00-05:00"}`)
	if str(e.StartAt) != "2026-11-25T00:00:00.123456Z" || str(e.EndAt) != "2026-11-25T06:30:00.000000Z" {
		t.Errorf("start_at, end_at = %s, %s; want 2026-11-25T00:00:00.123456Z, 2026-11-25T06:30:00.000000Z", str(e.StartAt), str(e.EndAt))
	}
	if g := s.get(path(e.ID)).event(t, http.StatusOK); str(g.StartAt) != str(e.StartAt) {
		t.Errorf("stored start_at = %s, want %s", str(g.StartAt), str(e.StartAt))
	}
}

func TestCreateActivityLogDefaultsToDoneEndedNow(t *testing.T) {
	s := newServer(t)
	s.clock.Set(time.Date(2026, 11, 22, 3, 0, 0, 123456789, time.UTC))
	e := s.create(`{"kind":"activity_log","title":"x"}`)
	if e.Status != "done" || str(e.EndedAt) != "2026-11-22T03:00:00.123456Z" || e.StartedAt != nil || e.CompletedAt != nil {
		t.Errorf("quick record = status %s, ended_at %s, started_at %s, completed_at %s; want done, 2026-11-22T03:00:00.123456Z, null, null",
			e.Status, str(e.EndedAt), str(e.StartedAt), str(e.CompletedAt))
	}
	// An empty title is allowed for a log.
	e = s.create(`{"kind":"activity_log"}`)
	if e.Status != "done" || e.Title != "" || e.EndedAt == nil {
		t.Errorf("untitled quick record = %+v, want done with an end", e)
	}
	// A running log: started now, no end.
	e = s.create(`{"kind":"activity_log","title":"run","status":"in_progress"}`)
	if e.Status != "in_progress" || str(e.StartedAt) != "2026-11-22T03:00:00.123456Z" || e.EndedAt != nil {
		t.Errorf("running log = status %s, started_at %s, ended_at %s; want in_progress, now, null", e.Status, str(e.StartedAt), str(e.EndedAt))
	}
}

func TestCreateCalendarEventAllDay(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"calendar_event","title":"Trip","start_at":"2026-11-25T10:00:00+09:00","all_day":true}`)
	if str(e.StartAt) != "2026-11-24T15:00:00.000000Z" || str(e.EndAt) != "2026-11-25T15:00:00.000000Z" || !e.AllDay {
		t.Errorf("all-day entry = %s..%s all_day %v, want the Seoul day 2026-11-24T15:00:00.000000Z..2026-11-25T15:00:00.000000Z",
			str(e.StartAt), str(e.EndAt), e.AllDay)
	}
}

// listing is a set of events, named, for the listing tests.
type listing map[string]int64

// seedListing stores events around t0 (2026-11-22 12:00 in Seoul):
//
//	E task due 11-20 (overdue), tag home     C calendar 11-21T16:00Z..17:00Z (Seoul 11-22 01:00)
//	D log 11-22T02:00Z..03:00Z               F calendar 11-22T16:00Z (Seoul 11-23, UTC 11-22)
//	A task due 11-23T00:00Z, tag home        B task without a time (inbox)
//	G task without a time, cancelled         H task without a time, from email
func seedListing(s *server) listing {
	s.t.Helper()
	l := listing{}
	l["A"] = s.create(`{"kind":"task","title":"A","due_at":"2026-11-23T00:00:00Z","project_tag":"home"}`).ID
	l["B"] = s.create(`{"kind":"task","title":"B"}`).ID
	l["C"] = s.create(`{"kind":"calendar_event","title":"C","start_at":"2026-11-21T16:00:00Z","end_at":"2026-11-21T17:00:00Z"}`).ID
	l["D"] = s.create(`{"kind":"activity_log","title":"D","started_at":"2026-11-22T02:00:00Z"}`).ID
	l["E"] = s.create(`{"kind":"task","title":"E","due_at":"2026-11-20T00:00:00Z","project_tag":"home"}`).ID
	l["F"] = s.create(`{"kind":"calendar_event","title":"F","start_at":"2026-11-22T16:00:00Z"}`).ID
	l["G"] = s.create(`{"kind":"task","title":"G"}`).ID
	s.op(l["G"], "cancel", "")
	l["H"] = s.create(`{"kind":"task","title":"H","source":"email","source_ref":"msg-1"}`).ID
	return l
}

func (l listing) ids(names ...string) []int64 {
	out := make([]int64, len(names))
	for i, n := range names {
		out[i] = l[n]
	}
	return out
}

func (l listing) pages(names ...[]string) [][]int64 {
	out := make([][]int64, len(names))
	for i, n := range names {
		out[i] = l.ids(n...)
	}
	return out
}

func TestListFiltersOrderAndCursors(t *testing.T) {
	s := newServer(t)
	l := seedListing(s)
	tests := []struct {
		target string
		want   []string
	}{
		{"/api/events", []string{"E", "C", "D", "F", "A", "B", "G", "H"}},
		{"/api/events?kind=task", []string{"E", "A", "B", "G", "H"}},
		{"/api/events?kind=calendar_event,activity_log", []string{"C", "D", "F"}},
		{"/api/events?status=cancelled", []string{"G"}},
		{"/api/events?status=planned,done", []string{"E", "C", "D", "F", "A", "B", "H"}},
		{"/api/events?project_tag=home", []string{"E", "A"}},
		{"/api/events?source=email", []string{"H"}},
		{"/api/events?from=2026-11-21T00:00:00Z&to=2026-11-22T12:00:00Z", []string{"C", "D"}},
		{"/api/events?from=2026-11-22T00:00:00%2B09:00&to=2026-11-23T00:00:00%2B09:00", []string{"C", "D"}},
		{"/api/events?kind=task&from=2026-11-19T00:00:00Z", []string{"E", "A"}},
	}
	for _, tt := range tests {
		p := s.get(tt.target).page(t)
		if got, want := ids(p.Items), l.ids(tt.want...); !slices.Equal(got, want) {
			t.Errorf("GET %s = %v, want %v (%v)", tt.target, got, want, tt.want)
		}
		if p.NextCursor != nil {
			t.Errorf("GET %s: next_cursor = %q, want null", tt.target, *p.NextCursor)
		}
	}

	walks := []struct {
		target string
		want   [][]string
	}{
		{"/api/events?limit=3", [][]string{{"E", "C", "D"}, {"F", "A", "B"}, {"G", "H"}}},
		{"/api/events?kind=task&limit=2", [][]string{{"E", "A"}, {"B", "G"}, {"H"}}},
		{"/api/events?limit=1&project_tag=home", [][]string{{"E"}, {"A"}}},
	}
	for _, w := range walks {
		if got, want := s.walk(w.target), l.pages(w.want...); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("walking %s = %v, want %v", w.target, got, want)
		}
	}
}

func TestTodayInboxAndZones(t *testing.T) {
	s := newServer(t)
	l := seedListing(s)
	tests := []struct {
		target string
		want   []string
	}{
		// Seoul's 2026-11-22: overdue E first, then C (01:00) and D (11:00).
		{"/api/events/today", []string{"E", "C", "D"}},
		// UTC's 2026-11-22: E overdue, then D and F; A (due at the next midnight) is not in it.
		{"/api/events/today?tz=UTC", []string{"E", "D", "F"}},
		{"/api/events/today?tz=Asia/Seoul", []string{"E", "C", "D"}},
		{"/api/events/inbox", []string{"B", "H"}},
	}
	for _, tt := range tests {
		p := s.get(tt.target).page(t)
		if got, want := ids(p.Items), l.ids(tt.want...); !slices.Equal(got, want) {
			t.Errorf("GET %s = %v, want %v (%v)", tt.target, got, want, tt.want)
		}
	}
	if got, want := s.walk("/api/events/today?limit=2"), l.pages([]string{"E", "C"}, []string{"D"}); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("walking today = %v, want %v", got, want)
	}
	if got, want := s.walk("/api/events/inbox?limit=1"), l.pages([]string{"B"}, []string{"H"}); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("walking inbox = %v, want %v", got, want)
	}
}

func TestTodayShowsADeferredEventOnlyOnceItIsDue(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"due today","due_at":"2026-11-22T05:00:00Z"}`)
	s.op(e.ID, "defer", `{"defer_until":"2026-11-22T06:00:00Z"}`)
	if got := ids(s.get("/api/events/today").page(t).Items); len(got) != 0 {
		t.Errorf("today before defer_until = %v, want nothing", got)
	}
	s.clock.Set(time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC))
	if got := ids(s.get("/api/events/today").page(t).Items); !slices.Equal(got, []int64{e.ID}) {
		t.Errorf("today at defer_until = %v, want [%d]", got, e.ID)
	}
}

func TestActivityWindow(t *testing.T) {
	s := newServer(t)
	old := s.create(`{"kind":"activity_log","title":"old","started_at":"2026-11-10T00:00:00Z","ended_at":"2026-11-10T01:00:00Z"}`)
	week := s.create(`{"kind":"activity_log","title":"this week","ended_at":"2026-11-20T00:00:00Z"}`)
	now := s.create(`{"kind":"activity_log","title":"now"}`)
	seoulOnly := s.create(`{"kind":"activity_log","title":"Seoul's Monday","ended_at":"2026-11-15T16:00:00Z"}`)
	cancelled := s.create(`{"kind":"activity_log","title":"dropped","ended_at":"2026-11-21T00:00:00Z"}`)
	s.op(cancelled.ID, "cancel", "")
	s.create(`{"kind":"task","title":"not a log","due_at":"2026-11-21T00:00:00Z"}`)

	tests := []struct {
		target string
		want   []int64
	}{
		// From Seoul's 2026-11-16 00:00 (11-15T15:00Z) to the end of its 11-22.
		{"/api/events/activity", []int64{now.ID, week.ID, seoulOnly.ID}},
		// From UTC's 2026-11-16 00:00.
		{"/api/events/activity?tz=UTC", []int64{now.ID, week.ID}},
		{"/api/events/activity?from=2026-11-01T00:00:00Z&to=2026-11-15T00:00:00Z", []int64{old.ID}},
		{"/api/events/activity?from=2026-11-01T00:00:00Z", []int64{now.ID, week.ID, seoulOnly.ID, old.ID}},
		{"/api/events/activity?to=2026-11-21T00:00:00Z", []int64{week.ID, seoulOnly.ID, old.ID}},
	}
	for _, tt := range tests {
		if got := ids(s.get(tt.target).page(t).Items); !slices.Equal(got, tt.want) {
			t.Errorf("GET %s = %v, want %v", tt.target, got, tt.want)
		}
	}
	want := [][]int64{{now.ID, week.ID}, {seoulOnly.ID, old.ID}}
	if got := s.walk("/api/events/activity?from=2026-11-01T00:00:00Z&limit=2"); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("walking activity = %v, want %v", got, want)
	}
}

func TestPatchEditsAndReschedules(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"Pay rent","due_at":"2026-11-25T00:00:00Z"}`)
	s.clock.Add(time.Hour)

	// Same instant in another offset, and a new title: no reschedule row.
	p := s.json("PATCH", path(e.ID), `{"title":"Pay the rent","due_at":"2026-11-25T09:00:00+09:00","project_tag":"home"}`).event(t, http.StatusOK)
	if p.Title != "Pay the rent" || str(p.DueAt) != "2026-11-25T00:00:00.000000Z" || str(p.ProjectTag) != "home" ||
		p.UpdatedAt != "2026-11-22T04:00:00.000000Z" || p.CreatedAt != e.CreatedAt {
		t.Errorf("PATCH = %+v, want the new title and tag, the same due_at, updated now", p)
	}
	if got := changeKinds(s.history(e.ID)); !slices.Equal(got, []string{"create"}) {
		t.Errorf("history after a PATCH without a time change = %v, want [create]", got)
	}

	// A new due time and a start: one reschedule row naming both.
	p = s.json("PATCH", path(e.ID), `{"due_at":"2026-11-26T00:00:00Z","start_at":"2026-11-24T00:00:00Z","description":"bank"}`).event(t, http.StatusOK)
	if str(p.DueAt) != "2026-11-26T00:00:00.000000Z" || str(p.StartAt) != "2026-11-24T00:00:00.000000Z" || p.Description != "bank" {
		t.Errorf("PATCH = %+v, want due_at 11-26, start_at 11-24, description bank", p)
	}
	h := s.history(e.ID)
	if got := changeKinds(h); !slices.Equal(got, []string{"create", "reschedule"}) {
		t.Fatalf("history = %v, want [create reschedule]", got)
	}
	r := h[1]
	wantChanges := map[string]map[string]any{
		"due_at":   {"old": "2026-11-25T00:00:00.000000Z", "new": "2026-11-26T00:00:00.000000Z"},
		"start_at": {"old": nil, "new": "2026-11-24T00:00:00.000000Z"},
	}
	if !equalChanges(r.Changes, wantChanges) || r.Actor != "api" || str(r.StatusBefore) != "planned" || r.StatusAfter != "planned" ||
		r.OccurredAt != "2026-11-22T04:00:00.000000Z" {
		t.Errorf("reschedule row = %+v, want changes %v by api at 04:00", r, wantChanges)
	}

	// null clears a time; GET sees the stored result.
	s.json("PATCH", path(e.ID), `{"start_at":null}`).want(t, http.StatusOK)
	if g := s.get(path(e.ID)).event(t, http.StatusOK); g.StartAt != nil || g.Title != "Pay the rent" {
		t.Errorf("GET after start_at null = %+v, want no start_at and the title kept", g)
	}
	// An empty PATCH changes nothing.
	before := s.get(path(e.ID)).want(t, http.StatusOK)
	s.clock.Add(time.Hour)
	if p := s.json("PATCH", path(e.ID), `{}`).want(t, http.StatusOK); string(p.Body) != string(before.Body) {
		t.Errorf("empty PATCH = %s, want %s", p.Body, before.Body)
	}
}

func equalChanges(got, want map[string]map[string]any) bool {
	if len(got) != len(want) {
		return false
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok || len(g) != 2 || g["old"] != w["old"] || g["new"] != w["new"] {
			return false
		}
	}
	return true
}

func TestLifecycleOperationsAndHistory(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"Write report","due_at":"2026-11-24T00:00:00Z"}`)

	s.clock.Add(time.Hour) // 04:00
	d := s.op(e.ID, "defer", `{"defer_until":"2026-11-23T00:00:00+09:00"}`)
	if d.Status != "deferred" || str(d.DeferUntil) != "2026-11-22T15:00:00.000000Z" || str(d.ReactivateTo) != "planned" ||
		d.UpdatedAt != "2026-11-22T04:00:00.000000Z" {
		t.Errorf("defer = %+v, want deferred until 2026-11-22T15:00:00.000000Z, reactivate_to planned", d)
	}

	s.clock.Add(time.Hour) // 05:00
	c := s.op(e.ID, "complete", "")
	if c.Status != "done" || str(c.CompletedAt) != "2026-11-22T05:00:00.000000Z" || c.DeferUntil != nil || str(c.ReactivateTo) != "deferred" {
		t.Errorf("complete = %+v, want done at 05:00, defer_until cleared, reactivate_to deferred", c)
	}

	s.clock.Add(time.Hour) // 06:00
	r := s.op(e.ID, "reactivate", "")
	if r.Status != "deferred" || str(r.DeferUntil) != "2026-11-22T15:00:00.000000Z" || r.CompletedAt != nil || str(r.ReactivateTo) != "planned" {
		t.Errorf("reactivate = %+v, want deferred again with its defer_until, completed_at cleared", r)
	}
	r = s.op(e.ID, "reactivate", "{}")
	if r.Status != "planned" || r.DeferUntil != nil || r.ReactivateTo != nil {
		t.Errorf("second reactivate = %+v, want planned, nothing left to undo", r)
	}
	s.json("POST", path(e.ID, "reactivate"), "").problem(t, http.StatusConflict, "status")

	s.clock.Add(time.Hour) // 07:00
	xa := s.json("POST", path(e.ID, "cancel"), "")
	x := xa.event(t, http.StatusOK)
	if x.Status != "cancelled" || str(x.CancelledAt) != "2026-11-22T07:00:00.000000Z" {
		t.Errorf("cancel = %+v, want cancelled at 07:00", x)
	}
	if g := s.get(path(e.ID)).want(t, http.StatusOK); string(g.Body) != string(xa.Body) {
		t.Errorf("GET after cancel = %s, want %s", g.Body, xa.Body)
	}

	h := s.history(e.ID)
	wantKinds := []string{"create", "defer", "complete", "reactivate", "reactivate", "cancel"}
	if got := changeKinds(h); !slices.Equal(got, wantKinds) {
		t.Fatalf("history = %v, want %v (oldest first)", got, wantKinds)
	}
	wantAt := []string{"03", "04", "05", "06", "06", "07"}
	wantBefore := []string{"null", "planned", "deferred", "done", "deferred", "planned"}
	wantAfter := []string{"planned", "deferred", "done", "deferred", "planned", "cancelled"}
	for i, row := range h {
		if row.OccurredAt != "2026-11-22T"+wantAt[i]+":00:00.000000Z" || str(row.StatusBefore) != wantBefore[i] ||
			row.StatusAfter != wantAfter[i] || row.Actor != "api" || row.EventID != e.ID {
			t.Errorf("history[%d] = %+v, want at %s:00, %s -> %s, by api", i, row, wantAt[i], wantBefore[i], wantAfter[i])
		}
		if i > 0 && row.ID <= h[i-1].ID {
			t.Errorf("history[%d].id = %d, not after %d", i, row.ID, h[i-1].ID)
		}
	}
	if h[3].Undoes == nil || *h[3].Undoes != h[2].ID || h[4].Undoes == nil || *h[4].Undoes != h[1].ID {
		t.Errorf("reactivates undo %v and %v, want %d (complete) and %d (defer)", h[3].Undoes, h[4].Undoes, h[2].ID, h[1].ID)
	}
	if got := h[1].Changes["defer_until"]; got["old"] != nil || got["new"] != "2026-11-22T15:00:00.000000Z" {
		t.Errorf("defer row changes = %v, want defer_until null -> 2026-11-22T15:00:00.000000Z", h[1].Changes)
	}

	// The history pages oldest first too.
	var all []int64
	next := path(e.ID, "history") + "?limit=4"
	for {
		var p historyPage
		s.get(next).wantJSON(t, http.StatusOK, &p)
		for _, row := range p.Items {
			all = append(all, row.ID)
		}
		if p.NextCursor == nil {
			break
		}
		next = path(e.ID, "history") + "?limit=4&cursor=" + *p.NextCursor
	}
	var want []int64
	for _, row := range h {
		want = append(want, row.ID)
	}
	if !slices.Equal(all, want) {
		t.Errorf("history walked with limit=4 = %v, want %v", all, want)
	}
}

func TestCancelOfADoneEventKeepsCompletedAt(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	s.op(e.ID, "complete", "")
	s.clock.Add(time.Hour)
	c := s.op(e.ID, "cancel", "")
	if c.Status != "cancelled" || str(c.CompletedAt) != "2026-11-22T03:00:00.000000Z" || str(c.CancelledAt) != "2026-11-22T04:00:00.000000Z" {
		t.Errorf("cancel of a done task = %+v, want cancelled at 04:00 with completed_at kept", c)
	}
	r := s.op(e.ID, "reactivate", "")
	if r.Status != "done" || str(r.CompletedAt) != "2026-11-22T03:00:00.000000Z" || r.CancelledAt != nil {
		t.Errorf("reactivate = %+v, want done again, cancelled_at cleared", r)
	}
}

func TestCompleteARunningLogEndsIt(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"activity_log","title":"run","status":"in_progress"}`)
	s.clock.Add(30 * time.Minute)
	c := s.op(e.ID, "complete", "")
	if c.Status != "done" || str(c.EndedAt) != "2026-11-22T03:30:00.000000Z" || str(c.CompletedAt) != "2026-11-22T03:30:00.000000Z" {
		t.Errorf("complete of a running log = %+v, want done, ended and completed at 03:30", c)
	}
}

func TestHealthAndReady(t *testing.T) {
	s := newServer(t)
	for _, target := range []string{"/healthz", "/readyz"} {
		var body map[string]string
		s.get(target).wantJSON(t, http.StatusOK, &body)
	}
}
