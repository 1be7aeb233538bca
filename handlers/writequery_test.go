// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestUnknownQueryParametersOnWritesAreRefused: a write refuses a query
// parameter it does not take as a listing does, 400 naming it, and writes
// nothing (no event, no history row, no recorded Idempotency-Key); a
// create takes tz alone, a PATCH and the lifecycle operations nothing.
func TestUnknownQueryParametersOnWritesAreRefused(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"kept"}`)
	events, rows := s.counts()
	for i, c := range []struct {
		method, target, body, field string
	}{
		{"POST", "/api/events?dry_run=1", `{"kind":"task","title":"new"}`, "dry_run"},
		{"POST", "/api/events?tz=Asia/Seoul&TZ=UTC", `{"kind":"task","title":"new"}`, "TZ"},
		{"POST", "/api/events?title=x", `{"kind":"task","title":"new"}`, "title"},
		{"POST", "/api/events?%EC%8B%9C%EA%B0%84%EB%8C%80=Asia/Seoul", `{"kind":"task","title":"new"}`, "시간대"},
		{"POST", "/api/events?tz=Asia/Seoul&tz=UTC", `{"kind":"task","title":"new"}`, "tz"},
		{"POST", "/api/events?tz", `{"kind":"task","title":"new"}`, "tz"},
		// spellings the zone files would resolve are not zone names
		{"POST", "/api/events?tz=Asia//Seoul", `{"kind":"task","text":"lunch today 12:00"}`, "tz"},
		{"POST", "/api/events?tz=./Asia/Seoul", `{"kind":"task","text":"lunch today 12:00"}`, "tz"},
		{"POST", "/api/events?tz=Asia/./Seoul", `{"kind":"task","text":"lunch today 12:00"}`, "tz"},
		// the query is checked before the body: a broken body does not hide it
		{"POST", "/api/events?x=1", `{"kind":"task","title":`, "x"},
		{"PATCH", path(e.ID) + "?title=changed", `{"title":"changed"}`, "title"},
		{"PATCH", path(e.ID) + "?If-Match=*", `{"title":"changed"}`, "If-Match"},
		{"POST", path(e.ID, "complete") + "?force=true", "", "force"},
		{"POST", path(e.ID, "cancel") + "?tz=UTC", "", "tz"},
		{"POST", path(e.ID, "defer") + "?defer_until=2026-12-01T09:00:00%2B09:00", `{"defer_until":"2026-12-01T09:00:00+09:00"}`, "defer_until"},
		{"POST", path(e.ID, "reactivate") + "?a=1&b=2", "", "a"},
	} {
		for _, key := range []string{"", "write-query-" + strconv.Itoa(i%3)} {
			var headers []string
			if key != "" {
				headers = []string{"Idempotency-Key", key}
			}
			a := s.json(c.method, c.target, c.body, headers...)
			p := a.problem(t, http.StatusBadRequest, c.field)
			if c.field != "tz" && !slices.Equal(p.codes(), []string{c.field + ":unknown_field"}) {
				t.Errorf("%s: codes %v, want %s:unknown_field", a, p.codes(), c.field)
			}
		}
	}
	if ev, hr := s.counts(); ev != events || hr != rows {
		t.Errorf("after the refused writes: %d events and %d history rows, want %d and %d", ev, hr, events, rows)
	}
	if got := s.get(path(e.ID)).event(t, http.StatusOK); got.Status != "planned" || got.Title != "kept" {
		t.Errorf("the event after the refused writes: %s %q", got.Status, got.Title)
	}
	// an empty query string is no parameter
	if got := s.json("PATCH", path(e.ID)+"?", `{"title":"changed"}`).event(t, http.StatusOK); got.Title != "changed" {
		t.Errorf("PATCH with an empty query: title %q", got.Title)
	}
	// a refused request recorded nothing: the same key without the
	// parameter is a first request
	s.json("POST", path(e.ID, "complete"), "", "Idempotency-Key", "write-query-0").event(t, http.StatusOK)
	// an unknown event is 404 first, as on reads
	s.json("PATCH", path(e.ID+1000)+"?x=1", `{"title":"a"}`).problem(t, http.StatusNotFound)
	// a create's tz still reads its text
	made := s.json("POST", "/api/events?tz=America/New_York", `{"kind":"task","text":"call mom tomorrow 9am"}`).event(t, http.StatusCreated)
	if made.DueAt == nil || !strings.HasSuffix(*made.DueAt, "14:00:00.000000Z") {
		t.Errorf("a create with tz=America/New_York: due_at %s, want 9:00 there (14:00Z)", str(made.DueAt))
	}
}
