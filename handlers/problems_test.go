// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"events/docs"
	"events/handlers"
)

// typed checks that a problem answer has the type (a slug under
// /problems/) and names exactly the fields with their codes
// ("field:code"), and returns it.
func (a answer) typed(t *testing.T, status int, slug string, codes ...string) problem {
	t.Helper()
	var fields []string
	for _, fc := range codes {
		fields = append(fields, strings.SplitN(fc, ":", 2)[0])
	}
	p := a.problem(t, status, fields...)
	if want := "/problems/" + slug; p.Type != want {
		t.Errorf("%s: type = %q, want %q", a, p.Type, want)
	}
	got := p.codes()
	slices.Sort(got)
	want := slices.Clone(codes)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: errors (field:code) = %q, want %q", a, got, want)
	}
	return p
}

// TestRefusalsNameTheirTypeAndCodes: a representative refusal of each kind
// the API makes, with the type of its answer and the code of each field
// at fault. Before, every type was about:blank and errors had no code.
func TestRefusalsNameTheirTypeAndCodes(t *testing.T) {
	s := newServer(t)
	task := s.create(`{"kind":"task","title":"Write the report"}`)
	done := s.create(`{"kind":"task","title":"Done already"}`)
	s.op(done.ID, "complete", "")
	s.create(`{"kind":"task","title":"Imported","source":"email","source_ref":"m-1"}`)
	s.create(`{"kind":"activity_log","text":"meeting 30m"}`)
	long := strings.Repeat("a", 1001)
	type refusal struct {
		name, method, target, ctype, body string
		headers                           []string
		status                            int
		slug                              string
		codes                             []string
	}
	post := func(name, target, body string, status int, slug string, codes ...string) refusal {
		return refusal{name: name, method: "POST", target: target, ctype: jsonType, body: body, status: status, slug: slug, codes: codes}
	}
	get := func(name, target string, status int, slug string, codes ...string) refusal {
		return refusal{name: name, method: "GET", target: target, status: status, slug: slug, codes: codes}
	}
	for _, r := range []refusal{
		// 422 validation, one of each code a body can earn
		post("kind missing", "/api/events", `{"title":"x"}`, 422, "validation", "kind:required"),
		post("calendar entry without start", "/api/events", `{"kind":"calendar_event","title":"x"}`, 422, "validation", "start_at:required"),
		post("unknown field", "/api/events", `{"kind":"task","title":"x","mood":"calm"}`, 422, "validation", "mood:unknown_field"),
		post("server-set field", "/api/events", `{"kind":"task","title":"x","created_at":"2026-11-22T00:00:00Z"}`, 422, "validation", "created_at:not_editable"),
		post("a task's started_at", "/api/events", `{"kind":"task","title":"x","started_at":"2026-11-22T00:00:00Z"}`, 422, "validation", "started_at:not_allowed_for_kind"),
		post("a status the kind does not start in", "/api/events", `{"kind":"activity_log","title":"x","status":"planned","started_at":"2026-11-22T01:00:00Z"}`, 422, "validation", "status:not_allowed_for_kind"),
		post("a field twice", "/api/events", `{"kind":"task","title":"x","title":"y"}`, 422, "validation", "title:repeated"),
		post("a time that is not one", "/api/events", `{"kind":"task","title":"x","due_at":"tomorrow"}`, 422, "validation", "due_at:bad_format"),
		post("priority out of range", "/api/events", `{"kind":"task","title":"x","priority":9}`, 422, "validation", "priority:out_of_range"),
		post("end before start", "/api/events", `{"kind":"calendar_event","title":"x","start_at":"2026-11-22T10:00:00Z","end_at":"2026-11-22T09:00:00Z"}`, 422, "validation", "end_at:out_of_range"),
		post("title too long", "/api/events", `{"kind":"task","title":"`+long+`"}`, 422, "validation", "title:too_long"),
		post("control character", "/api/events", `{"kind":"task","title":"a\u0007b"}`, 422, "validation", "title:control_character"),
		post("a running log with an end", "/api/events", `{"kind":"activity_log","title":"x","status":"in_progress","ended_at":"2026-11-22T01:00:00Z"}`, 422, "validation", "ended_at:conflicting_fields"),
		post("capture text that leaves no title", "/api/events", `{"kind":"task","text":"tomorrow !high"}`, 422, "validation", "text:ambiguous_text"),
		post("capture duration past now", "/api/events", `{"kind":"activity_log","text":"writing 3h","started_at":"2026-11-22T02:00:00Z"}`, 422, "validation", "text:in_the_future"),
		post("defer into the past", path(task.ID, "defer"), `{"defer_until":"2026-11-01T00:00:00Z"}`, 422, "validation", "defer_until:in_the_past"),
		{name: "PATCH of a read-only field", method: "PATCH", target: path(task.ID), ctype: jsonType, body: `{"status":"done"}`, status: 422, slug: "validation", codes: []string{"status:not_editable"}},
		// 400 malformed: a body, then parameters and headers with codes
		post("body that does not parse", "/api/events", `{"kind":`, 400, "malformed"),
		get("unknown parameter", "/api/events?colour=red", 400, "malformed", "colour:unknown_field"),
		get("parameter twice", "/api/events?limit=1&limit=2", 400, "malformed", "limit:repeated"),
		get("limit not a number", "/api/events?limit=ten", 400, "malformed", "limit:bad_format"),
		get("limit too large", "/api/events?limit=1001", 400, "malformed", "limit:out_of_range"),
		get("search too long", "/api/events?q="+strings.Repeat("a", 201), 400, "malformed", "q:too_long"),
		get("control character in a parameter", "/api/events?q=a%01", 400, "malformed", "q:control_character"),
		{name: "If-Match that does not parse", method: "PATCH", target: path(task.ID), ctype: jsonType, body: `{"title":"y"}`,
			headers: []string{"If-Match", "not-a-tag"}, status: 400, slug: "malformed", codes: []string{"If-Match:bad_format"}},
		{name: "Idempotency-Key with a space", method: "POST", target: "/api/events", ctype: jsonType, body: `{"kind":"task","title":"x"}`,
			headers: []string{"Idempotency-Key", "a b"}, status: 400, slug: "malformed", codes: []string{"Idempotency-Key:bad_format"}},
		// the other kinds
		get("no such event", path(999999), 404, "not-found"),
		get("an id that is not a number", "/api/events/abc", 404, "not-found"),
		get("nothing at this address", "/api/nothing", 404, "not-found"),
		{name: "a method not served", method: "DELETE", target: path(task.ID), status: 405, slug: "method-not-allowed"},
		post("complete twice", path(done.ID, "complete"), "", 409, "illegal-transition", "status:illegal_step"),
		post("an overlap refused", "/api/events", `{"kind":"activity_log","text":"code review 45m","overlap":"refuse"}`, 409, "overlap"),
		post("overlap for a task", "/api/events", `{"kind":"task","title":"x","overlap":"refuse"}`, 422, "validation", "overlap:not_allowed_for_kind"),
		post("same source twice", "/api/events", `{"kind":"task","title":"Again","source":"email","source_ref":"m-1"}`, 409, "duplicate-source"),
		{name: "stale If-Match", method: "PATCH", target: path(task.ID), ctype: jsonType, body: `{"title":"y"}`,
			headers: []string{"If-Match", `"1.1"`}, status: 412, slug: "stale-precondition"},
		{name: "a body neither JSON nor a form", method: "POST", target: "/api/events", ctype: "text/plain", body: "x", status: 415, slug: "unsupported-media-type"},
	} {
		t.Run(r.name, func(t *testing.T) {
			s.do(r.method, r.target, r.ctype, r.body, r.headers...).typed(t, r.status, r.slug, r.codes...)
		})
	}

	// The same key with another body: 422 of its own type, naming the header.
	s.json("POST", "/api/events", `{"kind":"task","title":"First"}`, "Idempotency-Key", "k-1").want(t, http.StatusCreated)
	s.json("POST", "/api/events", `{"kind":"task","title":"Other"}`, "Idempotency-Key", "k-1").
		typed(t, http.StatusUnprocessableEntity, "idempotency-mismatch", "Idempotency-Key:key_reused")

	// A body over the limit, read from a live connection.
	s.live("POST", "/api/events", jsonType, `{"title":"`+strings.Repeat("x", handlers.BodyLimit)+`"}`).
		typed(t, http.StatusRequestEntityTooLarge, "too-large")
}

// TestAccessRefusalsNameTheirType: with authentication on, a request
// without credentials is unauthenticated (401), a session's change without
// its CSRF token forbidden (403), and a login beyond the attempts
// rate-limited (429).
func TestAccessRefusalsNameTheirType(t *testing.T) {
	t.Parallel()
	s, _ := authServer(t, true)
	s.get("/api/events").typed(t, http.StatusUnauthorized, "unauthenticated")
	jar := []string{"Cookie", "events_session=" + login(t, s).Value}
	s.json("POST", "/api/events", `{"kind":"task","title":"x"}`, jar...).typed(t, http.StatusForbidden, "forbidden")
	for range handlers.LoginAttempts {
		s.form("POST", "/login", url.Values{"password": {"wrong"}}, "X-Forwarded-For", "192.0.2.9").want(t, http.StatusUnauthorized)
	}
	s.form("POST", "/login", url.Values{"password": {ownerPassword}}, "X-Forwarded-For", "192.0.2.9").
		typed(t, http.StatusTooManyRequests, "rate-limited")
}

// TestLoginPaceIsOverloaded: a login beyond the global pace (2 a minute
// here) is refused with 503 of the type overloaded, like any other busy
// refusal.
func TestLoginPaceIsOverloaded(t *testing.T) {
	t.Parallel()
	_, base := loginServer(t, 4, func(o *handlers.Options) { o.LoginsPerMinute = 2 })
	client := noRedirect()
	for _, from := range []string{"192.0.2.1", "192.0.2.2", "192.0.2.3"} {
		loginFrom(client, base, from, "wrong") // the third checked ahead of the queue
	}
	req, _ := http.NewRequest("POST", base+"/login", strings.NewReader("password=wrong"))
	req.Header.Set("Content-Type", formType)
	req.Header.Set("X-Forwarded-For", "192.0.2.3")
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	wantProblem(t, res, b, http.StatusServiceUnavailable, "overloaded")
}

// wantProblem checks an answer read from a live server.
func wantProblem(t *testing.T, res *http.Response, body []byte, status int, slug string) {
	t.Helper()
	var p problem
	if res.StatusCode != status || res.Header.Get("Content-Type") != "application/problem+json" || json.Unmarshal(body, &p) != nil {
		t.Fatalf("%s %s: want %d problem details", res.Status, body, status)
	}
	if want := "/problems/" + slug; p.Type != want {
		t.Errorf("%s: type %q, want %q", body, p.Type, want)
	}
}

// TestBusyIsOverloaded: with the one slot of work held, a request is
// refused after the queue wait with 503 of the type overloaded.
func TestBusyIsOverloaded(t *testing.T) {
	s, base := overloadServer(t, 1, 100e6)
	e := s.create(`{"kind":"task","title":"Locked"}`)
	_, tx := holdTx(t, s.dsn)
	if _, err := tx.Exec("SELECT 1 FROM events WHERE id = ? FOR UPDATE", e.ID); err != nil {
		t.Fatal(err)
	}
	held := make(chan flooded, 1)
	go func() { held <- hit(http.DefaultClient, "POST", base+path(e.ID, "complete"), "", "") }()
	waitFor(t, "the held request to wait on its lock", func() bool {
		var n int
		err := s.db.QueryRow("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'").Scan(&n)
		return err == nil && n == 1
	})
	s.get("/api/events").typed(t, http.StatusServiceUnavailable, "overloaded")
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if a := <-held; a.status != http.StatusOK {
		t.Errorf("the held request: %d %v", a.status, a.err)
	}
}

// TestProblemTypePagesAreServed: every type the document lists answers,
// without authentication, a short HTML page that explains it; the page of
// validation lists every code; an unknown type is 404 not-found.
func TestProblemTypePagesAreServed(t *testing.T) {
	t.Parallel()
	s, _ := authServer(t, true)
	types, err := docs.Enum("Problem", "type")
	if err != nil {
		t.Fatal(err)
	}
	codes, err := docs.Enum("FieldError", "code")
	if err != nil {
		t.Fatal(err)
	}
	if len(types) < 15 || len(codes) < 10 {
		t.Fatalf("the document lists %d types and %d codes", len(types), len(codes))
	}
	for _, uri := range types {
		a := s.get(uri).want(t, http.StatusOK)
		if ct := a.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("%s: Content-Type %q, want text/html", uri, ct)
		}
		body := string(a.Body)
		about := between(body, `<p class="about">`, "</p>")
		if len(about) < 40 || !strings.HasSuffix(about, ".") || !strings.Contains(body, "<code>"+uri+"</code>") {
			t.Errorf("%s: the page explains nothing:\n%s", uri, body)
		}
		if uri == "/problems/validation" {
			for _, c := range codes {
				if !strings.Contains(body, fmt.Sprintf("<td><code>%s</code></td>", c)) {
					t.Errorf("%s: the page does not list the code %s", uri, c)
				}
			}
		}
	}
	s.get("/problems/no-such-type").typed(t, http.StatusNotFound, "not-found")
	s.do("POST", "/problems/validation", formType, "x=1").typed(t, http.StatusMethodNotAllowed, "method-not-allowed")
}

func between(s, from, to string) string {
	_, after, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	in, _, _ := strings.Cut(after, to)
	return strings.TrimSpace(in)
}
