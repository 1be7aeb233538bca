// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// offSite are values of ?next= that a browser would follow to another site
// (or run), each given as the decoded value the form or query carries.
var offSite = []string{
	"/\t/evil.example",           // %09: browsers drop the tab and read //evil.example
	"/\n/evil.example",           // %0a
	"/\r/evil.example",           // %0d
	"/\\evil.example",            // /\ is // to a browser
	"//evil.example",             // protocol-relative
	"/%2fevil.example",           // decodes to //evil.example
	"/%5cevil.example",           // decodes to /\evil.example
	"/%09/evil.example",          // decodes to a tab
	"\\/evil.example",            // \/
	"javascript:alert(1)",        // a scheme
	"https://evil.example/x",     // absolute
	"http:/evil.example",         // a scheme without the slashes
	" /events",                   // leading whitespace
	"/events\u2028",              // a line separator
	"/ev ents",                   // whitespace inside
	"///evil.example",            // three slashes
	"/\u202e/evil.example",       // a format character
	"",                           // nothing
	"events",                     // not a path
	"/login?next=//evil.example", // a loop through the login page
}

func TestLoginRedirectStaysOnTheSite(t *testing.T) {
	s, _ := authServer(t, true)
	for _, next := range offSite {
		// GET: the login form carries /events, not the value.
		body := s.get("/login?next="+url.QueryEscape(next)).pageHTML(t, http.StatusOK)
		if !strings.Contains(body, `name="next" value="/events"`) {
			t.Errorf("GET /login?next=%q: the form's next is not /events", next)
		}
		// POST: the redirect after the login is /events.
		a := s.form("POST", "/login", url.Values{"password": {ownerPassword}, "next": {next}})
		if a.Status != http.StatusSeeOther || a.Header.Get("Location") != "/events" {
			t.Errorf("POST /login next=%q: %d Location %q, want 303 /events", next, a.Status, a.Header.Get("Location"))
		}
		// GET with a session: the redirect is /events too.
		cookie := login(t, s)
		a = s.get("/login?next="+url.QueryEscape(next), "Cookie", "events_session="+cookie.Value)
		if a.Status != http.StatusSeeOther || a.Header.Get("Location") != "/events" {
			t.Errorf("GET /login?next=%q with a session: %d Location %q, want 303 /events", next, a.Status, a.Header.Get("Location"))
		}
	}
	// A local path and its query are kept, rebuilt from what was parsed.
	for next, want := range map[string]string{
		"/events?tab=inbox":        "/events?tab=inbox",
		"/events/12":               "/events/12",
		"/events?tab=today&x=%3Cb": "/events?tab=today&x=%3Cb",
		"/events#top":              "/events",
	} {
		a := s.form("POST", "/login", url.Values{"password": {ownerPassword}, "next": {next}})
		if got := a.Header.Get("Location"); a.Status != http.StatusSeeOther || got != want {
			t.Errorf("POST /login next=%q: %d Location %q, want %q", next, a.Status, got, want)
		}
	}
}

func TestLowercaseBearerAndUppercaseAPI(t *testing.T) {
	s, _ := authServer(t, true)
	for _, scheme := range []string{"bearer", "BEARER", "Bearer", "beaRer"} {
		s.get("/api/events", "Authorization", scheme+" "+apiToken).want(t, http.StatusOK)
	}
	s.get("/api/events", "Authorization", "bearer wrong-token-0123456789").problem(t, http.StatusUnauthorized)
	// Routes match without regard to case: every spelling of /api is the
	// API, answered with a 401 problem, not a redirect to the login page.
	for _, target := range []string{"/API/events", "/Api/events/today", "/aPI/events/inbox"} {
		a := s.get(target)
		a.problem(t, http.StatusUnauthorized)
		if a.Header.Get("Location") != "" || !strings.Contains(a.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: Location %q, WWW-Authenticate %q", target, a.Header.Get("Location"), a.Header.Get("WWW-Authenticate"))
		}
		s.get(target, "Authorization", "bearer "+apiToken).want(t, http.StatusOK)
	}
}
