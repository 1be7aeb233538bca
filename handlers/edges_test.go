package handlers_test

import (
	"net/http"
	"testing"
)

// The edges a property tester found (issue 48, point 7).

// RFC 3339 lets the T and the Z be lowercase: accepted in bodies and in
// query parameters, read as their capitals.
func TestLowercaseRFC3339IsAccepted(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"Lower","due_at":"2026-11-25t09:00:00z"}`)
	if str(e.DueAt) != "2026-11-25T09:00:00.000000Z" {
		t.Errorf("due_at %s, want 2026-11-25T09:00:00.000000Z", str(e.DueAt))
	}
	p := s.json("PATCH", path(e.ID), `{"due_at":"2026-11-26t09:00:00.5+09:00"}`).event(t, http.StatusOK)
	if str(p.DueAt) != "2026-11-26T00:00:00.500000Z" {
		t.Errorf("due_at %s, want 2026-11-26T00:00:00.500000Z", str(p.DueAt))
	}
	s.create(`{"kind":"calendar_event","title":"Meet","start_at":"2026-11-23t10:00:00z","end_at":"2026-11-23t11:00:00z"}`)
	if got := s.get("/api/events?from=2026-11-23t00:00:00z&to=2026-11-24t00:00:00z").page(t); len(got.Items) != 1 {
		t.Errorf("from/to in lowercase: %d events, want 1", len(got.Items))
	}
	s.get("/api/events?from=2026-11-23x00:00:00z").problem(t, http.StatusBadRequest, "from")
}
