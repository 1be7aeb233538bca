// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"
)

func TestFormCreate(t *testing.T) {
	s := newServer(t)
	task := s.form("POST", "/api/events", url.Values{
		"kind": {"task"}, "title": {"Form task"}, "desc": {"line one\r\nline two"},
		"due_at": {"2026-11-25T09:00"}, "start_at": {""}, "priority": {"1"}, "project_tag": {""},
		"_csrf": {"token-value"},
	})
	e := task.event(t, http.StatusCreated)
	if got, want := task.Header.Get("Location"), path(e.ID); got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
	if e.Kind != "task" || e.Title != "Form task" || e.Description != "line one\nline two" ||
		str(e.DueAt) != "2026-11-25T00:00:00.000000Z" || e.StartAt != nil || e.Priority != 1 || e.ProjectTag != nil {
		t.Errorf("form create = %+v, want the task due 2026-11-25T00:00:00.000000Z (09:00 in Seoul)", e)
	}
	if h := s.history(e.ID); len(h) != 1 || h[0].Actor != "user" {
		t.Errorf("history of a form create = %+v, want one row by user", h)
	}

	// A charset parameter is fine.
	s.do("POST", "/api/events", formType+"; charset=UTF-8", "kind=task&title=charset").event(t, http.StatusCreated)

	// The quick record: empty times are filled by the server.
	log := s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "title": {"ran"}, "started_at": {""}, "ended_at": {""}}).event(t, http.StatusCreated)
	if log.Status != "done" || str(log.EndedAt) != "2026-11-22T03:00:00.000000Z" || log.StartedAt != nil {
		t.Errorf("form quick record = %+v, want done, ended now", log)
	}

	// An all-day entry from a date input, read in Seoul.
	cal := s.form("POST", "/api/events", url.Values{
		"kind": {"calendar_event"}, "title": {"Trip"}, "start_at": {"2026-11-25"}, "all_day": {"on"},
	}).event(t, http.StatusCreated)
	if !cal.AllDay || str(cal.StartAt) != "2026-11-24T15:00:00.000000Z" || str(cal.EndAt) != "2026-11-25T15:00:00.000000Z" {
		t.Errorf("form all-day entry = %s..%s all_day %v, want the Seoul day", str(cal.StartAt), str(cal.EndAt), cal.AllDay)
	}
}

func TestFormPatchNullsAndCheckbox(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"calendar_event","title":"Trip","start_at":"2026-11-25T00:00:00+09:00","all_day":true,"project_tag":"travel"}`)
	s.clock.Add(time.Hour)
	// all_day is absent: an unticked checkbox. end_at is empty: null.
	a := s.form("PATCH", path(e.ID), url.Values{
		"title": {"Trip"}, "desc": {"Packing list"}, "start_at": {"2026-11-25T10:00"}, "end_at": {""},
		"priority": {"2"}, "project_tag": {""}, "_csrf": {"x"},
	})
	p := a.event(t, http.StatusOK)
	if p.AllDay || p.EndAt != nil || str(p.StartAt) != "2026-11-25T01:00:00.000000Z" || p.Description != "Packing list" ||
		p.Priority != 2 || p.ProjectTag != nil || p.Title != "Trip" {
		t.Errorf("form PATCH = %+v, want all_day false, end_at null, start 01:00Z, description set, tag null", p)
	}
	h := s.history(e.ID)
	if got := changeKinds(h); !slices.Equal(got, []string{"create", "reschedule"}) {
		t.Fatalf("history = %v, want [create reschedule]", got)
	}
	want := map[string]map[string]any{
		"start_at": {"old": "2026-11-24T15:00:00.000000Z", "new": "2026-11-25T01:00:00.000000Z"},
		"end_at":   {"old": "2026-11-25T15:00:00.000000Z", "new": nil},
		"all_day":  {"old": true, "new": false},
	}
	if r := h[1]; !equalChanges(r.Changes, want) || r.Actor != "user" || r.OccurredAt != "2026-11-22T04:00:00.000000Z" {
		t.Errorf("reschedule row = %+v, want changes %v by user", r, want)
	}
	// A ticked checkbox sets it again.
	p = s.form("PATCH", path(e.ID), url.Values{"all_day": {"on"}}).event(t, http.StatusOK)
	if !p.AllDay || str(p.StartAt) != "2026-11-24T15:00:00.000000Z" || str(p.EndAt) != "2026-11-25T15:00:00.000000Z" {
		t.Errorf("form PATCH all_day=on = %+v, want the whole Seoul day", p)
	}
}

func TestFormPatchAtMinutePrecisionWritesNoReschedule(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"Pay rent","due_at":"2026-11-25T09:00:30.5+09:00","priority":1}`)
	s.clock.Add(time.Hour)
	// The edit form shows 09:00 and sends it back, with a new priority.
	p := s.form("PATCH", path(e.ID), url.Values{"title": {"Pay rent"}, "desc": {""}, "due_at": {"2026-11-25T09:00"}, "start_at": {""}, "priority": {"3"}}).event(t, http.StatusOK)
	if str(p.DueAt) != "2026-11-25T00:00:30.500000Z" || p.Priority != 3 {
		t.Errorf("form PATCH = due_at %s priority %d, want the stored due_at 2026-11-25T00:00:30.500000Z kept, priority 3", str(p.DueAt), p.Priority)
	}
	if got := changeKinds(s.history(e.ID)); !slices.Equal(got, []string{"create"}) {
		t.Errorf("history after a form PATCH with the same minute = %v, want [create]", got)
	}
	// Another minute is a change.
	p = s.form("PATCH", path(e.ID), url.Values{"title": {"Pay rent"}, "due_at": {"2026-11-25T09:01"}}).event(t, http.StatusOK)
	if str(p.DueAt) != "2026-11-25T00:01:00.000000Z" {
		t.Errorf("due_at = %s, want 2026-11-25T00:01:00.000000Z", str(p.DueAt))
	}
	if got := changeKinds(s.history(e.ID)); !slices.Equal(got, []string{"create", "reschedule"}) {
		t.Errorf("history = %v, want [create reschedule]", got)
	}
}

// The edit form of an all-day entry shows dates, the end its last day
// (issue 47); sending them back unchanged is no reschedule.
func TestFormPatchOfAnAllDayEntryWithItsOwnDates(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"calendar_event","title":"Trip","start_at":"2026-11-25T00:00:00+09:00","end_at":"2026-11-27T00:00:00+09:00","all_day":true}`)
	p := s.form("PATCH", path(e.ID), url.Values{"title": {"Trip"}, "start_at": {"2026-11-25"}, "end_at": {"2026-11-26"}, "all_day": {"on"}}).event(t, http.StatusOK)
	if str(p.StartAt) != str(e.StartAt) || str(p.EndAt) != str(e.EndAt) || !p.AllDay {
		t.Errorf("form PATCH = %s..%s, want %s..%s", str(p.StartAt), str(p.EndAt), str(e.StartAt), str(e.EndAt))
	}
	if got := changeKinds(s.history(e.ID)); !slices.Equal(got, []string{"create"}) {
		t.Errorf("history = %v, want [create]", got)
	}
}

func TestFormDeferInTheConfiguredZone(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	d := s.form("POST", path(e.ID, "defer"), url.Values{"defer_until": {"2026-11-25T09:00"}, "_csrf": {"t"}}).event(t, http.StatusOK)
	if d.Status != "deferred" || str(d.DeferUntil) != "2026-11-25T00:00:00.000000Z" {
		t.Errorf("form defer = status %s defer_until %s, want deferred until 2026-11-25T00:00:00.000000Z", d.Status, str(d.DeferUntil))
	}
	// complete and reactivate from a form with only the CSRF token.
	s.form("POST", path(e.ID, "complete"), url.Values{"_csrf": {"t"}}).event(t, http.StatusOK)
	s.do("POST", path(e.ID, "reactivate"), formType, "").event(t, http.StatusOK)
	h := s.history(e.ID)
	for i, row := range h[1:] {
		if row.Actor != "user" {
			t.Errorf("history[%d] (%s) actor = %s, want user", i+1, row.ChangeKind, row.Actor)
		}
	}
	if got := changeKinds(h); !slices.Equal(got, []string{"create", "defer", "complete", "reactivate"}) {
		t.Errorf("history = %v", got)
	}
}

func TestFormFieldProblems422(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	tests := []struct {
		name, method, target string
		form                 url.Values
		fields               []string
	}{
		{"unknown field in a create", "POST", "/api/events", url.Values{"kind": {"task"}, "title": {"x"}, "colour": {"red"}}, []string{"colour"}},
		{"status in a PATCH", "PATCH", path(e.ID), url.Values{"status": {"done"}}, []string{"status"}},
		{"unknown field in a PATCH", "PATCH", path(e.ID), url.Values{"title": {"y"}, "csrf": {"t"}}, []string{"csrf"}},
		{"unknown field in a defer", "POST", path(e.ID, "defer"), url.Values{"defer_until": {"2026-11-25T09:00"}, "note": {"x"}}, []string{"note"}},
		{"desc in a defer", "POST", path(e.ID, "defer"), url.Values{"defer_until": {"2026-11-25T09:00"}, "desc": {"x"}}, []string{"desc"}},
		{"unknown field in a complete", "POST", path(e.ID, "complete"), url.Values{"x": {"1"}}, []string{"x"}},
		{"desc and description", "PATCH", path(e.ID), url.Values{"desc": {"a"}, "description": {"b"}}, []string{"description"}},
		{"repeated field", "POST", "/api/events", url.Values{"kind": {"task"}, "title": {"x", "y"}}, []string{"title"}},
		{"bad date", "POST", "/api/events", url.Values{"kind": {"task"}, "title": {"x"}, "due_at": {"25/11/2026"}}, []string{"due_at"}},
		{"bad priority", "POST", "/api/events", url.Values{"kind": {"task"}, "title": {"x"}, "priority": {"high"}}, []string{"priority"}},
		{"bad checkbox", "POST", "/api/events", url.Values{"kind": {"calendar_event"}, "title": {"x"}, "start_at": {"2026-11-25"}, "all_day": {"maybe"}}, []string{"all_day"}},
		{"empty defer_until", "POST", path(e.ID, "defer"), url.Values{"defer_until": {""}}, []string{"defer_until"}},
		{"NUL in a title", "POST", "/api/events", url.Values{"kind": {"task"}, "title": {"a\x00b"}}, []string{"title"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.form(tt.method, tt.target, tt.form).problem(t, http.StatusUnprocessableEntity, tt.fields...)
		})
	}
	// A form body that does not parse is 400.
	s.do("POST", "/api/events", formType, "kind=task&title=%zz").problem(t, http.StatusBadRequest)
}

// The actor of a history row: user for a form or an htmx request, api for
// a plain JSON request.
func TestActorOfHistoryRows(t *testing.T) {
	s := newServer(t)
	api := s.create(`{"kind":"task","title":"api"}`)
	hx := s.json("POST", "/api/events", `{"kind":"task","title":"htmx json"}`, "HX-Request", "true").want(t, http.StatusCreated)
	form := s.form("POST", "/api/events", url.Values{"kind": {"task"}, "title": {"form"}}).event(t, http.StatusCreated)
	hxLoc := hx.Header.Get("Location")
	if hxLoc == "" {
		t.Fatal("an htmx create has no Location")
	}
	var hxID int64
	for _, e := range s.get("/api/events").page(t).Items {
		if path(e.ID) == hxLoc {
			hxID = e.ID
		}
	}
	s.json("POST", path(api.ID, "complete"), "", "HX-Request", "true").want(t, http.StatusOK)
	s.json("POST", path(hxID, "complete"), "").want(t, http.StatusOK)
	s.json("POST", path(form.ID, "complete"), "{}").want(t, http.StatusOK)
	// HX-Request-Type: full still comes from the pages.
	s.json("PATCH", path(form.ID), `{"title":"x"}`, "HX-Request", "true", "HX-Request-Type", "full").want(t, http.StatusOK)
	s.json("POST", path(form.ID, "reactivate"), "", "HX-Request", "true", "HX-Request-Type", "full").want(t, http.StatusOK)
	for _, tt := range []struct {
		id   int64
		want []string
	}{
		{api.ID, []string{"api", "user"}},
		{hxID, []string{"user", "api"}},
		{form.ID, []string{"user", "api", "user"}},
	} {
		var got []string
		for _, h := range s.history(tt.id) {
			got = append(got, h.Actor)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("actors of event %d = %v, want %v", tt.id, got, tt.want)
		}
	}
}
