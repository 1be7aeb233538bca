// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"testing"
)

// TestIdempotencyKeyReplayByMeaning: a retry is recognised by what its
// body means, not how it is spelled: the same JSON with its keys in
// another order, other whitespace, or escapes for the same characters
// answers the recorded outcome; an operation sent with {} after no body
// (or the other way) is the same request. Another meaning is still 422.
// The old server compared the bytes and answered 422 key_reused.
func TestIdempotencyKeyReplayByMeaning(t *testing.T) {
	s := newServer(t)
	first := s.json("POST", "/api/events", `{"kind":"task","title":"Pay rent","priority":2}`, keyed, "rent").event(t, http.StatusCreated)
	events, rows := s.counts()
	for _, body := range []string{
		`{"title":"Pay rent","kind":"task","priority":2}`,
		"{\n  \"kind\" : \"task\",\n  \"title\" : \"Pay rent\",\n  \"priority\" : 2\n}\n",
		`{"kind":"task","title":"Pay r\u0065nt","priority":2}`,
	} {
		again := s.json("POST", "/api/events", body, keyed, "rent")
		if again.Status != http.StatusCreated || again.Header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("the same create spelled %q: %s, want the replay", body, again)
			continue
		}
		if e := again.event(t, http.StatusCreated); e.ID != first.ID {
			t.Errorf("replayed event %d, want %d", e.ID, first.ID)
		}
	}
	if e, r := s.counts(); e != events || r != rows {
		t.Errorf("the replays wrote: %d events and %d history rows, want %d and %d", e, r, events, rows)
	}
	s.json("POST", "/api/events", `{"kind":"task","title":"Pay rent","priority":3}`, keyed, "rent").problem(t, http.StatusUnprocessableEntity, "Idempotency-Key")

	// an operation: no body, then {}; {} then no body
	s.do("POST", path(first.ID)+"/complete", "", "", keyed, "done-1").want(t, http.StatusOK)
	if a := s.json("POST", path(first.ID)+"/complete", `{}`, keyed, "done-1"); a.Status != http.StatusOK || a.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("complete with {} after no body: %s, want the replay", a)
	}
	s.json("POST", path(first.ID)+"/reactivate", ` { } `, keyed, "undo-1").want(t, http.StatusOK)
	if a := s.do("POST", path(first.ID)+"/reactivate", "", "", keyed, "undo-1"); a.Status != http.StatusOK || a.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("reactivate with no body after { }: %s, want the replay", a)
	}
}
