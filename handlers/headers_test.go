// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"strings"
	"testing"
)

func checkSecurityHeaders(t *testing.T, a answer) {
	t.Helper()
	// Pages and API answers, errors included, are kept by no cache; a
	// static file found keeps its own Cache-Control (assets.go).
	cache := a.Header.Values("Cache-Control")
	if strings.HasPrefix(a.target, "/static/") && (a.Status == 200 || a.Status == 304) {
		if len(cache) != 1 || cache[0] == "no-store" {
			t.Errorf("%s: Cache-Control = %q, want the static file's own, once", a, cache)
		}
	} else if len(cache) != 1 || cache[0] != "no-store" {
		t.Errorf("%s: Cache-Control = %q, want no-store once", a, cache)
	}
	csp := a.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("%s: Content-Security-Policy = %q, want script-src 'self' and nothing unsafe", a, csp)
	}
	if !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("%s: Content-Security-Policy = %q, want frame-ancestors 'none'", a, csp)
	}
	for name, want := range map[string]string{
		"X-Content-Type-Options": "nosniff",
		"X-Frame-Options":        "DENY",
		"Referrer-Policy":        "same-origin",
	} {
		if got := a.Header.Get(name); got != want {
			t.Errorf("%s: %s = %q, want %q", a, name, got, want)
		}
	}
}

func TestSecurityHeadersAndRequestIDOnEveryAnswer(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	big := `{"kind":"task","title":"` + strings.Repeat("a", 257<<10) + `"}`
	tests := []struct {
		status int
		a      answer
	}{
		{200, s.get("/healthz")},
		{200, s.get("/readyz")},
		{200, s.get(path(e.ID))},
		{200, s.get("/api/events", hx...)},
		{200, s.get("/static/events.css")},
		{200, s.get("/events")},
		{200, s.get("/events?tab=inbox", hx...)},
		{200, s.get(path(e.ID, "history"))},
		{201, s.json("POST", "/api/events", `{"kind":"activity_log"}`)},
		{400, s.get("/api/events?limit=0")},
		{404, s.get("/api/events/999999")},
		{404, s.get("/nothing/here")},
		{404, s.get("/api/events/999999", hx...)},
		{405, s.do("DELETE", path(e.ID), "", "")},
		{409, s.json("POST", path(e.ID, "reactivate"), "")},
		{413, s.live("POST", "/api/events", jsonType, big)},
		{413, s.live("POST", "/api/events", jsonType, big, hx...)},
		{415, s.do("POST", "/api/events", "text/plain", "x")},
		{422, s.json("POST", "/api/events", `{"kind":"task"}`)},
		{422, s.json("POST", "/api/events", `{"kind":"task"}`, hx...)},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		tt.a.want(t, tt.status)
		checkSecurityHeaders(t, tt.a)
		id := tt.a.Header.Get("X-Request-Id")
		if id == "" {
			t.Errorf("%s: no X-Request-Id", tt.a)
			continue
		}
		if seen[id] {
			t.Errorf("%s: X-Request-Id %q seen before", tt.a, id)
		}
		seen[id] = true
	}
}

// A 500 says nothing internal: TestPanicAnswers500AndServingGoesOn panics
// in a route of its own on the real app.
