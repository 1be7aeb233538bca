// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

// Issue 47, point 5: the forms' days. An all-day entry's fields are dates,
// its end the last day (inclusive); a task may be due on a day without a
// clock time; the new-event form starts at its first field; the detail
// page offers a new event of its kind; a log's edit form has no create
// hint. Point 7's defer and due move, as app.js sends them.

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestFormAllDayDates(t *testing.T) {
	s := newServer(t)
	cal := s.form("POST", "/api/events", url.Values{
		"kind": {"calendar_event"}, "title": {"Offsite"}, "desc": {""}, "start_at": {"2026-11-27"},
		"end_at": {"2026-11-29"}, "all_day": {"on"}, "priority": {"0"}, "project_tag": {""},
	}).event(t, http.StatusCreated)
	// Fri 27 to Sun 29 Nov in Seoul: the midnight after the 29th ends it.
	if !cal.AllDay || str(cal.StartAt) != "2026-11-26T15:00:00.000000Z" || str(cal.EndAt) != "2026-11-29T15:00:00.000000Z" {
		t.Errorf("all-day entry from dates = %s..%s all_day %v; want 2026-11-26T15:00Z..2026-11-29T15:00Z (the 29th included)",
			str(cal.StartAt), str(cal.EndAt), cal.AllDay)
	}
	page := string(s.get(path(cal.ID)[len("/api"):]).Body)
	for _, want := range []string{
		`<input type="date" id="f-start_at" name="start_at" value="2026-11-27"`,
		`<input type="date" id="f-end_at" name="end_at" value="2026-11-29"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the detail page lacks %s (the last day, never the exclusive midnight)", want)
		}
	}
	if strings.Contains(page, `value="2026-11-30`) {
		t.Errorf("the detail page shows the exclusive end 2026-11-30")
	}
	// Saving the form unchanged moves nothing and writes no reschedule.
	unchanged := url.Values{"title": {"Offsite"}, "desc": {""}, "start_at": {"2026-11-27"}, "end_at": {"2026-11-29"},
		"all_day": {"on"}, "priority": {"0"}, "project_tag": {""}}
	same := s.form("PATCH", path(cal.ID), unchanged).event(t, http.StatusOK)
	if str(same.EndAt) != str(cal.EndAt) || str(same.StartAt) != str(cal.StartAt) {
		t.Errorf("an unchanged save moved the entry to %s..%s", str(same.StartAt), str(same.EndAt))
	}
	if got := changeKinds(s.history(cal.ID)); !slices.Equal(got, []string{"create"}) {
		t.Errorf("history after an unchanged save = %q; want only the create", got)
	}
	// One more day: the end is the midnight after the new last day.
	unchanged.Set("end_at", "2026-11-30")
	longer := s.form("PATCH", path(cal.ID), unchanged).event(t, http.StatusOK)
	if str(longer.EndAt) != "2026-11-30T15:00:00.000000Z" {
		t.Errorf("end moved to the 30th = %s; want 2026-11-30T15:00Z", str(longer.EndAt))
	}
	// A one-day entry: the same day twice.
	one := s.form("POST", "/api/events", url.Values{
		"kind": {"calendar_event"}, "title": {"Holiday"}, "start_at": {"2026-12-25"}, "end_at": {"2026-12-25"}, "all_day": {"on"},
	}).event(t, http.StatusCreated)
	if str(one.StartAt) != "2026-12-24T15:00:00.000000Z" || str(one.EndAt) != "2026-12-25T15:00:00.000000Z" {
		t.Errorf("a one-day entry = %s..%s; want the 25th in Seoul", str(one.StartAt), str(one.EndAt))
	}
	// The API's own RFC 3339 end stays exclusive.
	api := s.create(`{"kind":"calendar_event","title":"API","start_at":"2026-11-27T00:00:00+09:00","end_at":"2026-11-29T00:00:00+09:00","all_day":true}`)
	if str(api.EndAt) != "2026-11-28T15:00:00.000000Z" {
		t.Errorf("an API all-day end = %s; want the exclusive 2026-11-28T15:00Z", str(api.EndAt))
	}
}

func TestFormDueDayOnly(t *testing.T) {
	s := newServer(t)
	task := s.form("POST", "/api/events", url.Values{
		"kind": {"task"}, "title": {"Pay rent"}, "desc": {""}, "due_at": {"2026-11-29"}, "start_at": {""},
		"priority": {"0"}, "project_tag": {""},
	}).event(t, http.StatusCreated)
	// Due any time on Sun 29 Nov in Seoul: its last microsecond, as a
	// capture text's day.
	if str(task.DueAt) != "2026-11-29T14:59:59.999999Z" {
		t.Errorf("a day-only due = %s; want 2026-11-29T14:59:59.999999Z", str(task.DueAt))
	}
	captured := s.json("POST", "/api/events", `{"kind":"task","text":"Pay rent sun"}`).event(t, http.StatusCreated)
	if str(captured.DueAt) != str(task.DueAt) {
		t.Errorf("the form's day %s and the capture text's %s differ", str(task.DueAt), str(captured.DueAt))
	}
	page := string(s.get(path(task.ID)[len("/api"):]).Body)
	if !strings.Contains(page, `<input type="date" id="f-due_at" name="due_at" value="2026-11-29"`) ||
		!strings.Contains(page, `data-day-only="f-due_at" checked`) {
		t.Errorf("the edit form does not show the day-only due as a date with No clock time ticked")
	}
	unchanged := url.Values{"title": {"Pay rent"}, "desc": {""}, "due_at": {"2026-11-29"}, "start_at": {""}, "priority": {"0"}, "project_tag": {""}}
	s.form("PATCH", path(task.ID), unchanged).event(t, http.StatusOK)
	if got := changeKinds(s.history(task.ID)); !slices.Equal(got, []string{"create"}) {
		t.Errorf("history after an unchanged save = %q; want only the create", got)
	}
	// A clock time is a 24-hour time field (issue 55), the switch off.
	timed := s.form("POST", "/api/events", url.Values{"kind": {"task"}, "title": {"Call"}, "due_at": {"2026-11-29T15:00"}}).event(t, http.StatusCreated)
	if str(timed.DueAt) != "2026-11-29T06:00:00.000000Z" {
		t.Errorf("a timed due = %s", str(timed.DueAt))
	}
	page = string(s.get(path(timed.ID)[len("/api"):]).Body)
	if !strings.Contains(page, `<input type="text" id="f-due_at" name="due_at" value="2026-11-29 15:00" autocomplete="off" data-time24="true"`) ||
		strings.Contains(page, `data-day-only="f-due_at" checked`) {
		t.Errorf("the edit form of a timed due is not a date and time with No clock time off")
	}
}

func TestNewFormStartsAndDetailOffersNew(t *testing.T) {
	s := newServer(t)
	for _, kind := range []string{"task", "calendar_event", "activity_log"} {
		page := string(s.get("/events/new?kind=" + kind).Body)
		if !strings.Contains(page, `id="f-title" name="title" value="" autofocus`) {
			t.Errorf("/events/new?kind=%s: the title is not focused (autofocus)", kind)
		}
		if n := strings.Count(page, " autofocus"); n != 1 {
			t.Errorf("/events/new?kind=%s has %d autofocus fields; want 1", kind, n)
		}
	}
	if !strings.Contains(string(s.get("/events/new?kind=activity_log").Body), "Leave both times empty") {
		t.Errorf("the new log form lost its hint")
	}
	log := s.create(`{"kind":"activity_log","title":"ran","started_at":"2026-11-22T10:00:00+09:00","ended_at":"2026-11-22T11:00:00+09:00"}`)
	task := s.create(`{"kind":"task","title":"Call"}`)
	logPage := string(s.get(path(log.ID)[len("/api"):]).Body)
	if strings.Contains(logPage, "Leave both times empty") {
		t.Errorf("the edit page of a recorded log shows the create-time hint")
	}
	if strings.Contains(logPage, " autofocus") {
		t.Errorf("the edit page steals the focus (autofocus)")
	}
	for _, c := range []struct {
		id   int64
		kind string
	}{{log.ID, "activity_log"}, {task.ID, "task"}} {
		page := string(s.get(path(c.id)[len("/api"):]).Body)
		if want := `<a class="button new-event" href="/events/new?kind=` + c.kind + `">New event</a>`; !strings.Contains(page, want) {
			t.Errorf("the detail page of a %s does not offer %s", c.kind, want)
		}
	}
}

// Point 7: a defer, then the due move app.js sends (a form PATCH of the
// day), are two history rows, and each is undone on its own: the move by
// a PATCH back, the defer by reactivate, which keeps the due as it is.
func TestDeferThenMoveDue(t *testing.T) {
	s := newServer(t)
	task := s.create(`{"kind":"task","title":"Pay rent","due_at":"2026-11-22T18:00:00+09:00"}`)
	s.op(task.ID, "defer", `{"defer_until":"2026-11-24T09:00:00+09:00"}`)
	moved := s.form("PATCH", path(task.ID), url.Values{"due_at": {"2026-11-24T18:00"}}, "HX-Request", "true").html(t, http.StatusOK)
	if !strings.Contains(moved, `data-status="deferred"`) {
		t.Errorf("the move's answer is not the deferred row: %s", moved)
	}
	got := getEvent(s, task.ID)
	if got.Status != "deferred" || str(got.DueAt) != "2026-11-24T09:00:00.000000Z" {
		t.Errorf("after defer and move: %s due %s; want deferred, due 2026-11-24T09:00Z", got.Status, str(got.DueAt))
	}
	h := s.history(task.ID)
	if kinds := changeKinds(h); !slices.Equal(kinds, []string{"create", "defer", "reschedule"}) {
		t.Fatalf("history = %q; want create, defer, reschedule", kinds)
	}
	if _, ok := h[2].Changes["due_at"]; !ok || len(h[2].Changes) != 1 {
		t.Errorf("the reschedule row changes %v; want due_at alone", h[2].Changes)
	}
	// Undo of the move: the due back, the task still deferred.
	s.form("PATCH", path(task.ID), url.Values{"due_at": {str(task.DueAt)}}).event(t, http.StatusOK)
	if got := getEvent(s, task.ID); got.Status != "deferred" || str(got.DueAt) != str(task.DueAt) {
		t.Errorf("after the move's undo: %s due %s", got.Status, str(got.DueAt))
	}
	// Undo of the defer: planned, the due as it is.
	back := s.op(task.ID, "reactivate", "")
	if back.Status != "planned" || str(back.DueAt) != str(task.DueAt) || back.DeferUntil != nil {
		t.Errorf("after the defer's undo: %+v", back)
	}
}

func getEvent(s *server, id int64) event {
	s.t.Helper()
	return s.get(path(id)).event(s.t, http.StatusOK)
}
