// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// create decodes a JSON create body (which must decode) and builds the event
// at now, with all-day dates read in loc.
func create(t *testing.T, fields map[string]any, loc *time.Location) (Event, error) {
	t.Helper()
	body, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	in, err := DecodeJSON(body, CreateFields)
	if err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	e, err := in.NewEvent(now, loc)
	if err == nil {
		if p := storageProblems(e, loc); len(p) > 0 {
			t.Errorf("NewEvent(%s) accepted an event that breaks %v", body, p)
		}
	} else if class(err) != "422" {
		t.Errorf("NewEvent(%s): got %s (%v), want a FieldErrors", body, class(err), err)
	}
	return e, err
}

// minimal is the least a create of kind k needs.
func minimal(k Kind) map[string]any {
	m := map[string]any{"kind": string(k)}
	switch k {
	case KindTask:
		m["title"] = "t"
	case KindCalendarEvent:
		m["title"], m["start_at"] = "c", "2026-11-25T09:00:00+09:00"
	}
	return m
}

func with(m map[string]any, kv ...any) map[string]any {
	n := map[string]any{}
	for k, v := range m {
		n[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(n, kv[i].(string))
			continue
		}
		n[kv[i].(string)] = kv[i+1]
	}
	return n
}

func TestNewEventInitialStatus(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	// docs/DESIGN.md: allowed initial statuses by kind, the default first.
	allowed := map[Kind][]Status{
		KindTask:          {StatusPlanned, StatusInProgress, StatusWaiting, StatusDone},
		KindCalendarEvent: {StatusPlanned, StatusTentative, StatusDone},
		KindActivityLog:   {StatusDone, StatusInProgress},
	}
	for _, k := range Kinds {
		e, err := create(t, minimal(k), seoul)
		if err != nil {
			t.Fatalf("%s with defaults: %v", k, err)
		}
		if e.Status != allowed[k][0] {
			t.Errorf("%s default status: got %s, want %s", k, e.Status, allowed[k][0])
		}
		for _, s := range Statuses {
			e, err := create(t, with(minimal(k), "status", string(s)), seoul)
			if !slices.Contains(allowed[k], s) {
				if got := fieldsOf(err); len(got) == 0 || got[0] != "status" {
					t.Errorf("%s created %s: got %v (%v), want a 422 naming status first", k, s, got, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s created %s: %v", k, s, err)
				continue
			}
			if e.Status != s || e.CompletedAt != nil || e.CancelledAt != nil || e.DeferUntil != nil || e.UndoStatus != nil {
				t.Errorf("%s created %s: got status %s, completed_at %s, cancelled_at %s, defer_until %s, undo %s",
					k, s, e.Status, fmtPtr(e.CompletedAt), fmtPtr(e.CancelledAt), fmtPtr(e.DeferUntil), fmtStatus(e.UndoStatus))
			}
			if !e.CreatedAt.Equal(nowUS) || !e.UpdatedAt.Equal(nowUS) {
				t.Errorf("%s created_at/updated_at: got %s/%s, want %s", k, e.CreatedAt, e.UpdatedAt, nowUS)
			}
		}
	}
}

func TestNewEventKind(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	_, err := create(t, map[string]any{"title": "no kind"}, seoul)
	if got := fieldsOf(err); !reflect.DeepEqual(got, []string{"kind"}) {
		t.Errorf("no kind: got %v (%v), want [kind]", got, err)
	}
	// Only the decoders fill an Input in the service, but an Input built by
	// hand with a kind that is not one must be refused, not panic.
	in := Input{Kind: Opt[Kind]{Set: true, V: "note"}, Title: Opt[string]{Set: true, V: "x"}}
	_, err = in.NewEvent(now, seoul)
	wantFieldError(t, err, "kind")
}

func TestNewEventActivityLog(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	before := nowUS.Add(-90 * time.Minute)
	after := nowUS.Add(90 * time.Minute)
	log := minimal(KindActivityLog)
	cases := []struct {
		name                string
		fields              map[string]any
		status              Status
		startedAt, endedAt  *time.Time
		refused             string // the field a 422 names, "" when accepted
		refusedAlternatives []string
	}{
		{name: "no input: done, ended now", fields: log, status: StatusDone, endedAt: &nowUS},
		{name: "a title only", fields: with(log, "title", "lunch"), status: StatusDone, endedAt: &nowUS},
		{name: "done, started given: kept, ended now", fields: with(log, "started_at", FormatTime(before)), status: StatusDone, startedAt: &before, endedAt: &nowUS},
		{name: "done, ended given: kept", fields: with(log, "ended_at", FormatTime(before)), status: StatusDone, endedAt: &before},
		{name: "done, both given", fields: with(log, "started_at", FormatTime(before), "ended_at", FormatTime(nowUS)), status: StatusDone, startedAt: &before, endedAt: &nowUS},
		{name: "done, empty span", fields: with(log, "started_at", FormatTime(before), "ended_at", FormatTime(before)), status: StatusDone, startedAt: &before, endedAt: &before},
		{name: "done, null times: defaults", fields: with(log, "started_at", json.RawMessage("null"), "ended_at", json.RawMessage("null")), status: StatusDone, endedAt: &nowUS},
		{name: "done, started after the default end", fields: with(log, "started_at", FormatTime(after)), refusedAlternatives: []string{"started_at", "ended_at"}},
		{name: "done, started after the given end", fields: with(log, "started_at", FormatTime(nowUS), "ended_at", FormatTime(before)), refusedAlternatives: []string{"started_at", "ended_at"}},
		{name: "in_progress: started now", fields: with(log, "status", "in_progress"), status: StatusInProgress, startedAt: &nowUS},
		{name: "in_progress, started given", fields: with(log, "status", "in_progress", "started_at", FormatTime(before)), status: StatusInProgress, startedAt: &before},
		{name: "in_progress, ended given", fields: with(log, "status", "in_progress", "ended_at", FormatTime(nowUS)), refused: "ended_at"},
		{name: "in_progress, both given", fields: with(log, "status", "in_progress", "started_at", FormatTime(before), "ended_at", FormatTime(nowUS)), refused: "ended_at"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := create(t, c.fields, seoul)
			switch {
			case c.refused != "":
				wantFieldError(t, err, c.refused)
				return
			case c.refusedAlternatives != nil:
				if names := fieldsOf(err); len(names) == 0 || !slices.Contains(c.refusedAlternatives, names[0]) {
					t.Errorf("got %v (%v), want a 422 naming one of %v", names, err, c.refusedAlternatives)
				}
				return
			case err != nil:
				t.Fatalf("refused: %v", err)
			}
			if e.Status != c.status {
				t.Errorf("status: got %s, want %s", e.Status, c.status)
			}
			checkTime(t, "started_at", e.StartedAt, c.startedAt)
			checkTime(t, "ended_at", e.EndedAt, c.endedAt)
		})
	}
}

func TestNewEventCalendarNeedsStart(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	for _, f := range []map[string]any{
		{"kind": "calendar_event", "title": "c"},
		{"kind": "calendar_event", "title": "c", "start_at": nil},
		{"kind": "calendar_event", "title": "c", "end_at": "2026-11-25T10:00:00Z"},
		{"kind": "calendar_event", "title": "c", "all_day": true},
	} {
		_, err := create(t, f, seoul)
		wantFieldError(t, err, "start_at")
	}
	e, err := create(t, map[string]any{"kind": "calendar_event", "title": "c", "start_at": "2026-11-25T09:00:00+09:00"}, seoul)
	if err != nil {
		t.Fatal(err)
	}
	checkTime(t, "start_at", e.StartAt, at(ts(t, "2026-11-25T00:00:00Z")))
	checkTime(t, "end_at", e.EndAt, nil)
	// end_at before start_at
	_, err = create(t, map[string]any{"kind": "calendar_event", "title": "c", "start_at": "2026-11-25T09:00:00Z", "end_at": "2026-11-25T08:59:59Z"}, seoul)
	wantFieldError(t, err, "end_at")
}

func TestNewEventAllDay(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	ny := mustZone(t, "America/New_York")
	havana := mustZone(t, "America/Havana") // its clocks skip from 00:00 to 01:00 on 2026-03-08
	cases := []struct {
		name       string
		loc        *time.Location
		start, end string // end "" when absent
		wantStart  string
		wantEnd    string
		hours      float64
		refused    string
	}{
		{"one Seoul day from a time of day", seoul, "2026-11-25T15:00:00+09:00", "", "2026-11-25T00:00:00+09:00", "2026-11-26T00:00:00+09:00", 24, ""},
		{"one Seoul day from its midnight", seoul, "2026-11-25T00:00:00+09:00", "", "2026-11-25T00:00:00+09:00", "2026-11-26T00:00:00+09:00", 24, ""},
		{"the last second of a Seoul day", seoul, "2026-11-25T23:59:59+09:00", "", "2026-11-25T00:00:00+09:00", "2026-11-26T00:00:00+09:00", 24, ""},
		{"a UTC time read on the Seoul calendar", seoul, "2026-11-25T16:00:00Z", "", "2026-11-26T00:00:00+09:00", "2026-11-27T00:00:00+09:00", 24, ""},
		{"end_at exclusive: two days", seoul, "2026-11-25T00:00:00+09:00", "2026-11-27T00:00:00+09:00", "2026-11-25T00:00:00+09:00", "2026-11-27T00:00:00+09:00", 48, ""},
		{"an end inside a day covers that day", seoul, "2026-11-25T10:00:00+09:00", "2026-11-26T10:00:00+09:00", "2026-11-25T00:00:00+09:00", "2026-11-27T00:00:00+09:00", 48, ""},
		{"an end on the start day's midnight", seoul, "2026-11-25T10:00:00+09:00", "2026-11-25T00:00:00+09:00", "", "", 0, "end_at"},
		{"an end the day before", seoul, "2026-11-25T10:00:00+09:00", "2026-11-24T10:00:00+09:00", "", "", 0, "end_at"},
		{"New York, spring forward: 23 hours", ny, "2026-03-08T12:00:00-04:00", "", "2026-03-08T00:00:00-05:00", "2026-03-09T00:00:00-04:00", 23, ""},
		{"New York, fall back: 25 hours", ny, "2026-11-01T12:00:00-05:00", "", "2026-11-01T00:00:00-04:00", "2026-11-02T00:00:00-05:00", 25, ""},
		{"New York, the day before the change", ny, "2026-03-07T23:30:00-05:00", "", "2026-03-07T00:00:00-05:00", "2026-03-08T00:00:00-05:00", 24, ""},
		{"Havana, no midnight: the day starts at 01:00", havana, "2026-03-08T12:00:00-04:00", "", "2026-03-08T01:00:00-04:00", "2026-03-09T00:00:00-04:00", 23, ""},
		{"a span that would start in year 0 (UTC)", seoul, "0001-01-01T00:00:00Z", "", "", "", 0, "start_at"},
		{"a span that would end in year 10000", seoul, "9999-12-31T15:00:00Z", "", "", "", 0, "end_at"},
		{"the first whole day", seoul, "0001-01-02T00:00:00Z", "", "0001-01-01T15:32:08Z", "0001-01-02T15:32:08Z", 24, ""},
		{"Havana, the day before ends when the next begins", havana, "2026-03-07T23:30:00-05:00", "", "2026-03-07T00:00:00-05:00", "2026-03-08T01:00:00-04:00", 24, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := map[string]any{"kind": "calendar_event", "title": "holiday", "all_day": true, "start_at": c.start}
			if c.end != "" {
				f["end_at"] = c.end
			}
			e, err := create(t, f, c.loc)
			if c.refused != "" {
				wantFieldError(t, err, c.refused)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkTime(t, "start_at", e.StartAt, at(ts(t, c.wantStart)))
			checkTime(t, "end_at", e.EndAt, at(ts(t, c.wantEnd)))
			if got := e.EndAt.Sub(*e.StartAt).Hours(); got != c.hours {
				t.Errorf("span: got %v hours, want %v", got, c.hours)
			}
			if !e.AllDay {
				t.Errorf("all_day: got false")
			}
		})
	}
}

func TestNewEventTimeFieldsOfAnotherKind(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	times := map[string]any{"start_at": "2026-11-25T09:00:00Z", "end_at": "2026-11-25T10:00:00Z", "due_at": "2026-11-25T09:00:00Z",
		"started_at": "2026-11-25T01:00:00Z", "ended_at": "2026-11-25T02:00:00Z", "all_day": true}
	// docs/DESIGN.md / the spec's form rules: the time fields of each kind.
	own := map[Kind][]string{
		KindTask:          {"due_at", "start_at"},
		KindCalendarEvent: {"start_at", "end_at", "all_day"},
		KindActivityLog:   {"started_at", "ended_at"},
	}
	for _, k := range Kinds {
		for name, v := range times {
			_, err := create(t, with(minimal(k), name, v), seoul)
			if slices.Contains(own[k], name) {
				if err != nil {
					t.Errorf("%s with %s: %v", k, name, err)
				}
				continue
			}
			if got := fieldsOf(err); !reflect.DeepEqual(got, []string{name}) {
				t.Errorf("%s with %s: got %v (%v), want a 422 naming [%s]", k, name, got, err, name)
			}
		}
	}
	// all_day false is no time, for any kind.
	for _, k := range Kinds {
		if _, err := create(t, with(minimal(k), "all_day", false), seoul); err != nil {
			t.Errorf("%s with all_day false: %v", k, err)
		}
	}
	// A task may carry a clock time as start_at, with or without due_at.
	e, err := create(t, with(minimal(KindTask), "start_at", "2026-11-25T09:00:00Z", "due_at", "2026-11-26T09:00:00Z"), seoul)
	if err != nil || e.StartAt == nil || e.DueAt == nil {
		t.Errorf("task with start_at and due_at: %+v, %v", e, err)
	}
}

func TestNewEventTitle(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	for _, k := range []Kind{KindTask, KindCalendarEvent} {
		for _, title := range []any{nil, "", "   ", "\n\t "} {
			_, err := create(t, with(minimal(k), "title", title), seoul)
			if got := fieldsOf(err); !reflect.DeepEqual(got, []string{"title"}) {
				t.Errorf("%s with title %q: got %v (%v), want [title]", k, title, got, err)
			}
		}
	}
	for _, title := range []any{nil, "", "  "} {
		e, err := create(t, with(minimal(KindActivityLog), "title", title), seoul)
		if err != nil || e.Title != "" {
			t.Errorf("activity_log with title %q: got %q, %v; want an empty title", title, e.Title, err)
		}
	}
	e, err := create(t, with(minimal(KindTask), "title", "  Pay rent \n"), seoul)
	if err != nil || e.Title != "Pay rent" {
		t.Errorf("title trimmed: got %q, %v", e.Title, err)
	}
}

func TestNewEventBounds(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	task := minimal(KindTask)
	src := with(task, "source", "email")
	cases := []struct {
		name    string
		fields  map[string]any
		refused string
		check   func(e Event) string
	}{
		{"title of 500 characters", with(task, "title", strings.Repeat("é", 500)), "", nil},
		{"title of 500 characters once trimmed", with(task, "title", "  "+strings.Repeat("x", 500)+"\n "), "",
			func(e Event) string { return lenIs(e.Title, 500) }},
		{"title of 501 characters", with(task, "title", strings.Repeat("é", 501)), "title", nil},
		{"description of 20,000 characters", with(task, "description", strings.Repeat("한", 20000)), "", nil},
		{"description of 20,001 characters", with(task, "description", strings.Repeat("x", 20001)), "description", nil},
		{"description of 20,000 characters once CRLF normalised", with(task, "description", strings.Repeat("\r\n", 20000)), "",
			func(e Event) string { return lenIs(e.Description, 20000) }},
		{"description kept as sent (not trimmed)", with(task, "description", "  two\n\tlines  "), "",
			func(e Event) string { return eq(e.Description, "  two\n\tlines  ") }},
		{"project_tag of 64 characters", with(task, "project_tag", strings.Repeat("p", 64)), "", nil},
		{"project_tag of 65 characters", with(task, "project_tag", strings.Repeat("p", 65)), "project_tag", nil},
		{"project_tag empty is null", with(task, "project_tag", ""), "", func(e Event) string { return isNil(e.ProjectTag) }},
		{"project_tag blank is null", with(task, "project_tag", "   "), "", func(e Event) string { return isNil(e.ProjectTag) }},
		{"project_tag null", with(task, "project_tag", json.RawMessage("null")), "", func(e Event) string { return isNil(e.ProjectTag) }},
		{"project_tag trimmed", with(task, "project_tag", " home "), "", func(e Event) string { return eq(deref(e.ProjectTag), "=home") }},
		{"project_tag's leading # dropped", with(task, "project_tag", " #home "), "", func(e Event) string { return eq(deref(e.ProjectTag), "=home") }},
		{"project_tag of 64 characters after its #", with(task, "project_tag", "#"+strings.Repeat("p", 64)), "", nil},
		{"project_tag # alone is null", with(task, "project_tag", "#"), "", func(e Event) string { return isNil(e.ProjectTag) }},
		{"project_tag with a tab", with(task, "project_tag", "home\twork"), "project_tag", nil},
		{"source_ref with a tab", with(src, "source_ref", "r\t1"), "source_ref", nil},
		{"source_ref of 200 characters", with(src, "source_ref", strings.Repeat("r", 200)), "", nil},
		{"source_ref of 201 characters", with(src, "source_ref", strings.Repeat("r", 201)), "source_ref", nil},
		{"priority 0", with(task, "priority", 0), "", nil},
		{"priority 3", with(task, "priority", 3), "", func(e Event) string { return eq(fmt.Sprint(e.Priority), "3") }},
		{"no priority is 0", task, "", func(e Event) string { return eq(fmt.Sprint(e.Priority), "0") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := create(t, c.fields, seoul)
			if c.refused != "" {
				if got := fieldsOf(err); !reflect.DeepEqual(got, []string{c.refused}) {
					t.Errorf("got %v (%v), want a 422 naming [%s]", got, err, c.refused)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if c.check != nil {
				if msg := c.check(e); msg != "" {
					t.Error(msg)
				}
			}
		})
	}
	// Out-of-range priorities never decode; an Input built by hand is checked too.
	for _, p := range []int{-1, 4} {
		in := Input{Kind: Opt[Kind]{Set: true, V: KindTask}, Title: Opt[string]{Set: true, V: "t"}, Priority: Opt[int]{Set: true, V: p}}
		_, err := in.NewEvent(now, seoul)
		wantFieldError(t, err, "priority")
	}
}

func lenIs(s string, n int) string {
	if got := len([]rune(s)); got != n {
		return fmt.Sprintf("length: got %d, want %d", got, n)
	}
	return ""
}

func eq(got, want string) string {
	if got != want {
		return fmt.Sprintf("got %q, want %q", got, want)
	}
	return ""
}

func isNil[T any](p *T) string {
	if p != nil {
		return fmt.Sprintf("got %v, want nil", *p)
	}
	return ""
}

func TestNewEventControlCharacters(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	task := with(minimal(KindTask), "source", "chat", "source_ref", "ref")
	for _, f := range checkedTexts(CreateFields) {
		for _, r := range []rune{0x00, 0x01, 0x07, 0x0B, 0x0D, 0x1B, 0x7F, 0x80, 0x85, 0x9F} {
			v := "a" + string(r) + "b"
			_, err := create(t, with(task, f.Name, v), seoul)
			if got := fieldsOf(err); !reflect.DeepEqual(got, []string{f.Name}) {
				t.Errorf("%s with U+%04X: got %v (%v), want a 422 naming [%s]", f.Name, r, got, err, f.Name)
			}
		}
		// prose keeps tabs and newlines; a line (an identifier) holds neither
		for _, v := range []string{"a\tb", "a\nb", "a\n\n\tb"} {
			e, err := create(t, with(task, f.Name, v), seoul)
			if !f.Multiline {
				if got := fieldsOf(err); !reflect.DeepEqual(got, []string{f.Name}) {
					t.Errorf("%s %q: got %v (%v), want a 422 naming [%s]", f.Name, v, got, err, f.Name)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %q: %v", f.Name, v, err)
				continue
			}
			if got, _ := f.Text(&e); got != v {
				t.Errorf("%s %q: stored %q", f.Name, v, got)
			}
		}
	}
	// CRLF becomes LF; a lone CR is a control character.
	e, err := create(t, with(task, "title", "a\r\nb", "description", "x\r\ny\r\n\r\nz"), seoul)
	if err != nil {
		t.Fatal(err)
	}
	if e.Title != "a\nb" || e.Description != "x\ny\n\nz" {
		t.Errorf("CRLF: got title %q, description %q", e.Title, e.Description)
	}
	_, err = create(t, with(task, "description", "x\ry"), seoul)
	wantFieldError(t, err, "description")
	// Several problems: each field named once.
	_, err = create(t, with(task, "title", "\x00", "description", "\x01", "project_tag", strings.Repeat("p", 65)), seoul)
	if got := fieldsOf(err); !reflect.DeepEqual(got, []string{"title", "description", "project_tag"}) {
		t.Errorf("several problems: got %v, want [title description project_tag]", got)
	}
}

func TestNewEventSource(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	task := minimal(KindTask)
	cases := []struct {
		name    string
		fields  map[string]any
		refused string
	}{
		{"both", with(task, "source", "issue_tracker", "source_ref", "GH-1"), ""},
		{"neither", task, ""},
		{"both null", with(task, "source", json.RawMessage("null"), "source_ref", json.RawMessage("null")), ""},
		{"source without source_ref", with(task, "source", "email"), "source_ref"},
		{"source with a null source_ref", with(task, "source", "email", "source_ref", json.RawMessage("null")), "source_ref"},
		{"source with an empty source_ref", with(task, "source", "email", "source_ref", ""), "source_ref"},
		{"source_ref without source", with(task, "source_ref", "x"), "source"},
		{"source_ref with a null source", with(task, "source", json.RawMessage("null"), "source_ref", "x"), "source"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := create(t, c.fields, seoul)
			if c.refused == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if c.name == "both" && (deref(e.Source) != "=issue_tracker" || deref(e.SourceRef) != "=GH-1") {
					t.Errorf("got source %s, source_ref %s", deref(e.Source), deref(e.SourceRef))
				}
				return
			}
			if got := fieldsOf(err); !reflect.DeepEqual(got, []string{c.refused}) {
				t.Errorf("got %v (%v), want a 422 naming [%s]", got, err, c.refused)
			}
		})
	}
}

// TestNewEventTimesInUTC: requests may carry any offset; the event holds the
// instant in UTC at microsecond precision.
func TestNewEventTimesInUTC(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	e, err := create(t, with(minimal(KindTask), "due_at", "2026-11-25T09:00:00.1234567+09:00"), seoul)
	if err != nil {
		t.Fatal(err)
	}
	if got := FormatTime(*e.DueAt); got != "2026-11-25T00:00:00.123456Z" {
		t.Errorf("due_at: got %s, want 2026-11-25T00:00:00.123456Z", got)
	}
	if e.DueAt.Location() != time.UTC {
		t.Errorf("due_at zone: got %s, want UTC", e.DueAt.Location())
	}
}
