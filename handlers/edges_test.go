// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"events/handlers"
)

// The edges a property tester found (issue 48, point 7); the 405 on an id
// that names no event is in TestMethodNotAllowed405.

// Two Authorization headers are 400: which credential is meant cannot be
// told, and every reader of the header took the first.
func TestTwoAuthorizationHeadersAre400(t *testing.T) {
	s := newServer(t)
	req := httptest.NewRequest("GET", "/api/events", nil)
	req.Header.Add("Authorization", "Bearer one")
	req.Header.Add("Authorization", "Bearer two")
	res, err := s.f.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	answer{method: "GET", target: "/api/events (two Authorization headers)", Status: res.StatusCode, Header: res.Header, Body: b}.
		problem(t, http.StatusBadRequest, "Authorization")
	s.get("/api/events", "Authorization", "Bearer one").page(t) // one is fine (authentication is off here)
}

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

// A \u escape of half a surrogate pair is 422 naming the field: encoding/json
// stored U+FFFD in its place. A whole pair is the character it spells.
func TestLoneSurrogateEscapeIs422(t *testing.T) {
	s := newServer(t)
	for _, body := range []string{
		`{"kind":"task","title":"a\ud800"}`,
		`{"kind":"task","title":"\udc00b"}`,
		`{"kind":"task","title":"\ud800\u0041"}`,
		`{"kind":"task","title":"\ud83d\ud83d\ude00"}`,
	} {
		s.json("POST", "/api/events", body).problem(t, http.StatusUnprocessableEntity, "title")
	}
	e := s.create(`{"kind":"task","title":"ok","description":"\ud83d\ude00 and \\ud800 as text"}`)
	if e.Description != "😀 and \\ud800 as text" {
		t.Errorf("description %q", e.Description)
	}
	s.json("PATCH", path(e.ID), `{"description":"x\udfff"}`).problem(t, http.StatusUnprocessableEntity, "description")
	if n, _ := s.counts(); n != 1 {
		t.Errorf("%d events stored, want 1", n)
	}
}

// GET /api/events/{id} takes no query parameter: one is 400 naming it, as
// on the listings (an unknown event is 404 first).
func TestOneEventRefusesQueryParameters(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	s.get(path(e.ID)+"?fields=title").problem(t, http.StatusBadRequest, "fields")
	s.get(path(e.ID)+"?tz=Asia/Seoul").problem(t, http.StatusBadRequest, "tz")
	s.get("/api/events/999999?fields=title").problem(t, http.StatusNotFound)
	s.get(path(e.ID)+"?").event(t, http.StatusOK)
}

// limit is digits only: +5 is 400, as -5 and 5.0 are.
func TestLimitWithASignIs400(t *testing.T) {
	s := newServer(t)
	for _, target := range []string{"/api/events?limit=%2B5", "/api/events/inbox?limit=%2B5", "/api/events/today?limit=+5"} {
		s.get(target).problem(t, http.StatusBadRequest, "limit")
	}
	s.get("/api/events?limit=5").page(t)
}

// What docs/operations.md says of header sizes is what the service does: a
// header block (every header line, cookies included, and the empty line
// that ends it) of 64 KiB is served, one byte more is 431.
func TestHeaderBlockLimit(t *testing.T) {
	s := newServer(t)
	addr := strings.TrimPrefix(s.serveLive(), "http://")
	head := func(size int) *http.Response {
		t.Helper()
		fixed := "Host: events.test\r\nConnection: close\r\nCookie: big=\r\n\r\n"
		block := "Host: events.test\r\nConnection: close\r\nCookie: big=" + strings.Repeat("v", size-len(fixed)) + "\r\n\r\n"
		if len(block) != size {
			t.Fatalf("a block of %d bytes, want %d", len(block), size)
		}
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(conn, "GET /api/events/inbox HTTP/1.1\r\n"+block); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := head(handlers.HeaderBlockLimit); res.StatusCode != http.StatusOK {
		t.Errorf("a header block of %d bytes: %d, want 200", handlers.HeaderBlockLimit, res.StatusCode)
	}
	res := head(handlers.HeaderBlockLimit + 1)
	b, _ := io.ReadAll(res.Body)
	a := answer{method: "GET", target: "/api/events/inbox (a header block one byte over)", Status: res.StatusCode, Header: res.Header, Body: b}
	a.problem(t, http.StatusRequestHeaderFieldsTooLarge)
	checkSecurityHeaders(t, a)
}
