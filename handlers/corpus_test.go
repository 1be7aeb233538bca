// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"events/docs/apicheck"
	"events/models"
)

// corpusRequest is one request of the corpus: {task}, {cal}, {log},
// {done} and {open} in its target stand for the id of an event of that
// kind (done: a completed task; open: a task the corpus completes and
// reactivates).
type corpusRequest struct {
	name, method, target, ctype, body string
	headers                           []string
	// spelling, when set, says why the server's refusal is of how the
	// request is written, which the document's validation, reading the
	// parsed value, cannot see
	spelling string
}

// beyondSchema reports whether a refusal (the field and code of one error)
// is one a request schema cannot make: it depends on another field, on the
// clock, on the data, on a value normalised before it is bounded, or on
// how the request was spelled rather than on what it parses to. Every
// other refusal of a request's shape must be the document's too.
func beyondSchema(r corpusRequest, status int, field, code string) bool {
	switch code {
	case "not_allowed_for_kind":
		return r.method != "POST" || r.target != "/api/events" // the stored event's kind, not the body's
	case "in_the_past", "in_the_future", "conflicting_fields", "ambiguous_text", "storage_rule", "key_reused":
		return true // the clock, another field, the capture reader, the data, an earlier request
	case "repeated":
		return true // a key or parameter sent twice: the document sees the parsed value
	case "required":
		return field != "kind" && field != "defer_until" // needed because of the kind, another field or a capture text
	case "out_of_range":
		return field == "to" || field == "end_at" || field == "ended_at" || field == "started_at" // on the wrong side of another field
	case "too_long":
		return field == "title" || field == "description" || field == "project_tag" // bounded after trimming
	case "unknown_field":
		return status == 400 // a query parameter: OpenAPI cannot close a query string (a body's is 422)
	case "bad_format":
		return field == "cursor" || field == "tz" // an opaque token, an IANA zone: no schema lists them
	}
	return false
}

// theCorpus is every refusal the API tests make for a request's shape
// (TestBadRequests400, TestUnsupportedMediaType415, TestFieldProblems422,
// TestRefusalsNameTheirTypeAndCodes, the edges of issue 48), requests they
// make that are accepted, and the per-kind create matrix: each kind, each
// status, no time field or one of each.
func theCorpus() []corpusRequest {
	j := func(name, method, target, body string, headers ...string) corpusRequest {
		return corpusRequest{name: name, method: method, target: target, ctype: jsonType, body: body, headers: headers}
	}
	get := func(name, target string, headers ...string) corpusRequest {
		return corpusRequest{name: name, method: "GET", target: target, headers: headers}
	}
	form := func(name, method, target, body string) corpusRequest {
		return corpusRequest{name: name, method: method, target: target, ctype: "application/x-www-form-urlencoded", body: body}
	}
	spelled := func(r corpusRequest, why string) corpusRequest { r.spelling = why; return r }
	long := strings.Repeat("é", 501)
	c := []corpusRequest{
		// TestBadRequests400
		j("syntax error", "POST", "/api/events", `{"kind": "task", "title": `),
		spelled(j("trailing data", "POST", "/api/events", `{"kind":"task","title":"x"} {}`), "a second JSON value after the body"),
		j("not an object", "POST", "/api/events", `["task"]`),
		j("empty JSON body", "POST", "/api/events", ``),
		j("syntax error in a PATCH", "PATCH", "/api/events/{task}", `{"title":`),
		j("syntax error in a defer", "POST", "/api/events/{task}/defer", `{"defer_until":`),
		get("bad query time", "/api/events?from=yesterday"),
		get("unencoded plus", "/api/events?from=2026-11-22T00:00:00+09:00"),
		get("from after to", "/api/events?from=2026-11-23T00:00:00Z&to=2026-11-22T00:00:00Z"),
		get("bad activity time", "/api/events/activity?to=soon"),
		get("bad tz", "/api/events/today?tz=Mars/Olympus"),
		get("empty tz", "/api/events?tz="),
		get("limit 0", "/api/events?limit=0"),
		get("limit 1001", "/api/events?limit=1001"),
		get("limit not a number", "/api/events/inbox?limit=ten"),
		get("forged cursor", "/api/events?cursor=abc"),
		get("bad status filter", "/api/events?status=finished"),
		get("bad kind filter", "/api/events?kind=note"),
		get("unknown parameter", "/api/events/inbox?tz=UTC"),
		get("bad history cursor", "/api/events/{task}/history?cursor=Zm9v"),
		// TestUnsupportedMediaType415
		{name: "text/plain create", method: "POST", target: "/api/events", ctype: "text/plain", body: `{"kind":"task","title":"x"}`},
		{name: "no Content-Type", method: "POST", target: "/api/events", body: `{"kind":"task","title":"x"}`},
		{name: "XML", method: "POST", target: "/api/events", ctype: "application/xml", body: `<event/>`},
		{name: "text/plain PATCH", method: "PATCH", target: "/api/events/{task}", ctype: "text/plain", body: `title=y`},
		{name: "text/plain defer", method: "POST", target: "/api/events/{task}/defer", ctype: "text/plain", body: `2026-12-01`},
		{name: "CSV complete", method: "POST", target: "/api/events/{task}/complete", ctype: "text/csv", body: `x`},
		{name: "JSON with a charset", method: "POST", target: "/api/events", ctype: "application/json; charset=utf-8", body: `{"kind":"task","title":"x"}`},
		{name: "merge-patch PATCH", method: "PATCH", target: "/api/events/{task}", ctype: "application/merge-patch+json", body: `{"title":"y"}`},
		// TestFieldProblems422
		j("unknown field", "POST", "/api/events", `{"kind":"task","title":"x","colour":"red"}`),
		j("two unknown fields", "POST", "/api/events", `{"kind":"task","title":"x","a":1,"b":2}`),
		j("completed_at in a create", "POST", "/api/events", `{"kind":"task","title":"x","completed_at":"2026-11-22T00:00:00Z"}`),
		j("defer_until in a create", "POST", "/api/events", `{"kind":"task","title":"x","defer_until":"2026-12-22T00:00:00Z"}`),
		j("id in a create", "POST", "/api/events", `{"kind":"task","title":"x","id":7}`),
		j("no kind", "POST", "/api/events", `{"title":"x"}`),
		j("unknown kind", "POST", "/api/events", `{"kind":"note","title":"x"}`),
		j("status not allowed for the kind", "POST", "/api/events", `{"kind":"task","title":"x","status":"tentative"}`),
		j("deferred at create", "POST", "/api/events", `{"kind":"task","title":"x","status":"deferred"}`),
		j("calendar_event without start_at", "POST", "/api/events", `{"kind":"calendar_event","title":"x"}`),
		j("task without title", "POST", "/api/events", `{"kind":"task","title":"   "}`),
		j("wrong types", "POST", "/api/events", `{"kind":"task","title":5,"priority":"high","due_at":12}`),
		j("boolean as a string", "POST", "/api/events", `{"kind":"calendar_event","title":"x","start_at":"2026-11-25T00:00:00Z","all_day":"yes"}`),
		j("priority out of bounds", "POST", "/api/events", `{"kind":"task","title":"x","priority":4}`),
		j("time without offset", "POST", "/api/events", `{"kind":"task","title":"x","due_at":"2026-11-25T09:00"}`),
		j("501-character title", "POST", "/api/events", `{"kind":"task","title":"`+long+`"}`),
		j("500-character title", "POST", "/api/events", `{"kind":"task","title":"`+strings.Repeat("é", 500)+`"}`),
		j("NUL in a title", "POST", "/api/events", `{"kind":"task","title":"a\u0000b"}`),
		j("escape in a project_tag", "POST", "/api/events", `{"kind":"task","title":"x","project_tag":"a\u001bb"}`),
		j("NUL in a description", "PATCH", "/api/events/{task}", `{"description":"a\u0000b"}`),
		j("a time of another kind", "POST", "/api/events", `{"kind":"task","title":"x","started_at":"2026-11-22T00:00:00Z"}`),
		j("source_ref without source", "POST", "/api/events", `{"kind":"task","title":"x","source_ref":"r"}`),
		j("field repeated", "POST", "/api/events", `{"kind":"task","title":"x","title":"y"}`),
		j("status in a PATCH", "PATCH", "/api/events/{task}", `{"status":"done"}`),
		j("completed_at in a PATCH", "PATCH", "/api/events/{task}", `{"completed_at":"2026-11-22T00:00:00Z"}`),
		j("defer_until in a PATCH", "PATCH", "/api/events/{task}", `{"defer_until":"2026-12-22T00:00:00Z"}`),
		j("kind in a PATCH", "PATCH", "/api/events/{task}", `{"kind":"calendar_event"}`),
		j("null title in a PATCH", "PATCH", "/api/events/{task}", `{"title":null}`),
		j("end before start", "PATCH", "/api/events/{cal}", `{"end_at":"2026-11-24T00:00:00Z"}`),
		j("start_at removed from a calendar_event", "PATCH", "/api/events/{cal}", `{"start_at":null}`),
		j("defer of an activity_log", "POST", "/api/events/{log}/defer", `{"defer_until":"2026-12-01T00:00:00Z"}`),
		j("a PATCH of another kind's time", "PATCH", "/api/events/{task}", `{"started_at":"2026-11-22T00:00:00Z"}`),
		j("defer_until in the past", "POST", "/api/events/{task}/defer", `{"defer_until":"2026-11-22T02:59:59Z"}`),
		j("defer_until missing", "POST", "/api/events/{task}/defer", ``),
		j("defer_until null", "POST", "/api/events/{task}/defer", `{"defer_until":null}`),
		j("defer_until not a time", "POST", "/api/events/{task}/defer", `{"defer_until":"tomorrow"}`),
		j("a field in a complete", "POST", "/api/events/{task}/complete", `{"completed_at":"2026-11-22T00:00:00Z"}`),
		// TestRefusalsNameTheirTypeAndCodes
		j("server-set field", "POST", "/api/events", `{"kind":"task","title":"x","created_at":"2026-11-22T00:00:00Z"}`),
		j("a status the kind does not start in", "POST", "/api/events", `{"kind":"activity_log","title":"x","status":"planned","started_at":"2026-11-22T01:00:00Z"}`),
		j("a time that is not one", "POST", "/api/events", `{"kind":"task","title":"x","due_at":"tomorrow"}`),
		j("control character", "POST", "/api/events", `{"kind":"task","title":"a\u0007b"}`),
		j("a running log with an end", "POST", "/api/events", `{"kind":"activity_log","title":"x","status":"in_progress","ended_at":"2026-11-22T01:00:00Z"}`),
		j("capture text that leaves no title", "POST", "/api/events", `{"kind":"task","text":"tomorrow !high"}`),
		j("capture duration past now", "POST", "/api/events", `{"kind":"activity_log","text":"writing 3h","started_at":"2026-11-22T02:00:00Z"}`),
		get("unknown parameter on a listing", "/api/events?colour=red"),
		get("parameter twice", "/api/events?kind=task&kind=task"),
		get("search too long", "/api/events?q="+strings.Repeat("a", 201)),
		get("control character in a parameter", "/api/events?q=a%01"),
		j("If-Match that does not parse", "PATCH", "/api/events/{task}", `{"title":"y"}`, "If-Match", "not-a-tag"),
		j("Idempotency-Key with a space", "POST", "/api/events", `{"kind":"task","title":"x"}`, "Idempotency-Key", "a b"),
		j("Idempotency-Key too long", "POST", "/api/events", `{"kind":"task","title":"x"}`, "Idempotency-Key", strings.Repeat("k", 256)),
		j("overlap for a task", "POST", "/api/events", `{"kind":"task","title":"x","overlap":"refuse"}`),
		j("stop_running for a calendar entry", "POST", "/api/events", `{"kind":"calendar_event","title":"x","start_at":"2026-11-25T00:00:00Z","stop_running":true}`),
		{name: "a body neither JSON nor a form", method: "POST", target: "/api/events", ctype: "text/plain", body: "x"},
		// TestHostileInputsAreRefusedAndWriteNothing
		j("unfinished JSON", "POST", "/api/events", `{"kind":"task"`),
		j("JSON null body", "POST", "/api/events", `null`),
		j("a form sent as JSON", "POST", "/api/events", `kind=task&title=x`),
		j("byte order mark", "POST", "/api/events", "\xef\xbb\xbf{\"kind\":\"task\",\"title\":\"x\"}"),
		spelled(j("invalid UTF-8 in JSON", "POST", "/api/events", "{\"kind\":\"task\",\"title\":\"a\xffb\"}"), "a JSON decoder reads an invalid byte as U+FFFD"),
		form("a form that does not parse", "POST", "/api/events", "kind=task&title=x&a=%zz"),
		j("title an array", "POST", "/api/events", `{"kind":"task","title":["x"]}`),
		j("title an operator object", "POST", "/api/events", `{"kind":"task","title":{"$gt":""}}`),
		j("priority a boolean", "POST", "/api/events", `{"kind":"task","title":"x","priority":true}`),
		j("priority a fraction", "POST", "/api/events", `{"kind":"task","title":"x","priority":2.5}`),
		j("priority a full-width digit", "POST", "/api/events", `{"kind":"task","title":"x","priority":"\uff13"}`),
		j("kind a number", "POST", "/api/events", `{"kind":1,"title":"x"}`),
		j("kind null", "POST", "/api/events", `{"kind":null,"title":"x"}`),
		j("title null", "POST", "/api/events", `{"kind":"task","title":null}`),
		j("start_at null on a calendar entry", "POST", "/api/events", `{"kind":"calendar_event","title":"x","start_at":null}`),
		j("empty object", "POST", "/api/events", `{}`),
		j("priority null in a PATCH", "PATCH", "/api/events/{task}", `{"priority":null}`),
		j("all_day null in a PATCH", "PATCH", "/api/events/{cal}", `{"all_day":null}`),
		j("priority 1e400", "POST", "/api/events", `{"kind":"task","title":"x","priority":1e400}`),
		j("priority above uint64", "POST", "/api/events", `{"kind":"task","title":"x","priority":18446744073709551617}`),
		j("year 99999", "POST", "/api/events", `{"kind":"task","title":"x","due_at":"99999-01-01T00:00:00Z"}`),
		j("year 0000", "POST", "/api/events", `{"kind":"task","title":"x","due_at":"0000-01-01T00:00:00Z"}`),
		j("offset of 25 hours", "POST", "/api/events", `{"kind":"task","title":"x","due_at":"2026-11-25T00:00:00+25:00"}`),
		j("a leap second", "POST", "/api/events", `{"kind":"task","title":"x","due_at":"2016-12-31T23:59:60Z"}`),
		j("defer to year 10000", "POST", "/api/events/{task}/defer", `{"defer_until":"10000-01-01T00:00:00Z"}`),
		get("limit beyond int64", "/api/events?limit=99999999999999999999"),
		spelled(form("invalid UTF-8 in a form", "POST", "/api/events", "kind=task&title=a%FFb"), "a percent-escaped byte that is no UTF-8"),
		form("NUL in a form title", "POST", "/api/events", "kind=task&title=x%00"),
		j("newline in a project_tag", "POST", "/api/events", `{"kind":"task","title":"x","project_tag":"a\nb"}`),
		j("CR in a source_ref", "POST", "/api/events", `{"kind":"task","title":"x","source":"chat","source_ref":"a\rb"}`),
		j("tab in a PATCH project_tag", "PATCH", "/api/events/{task}", `{"project_tag":"a\tb"}`),
		form("tab in a form project_tag", "POST", "/api/events", "kind=task&title=x&project_tag=a%09b"),
		j("right-to-left override in a project_tag", "POST", "/api/events", `{"kind":"task","title":"x","project_tag":"invoice\u202egpj.exe"}`),
		j("isolate in a source_ref", "POST", "/api/events", `{"kind":"task","title":"x","source":"chat","source_ref":"a\u2066b"}`),
		form("embedding in a form project_tag", "POST", "/api/events", "kind=task&title=x&project_tag=a%E2%80%AAb"),
		j("10,000-character source_ref", "POST", "/api/events", `{"kind":"task","title":"x","source":"chat","source_ref":"`+strings.Repeat("x", 10_000)+`"}`),
		j("SQL in a kind", "POST", "/api/events", `{"kind":"task'; DROP TABLE events;--","title":"x"}`),
		j("SQL in a source", "POST", "/api/events", `{"kind":"task","title":"x","source":"email' OR '1'='1","source_ref":"r"}`),
		get("SQL in a status filter", "/api/events?status=planned%27)%20OR%201%3D1--"),
		j("HTML as a field name", "POST", "/api/events", `{"kind":"task","title":"x","<img src=x onerror=alert(1)>":1}`),
		j("description nested", "POST", "/api/events", `{"kind":"task","title":"x","description":[[[[]]]]}`),
		// the edges of issue 48
		spelled(get("limit with a plus", "/api/events?limit=%2B5"), "+5 parses to the integer 5"),
		get("unknown parameter on one event", "/api/events/{task}?x=1"),
		j("lowercase t and z", "POST", "/api/events", `{"kind":"task","title":"x","due_at":"2026-11-25t09:00:00z"}`),
		get("lowercase t and z in a query", "/api/events?from=2026-11-23t00:00:00z"),
		spelled(j("a lone surrogate", "POST", "/api/events", `{"kind":"task","title":"a\ud800b"}`), "a JSON decoder reads a lone surrogate as U+FFFD"),
		j("read-only zone in a PATCH", "PATCH", "/api/events/{task}", `{"zone":"UTC"}`),
		j("read-only due_date in a PATCH", "PATCH", "/api/events/{task}", `{"due_date":"2026-11-25"}`),
		// accepted requests of the API tests
		get("a filtered listing", "/api/events?kind=task,calendar_event&status=planned,done&limit=5&from=2026-11-20T00:00:00Z&to=2026-11-30T00:00:00%2B09:00"),
		get("a source filter", "/api/events?source=email,chat&project_tag=work"),
		get("a Korean search", "/api/events?q="+url.QueryEscape("회의 준비")),
		get("changes since", "/api/events?updated_since=2026-11-21T00:00:00Z"),
		get("today in a zone", "/api/events/today?tz=Europe/Berlin&limit=10"),
		get("the inbox", "/api/events/inbox"),
		get("the activity", "/api/events/activity?from=2026-11-15T00:00:00Z"),
		get("a summary", "/api/events/summary?from=2026-11-15T00:00:00Z&to=2026-11-22T00:00:00Z&tz=Asia/Seoul"),
		get("an export", "/api/events/export?format=ndjson&kind=task"),
		get("one event", "/api/events/{task}"),
		get("one event, If-None-Match", "/api/events/{task}", "If-None-Match", `W/"1.2", "3.4"`),
		get("its history", "/api/events/{task}/history?limit=2"),
		j("a PATCH with If-Match *", "PATCH", "/api/events/{task}", `{"title":"z","priority":1}`, "If-Match", "*"),
		j("a PATCH of every kind's time", "PATCH", "/api/events/{cal}", `{"end_at":"2026-11-25T03:00:00Z","all_day":false}`),
		j("a PATCH clearing a tag", "PATCH", "/api/events/{task}", `{"project_tag":null,"description":"line one\r\nline two\ttab"}`),
		j("a create with a key", "POST", "/api/events", `{"kind":"task","title":"keyed"}`, "Idempotency-Key", "k-corpus-1"),
		j("a create from text", "POST", "/api/events?tz=Asia/Seoul", `{"kind":"calendar_event","text":"tue 15:00-16:00 meeting"}`),
		j("a create with a source", "POST", "/api/events", `{"kind":"task","title":"mail","source":"email","source_ref":"m-corpus"}`),
		j("a log that stops the running one", "POST", "/api/events", `{"kind":"activity_log","title":"next","status":"in_progress","stop_running":true}`),
		j("a log with overlap allowed", "POST", "/api/events", `{"kind":"activity_log","title":"o","started_at":"2026-11-22T00:00:00Z","ended_at":"2026-11-22T00:30:00Z","overlap":"allow"}`),
		j("a defer", "POST", "/api/events/{task}/defer", `{"defer_until":"2026-12-01T09:00:00+09:00"}`),
		j("a complete with {}", "POST", "/api/events/{open}/complete", `{}`),
		j("a reactivate with {}", "POST", "/api/events/{open}/reactivate", `{}`),
		{name: "a complete without a body", method: "POST", target: "/api/events/{cal}/complete"},
		form("a create from a form", "POST", "/api/events", "kind=task&title=form&desc=notes&due_at=2026-11-25T09%3A00&priority=1"),
		form("a form with an unknown field", "POST", "/api/events", "kind=task&title=form&colour=red"),
		form("a form with a server-set field", "POST", "/api/events", "kind=task&title=form&created_at=2026-11-22T00%3A00%3A00Z"),
		form("an edit form", "PATCH", "/api/events/{task}", "title=edited&desc=&all_day=off"),
		form("an edit form with a status", "PATCH", "/api/events/{task}", "title=edited&status=done"),
		form("a defer form", "POST", "/api/events/{open}/defer", "defer_until=2026-12-02T09%3A00"),
		form("a defer form with a title", "POST", "/api/events/{open}/defer", "defer_until=2026-12-02T09%3A00&title=x"),
		form("a complete form with a field", "POST", "/api/events/{open}/complete", "title=x"),
	}
	// the per-kind create matrix
	times := map[string]string{
		"due_at": `"2026-11-25T09:00:00+09:00"`, "start_at": `"2026-11-25T10:00:00Z"`, "end_at": `"2026-11-25T11:00:00Z"`,
		"all_day": `true`, "started_at": `"2026-11-22T01:00:00Z"`, "ended_at": `"2026-11-22T02:00:00Z"`,
	}
	fields := []string{"", "due_at", "start_at", "end_at", "all_day", "started_at", "ended_at"}
	for _, k := range models.Kinds {
		for _, st := range models.Statuses {
			for _, f := range fields {
				body := fmt.Sprintf(`{"kind":%q,"title":"matrix","status":%q`, k, st)
				name := fmt.Sprintf("create %s %s", k, st)
				if f != "" {
					body += fmt.Sprintf(`,%q:%s`, f, times[f])
					name += " with " + f
				}
				c = append(c, j(name, "POST", "/api/events", body+"}"))
			}
		}
	}
	return c
}

// Both directions of the contract: each request of the corpus the server
// accepts, the document's request validation accepts; each it refuses for
// its shape (400, 415, 422), the document refuses too, unless each error
// the server names is one no schema can make (beyondSchema). The counts
// are logged.
func TestOpenAPIRefusesWhatTheServerRefuses(t *testing.T) {
	s := newServer(t)
	ids := map[string]int64{
		"{task}": s.create(`{"kind":"task","title":"corpus task"}`).ID,
		"{cal}":  s.create(`{"kind":"calendar_event","title":"corpus entry","start_at":"2026-11-25T00:00:00Z","end_at":"2026-11-25T02:00:00Z"}`).ID,
		"{log}":  s.create(`{"kind":"activity_log","title":"corpus log","status":"in_progress"}`).ID,
		"{done}": s.create(`{"kind":"task","title":"corpus done","status":"done"}`).ID,
		"{open}": s.create(`{"kind":"task","title":"corpus open"}`).ID,
	}
	var accepted, refused, bothRefuse, beyond, disagree int
	for _, r := range theCorpus() {
		target := r.target
		for k, id := range ids {
			target = strings.ReplaceAll(target, k, fmt.Sprint(id))
		}
		a := s.do(r.method, target, r.ctype, r.body, r.headers...)
		req := httptest.NewRequest(r.method, target, strings.NewReader(r.body))
		if r.ctype != "" {
			req.Header.Set("Content-Type", r.ctype)
		}
		for i := 0; i+1 < len(r.headers); i += 2 {
			req.Header.Set(r.headers[i], r.headers[i+1])
		}
		docErr := apicheck.RequestProblem(req, []byte(r.body))
		switch {
		case a.Status < 300:
			accepted++
			if docErr != nil {
				disagree++
				t.Errorf("%s: the server accepts it (%d), the document refuses it: %v", r.name, a.Status, docErr)
			}
		case a.Status == 400 || a.Status == 415 || a.Status == 422:
			refused++
			if docErr != nil {
				bothRefuse++
				continue
			}
			var p problem
			_ = json.Unmarshal(a.Body, &p)
			all := len(p.Errors) > 0
			for _, e := range p.Errors {
				all = all && beyondSchema(r, a.Status, e.Field, e.Code)
			}
			all = all || r.spelling != ""
			if all {
				t.Logf("beyond a schema: %s: %d %v %s", r.name, a.Status, p.codes(), r.spelling)
				beyond++
				continue
			}
			disagree++
			t.Errorf("%s: the server refuses it for its shape (%d %v), the document accepts it", r.name, a.Status, p.codes())
		default:
			t.Errorf("%s: answered %d, neither accepted nor refused for its shape: %s", r.name, a.Status, a.Body)
		}
	}
	t.Logf("corpus: %d requests; the server accepts %d, refuses %d for their shape; the document refuses %d of those, "+
		"%d are beyond a schema (named by beyondSchema or spelling); disagreements %d", accepted+refused, accepted, refused, bothRefuse, beyond, disagree)
	if accepted < 40 || refused < 100 {
		t.Errorf("a corpus too small: %d accepted, %d refused", accepted, refused)
	}
}
