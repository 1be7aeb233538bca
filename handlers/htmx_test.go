// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var hx = []string{"HX-Request", "true"}

// rowID returns the id of the one event row of a fragment.
func rowID(t *testing.T, body string) int64 {
	t.Helper()
	m := regexp.MustCompile(`<li\b[^>]*\bid="event-(\d+)"`).FindAllStringSubmatch(body, -1)
	if len(m) != 1 {
		t.Fatalf("fragment has %d event rows, want 1:\n%s", len(m), body)
	}
	id, _ := strconv.ParseInt(m[0][1], 10, 64)
	return id
}

// buttons lists the lifecycle controls of a fragment, in order: the
// buttons, and the defer menu as "defer".
func buttons(body string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<button\b[^>]*\bdata-op="(\w+)"|<details class="(defer)"`).FindAllStringSubmatch(body, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}

func TestFragmentsOfCreateAndLifecycle(t *testing.T) {
	s := newServer(t)
	a := s.form("POST", "/api/events", url.Values{"kind": {"task"}, "title": {"Buy milk"}}, hx...)
	body := a.html(t, http.StatusCreated)
	id := rowID(t, body)
	if got := a.Header.Get("Location"); got != path(id) {
		t.Errorf("Location = %q, want %q", got, path(id))
	}
	if !strings.Contains(body, "Buy milk") || !strings.Contains(body, `data-status="planned"`) {
		t.Errorf("planned row = %s, want its title and status", body)
	}
	if got := strings.Join(buttons(body), " "); got != "complete defer cancel" {
		t.Errorf("planned task buttons = %q, want \"complete defer cancel\" (no reactivate)", got)
	}

	body = s.json("POST", path(id, "complete"), "", hx...).html(t, http.StatusOK)
	if rowID(t, body) != id || !strings.Contains(body, `data-status="done"`) {
		t.Errorf("complete fragment = %s, want the done row of %d", body, id)
	}
	// The answer's undo note holds the one Undo (reactivate); the row's
	// reactivate slot stays empty beside it (issue 47).
	if got := strings.Join(buttons(body), " "); got != "cancel" || strings.Count(body, ">Undo</button>") != 1 {
		t.Errorf("done task buttons = %q, want \"cancel\" and one Undo, the note's", got)
	}
	body = s.json("POST", path(id, "reactivate"), "", hx...).html(t, http.StatusOK)
	if got := strings.Join(buttons(body), " "); got != "complete defer cancel" {
		t.Errorf("reactivated task buttons = %q, want \"complete defer cancel\"", got)
	}
	body = s.form("POST", path(id, "defer"), url.Values{"defer_until": {"2026-11-25T09:00"}}, hx...).html(t, http.StatusOK)
	if got := strings.Join(buttons(body), " "); got != "complete defer cancel" || strings.Count(body, ">Undo</button>") != 1 {
		t.Errorf("deferred task buttons = %q, want all three and one Undo, the note's", got)
	}

	// An activity log row has no lifecycle buttons; a running one has one
	// control, Stop (DESIGN.md, "Running logs and overlaps").
	body = s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "title": {"ran"}}, hx...).html(t, http.StatusCreated)
	rowID(t, body)
	if strings.Contains(body, "<button") || strings.Contains(body, "hx-post") {
		t.Errorf("done activity_log row has lifecycle buttons:\n%s", body)
	}
	body = s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "title": {"running"}, "status": {"in_progress"}}, hx...).html(t, http.StatusCreated)
	if got := strings.Join(buttons(body), " "); got != "stop" || strings.Count(body, "<button") != 1 || !strings.Contains(body, `hx-post="/api/events/`) {
		t.Errorf("running activity_log row: buttons %q; want Stop alone:\n%s", got, body)
	}

	// PATCH and GET answer the row too.
	body = s.form("PATCH", path(id), url.Values{"title": {"Buy oat milk"}}, hx...).html(t, http.StatusOK)
	if rowID(t, body) != id || !strings.Contains(body, "Buy oat milk") {
		t.Errorf("PATCH fragment = %s", body)
	}
	if rowID(t, s.get(path(id), hx...).html(t, http.StatusOK)) != id {
		t.Errorf("GET fragment is not row %d", id)
	}
}

func TestFragmentsOfListings(t *testing.T) {
	s := newServer(t)
	l := seedListing(s)
	rows := regexp.MustCompile(`<li\b[^>]*\bid="event-(\d+)"`)
	for _, tt := range []struct {
		target string
		want   []string
	}{
		{"/api/events?kind=task", []string{"E", "A", "B", "G", "H"}},
		{"/api/events/today", []string{"E", "C", "D"}},
		{"/api/events/inbox", []string{"B", "H"}},
		{"/api/events/activity", []string{"D"}},
		{"/api/events?status=waiting", nil},
	} {
		body := s.get(tt.target, hx...).html(t, http.StatusOK)
		var got []string
		for _, m := range rows.FindAllStringSubmatch(body, -1) {
			got = append(got, m[1])
		}
		var want []string
		for _, id := range l.ids(tt.want...) {
			want = append(want, strconv.FormatInt(id, 10))
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("GET %s fragment rows = %v, want %v", tt.target, got, want)
		}
	}
	body := s.get(path(l["G"], "history"), hx...).html(t, http.StatusOK)
	if !strings.Contains(body, `<ol class="history">`) || strings.Count(body, "data-change=") != 2 ||
		strings.Index(body, `data-change="create"`) > strings.Index(body, `data-change="cancel"`) {
		t.Errorf("history fragment = %s, want create then cancel", body)
	}
}

func TestFragmentsOfErrors(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	s.op(e.ID, "complete", "")
	log := s.create(`{"kind":"activity_log","title":"l"}`)
	// A refused lifecycle operation answers the row as it is now, with the
	// reason, for the page to swap in place of the stale one.
	for _, tt := range []struct {
		name, target, ctype, body, status, reason string
		code                                      int
	}{
		{"409", path(e.ID, "complete"), "", "", "done", "A done event cannot be completed", 409},
		{"422 kind", path(log.ID, "defer"), formType, "defer_until=2026-12-01T09:00", "done", "an activity_log cannot be deferred", 422},
	} {
		body := s.do("POST", tt.target, tt.ctype, tt.body, hx...).html(t, tt.code)
		if !strings.Contains(body, `data-status="`+tt.status+`"`) || !strings.Contains(body, `class="message"`) || !strings.Contains(body, tt.reason) {
			t.Errorf("%s: fragment = %s, want the current row (%s) with a message saying %q", tt.name, body, tt.status, tt.reason)
		}
	}
	tests := []struct {
		name, method, target, ctype, body string
		status                            int
		fields                            []string
	}{
		{"422 unknown field", "POST", "/api/events", formType, "kind=task&title=x&colour=red", 422, []string{"colour"}},
		{"422 missing start", "POST", "/api/events", formType, "kind=calendar_event&title=x", 422, []string{"start_at"}},
		{"404", "GET", "/api/events/999999", "", "", 404, nil},
		{"404 not a number", "POST", "/api/events/abc/complete", "", "", 404, nil},
		{"400", "GET", "/api/events?limit=0", "", "", 400, []string{"limit"}},
		{"405", "DELETE", path(e.ID), "", "", 405, nil},
		{"415", "POST", "/api/events", "text/plain", "x", 415, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := s.do(tt.method, tt.target, tt.ctype, tt.body, hx...).html(t, tt.status)
			if !strings.Contains(body, `class="problem"`) || !strings.Contains(body, `data-status="`+strconv.Itoa(tt.status)+`"`) {
				t.Errorf("error fragment = %s, want a problem of %d", body, tt.status)
			}
			for _, f := range tt.fields {
				if !strings.Contains(body, `data-field="`+f+`"`) {
					t.Errorf("error fragment = %s, want it to name %s", body, f)
				}
			}
		})
	}
	// The same status over the live server, for a body over the limit.
	body := s.live("POST", "/api/events", formType, "title="+strings.Repeat("a", 300<<10), hx...).html(t, http.StatusRequestEntityTooLarge)
	if !strings.Contains(body, `data-status="413"`) {
		t.Errorf("413 fragment = %s", body)
	}
}

// A full-page navigation or a history restore gets JSON, like a plain request.
func TestNotAFragmentForFullOrRestoreRequests(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	for _, h := range [][]string{
		{"HX-Request", "true", "HX-Request-Type", "full"},
		{"HX-Request", "true", "HX-History-Restore-Request", "true"},
		{"HX-History-Restore-Request", "true"},
		{"HX-Request", "false"},
		{"HX-Request-Type", "partial"},
	} {
		a := s.get(path(e.ID), h...)
		if got := a.event(t, http.StatusOK); got.ID != e.ID {
			t.Errorf("GET with %v = %+v, want event %d", h, got, e.ID)
		}
		if !varies(a) {
			t.Errorf("GET with %v: Vary = %q, want HX-Request", h, a.Header.Values("Vary"))
		}
		s.get("/api/events/today", h...).page(t)
		s.json("POST", "/api/events", `{"kind":"task","title":"y"}`, h...).event(t, http.StatusCreated)
		s.get("/api/events/999999", h...).problem(t, http.StatusNotFound)
		var hp historyPage
		s.get(path(e.ID, "history"), h...).wantJSON(t, http.StatusOK, &hp)
	}
}

// Answers that differ by HX-Request say so, errors included: a cache must
// not hand a JSON answer to htmx or the other way round.
func TestVaryHXRequest(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	for _, a := range []answer{
		s.json("POST", "/api/events", `{"kind":"task","title":"y"}`),
		s.get(path(e.ID)),
		s.get("/api/events"),
		s.get("/api/events/today"),
		s.get("/api/events/inbox"),
		s.get("/api/events/activity"),
		s.get(path(e.ID, "history")),
		s.json("PATCH", path(e.ID), `{"title":"z"}`),
		s.json("POST", path(e.ID, "complete"), ""),
		s.json("POST", path(e.ID, "complete"), ""),
		s.get("/api/events/999999"),
		s.get("/api/events?limit=0"),
		s.json("POST", "/api/events", `{"kind":"task"}`),
		s.get(path(e.ID, "history"), hx...),
		s.get("/api/events/999999", hx...),
	} {
		if !varies(a) {
			t.Errorf("%s: Vary = %q, want HX-Request", a, a.Header.Values("Vary"))
		}
	}
}

func TestUserTextIsEscapedInFragments(t *testing.T) {
	s := newServer(t)
	const evil = `<script>alert(1)</script>`
	body := s.form("POST", "/api/events", url.Values{
		"kind": {"task"}, "title": {evil}, "project_tag": {`"><img src=x onerror=alert(2)>`},
	}, hx...).html(t, http.StatusCreated)
	if strings.Contains(body, "<script") || strings.Contains(body, "<img") {
		t.Errorf("fragment holds the typed markup unescaped:\n%s", body)
	}
	if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("fragment = %s, want the title shown escaped", body)
	}
	// In a list, and in an error that names a field the user sent.
	if body := s.get("/api/events", hx...).html(t, http.StatusOK); strings.Contains(body, "<script") {
		t.Errorf("list fragment holds <script:\n%s", body)
	}
	body = s.do("POST", "/api/events", formType, url.Values{"kind": {"task"}, "title": {"x"}, evil: {"1"}}.Encode(), hx...).html(t, http.StatusUnprocessableEntity)
	if strings.Contains(body, "<script") || !strings.Contains(body, "&lt;script&gt;") {
		t.Errorf("error fragment does not escape the field name:\n%s", body)
	}
	// And JSON carries it as text, without HTML escapes (\u003c).
	var p page
	raw := s.get("/api/events")
	if !strings.Contains(string(raw.Body), `"title":"<script>alert(1)</script>"`) {
		t.Errorf("JSON does not carry the title as typed: %s", raw.Body)
	}
	raw.wantJSON(t, http.StatusOK, &p)
	if len(p.Items) != 1 || p.Items[0].Title != evil {
		t.Errorf("JSON title = %+v, want %q", p.Items, evil)
	}
}
