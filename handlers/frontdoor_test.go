// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"events/handlers"
)

// curl -d '{...}' without -H sends a form content type: the answer says
// what to send instead of refusing the JSON as an unknown form field.
func TestJSONSentAsAFormSaysWhatToSend(t *testing.T) {
	s := newServer(t)
	id := s.create(`{"kind":"task","title":"T"}`).ID
	for _, r := range []struct{ method, target string }{
		{"POST", "/api/events"}, {"PATCH", path(id)}, {"POST", path(id, "defer")},
	} {
		a := s.do(r.method, r.target, formType, ` {"title":"x"}`)
		p := a.problem(t, http.StatusUnsupportedMediaType)
		if !strings.Contains(p.Detail, "send Content-Type: application/json") {
			t.Errorf("%s: detail %q does not say what to send", a, p.Detail)
		}
	}
	if n, _ := s.counts(); n != 1 {
		t.Errorf("%d events stored, want 1", n)
	}
}

// Out of the box the sidebar's Notes entry opens a page that says what it
// is for; with EVENTS_NOTES_URL set, the entry goes there and /notes is
// not the service's.
func TestNotesEntry(t *testing.T) {
	s := newServer(t)
	events := string(s.get("/events", "Accept", "text/html").want(t, http.StatusOK).Body)
	if !strings.Contains(events, `<a href="/notes">Notes</a>`) {
		t.Fatalf("the sidebar has no Notes entry to /notes")
	}
	notes := string(s.get("/notes", "Accept", "text/html").want(t, http.StatusOK).Body)
	if !strings.Contains(notes, "EVENTS_NOTES_URL") || !strings.Contains(notes, "<h1>Notes</h1>") {
		t.Errorf("/notes does not say what the entry is for:\n%s", notes)
	}

	f, err := handlers.New(s.svc, handlers.Options{Logger: quiet, RequestTimeout: requestTimeout, NotesURL: "https://example.org/notes"})
	if err != nil {
		t.Fatal(err)
	}
	page := string(send(t, f, "GET", "/events", "", "", "Accept", "text/html").want(t, http.StatusOK).Body)
	if !strings.Contains(page, `<a href="https://example.org/notes">Notes</a>`) {
		t.Errorf("the sidebar's Notes entry does not follow EVENTS_NOTES_URL")
	}
	send(t, f, "GET", "/notes", "", "", "Accept", "text/html").want(t, http.StatusNotFound)
}
