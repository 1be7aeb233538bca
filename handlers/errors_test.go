// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
	"events/models"
)

func TestBadRequests400(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	tests := []struct {
		name, method, target, body string
		field                      []string
		detail                     string // a part of the detail, when it matters
	}{
		{"syntax error", "POST", "/api/events", `{"kind": "task", "title": `, nil, "not valid JSON"},
		{"trailing data", "POST", "/api/events", `{"kind":"task","title":"x"} {}`, nil, "after its JSON object"},
		{"not an object", "POST", "/api/events", `["task"]`, nil, "JSON object"},
		{"empty JSON body", "POST", "/api/events", ``, nil, ""},
		{"syntax error in a PATCH", "PATCH", path(e.ID), `{"title":`, nil, ""},
		{"syntax error in a defer", "POST", path(e.ID, "defer"), `{"defer_until":`, nil, ""},
		{"bad query time", "GET", "/api/events?from=yesterday", "", []string{"from"}, ""},
		{"unencoded plus", "GET", "/api/events?from=2026-11-22T00:00:00+09:00", "", []string{"from"}, "%2B"},
		{"from after to", "GET", "/api/events?from=2026-11-23T00:00:00Z&to=2026-11-22T00:00:00Z", "", []string{"to"}, ""},
		{"from equal to to", "GET", "/api/events?from=2026-11-22T00:00:00Z&to=2026-11-22T09:00:00%2B09:00", "", []string{"to"}, ""},
		{"bad activity time", "GET", "/api/events/activity?to=soon", "", []string{"to"}, ""},
		{"bad tz", "GET", "/api/events/today?tz=Mars/Olympus", "", []string{"tz"}, ""},
		{"empty tz", "GET", "/api/events?tz=", "", []string{"tz"}, ""},
		{"limit 0", "GET", "/api/events?limit=0", "", []string{"limit"}, ""},
		{"limit 1001", "GET", "/api/events?limit=1001", "", []string{"limit"}, ""},
		{"limit not a number", "GET", "/api/events/inbox?limit=ten", "", []string{"limit"}, ""},
		{"forged cursor", "GET", "/api/events?cursor=abc", "", []string{"cursor"}, ""},
		{"bad status filter", "GET", "/api/events?status=finished", "", []string{"status"}, ""},
		{"bad kind filter", "GET", "/api/events?kind=note", "", []string{"kind"}, ""},
		{"unknown parameter", "GET", "/api/events/inbox?tz=UTC", "", []string{"tz"}, ""},
		{"bad history cursor", "GET", path(e.ID, "history") + "?cursor=Zm9v", "", []string{"cursor"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := s.json(tt.method, tt.target, tt.body).problem(t, http.StatusBadRequest, tt.field...)
			if !strings.Contains(p.Detail, tt.detail) {
				t.Errorf("detail = %q, want it to contain %q", p.Detail, tt.detail)
			}
		})
	}
	// The encoded plus is fine.
	s.get("/api/events?from=2026-11-22T00:00:00%2B09:00").page(t)
}

func TestCursorIsBoundToItsFilters(t *testing.T) {
	s := newServer(t)
	for range 3 {
		s.create(`{"kind":"task","title":"x"}`)
		s.create(`{"kind":"activity_log","title":"y"}`)
	}
	p := s.get("/api/events?kind=task&limit=1").page(t)
	if p.NextCursor == nil {
		t.Fatal("no next_cursor with more tasks to come")
	}
	c := url.QueryEscape(*p.NextCursor)
	// The same filters take it (in any parameter order, with another limit).
	s.get("/api/events?limit=2&cursor=" + c + "&kind=task").page(t)
	for _, target := range []string{
		"/api/events?kind=activity_log&limit=1&cursor=" + c,
		"/api/events?limit=1&cursor=" + c,
		"/api/events?kind=task&status=planned&cursor=" + c,
		"/api/events/inbox?cursor=" + c,
		"/api/events/today?cursor=" + c,
		"/api/events?kind=task&cursor=" + c[:len(c)-1],
		"/api/events?kind=task&cursor=" + c + "x",
	} {
		s.get(target).problem(t, http.StatusBadRequest, "cursor")
	}
}

func TestNotFound404(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	for _, tt := range []struct{ method, target, body string }{
		{"GET", "/api/events/999999", ""},
		{"GET", "/api/events/abc", ""},
		{"GET", "/api/events/0", ""},
		{"GET", "/api/events/-1", ""},
		{"GET", "/api/events/1e3", ""},
		{"GET", "/api/events/01", ""},
		{"GET", "/api/events/+1", ""},
		{"GET", "/api/events/99999999999999999999", ""},
		{"GET", "/api/events/999999/history", ""},
		{"GET", "/api/events/999999/history?limit=0", ""}, // 404 before a bad query
		{"GET", "/api/events/abc/history", ""},
		{"PATCH", "/api/events/999999", `{"title":"y"}`},
		{"PATCH", "/api/events/abc", `{"title":"y"}`},
		{"POST", "/api/events/999999/complete", ""},
		{"POST", "/api/events/abc/cancel", ""},
		{"POST", "/api/events/0/reactivate", ""},
		{"GET", path(e.ID, "nothing"), ""},
		{"GET", "/nothing", ""},
	} {
		s.json(tt.method, tt.target, tt.body).problem(t, http.StatusNotFound)
	}
}

func TestMethodNotAllowed405(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	for _, tt := range []struct{ method, target, allow string }{
		{"DELETE", "/api/events/1", "GET, HEAD, PATCH"},
		{"DELETE", "/api/events/999999", "GET, HEAD, PATCH"},
		{"PUT", "/api/events/1", "GET, HEAD, PATCH"},
		{"POST", "/api/events/1", "GET, HEAD, PATCH"},
		{"PUT", "/api/events", "GET, HEAD, POST"},
		{"DELETE", "/api/events", "GET, HEAD, POST"},
		{"PATCH", "/api/events", "GET, HEAD, POST"},
		{"POST", "/api/events/today", "GET, HEAD"},
		{"DELETE", "/api/events/inbox", "GET, HEAD"},
		{"PATCH", "/api/events/activity", "GET, HEAD"},
		{"POST", path(e.ID, "history"), "GET, HEAD"},
		{"GET", path(e.ID, "complete"), "POST"},
		{"DELETE", path(e.ID, "defer"), "POST"},
		// an id that names no event, or is no id at all: the address still
		// serves what it serves (it was 404 where the id was not a number)
		{"DELETE", "/api/events/abc", "GET, HEAD, PATCH"},
		{"PUT", "/api/events/0", "GET, HEAD, PATCH"},
		{"DELETE", "/api/events/-1/history", "GET, HEAD"},
		{"GET", "/api/events/abc/complete", "POST"},
	} {
		a := s.do(tt.method, tt.target, "", "")
		a.problem(t, http.StatusMethodNotAllowed)
		if got := a.Header.Get("Allow"); got != tt.allow {
			t.Errorf("%s %s: Allow = %q, want %q", tt.method, tt.target, got, tt.allow)
		}
	}
	// Nothing was deleted.
	s.get(path(e.ID)).want(t, http.StatusOK)
}

// Allow names HEAD wherever GET is served, so HEAD must be served there.
func TestHeadIsServedWhereGetIs(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	for _, target := range []string{"/api/events", "/api/events/today", "/api/events/inbox", "/api/events/activity", path(e.ID), path(e.ID, "history")} {
		a := s.do("HEAD", target, "", "")
		if a.Status != http.StatusOK {
			t.Errorf("HEAD %s = %d (Allow %q), want 200", target, a.Status, a.Header.Get("Allow"))
		}
		if len(a.Body) != 0 {
			t.Errorf("HEAD %s has a body of %d bytes", target, len(a.Body))
		}
	}
	s.do("HEAD", "/api/events/999999", "", "").want(t, http.StatusNotFound)
}

func TestConflicts409(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	s.op(e.ID, "complete", "")
	p := s.json("POST", path(e.ID, "complete"), "").problem(t, http.StatusConflict, "status")
	if !strings.Contains(p.Detail, "done") {
		t.Errorf("detail = %q, want it to name the status", p.Detail)
	}
	s.json("POST", path(e.ID, "defer"), `{"defer_until":"2026-12-01T00:00:00Z"}`).problem(t, http.StatusConflict, "status")
	created := s.create(`{"kind":"task","title":"quick","status":"done"}`)
	s.json("POST", path(created.ID, "reactivate"), "").problem(t, http.StatusConflict, "status")
	planned := s.create(`{"kind":"task","title":"y"}`)
	s.json("POST", path(planned.ID, "reactivate"), "").problem(t, http.StatusConflict, "status")
	s.op(planned.ID, "cancel", "")
	s.json("POST", path(planned.ID, "cancel"), "").problem(t, http.StatusConflict, "status")
}

func TestDuplicateSourceRef409(t *testing.T) {
	s := newServer(t)
	first := s.create(`{"kind":"task","title":"from mail","source":"email","source_ref":"msg-42"}`)
	if h := s.history(first.ID); len(h) != 1 || h[0].Actor != "import" {
		t.Errorf("history of an imported create = %+v, want one row by import", h)
	}
	ev, hist := s.counts()
	a := s.json("POST", "/api/events", `{"kind":"calendar_event","title":"again","start_at":"2026-11-25T00:00:00Z","source":"email","source_ref":"msg-42"}`)
	p := a.problem(t, http.StatusConflict)
	if p.ExistingID == nil || *p.ExistingID != first.ID {
		t.Errorf("existing_id = %v, want %d", p.ExistingID, first.ID)
	}
	if got, want := a.Header.Get("Location"), path(first.ID); got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
	if e2, h2 := s.counts(); e2 != ev || h2 != hist {
		t.Errorf("counts after a duplicate = %d events, %d rows; want %d, %d", e2, h2, ev, hist)
	}
	// Another source with the same ref is another record.
	s.create(`{"kind":"task","title":"from chat","source":"chat","source_ref":"msg-42"}`)
}

func TestBodyTooLarge413(t *testing.T) {
	s := newServer(t)
	big := `{"kind":"task","title":"x","description":"` + strings.Repeat("a", 256<<10) + `"}`
	ev, hist := s.counts()
	s.live("POST", "/api/events", jsonType, big).problem(t, http.StatusRequestEntityTooLarge)
	s.live("PATCH", path(s.create(`{"kind":"task","title":"x"}`).ID), jsonType, big).problem(t, http.StatusRequestEntityTooLarge)
	ev, hist = s.counts()
	if e2, h2 := s.counts(); e2 != ev || h2 != hist {
		t.Errorf("counts after 413 = %d, %d; want %d, %d", e2, h2, ev, hist)
	}
	// Just under the limit is read (and refused for its description length, 422).
	under := `{"kind":"task","title":"x","description":"` + strings.Repeat("a", 256<<10-60) + `"}`
	s.live("POST", "/api/events", jsonType, under).problem(t, http.StatusUnprocessableEntity, "description")
	if e2, h2 := s.counts(); e2 != ev || h2 != hist {
		t.Errorf("counts after 413 and 422 = %d, %d; want %d, %d", e2, h2, ev, hist)
	}
}

func TestUnsupportedMediaType415(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	var mp bytes.Buffer
	w := multipart.NewWriter(&mp)
	_ = w.WriteField("kind", "task")
	_ = w.WriteField("title", "x")
	_ = w.Close()
	for _, tt := range []struct{ method, target, ctype, body string }{
		{"POST", "/api/events", "text/plain", `{"kind":"task","title":"x"}`},
		{"POST", "/api/events", w.FormDataContentType(), mp.String()},
		{"POST", "/api/events", "", `{"kind":"task","title":"x"}`},
		{"POST", "/api/events", "application/xml", `<event/>`},
		{"POST", "/api/events", "application/json; charset", `{"kind":"task","title":"x"}`},
		{"PATCH", path(e.ID), "text/plain", `title=y`},
		{"POST", path(e.ID, "defer"), "text/plain", `2026-12-01`},
		{"POST", path(e.ID, "complete"), "text/csv", `x`},
	} {
		s.do(tt.method, tt.target, tt.ctype, tt.body).problem(t, http.StatusUnsupportedMediaType)
	}
	// JSON with parameters, and a +json type, are JSON.
	s.do("POST", "/api/events", "application/json; charset=utf-8", `{"kind":"task","title":"x"}`).want(t, http.StatusCreated)
	s.do("PATCH", path(e.ID), "application/merge-patch+json", `{"title":"y"}`).want(t, http.StatusOK)
}

func TestFieldProblems422(t *testing.T) {
	s := newServer(t)
	task := s.create(`{"kind":"task","title":"x"}`)
	cal := s.create(`{"kind":"calendar_event","title":"c","start_at":"2026-11-25T00:00:00Z"}`)
	log := s.create(`{"kind":"activity_log","title":"l"}`)
	long := strings.Repeat("é", 501)
	tests := []struct {
		name, method, target, body string
		fields                     []string
	}{
		{"unknown field", "POST", "/api/events", `{"kind":"task","title":"x","colour":"red"}`, []string{"colour"}},
		{"two unknown fields", "POST", "/api/events", `{"kind":"task","title":"x","a":1,"b":2}`, []string{"a", "b"}},
		{"completed_at in a create", "POST", "/api/events", `{"kind":"task","title":"x","completed_at":"2026-11-22T00:00:00Z"}`, []string{"completed_at"}},
		{"defer_until in a create", "POST", "/api/events", `{"kind":"task","title":"x","defer_until":"2026-12-22T00:00:00Z"}`, []string{"defer_until"}},
		{"id in a create", "POST", "/api/events", `{"kind":"task","title":"x","id":7}`, []string{"id"}},
		{"no kind", "POST", "/api/events", `{"title":"x"}`, []string{"kind"}},
		{"unknown kind", "POST", "/api/events", `{"kind":"note","title":"x"}`, []string{"kind"}},
		{"status not allowed for the kind", "POST", "/api/events", `{"kind":"task","title":"x","status":"tentative"}`, []string{"status"}},
		{"deferred at create", "POST", "/api/events", `{"kind":"task","title":"x","status":"deferred"}`, []string{"status"}},
		{"calendar_event without start_at", "POST", "/api/events", `{"kind":"calendar_event","title":"x"}`, []string{"start_at"}},
		{"task without title", "POST", "/api/events", `{"kind":"task","title":"   "}`, []string{"title"}},
		{"wrong types", "POST", "/api/events", `{"kind":"task","title":5,"priority":"high","due_at":12}`, []string{"title", "priority", "due_at"}},
		{"boolean as a string", "POST", "/api/events", `{"kind":"calendar_event","title":"x","start_at":"2026-11-25T00:00:00Z","all_day":"yes"}`, []string{"all_day"}},
		{"priority out of bounds", "POST", "/api/events", `{"kind":"task","title":"x","priority":4}`, []string{"priority"}},
		{"time without offset", "POST", "/api/events", `{"kind":"task","title":"x","due_at":"2026-11-25T09:00"}`, []string{"due_at"}},
		{"501-character title", "POST", "/api/events", `{"kind":"task","title":"` + long + `"}`, []string{"title"}},
		{"NUL in a title", "POST", "/api/events", `{"kind":"task","title":"a\u0000b"}`, []string{"title"}},
		{"escape in a project_tag", "POST", "/api/events", `{"kind":"task","title":"x","project_tag":"a\u001bb"}`, []string{"project_tag"}},
		{"NUL in a description", "PATCH", path(task.ID), `{"description":"a\u0000b"}`, []string{"description"}},
		{"a time of another kind", "POST", "/api/events", `{"kind":"task","title":"x","started_at":"2026-11-22T00:00:00Z"}`, []string{"started_at"}},
		{"source_ref without source", "POST", "/api/events", `{"kind":"task","title":"x","source_ref":"r"}`, []string{"source"}},
		{"field repeated", "POST", "/api/events", `{"kind":"task","title":"x","title":"y"}`, []string{"title"}},
		{"status in a PATCH", "PATCH", path(task.ID), `{"status":"done"}`, []string{"status"}},
		{"completed_at in a PATCH", "PATCH", path(task.ID), `{"completed_at":"2026-11-22T00:00:00Z"}`, []string{"completed_at"}},
		{"defer_until in a PATCH", "PATCH", path(task.ID), `{"defer_until":"2026-12-22T00:00:00Z"}`, []string{"defer_until"}},
		{"kind in a PATCH", "PATCH", path(task.ID), `{"kind":"calendar_event"}`, []string{"kind"}},
		{"null title in a PATCH", "PATCH", path(task.ID), `{"title":null}`, []string{"title"}},
		{"end before start", "PATCH", path(cal.ID), `{"end_at":"2026-11-24T00:00:00Z"}`, []string{"end_at"}},
		{"start_at removed from a calendar_event", "PATCH", path(cal.ID), `{"start_at":null}`, []string{"start_at"}},
		{"defer of an activity_log", "POST", path(log.ID, "defer"), `{"defer_until":"2026-12-01T00:00:00Z"}`, []string{"kind"}},
		{"defer_until in the past", "POST", path(task.ID, "defer"), `{"defer_until":"2026-11-22T02:59:59Z"}`, []string{"defer_until"}},
		{"defer_until now", "POST", path(task.ID, "defer"), `{"defer_until":"2026-11-22T03:00:00Z"}`, []string{"defer_until"}},
		{"defer_until missing", "POST", path(task.ID, "defer"), ``, []string{"defer_until"}},
		{"defer_until null", "POST", path(task.ID, "defer"), `{"defer_until":null}`, []string{"defer_until"}},
		{"defer_until not a time", "POST", path(task.ID, "defer"), `{"defer_until":"tomorrow"}`, []string{"defer_until"}},
		{"a field in a complete", "POST", path(task.ID, "complete"), `{"completed_at":"2026-11-22T00:00:00Z"}`, []string{"completed_at"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := s.json(tt.method, tt.target, tt.body).problem(t, http.StatusUnprocessableEntity, tt.fields...)
			for _, f := range tt.fields {
				if !strings.Contains(p.Detail, f) {
					t.Errorf("detail = %q, want it to name %s", p.Detail, f)
				}
			}
		})
	}
	// A 500-character title is fine.
	s.create(`{"kind":"task","title":"` + strings.Repeat("é", 500) + `"}`)
}

// The order of refusals of docs/DESIGN.md: 404, then 400/415, then the kind
// (422), the status (409), then a bad value (422).
func TestOrderOfRefusals(t *testing.T) {
	s := newServer(t)
	done := s.create(`{"kind":"task","title":"done"}`)
	s.op(done.ID, "complete", "")
	doneLog := s.create(`{"kind":"activity_log","title":"log"}`)
	tests := []struct {
		name, method, target, ctype, body string
		status                            int
		fields                            []string
	}{
		{"404 before a broken body", "POST", "/api/events/999999/defer", jsonType, `{"defer_until":`, 404, nil},
		{"404 before a refused field", "PATCH", "/api/events/999999", jsonType, `{"status":"x"}`, 404, nil},
		{"404 before 415", "POST", "/api/events/999999/complete", "text/plain", `x`, 404, nil},
		{"404 before 415 on a PATCH", "PATCH", "/api/events/999999", "text/plain", `x`, 404, nil},
		{"415 before 409", "POST", path(done.ID, "complete"), "text/plain", `x`, 415, nil},
		{"415 before 409 on defer", "POST", path(done.ID, "defer"), "text/plain", `x`, 415, nil},
		{"400 before 409", "POST", path(done.ID, "complete"), jsonType, `{`, 400, nil},
		{"400 before 422 kind", "POST", path(doneLog.ID, "defer"), jsonType, `{"defer_until":`, 400, nil},
		{"kind 422 before status 409", "POST", path(doneLog.ID, "defer"), jsonType, `{"defer_until":"2026-12-01T00:00:00Z"}`, 422, []string{"kind"}},
		{"kind 422 before a bad value", "POST", path(doneLog.ID, "defer"), jsonType, `{"defer_until":"2020-01-01T00:00:00Z"}`, 422, []string{"kind"}},
		{"status 409 before a value in the past", "POST", path(done.ID, "defer"), jsonType, `{"defer_until":"2026-11-01T00:00:00Z"}`, 409, []string{"status"}},
		{"status 409 before a missing value", "POST", path(done.ID, "defer"), "", ``, 409, []string{"status"}},
		{"status 409 before a value that does not parse", "POST", path(done.ID, "defer"), jsonType, `{"defer_until":"soon"}`, 409, []string{"status"}},
		{"status 409 before an unknown field", "POST", path(done.ID, "complete"), jsonType, `{"now":true}`, 409, []string{"status"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.do(tt.method, tt.target, tt.ctype, tt.body).problem(t, tt.status, tt.fields...)
		})
	}
}

// TestHostileInputsAreRefusedAndWriteNothing is the one table of hostile
// input through the real HTTP stack: wrong types, nulls where a value is
// required, huge numbers, invalid UTF-8, control characters, 10,000-character
// values, SQL and HTML injection, deeply nested JSON, duplicate keys, forged
// cursors and ids, bodies of the wrong media type. Each is answered with its
// 4xx problem naming the field at fault, and nothing is written: the counts
// of events and history rows are the same after each.
func TestHostileInputsAreRefusedAndWriteNothing(t *testing.T) {
	s := newServer(t)
	task := s.create(`{"kind":"task","title":"task","due_at":"2026-11-25T00:00:00Z"}`)
	done := s.create(`{"kind":"task","title":"done"}`)
	s.op(done.ID, "complete", "")
	cal := s.create(`{"kind":"calendar_event","title":"c","start_at":"2026-11-25T00:00:00Z","end_at":"2026-11-25T01:00:00Z"}`)
	log := s.create(`{"kind":"activity_log","title":"log"}`)
	s.create(`{"kind":"task","title":"mail","source":"email","source_ref":"m-1"}`)
	before := s.get(path(task.ID)).want(t, http.StatusOK)
	ev, hist := s.counts()

	form := func(v url.Values) string { return v.Encode() }
	long := strings.Repeat("x", 10_000)
	nested := func(depth int) string { return strings.Repeat("[", depth) + strings.Repeat("]", depth) }
	// A cursor signed like a real one (the check is no secret) but at a
	// time before year 0, which PostgreSQL refuses.
	inbox, err := models.ParseListQuery(models.ListInbox, url.Values{}, seoul)
	if err != nil {
		t.Fatal(err)
	}
	ancient := time.UnixMicro(-1 << 62).UTC()
	signed := inbox.Cursor(models.Position{T: &ancient, ID: 1})
	year0 := time.Date(0, 6, 1, 0, 0, 0, 0, time.UTC) // PostgreSQL: date/time field value out of range (22008)
	signedYear0 := inbox.Cursor(models.Position{T: &year0, ID: 1})
	// A body of 3,000 unknown keys: the 422 names 20 of them.
	var manyKeys strings.Builder
	var first20 []string
	manyKeys.WriteString(`{"kind":"task","title":"x"`)
	for i := range 3000 {
		fmt.Fprintf(&manyKeys, `,"k%04d":1`, i)
		if i < handlers.MaxNamedFields {
			first20 = append(first20, fmt.Sprintf("k%04d", i))
		}
	}
	manyKeys.WriteString("}")

	refused := []struct {
		name, method, target, ctype, body string
		status                            int
		fields                            []string
	}{
		// bodies that do not parse
		{"unfinished JSON", "POST", "/api/events", jsonType, `{"kind":"task"`, 400, nil},
		{"data after the object", "POST", "/api/events", jsonType, `{"kind":"task","title":"x"}{}`, 400, nil},
		{"JSON null body", "POST", "/api/events", jsonType, `null`, 400, nil},
		{"a form sent as JSON", "POST", "/api/events", jsonType, `kind=task&title=x`, 400, nil},
		{"byte order mark", "POST", "/api/events", jsonType, "\xef\xbb\xbf{\"kind\":\"task\",\"title\":\"x\"}", 400, nil},
		{"UTF-16 body", "POST", "/api/events", "application/json; charset=utf-16", "\xff\xfe{\x00}\x00", 415, nil},
		{"invalid UTF-8 in JSON", "POST", "/api/events", jsonType, "{\"kind\":\"task\",\"title\":\"a\xffb\"}", 400, nil},
		{"JSON nested 100,000 deep", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","description":` + nested(100_000) + `}`, 400, nil},
		{"unfinished JSON in a PATCH", "PATCH", path(task.ID), jsonType, `{"due_at":"2026-11-26T00:00:00Z",`, 400, nil},
		{"a form that does not parse", "POST", "/api/events", formType, "kind=task&title=x&a=%zz", 400, nil},
		// media types
		{"JSON sent as text", "POST", "/api/events", "text/plain", `{"kind":"task","title":"x"}`, 415, nil},
		{"PATCH sent as text", "PATCH", path(task.ID), "text/plain", `due_at=2026-11-26`, 415, nil},
		{"cancel with a text body", "POST", path(task.ID, "cancel"), "text/plain", `now`, 415, nil},
		// wrong types and nulls
		{"title an array", "POST", "/api/events", jsonType, `{"kind":"task","title":["x"]}`, 422, []string{"title"}},
		{"title an operator object", "POST", "/api/events", jsonType, `{"kind":"task","title":{"$gt":""}}`, 422, []string{"title"}},
		{"priority a boolean", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","priority":true}`, 422, []string{"priority"}},
		{"priority a fraction", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","priority":2.5}`, 422, []string{"priority"}},
		{"priority SQL in a string", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","priority":"1; DROP TABLE events"}`, 422, []string{"priority"}},
		{"priority a full-width digit", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","priority":"\uff13"}`, 422, []string{"priority"}},
		{"kind a number", "POST", "/api/events", jsonType, `{"kind":1,"title":"x"}`, 422, []string{"kind"}},
		{"kind null", "POST", "/api/events", jsonType, `{"kind":null,"title":"x"}`, 422, []string{"kind"}},
		{"title null", "POST", "/api/events", jsonType, `{"kind":"task","title":null}`, 422, []string{"title"}},
		{"start_at null on a calendar entry", "POST", "/api/events", jsonType, `{"kind":"calendar_event","title":"x","start_at":null}`, 422, []string{"start_at"}},
		{"empty object", "POST", "/api/events", jsonType, `{}`, 422, []string{"kind"}},
		{"priority null in a PATCH", "PATCH", path(task.ID), jsonType, `{"priority":null}`, 422, []string{"priority"}},
		{"all_day null in a PATCH", "PATCH", path(cal.ID), jsonType, `{"all_day":null}`, 422, []string{"all_day"}},
		// huge numbers and impossible times
		{"priority 1e400", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","priority":1e400}`, 422, []string{"priority"}},
		{"priority above uint64", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","priority":18446744073709551617}`, 422, []string{"priority"}},
		{"priority below int64", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","priority":-9223372036854775809}`, 422, []string{"priority"}},
		{"PATCH priority 9", "PATCH", path(task.ID), jsonType, `{"due_at":"2026-11-26T00:00:00Z","priority":9}`, 422, []string{"priority"}},
		{"year 99999", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","due_at":"99999-01-01T00:00:00Z"}`, 422, []string{"due_at"}},
		{"year 0000", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","due_at":"0000-01-01T00:00:00Z"}`, 422, []string{"due_at"}},
		{"offset of 25 hours", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","due_at":"2026-11-25T00:00:00+25:00"}`, 422, []string{"due_at"}},
		{"a leap second", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","due_at":"2016-12-31T23:59:60Z"}`, 422, []string{"due_at"}},
		{"defer to year 10000", "POST", path(task.ID, "defer"), jsonType, `{"defer_until":"10000-01-01T00:00:00Z"}`, 422, []string{"defer_until"}},
		{"limit beyond int64", "GET", "/api/events?limit=99999999999999999999", "", "", 400, []string{"limit"}},
		{"id beyond int64", "POST", "/api/events/99999999999999999999/complete", "", "", 404, nil},
		{"id in Arabic-Indic digits", "PATCH", "/api/events/%D9%A1", jsonType, `{"title":"x"}`, 404, nil},
		// invalid UTF-8 and control characters
		{"invalid UTF-8 in a form", "POST", "/api/events", formType, "kind=task&title=a%FFb", 422, []string{"title"}},
		{"NUL in a title", "POST", "/api/events", jsonType, `{"kind":"task","title":"a\u0000"}`, 422, []string{"title"}},
		{"NUL in a form title", "POST", "/api/events", formType, "kind=task&title=x%00", 422, []string{"title"}},
		{"bell in a title", "POST", "/api/events", jsonType, `{"kind":"task","title":"ding\u0007"}`, 422, []string{"title"}},
		{"newline in a project_tag", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","project_tag":"a\nb"}`, 422, []string{"project_tag"}},
		{"terminal escape in a description", "PATCH", path(task.ID), jsonType, `{"description":"\u001b[2J"}`, 422, []string{"description"}},
		{"CR in a source_ref", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","source":"chat","source_ref":"a\rb"}`, 422, []string{"source_ref"}},
		{"tab in a project_tag", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","project_tag":"a\tb"}`, 422, []string{"project_tag"}},
		{"tab in a form project_tag", "POST", "/api/events", formType, form(url.Values{"kind": {"task"}, "title": {"x"}, "project_tag": {"a\tb"}}), 422, []string{"project_tag"}},
		{"tab in a PATCH project_tag", "PATCH", path(task.ID), jsonType, `{"project_tag":"a\tb"}`, 422, []string{"project_tag"}},
		{"tab in a source_ref", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","source":"chat","source_ref":"a\tb"}`, 422, []string{"source_ref"}},
		// bidirectional controls in identifiers
		{"right-to-left override in a project_tag", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","project_tag":"invoice\u202egpj.exe"}`, 422, []string{"project_tag"}},
		{"isolate in a source_ref", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","source":"chat","source_ref":"a\u2066b"}`, 422, []string{"source_ref"}},
		{"embedding in a form project_tag", "POST", "/api/events", formType, form(url.Values{"kind": {"task"}, "title": {"x"}, "project_tag": {"a\u202ab"}}), 422, []string{"project_tag"}},
		{"pop isolate in a PATCH project_tag", "PATCH", path(task.ID), jsonType, `{"project_tag":"ab\u2069"}`, 422, []string{"project_tag"}},
		// thousands of unknown keys
		{"3,000 unknown keys", "POST", "/api/events", jsonType, manyKeys.String(), 422, first20},
		// 10,000 characters
		{"10,000-character project_tag", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","project_tag":"` + long + `"}`, 422, []string{"project_tag"}},
		{"10,000-character form project_tag", "POST", "/api/events", formType, form(url.Values{"kind": {"task"}, "title": {"x"}, "project_tag": {long}}), 422, []string{"project_tag"}},
		{"10,000-character tag in a PATCH", "PATCH", path(task.ID), jsonType, `{"project_tag":"` + long + `"}`, 422, []string{"project_tag"}},
		{"10,000-character title", "POST", "/api/events", jsonType, `{"kind":"task","title":"` + long + `"}`, 422, []string{"title"}},
		{"10,000-character source_ref", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","source":"chat","source_ref":"` + long + `"}`, 422, []string{"source_ref"}},
		{"10,000-character field name", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","` + long + `":1}`, 422, []string{long}},
		// SQL and HTML injection
		{"SQL in a kind", "POST", "/api/events", jsonType, `{"kind":"task'; DROP TABLE events;--","title":"x"}`, 422, []string{"kind"}},
		{"SQL in a source", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","source":"email' OR '1'='1","source_ref":"r"}`, 422, []string{"source"}},
		{"SQL in a status filter", "GET", "/api/events?status=planned%27)%20OR%201%3D1--", "", "", 400, []string{"status"}},
		{"SQL in an id", "PATCH", "/api/events/1%3BDROP%20TABLE%20events", jsonType, `{"title":"y"}`, 404, nil},
		{"SQL in a cursor", "GET", "/api/events?cursor=%27%20OR%201%3D1%20--", "", "", 400, []string{"cursor"}},
		{"a zone that is a path", "GET", "/api/events?tz=..%2F..%2Fetc%2Fpasswd", "", "", 400, []string{"tz"}},
		{"HTML in a kind", "POST", "/api/events", jsonType, `{"kind":"<script>alert(1)</script>","title":"x"}`, 422, []string{"kind"}},
		{"HTML as a field name", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","<img src=x onerror=alert(1)>":1}`, 422, []string{"<img src=x onerror=alert(1)>"}},
		// deeply nested JSON
		{"description nested 5,000 deep", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","description":` + nested(5_000) + `}`, 422, []string{"description"}},
		{"unknown field nested 2,000 deep", "POST", "/api/events", jsonType, strings.Repeat(`{"a":`, 2_000) + "1" + strings.Repeat("}", 2_000), 422, []string{"a"}},
		// duplicate and unknown keys
		{"kind twice", "POST", "/api/events", jsonType, `{"kind":"task","kind":"calendar_event","title":"x"}`, 422, []string{"kind"}},
		{"title twice, same value", "PATCH", path(task.ID), jsonType, `{"title":"a","title":"a"}`, 422, []string{"title"}},
		{"priority twice in a form", "POST", "/api/events", formType, "kind=task&title=x&priority=1&priority=3", 422, []string{"priority"}},
		{"desc and description in a form", "PATCH", path(task.ID), formType, "title=x&desc=a&description=b", 422, []string{"description"}},
		{"unknown field", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","colour":1}`, 422, []string{"colour"}},
		{"unknown form field", "POST", "/api/events", formType, form(url.Values{"kind": {"task"}, "title": {"x"}, "colour": {"red"}}), 422, []string{"colour"}},
		{"JSON sent as a form", "POST", "/api/events", formType, `{"kind":"task","title":"x"}`, 415, nil}, // issue 13: says to send Content-Type: application/json
		{"status smuggled into a PATCH", "PATCH", path(task.ID), jsonType, `{"due_at":"2026-11-26T00:00:00Z","status":"done"}`, 422, []string{"status"}},
		{"desc in a JSON PATCH", "PATCH", path(task.ID), jsonType, `{"title":"x","desc":"y"}`, 422, []string{"desc"}},
		{"a field in a complete", "POST", path(task.ID, "complete"), jsonType, `{"x":1}`, 422, []string{"x"}},
		// forged cursors
		{"a well-signed cursor at an impossible time", "GET", "/api/events/inbox?cursor=" + url.QueryEscape(signed), "", "", 400, []string{"cursor"}},
		{"a well-signed cursor in year 0", "GET", "/api/events/inbox?cursor=" + url.QueryEscape(signedYear0), "", "", 400, []string{"cursor"}},
		// hostile query values: the same rules as the fields they filter
		{"NUL in a project_tag filter", "GET", "/api/events?project_tag=a%00b", "", "", 400, []string{"project_tag"}},
		{"invalid UTF-8 in a project_tag filter", "GET", "/api/events?project_tag=a%FFb", "", "", 400, []string{"project_tag"}},
		{"bidi override in a project_tag filter", "GET", "/api/events?project_tag=a%E2%80%AEb", "", "", 400, []string{"project_tag"}},
		{"10,000-character project_tag filter", "GET", "/api/events?project_tag=" + long, "", "", 400, []string{"project_tag"}},
		{"NUL in a kind filter", "GET", "/api/events?kind=task%00", "", "", 400, []string{"kind"}},
		{"invalid UTF-8 in a zone", "GET", "/api/events/today?tz=Asia%2FSeoul%FF", "", "", 400, []string{"tz"}},
		{"NUL in a cursor", "GET", "/api/events/inbox?cursor=%00", "", "", 400, []string{"cursor"}},
		{"escape in a from", "GET", "/api/events/activity?from=%1B%5B2J", "", "", 400, []string{"from"}},
		{"NUL in a limit", "GET", "/api/events?limit=1%00", "", "", 400, []string{"limit"}},
		{"a parameter twice", "GET", "/api/events?from=2026-11-25T00:00:00Z&from=2026-11-26T00:00:00Z", "", "", 400, []string{"from"}},
		// storage rules and the lifecycle
		{"calendar entry without a start", "POST", "/api/events", jsonType, `{"kind":"calendar_event","title":"x"}`, 422, []string{"start_at"}},
		{"running log with an end", "POST", "/api/events", jsonType, `{"kind":"activity_log","status":"in_progress","ended_at":"2026-11-22T00:00:00Z"}`, 422, []string{"ended_at"}},
		{"second create of a source_ref", "POST", "/api/events", jsonType, `{"kind":"task","title":"again","source":"email","source_ref":"m-1"}`, 409, nil},
		{"end before start", "PATCH", path(cal.ID), jsonType, `{"end_at":"2026-11-24T00:00:00Z"}`, 422, []string{"end_at"}},
		{"start cleared in a form", "PATCH", path(cal.ID), formType, form(url.Values{"title": {"c"}, "start_at": {""}}), 422, []string{"start_at"}},
		{"PATCH of no event", "PATCH", "/api/events/999999", jsonType, `{"title":"x"}`, 404, nil},
		{"complete twice", "POST", path(done.ID, "complete"), "", "", 409, []string{"status"}},
		{"defer a done task", "POST", path(done.ID, "defer"), jsonType, `{"defer_until":"2026-12-01T00:00:00Z"}`, 409, []string{"status"}},
		{"nothing to reactivate", "POST", path(task.ID, "reactivate"), "", "", 409, []string{"status"}},
		{"defer an activity log", "POST", path(log.ID, "defer"), jsonType, `{"defer_until":"2026-12-01T00:00:00Z"}`, 422, []string{"kind"}},
		{"defer into the past", "POST", path(task.ID, "defer"), jsonType, `{"defer_until":"2026-11-01T00:00:00Z"}`, 422, []string{"defer_until"}},
		{"defer to now from a form", "POST", path(task.ID, "defer"), formType, form(url.Values{"defer_until": {"2026-11-22T12:00"}}), 422, []string{"defer_until"}},
		{"complete of no event", "POST", "/api/events/999999/complete", "", "", 404, nil},
		{"DELETE", "DELETE", path(task.ID), "", "", 405, nil},
		{"PUT", "PUT", path(task.ID), jsonType, `{"title":"x"}`, 405, nil},
		{"a body over the limit", "POST", "/api/events", jsonType, `{"kind":"task","title":"x","description":"` + strings.Repeat("a", 300<<10) + `"}`, 413, nil},
	}
	for _, tt := range refused {
		var a answer
		if tt.status == http.StatusRequestEntityTooLarge {
			a = s.live(tt.method, tt.target, tt.ctype, tt.body)
		} else {
			a = s.do(tt.method, tt.target, tt.ctype, tt.body)
		}
		t.Run(tt.name, func(t *testing.T) { a.problem(t, tt.status, tt.fields...) })
		if e2, h2 := s.counts(); e2 != ev || h2 != hist {
			t.Fatalf("after %q (%d): %d events, %d history rows; want %d, %d", tt.name, a.Status, e2, h2, ev, hist)
		}
	}
	if len(refused) < 40 {
		t.Errorf("%d hostile inputs, want at least 40", len(refused))
	}
	if after := s.get(path(task.ID)).want(t, http.StatusOK); string(after.Body) != string(before.Body) {
		t.Errorf("the task changed:\n%s\nwant\n%s", after.Body, before.Body)
	}
}

// With the database unreachable every API call and /readyz answer 503;
// /healthz still answers.
func TestDatabaseUnreachable503(t *testing.T) {
	t.Parallel()
	db, err := app.OpenDB("postgres://x@127.0.0.1:1/x?sslmode=disable", 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := newApp(t, app.NewService(db, seoul, func() time.Time { return t0 }))
	for _, tt := range []struct{ method, target, body string }{
		{"GET", "/api/events", ""},
		{"GET", "/api/events/1", ""},
		{"GET", "/api/events/today", ""},
		{"GET", "/api/events/inbox", ""},
		{"GET", "/api/events/activity", ""},
		{"GET", "/api/events/1/history", ""},
		{"POST", "/api/events", `{"kind":"task","title":"x"}`},
		{"PATCH", "/api/events/1", `{"title":"x"}`},
		{"POST", "/api/events/1/complete", ""},
		{"POST", "/api/events/1/defer", `{"defer_until":"2026-12-01T00:00:00Z"}`},
		{"GET", "/readyz", ""},
	} {
		ctype := ""
		if tt.body != "" {
			ctype = jsonType
		}
		a := send(t, f, tt.method, tt.target, ctype, tt.body)
		p := a.typed(t, http.StatusServiceUnavailable, "unavailable")
		if strings.Contains(p.Detail, "127.0.0.1") || strings.Contains(p.Detail, "refused") {
			t.Errorf("%s: the detail leaks the cause: %q", a, p.Detail)
		}
	}
	a := send(t, f, "GET", "/healthz", "", "")
	a.want(t, http.StatusOK)
	if string(a.Body) != "{\"status\":\"ok\"}\n" {
		t.Errorf("/healthz = %s, want {\"status\":\"ok\"}", a.Body)
	}
	// A refusal that needs no database is still itself.
	send(t, f, "POST", "/api/events", jsonType, `{"kind":"task"`).problem(t, http.StatusBadRequest)
	send(t, f, "GET", "/api/events?limit=0", "", "").problem(t, http.StatusBadRequest, "limit")
	send(t, f, "GET", "/api/events/abc", "", "").problem(t, http.StatusNotFound)
}

// A request whose deadline passes answers 503, like an unreachable database.
func TestRequestDeadline503(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	f, err := handlers.New(app.NewService(db, seoul, func() time.Time { return t0 }),
		handlers.Options{Logger: quiet, RequestTimeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	send(t, f, "GET", "/api/events", "", "").problem(t, http.StatusServiceUnavailable)
	send(t, f, "POST", "/api/events", jsonType, `{"kind":"task","title":"x"}`).problem(t, http.StatusServiceUnavailable)
	send(t, f, "GET", "/readyz", "", "").problem(t, http.StatusServiceUnavailable)
	body := send(t, f, "GET", "/api/events/1", "", "", hx...).html(t, http.StatusServiceUnavailable)
	if !strings.Contains(body, `data-status="503"`) {
		t.Errorf("503 fragment = %s", body)
	}
	send(t, f, "GET", "/healthz", "", "").want(t, http.StatusOK)
	var n int
	if err := db.QueryRow("SELECT count(*) FROM events").Scan(&n); err != nil || n != 0 {
		t.Errorf("events stored = %d (%v), want 0", n, err)
	}
}

// A problem's status is a number in the body, and the same as the answer's.
func TestProblemStatusMatchesTheAnswer(t *testing.T) {
	s := newServer(t)
	a := s.get("/api/events/999999")
	p := a.problem(t, http.StatusNotFound)
	if !strings.Contains(string(a.Body), `"status":`+strconv.Itoa(p.Status)) {
		t.Errorf("body %s does not carry status as a number", a.Body)
	}
}
