// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// undoNote is the text of a fragment's undo message and the address its
// button posts to, or "" when it has none.
func undoNote(body string) (text, post string) {
	m := regexp.MustCompile(`<p class="undo-note" role="status"><span>([^<]*)</span> · <button [^>]*data-undo hx-post="([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		return "", ""
	}
	return m[1], m[2]
}

// After complete, cancel and defer the row's answer offers the undo, whose
// button is reactivate; a reactivate's answer, a list and the detail page
// offer none. The clock is t0, Sunday 22 Nov 2026 12:00 in Seoul.
func TestUndoMessage(t *testing.T) {
	s := newServer(t)
	id := rowID(t, s.form("POST", "/api/events", url.Values{"kind": {"task"}, "title": {"Buy milk"}}, hx...).html(t, http.StatusCreated))
	for _, c := range []struct {
		op   string
		form url.Values
		want string
	}{
		{"complete", nil, "Completed"},
		{"cancel", nil, "Cancelled"},
		{"defer", url.Values{"defer_until": {"2026-11-22T17:00"}}, "Deferred until today 17:00"},
		{"defer", url.Values{"defer_until": {"2026-11-23T09:00"}}, "Deferred until tomorrow 09:00"},
		{"defer", url.Values{"defer_until": {"2026-11-25T09:00"}}, "Deferred until Wed 09:00"},
		{"defer", url.Values{"defer_until": {"2026-12-25T09:00"}}, "Deferred until Fri 25 Dec, 09:00"},
		{"defer", url.Values{"defer_until": {"2027-01-04T09:00"}}, "Deferred until Mon 4 Jan 2027, 09:00"},
	} {
		body := s.form("POST", path(id, c.op), c.form, hx...).html(t, http.StatusOK)
		text, post := undoNote(body)
		if text != c.want || post != path(id, "reactivate") {
			t.Errorf("%s %v: undo message %q posting to %q, want %q posting to %s\n%s", c.op, c.form, text, post, c.want, path(id, "reactivate"), body)
		}
		body = s.json("POST", path(id, "reactivate"), "", hx...).html(t, http.StatusOK)
		if text, _ := undoNote(body); text != "" || strings.Contains(body, "undo-note") {
			t.Errorf("the answer of reactivate offers an undo: %q", text)
		}
	}
	// The message belongs to the click's answer: a list drawn anew has none.
	s.json("POST", path(id, "complete"), "", hx...).html(t, http.StatusOK)
	for _, p := range []string{"/api/events?status=done", "/events?tab=upcoming"} {
		if body := s.json("GET", p, "", hx...).html(t, http.StatusOK); strings.Contains(body, "undo-note") {
			t.Errorf("GET %s draws an undo message", p)
		}
	}
	// The detail section offers it too, its button answering into the section.
	s.json("POST", path(id, "reactivate"), "", hx...).html(t, http.StatusOK)
	body := s.json("POST", path(id, "cancel"), "", append(hx, "HX-Target", "section#detail")...).html(t, http.StatusOK)
	if text, post := undoNote(body); text != "Cancelled" || post != path(id, "reactivate") || !strings.Contains(body, `<section id="detail"`) {
		t.Errorf("the detail's answer to cancel: undo message %q posting to %q\n%s", text, post, body)
	}
	if !strings.Contains(body, `data-undo hx-post="`+path(id, "reactivate")+`" hx-target="#detail"`) {
		t.Errorf("the detail's Undo does not answer into #detail:\n%s", body)
	}
	s.json("POST", path(id, "reactivate"), "", hx...).html(t, http.StatusOK)
	s.json("POST", path(id, "complete"), "", hx...).html(t, http.StatusOK)
	// Without HX-Request the answer is the event as JSON, as before.
	s.json("POST", path(id, "reactivate"), "").event(t, http.StatusOK)
	s.json("POST", path(id, "complete"), "").event(t, http.StatusOK)
}

// The lifecycle controls sit in four fixed slots, an empty slot where the
// row offers no button, so no button moves between states.
func TestOpSlots(t *testing.T) {
	s := newServer(t)
	id := rowID(t, s.form("POST", "/api/events", url.Values{"kind": {"task"}, "title": {"Buy milk"}}, hx...).html(t, http.StatusCreated))
	slots := func(body string) string {
		var out []string
		for _, m := range regexp.MustCompile(`<span class="op-(slot)"|<button\b[^>]*\bdata-op="(\w+)"|<details class="(defer)"`).FindAllStringSubmatch(body, -1) {
			if m[1] != "" {
				out = append(out, "_")
			} else {
				out = append(out, m[2]+m[3])
			}
		}
		return strings.Join(out, " ")
	}
	// After complete or cancel the reactivate slot is empty: the answer's
	// undo note holds the one Undo (issue 47).
	for _, c := range []struct{ op, want string }{
		{"complete", "_ _ cancel _"},
		{"reactivate", "complete defer cancel _"},
		{"cancel", "_ _ _ _"},
		{"reactivate", "complete defer cancel _"},
	} {
		if got := slots(s.json("POST", path(id, c.op), "", hx...).html(t, http.StatusOK)); got != c.want {
			t.Errorf("after %s the slots are %q, want %q", c.op, got, c.want)
		}
	}
}
