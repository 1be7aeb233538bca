// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Running logs and overlaps (DESIGN.md): a create of an activity log may
// stop the log that runs first (stop_running), and names the logs its span
// overlaps; overlap allow, refuse or before chooses what then happens. The
// clock stands at t0, 12:00 in Seoul.

// created is a create's answer with the overlaps a log's create carries.
type created struct {
	event
	Overlaps []overlap `json:"overlaps"`
}

type overlap struct {
	ID      int64  `json:"id"`
	Title   string `json:"title"`
	Seconds int64  `json:"seconds"`
}

// createLog posts a JSON create and decodes the answer with its overlaps,
// failing on anything but 201.
func (s *server) createLog(body string) (created, map[string]json.RawMessage) {
	s.t.Helper()
	a := s.json("POST", "/api/events", body).want(s.t, http.StatusCreated)
	var c created
	decode(s.t, a, &c)
	var raw map[string]json.RawMessage
	decode(s.t, a, &raw)
	return c, raw
}

func TestStopRunningStopsTheRunningLogFirst(t *testing.T) {
	s := newServer(t)
	a := s.create(`{"kind":"activity_log","title":"writing","status":"in_progress","started_at":"2026-11-22T10:00:00+09:00"}`)

	// Without stop_running both run, as before.
	b := s.create(`{"kind":"activity_log","title":"call","status":"in_progress"}`)
	for _, id := range []int64{a.ID, b.ID} {
		if e := s.get(path(id)).event(t, http.StatusOK); e.Status != "in_progress" {
			t.Fatalf("event %d is %s without stop_running, want in_progress", id, e.Status)
		}
	}

	// With it, both stop (now: they started before the new log's now), one
	// complete row each, in the create's transaction; the new log runs.
	c, _ := s.createLog(`{"kind":"activity_log","text":"deep work #work","status":"in_progress","stop_running":true}`)
	if c.Status != "in_progress" || c.Title != "deep work" || tagOf(c.event) != "work" {
		t.Fatalf("new log = %s %q #%s, want in_progress \"deep work\" #work", c.Status, c.Title, tagOf(c.event))
	}
	for _, id := range []int64{a.ID, b.ID} {
		e := s.get(path(id)).event(t, http.StatusOK)
		if e.Status != "done" {
			t.Errorf("event %d is %s after a start with stop_running, want done", id, e.Status)
		}
		wantAt(t, "ended_at", e.EndedAt, t0)
		if got := changeKinds(s.history(id)); !slices.Equal(got, []string{"create", "complete"}) {
			t.Errorf("history of %d = %v, want create, complete", id, got)
		}
	}
}

func TestStopRunningEndsTheRunningLogWhereTheNewOneStarts(t *testing.T) {
	s := newServer(t)
	a := s.create(`{"kind":"activity_log","title":"email","status":"in_progress","started_at":"2026-11-22T09:00:00+09:00"}`)
	c, raw := s.createLog(`{"kind":"activity_log","text":"deep work since 10:30","status":"in_progress","stop_running":true}`)
	wantAt(t, "started_at", c.StartedAt, kst(11, 22, 10, 30))
	e := s.get(path(a.ID)).event(t, http.StatusOK)
	wantAt(t, "stopped log's ended_at", e.EndedAt, kst(11, 22, 10, 30))
	wantAt(t, "stopped log's completed_at", e.CompletedAt, t0)
	// It ended where the new one began: they do not overlap.
	if string(raw["overlaps"]) != "[]" {
		t.Errorf("overlaps = %s, want []", raw["overlaps"])
	}
	// stop_running with a finished record stops nothing.
	b := s.create(`{"kind":"activity_log","title":"call","status":"in_progress"}`)
	s.create(`{"kind":"activity_log","text":"tea 5m","stop_running":true}`)
	if e := s.get(path(b.ID)).event(t, http.StatusOK); e.Status != "in_progress" {
		t.Errorf("a finished record with stop_running stopped the running log: %s", e.Status)
	}
}

func TestCreateOfALogNamesItsOverlaps(t *testing.T) {
	s := newServer(t)
	meeting, raw := s.createLog(`{"kind":"activity_log","text":"회의 30분"}`) // 11:30-12:00
	if string(raw["overlaps"]) != "[]" {
		t.Errorf("first log: overlaps = %s, want []", raw["overlaps"])
	}
	review, _ := s.createLog(`{"kind":"activity_log","text":"code review 45m"}`) // 11:15-12:00
	if want := []overlap{{meeting.ID, "회의", 1800}}; !slices.Equal(review.Overlaps, want) {
		t.Errorf("overlaps = %+v, want %+v", review.Overlaps, want)
	}
	// A running log counts up to now; a cancelled one not at all; a quick
	// record (an instant) overlaps nothing.
	running := s.create(`{"kind":"activity_log","title":"build","status":"in_progress","started_at":"2026-11-22T11:50:00+09:00"}`)
	gone := s.create(`{"kind":"activity_log","text":"lunch 11:00-12:00"}`)
	s.op(gone.ID, "cancel", "")
	lunch, _ := s.createLog(`{"kind":"activity_log","text":"lunch 11:40-11:55"}`)
	want := []overlap{{review.ID, "code review", 900}, {meeting.ID, "회의", 900}, {running.ID, "build", 300}}
	if !slices.Equal(lunch.Overlaps, want) {
		t.Errorf("overlaps = %+v, want %+v", lunch.Overlaps, want)
	}
	if quick, _ := s.createLog(`{"kind":"activity_log","title":"ping"}`); len(quick.Overlaps) != 0 {
		t.Errorf("a quick record overlaps %+v, want none", quick.Overlaps)
	}
	// A task's answer has no overlaps.
	if _, raw := s.createLog(`{"kind":"task","title":"Pay rent","due_at":"2026-11-22T11:45:00+09:00"}`); raw["overlaps"] != nil {
		t.Errorf("a task's answer carries overlaps: %s", raw["overlaps"])
	}
}

func TestOverlapRefuseIs409NamingTheLogs(t *testing.T) {
	s := newServer(t)
	meeting := s.create(`{"kind":"activity_log","text":"회의 30분"}`)
	events, rows := s.counts()
	a := s.json("POST", "/api/events", `{"kind":"activity_log","text":"code review 45m","overlap":"refuse"}`)
	p := a.problem(t, http.StatusConflict)
	var body struct{ Overlaps []overlap }
	decode(t, a, &body)
	if want := []overlap{{meeting.ID, "회의", 1800}}; !slices.Equal(body.Overlaps, want) {
		t.Errorf("overlaps = %+v, want %+v", body.Overlaps, want)
	}
	if !strings.Contains(p.Detail, `"회의"`) || !strings.Contains(p.Detail, "30 min") {
		t.Errorf("detail %q does not name the log and the minutes", p.Detail)
	}
	if e, r := s.counts(); e != events || r != rows {
		t.Errorf("a refused create wrote: %d events, %d rows; want %d, %d", e, r, events, rows)
	}
	// Nothing overlapped: stored as asked.
	s.create(`{"kind":"activity_log","text":"gym 8:00-9:00","overlap":"refuse"}`)
}

func TestOverlapBeforePlacesItBeforeTheEarliest(t *testing.T) {
	s := newServer(t)
	gym := s.create(`{"kind":"activity_log","text":"gym 9:30-10:30"}`)
	s.create(`{"kind":"activity_log","text":"회의 30분"}`)              // 11:30-12:00
	s.create(`{"kind":"activity_log","text":"standup 11:20-11:40"}`) // 11:20-11:40
	c, raw := s.createLog(`{"kind":"activity_log","text":"code review 45m","overlap":"before"}`)
	// The same 45 minutes, ending where standup (the earliest) begins.
	wantAt(t, "started_at", c.StartedAt, kst(11, 22, 10, 35))
	wantAt(t, "ended_at", c.EndedAt, kst(11, 22, 11, 20))
	if string(raw["overlaps"]) != "[]" {
		t.Errorf("overlaps = %s, want []", raw["overlaps"])
	}
	if got := changeKinds(s.history(c.ID)); !slices.Equal(got, []string{"create"}) {
		t.Errorf("history = %v, want create", got)
	}
	// design 11:00-12:00 overlaps code review first; the hour before it,
	// 9:35-10:35, is gym's: 409 naming gym.
	events, rows := s.counts()
	a := s.json("POST", "/api/events", `{"kind":"activity_log","text":"design 1h","overlap":"before"}`)
	p := a.problem(t, http.StatusConflict)
	var body struct{ Overlaps []overlap }
	decode(t, a, &body)
	if want := []overlap{{gym.ID, "gym", 3300}}; !slices.Equal(body.Overlaps, want) || !strings.Contains(p.Detail, `"gym"`) {
		t.Errorf("409 = %s, want it to name %+v", a.Body, want)
	}
	if e, r := s.counts(); e != events || r != rows {
		t.Errorf("a refused create wrote: %d events, %d rows; want %d, %d", e, r, events, rows)
	}
}

func TestCreateOptionsAreCheckedByName(t *testing.T) {
	s := newServer(t)
	events, rows := s.counts()
	for _, c := range []struct{ body, field string }{
		{`{"kind":"activity_log","title":"x","overlap":"maybe"}`, "overlap"},
		{`{"kind":"activity_log","title":"x","overlap":1}`, "overlap"},
		{`{"kind":"task","title":"x","overlap":"refuse"}`, "overlap"},
		{`{"kind":"task","title":"x","stop_running":true}`, "stop_running"},
		{`{"kind":"activity_log","title":"x","stop_running":"yes"}`, "stop_running"},
		{`{"kind":"activity_log","title":"x","status":"in_progress","overlap":"before"}`, "overlap"},
	} {
		s.json("POST", "/api/events", c.body).problem(t, http.StatusUnprocessableEntity, c.field)
	}
	// Both a field of the event and an option: one 422 naming both.
	s.json("POST", "/api/events", `{"kind":"task","overlap":"refuse"}`).problem(t, http.StatusUnprocessableEntity, "title", "overlap")
	// Options are no fields of an event: a PATCH refuses them.
	e := s.create(`{"kind":"activity_log","title":"x"}`)
	s.json("PATCH", path(e.ID), `{"overlap":"allow"}`).problem(t, http.StatusUnprocessableEntity, "overlap")
	if ev, r := s.counts(); ev != events+1 || r != rows+1 {
		t.Errorf("refused requests wrote: %d events, %d rows", ev-events-1, r-rows-1)
	}
}

// The pages: the new row says what it overlaps and offers the move before
// them, a PATCH of its times that writes one reschedule row.
func TestRecordLineSaysTheOverlapAndMovesIt(t *testing.T) {
	s := newServer(t)
	s.create(`{"kind":"activity_log","text":"회의 30분"}`)
	row := s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {"code review 45m"}, "stop_running": {"true"}},
		"HX-Request", "true").html(t, http.StatusCreated)
	if !strings.Contains(row, `<p class="overlap" role="status">Added: it overlaps “회의” by 30 min.</p>`) {
		t.Fatalf("the new row does not say the overlap: %s", row)
	}
	m := regexp.MustCompile(`<form class="overlap-fix" hx-patch="(/api/events/\d+)"[^>]*><input type="hidden" name="started_at" value="([^"]+)"><input type="hidden" name="ended_at" value="([^"]+)"><button type="submit">Move it before: 10:45–11:30</button></form>`).FindStringSubmatch(row)
	if m == nil {
		t.Fatalf("the new row offers no move before 11:30: %s", row)
	}
	moved := s.form("PATCH", m[1], url.Values{"started_at": {m[2]}, "ended_at": {m[3]}}, "HX-Request", "true").html(t, http.StatusOK)
	if strings.Contains(moved, "overlap") {
		t.Errorf("the moved row still speaks of the overlap: %s", moved)
	}
	e := s.get(m[1]).event(t, http.StatusOK)
	wantAt(t, "started_at", e.StartedAt, kst(11, 22, 10, 45))
	wantAt(t, "ended_at", e.EndedAt, kst(11, 22, 11, 30))
	if got := changeKinds(s.history(e.ID)); !slices.Equal(got, []string{"create", "reschedule"}) {
		t.Errorf("history = %v, want create, reschedule", got)
	}
	// A record that overlaps nothing says nothing of overlaps.
	quiet := s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {"gym 8:00-9:00"}}, "HX-Request", "true").html(t, http.StatusCreated)
	if strings.Contains(quiet, "overlap") {
		t.Errorf("a record without overlap speaks of one: %s", quiet)
	}
}

// The record line's Start: the line's text as a running log; the running
// one stops first and its row, marked to replace itself, says so.
func TestRecordLineStartStopsTheRunningLog(t *testing.T) {
	s := newServer(t)
	old := s.create(`{"kind":"activity_log","title":"email","status":"in_progress","started_at":"2026-11-22T11:00:00+09:00"}`)
	body := s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {"deep work #work"}, "status": {"in_progress"}, "stop_running": {"true"}},
		"HX-Request", "true").html(t, http.StatusCreated)
	if !strings.Contains(body, `data-status="in_progress"`) || !strings.Contains(body, `>Stop</button>`) {
		t.Errorf("the started row has no Stop: %s", body)
	}
	oob := `<li hx-swap-oob="true" class="event-row" id="event-` + itoa(old.ID) + `" data-kind="activity_log" data-status="done"`
	if !strings.Contains(body, oob) || !strings.Contains(body, "Stopped at 12:00 after 1 h.") {
		t.Errorf("the answer does not redraw the stopped log (%s): %s", oob, body)
	}
}

// Stop, on a running log's row, on Today's Now section and on its detail
// page, is the complete operation: one history row, and no undo or other
// lifecycle button on the finished log.
func TestStopOnTheRowTodayAndDetail(t *testing.T) {
	s := newServer(t)
	run := s.create(`{"kind":"activity_log","title":"deep work","status":"in_progress","started_at":"2026-11-22T11:15:00+09:00"}`)
	done := s.create(`{"kind":"activity_log","text":"standup 15m"}`)
	stop := `<button type="button" class="op op-stop" data-op="stop" hx-post="/api/events/` + itoa(run.ID) + `/complete"`

	today := string(s.get("/events").want(t, http.StatusOK).Body)
	now := today[strings.Index(today, `data-section="now"`):strings.Index(today, `data-section="schedule"`)]
	if !strings.Contains(now, stop+` hx-target="closest li" hx-swap="outerHTML">Stop</button>`) {
		t.Errorf("Today's Now section has no Stop for the running log: %s", now)
	}
	if strings.Count(today, `class="op op-stop"`) != 1 || strings.Contains(today, `/api/events/`+itoa(done.ID)+`/`) {
		t.Errorf("Today offers a lifecycle control on a finished log")
	}
	detail := string(s.get("/events/"+itoa(run.ID)).want(t, http.StatusOK).Body)
	if !strings.Contains(detail, stop+` hx-target="#detail" hx-swap="outerHTML">Stop</button>`) {
		t.Errorf("the detail page has no Stop: %s", detail)
	}

	row := s.do("POST", path(run.ID, "complete"), "", "", "HX-Request", "true").html(t, http.StatusOK)
	// (it overlaps standup: its overlap mark's move is the one button)
	if !strings.Contains(row, "Stopped at 12:00 after 45 min.") || strings.Contains(row, `class="op`) || strings.Count(row, "<button") != strings.Count(row, `class="overlap-fix"`) {
		t.Errorf("the stopped row: %s; want when it stopped and no lifecycle button", row)
	}
	if got := changeKinds(s.history(run.ID)); !slices.Equal(got, []string{"create", "complete"}) {
		t.Errorf("history = %v, want create, complete", got)
	}
	if detail := string(s.get("/events/" + itoa(run.ID)).Body); strings.Contains(detail, "op-stop") {
		t.Errorf("a finished log's detail still offers Stop")
	}
}

// The edit form of a running log says how it ends, and a refused end
// points at Stop, never "complete it instead".
func TestRunningLogFormPointsAtStop(t *testing.T) {
	s := newServer(t)
	run := s.create(`{"kind":"activity_log","title":"deep work","status":"in_progress","started_at":"2026-11-22T11:15:00+09:00"}`)
	page := string(s.get("/events/" + itoa(run.ID)).Body)
	if !strings.Contains(page, "Empty while it runs: Stop, in the Status box, ends it now.") || strings.Contains(page, "Leave both times empty") {
		t.Errorf("the form does not say how a running log ends, or offers the hint of a new log")
	}
	form := url.Values{"title": {"deep work"}, "desc": {""}, "started_at": {"2026-11-22T11:15"}, "ended_at": {"2026-11-22T11:50"}, "priority": {"0"}, "project_tag": {""}}
	out := s.form("PATCH", path(run.ID), form, toDetail...).html(t, http.StatusUnprocessableEntity)
	if strings.Contains(out, "complete it instead") || !strings.Contains(out, "press Stop to end it now") || !strings.Contains(out, ">Stop</button>") {
		t.Errorf("the refused form: %s", out)
	}
}
