// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"testing"
)

// typed_at (DESIGN.md, "The record line offline"): a line kept by a page
// without a network is sent later with the instant it was typed, which the
// create takes as now for its capture text and a log's defaults. The clock
// stands at t0, 12:00 in Seoul.

func TestTypedAtIsTheCreatesNow(t *testing.T) {
	s := newServer(t)
	// typed at 10:00, sent at 12:00: "standup 15m" ran 9:45 to 10:00
	e := s.create(`{"kind":"activity_log","text":"standup 15m","typed_at":"2026-11-22T10:00:00+09:00"}`)
	if str(e.StartedAt) != "2026-11-22T00:45:00.000000Z" || str(e.EndedAt) != "2026-11-22T01:00:00.000000Z" {
		t.Errorf("standup 15m typed at 10:00 = %s to %s, want 00:45Z to 01:00Z", str(e.StartedAt), str(e.EndedAt))
	}
	if e.CreatedAt != "2026-11-22T03:00:00.000000Z" {
		t.Errorf("created_at = %s, want the server's now 03:00Z", e.CreatedAt)
	}
	// a log with no duration ends when it was typed
	e = s.create(`{"kind":"activity_log","text":"tea","typed_at":"2026-11-22T11:30:00+09:00"}`)
	if str(e.EndedAt) != "2026-11-22T02:30:00.000000Z" || str(e.StartedAt) != "null" {
		t.Errorf("tea typed at 11:30 = %s to %s, want ended 02:30Z", str(e.StartedAt), str(e.EndedAt))
	}
	// a running one starts then
	e = s.create(`{"kind":"activity_log","text":"writing","status":"in_progress","typed_at":"2026-11-22T11:00:00+09:00"}`)
	if str(e.StartedAt) != "2026-11-22T02:00:00.000000Z" {
		t.Errorf("writing started %s, want 02:00Z", str(e.StartedAt))
	}
	// "tomorrow", typed before midnight and sent after it, is the day
	// after the day it was typed
	e = s.create(`{"kind":"task","text":"pay rent tomorrow 9:00","typed_at":"2026-11-21T23:50:00+09:00"}`)
	if str(e.DueAt) != "2026-11-22T00:00:00.000000Z" {
		t.Errorf("tomorrow 9:00 typed on the 21st = %s, want 2026-11-22T00:00:00Z", str(e.DueAt))
	}
	// a page form sends it too
	row := s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {"review 30m"}, "typed_at": {"2026-11-22T02:00:00Z"}},
		"HX-Request", "true").html(t, http.StatusCreated)
	if row == "" {
		t.Fatal("the form create drew no row")
	}
	if got := s.get(path(e.ID+1)).event(t, http.StatusOK); str(got.EndedAt) != "2026-11-22T02:00:00.000000Z" {
		t.Errorf("the form's review 30m ended %s, want 02:00Z", str(got.EndedAt))
	}
}

func TestTypedAtIsBounded(t *testing.T) {
	s := newServer(t)
	for _, body := range []string{
		`{"kind":"activity_log","text":"x","typed_at":"2026-11-22T03:05:00Z"}`, // 5 minutes ahead
		`{"kind":"activity_log","text":"x","typed_at":"2026-11-15T02:59:00Z"}`, // more than 7 days ago
		`{"kind":"activity_log","text":"x","typed_at":null}`,
		`{"kind":"activity_log","text":"x","typed_at":"yesterday"}`,
		`{"kind":"activity_log","text":"x","typed_at":"2026-11-22T02:00:00"}`, // no offset
	} {
		s.json("POST", "/api/events", body).problem(t, http.StatusUnprocessableEntity, "typed_at")
	}
	if n, _ := s.counts(); n != 0 {
		t.Errorf("%d events after refused creates, want 0", n)
	}
	// a clock a minute ahead is now; a week ago to the minute is taken
	e := s.create(`{"kind":"activity_log","text":"x","typed_at":"2026-11-22T03:01:00Z"}`)
	if str(e.EndedAt) != "2026-11-22T03:00:00.000000Z" {
		t.Errorf("typed a minute ahead ended %s, want now 03:00Z", str(e.EndedAt))
	}
	e = s.create(`{"kind":"activity_log","text":"x","typed_at":"2026-11-15T03:01:00Z"}`)
	if str(e.EndedAt) != "2026-11-15T03:01:00.000000Z" {
		t.Errorf("typed 6 days 23:59 ago ended %s, want 2026-11-15T03:01:00Z", str(e.EndedAt))
	}
	// never a field of a PATCH
	s.json("PATCH", path(e.ID), `{"typed_at":"2026-11-22T03:00:00Z"}`).problem(t, http.StatusUnprocessableEntity, "typed_at")
}
