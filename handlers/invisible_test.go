// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/url"
	"strings"
	"testing"
)

// TestProjectTagRefusesInvisibleCharacters: a project tag holding a
// zero-width or other invisible character (which would show as another
// tag: "a\u200bb" looks like "ab") is refused naming project_tag, by a
// create, a PATCH, the capture text and the listing's filter; a tag with
// Hangul and a hyphen is fine. Before, "a\u200bb" was stored.
func TestProjectTagRefusesInvisibleCharacters(t *testing.T) {
	s := newServer(t)
	for _, tag := range []string{`a\u200bb`, `a\u200db`, `a\u2060b`, `\ufeffab`, `a\u00adb`, `\u3164`, `a\u3164b`} {
		s.json("POST", "/api/events", `{"kind":"task","title":"t","project_tag":"`+tag+`"}`).problem(t, 422, "project_tag")
	}
	e := s.create(`{"kind":"task","title":"t","project_tag":"회의-준비"}`)
	s.json("PATCH", path(e.ID), `{"project_tag":"a\u200bb"}`).problem(t, 422, "project_tag")
	a := s.json("POST", "/api/events", `{"kind":"task","text":"pay rent #a\u200bb"}`)
	if a.Status == 201 && strings.Contains(string(a.Body), "\u200b") {
		t.Errorf("the capture text stored a tag with a zero-width space: %s", a)
	}
	s.get("/api/events?project_tag="+url.QueryEscape("a\u200bb")).problem(t, 400, "project_tag")
}

// TestSearchTermIsolatedInTheTitle: a search term goes into the page's
// <title> between U+2068 and U+2069 with its bidirectional controls shown,
// so q=\u202eabc (right-to-left override) no longer reverses the tab's
// title; an event's title on its page the same. Before, the term went in
// as it came.
func TestSearchTermIsolatedInTheTitle(t *testing.T) {
	s := newServer(t)
	title := func(html string) string {
		_, rest, _ := strings.Cut(html, "<title>")
		got, _, _ := strings.Cut(rest, "</title>")
		return got
	}
	page := string(s.get("/events/search?q="+url.QueryEscape("\u202eexe.gpj 회의")).want(t, 200).Body)
	if got, want := title(page), "Search: \u2068[RLO]exe.gpj 회의\u2069 · events"; got != want {
		t.Errorf("the search page's title %q, want %q", got, want)
	}
	e := s.create(`{"kind":"task","title":"invoice \u202egpj.exe"}`)
	if got, want := title(string(s.get(path(e.ID)[len("/api"):]).want(t, 200).Body)), "\u2068invoice [RLO]gpj.exe\u2069 · events"; got != want {
		t.Errorf("the event page's title %q, want %q", got, want)
	}
}
