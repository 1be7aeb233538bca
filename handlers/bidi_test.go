// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestTitlesAreDrawnIsolated: a title with a right-to-left override is
// stored as sent, and the pages draw it isolated (dir="auto") with the
// override shown as "[RLO]", so "invoice \u202egpj.exe" cannot read as
// "invoice exe.jpg".
func TestTitlesAreDrawnIsolated(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"invoice \u202egpj.exe","project_tag":"bills"}`)
	if e.Title != "invoice \u202egpj.exe" {
		t.Fatalf("stored title %q, want it as sent", e.Title)
	}
	for _, target := range []string{"/events?tab=inbox", path(e.ID)[len("/api"):]} {
		body := s.get(target).pageHTML(t, http.StatusOK)
		// the edit form's title field holds the stored text, so a save keeps it
		body = strings.ReplaceAll(body, "value=\"invoice \u202egpj.exe\"", "")
		if strings.ContainsRune(body, '\u202e') {
			t.Errorf("%s draws the override itself", target)
		}
		if !strings.Contains(body, "invoice [RLO]gpj.exe") {
			t.Errorf("%s does not show the override as [RLO]", target)
		}
	}
	row := s.get("/events?tab=inbox").pageHTML(t, http.StatusOK)
	if !strings.Contains(row, `class="title" href="/events/`) || !strings.Contains(row, `dir="auto">invoice [RLO]gpj.exe</a>`) {
		t.Errorf("the row's title is not isolated (dir=auto)")
	}
	if !strings.Contains(row, `#<bdi>bills</bdi>`) {
		t.Errorf("the row's tag is not isolated")
	}
	detail := s.get(path(e.ID)[len("/api"):]).pageHTML(t, http.StatusOK)
	if !strings.Contains(detail, `<h1 id="detail-title" dir="auto">invoice [RLO]gpj.exe</h1>`) {
		t.Errorf("the detail heading is not isolated")
	}
}
