// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// testWithAuthentication is one run with authentication on: the pages send
// the browser to the login page, and once logged in a quick record and a
// lifecycle click work (they carry the CSRF token); logging out ends it.
func testWithAuthentication(t *testing.T, b *browser) {
	const password, token = "correct horse battery", "browser-test-token-0123456789"
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost) // the lowest cost: a fast login
	if err != nil {
		t.Fatal(err)
	}
	s := startWeb(t, "EVENTS_PASSWORD_HASH="+string(hash), "EVENTS_SESSION_KEY=browser-test-session-key-0123456789abcdef", "EVENTS_API_TOKENS="+token)

	// The API needs the token; with it, a task to click on.
	if resp, err := http.Get(s.base + "/api/events"); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("GET /api/events without a token: %v %v, want 401", resp.StatusCode, err)
	}
	body, _ := json.Marshal(map[string]any{"kind": "task", "title": "Renew the passport", "due_at": rfc(day(time.Now(), seoul(t), 0).Add(20 * time.Hour))})
	req, _ := http.NewRequest("POST", s.base+"/api/events", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("create with the token: %v %v, want 201", resp.StatusCode, err)
	}
	var task apiEvent
	if err := json.NewDecoder(resp.Body).Decode(&task); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	p := b.newTab(t, s.base)
	p.open("/events?tab=today")
	if got := p.path(); got != "/login?next=%2Fevents%3Ftab%3Dtoday" {
		t.Fatalf("/events without a session landed on %q, want the login page", got)
	}
	p.waitFor("the password field to have the focus", `document.activeElement?.id === 'f-password'`)
	p.keys(password + "\r")
	p.waitFor("the Today tab after logging in", `location.pathname === '/events' && `+tabShown("today"))
	if eval[bool](p, `document.cookie.includes('events_session')`) {
		t.Errorf("the session cookie is readable by scripts")
	}

	p.click("#quick-title")
	p.keys("Logged in and recorded\r")
	p.waitFor("the record at the top", `document.querySelector('[data-records] li.event-row a.title')?.textContent.trim() === 'Logged in and recorded'`)

	row := "#event-" + strconv.FormatInt(task.ID, 10)
	p.click(row + ` button.op[data-op="complete"]`)
	p.waitFor("the task's row to show done", `document.querySelector(`+jsString(row)+`)?.dataset.status === 'done'`)
	if got := getEventWithToken(t, s.base, task.ID, token); got.Status != "done" {
		t.Errorf("the task after the click is %s, want done", got.Status)
	}

	p.click(".sidebar .logout button")
	p.waitFor("the login page after logging out", `location.pathname === '/login'`)
	p.open("/events")
	if got := p.path(); got != "/login?next=%2Fevents" {
		t.Errorf("/events after logging out landed on %q, want the login page", got)
	}

	// No open redirect: with next=/%09/evil.example the service once
	// answered Location: /<TAB>/evil.example, which Chromium followed to
	// //evil.example. Now the login lands on this site's /events.
	p.open("/login?next=/%09/evil.example")
	p.waitFor("the password field to have the focus", `document.activeElement?.id === 'f-password'`)
	p.keys(password + "\r")
	p.waitFor("this site's events page after logging in", `location.pathname === '/events' && !!document.querySelector('#panel')`)
	if got := eval[string](p, `location.origin`); got != s.base {
		t.Errorf("after a login with next=/%%09/evil.example the browser is at %s, want %s", got, s.base)
	}
}

func getEventWithToken(t *testing.T, base string, id int64, token string) apiEvent {
	t.Helper()
	req, _ := http.NewRequest("GET", base+"/api/events/"+strconv.FormatInt(id, 10), nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e apiEvent
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
		t.Fatal(err)
	}
	return e
}
