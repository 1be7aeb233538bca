// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// patchJSON decodes a JSON PATCH body, which must decode.
func patchJSON(t *testing.T, body string) Input {
	t.Helper()
	in, err := DecodeJSON([]byte(body), PatchFields)
	if err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return in
}

// patchForm decodes a form PATCH body, which must decode.
func patchForm(t *testing.T, body string, loc *time.Location) Input {
	t.Helper()
	q, err := url.ParseQuery(body)
	if err != nil {
		t.Fatal(err)
	}
	in, err := DecodeForm(q, PatchFields, loc)
	if err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return in
}

func keys(m map[string]Change) []string {
	k := []string{}
	for name := range m {
		k = append(k, name)
	}
	sort.Strings(k)
	return k
}

func TestApplyPatch(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	due := ts(t, "2026-11-25T00:00:42.5Z") // 09:00:42.5 in Seoul: a form shows 09:00
	task := fixture(KindTask, StatusPlanned)
	task.DueAt, task.ProjectTag, task.Priority = &due, ptr("home"), 2
	cal := fixture(KindCalendarEvent, StatusTentative) // 2026-11-21 09:00..10:00 UTC
	log := fixture(KindActivityLog, StatusDone)        // 2026-11-20 09:00..10:00 UTC

	cases := []struct {
		name    string
		e       Event
		in      Input
		changes map[string]Change // the reschedule row's changes; nil: none
		changed bool
		check   func(t *testing.T, n Event)
	}{
		{name: "an empty patch", e: task, in: patchJSON(t, `{}`)},
		{name: "an identical patch", e: task, in: patchJSON(t, `{"title":"t","description":"","priority":2,"project_tag":"home","due_at":"2026-11-25T00:00:42.5Z","start_at":null,"all_day":false}`)},
		{name: "the same instant at another offset", e: task, in: patchJSON(t, `{"due_at":"2026-11-25T09:00:42.500+09:00"}`)},
		{name: "a project_tag equal once trimmed", e: task, in: patchJSON(t, `{"project_tag":" home "}`)},
		{name: "an empty project_tag on a null one", e: fixture(KindTask, StatusPlanned), in: patchJSON(t, `{"project_tag":""}`)},
		{name: "the title only", e: task, in: patchJSON(t, `{"title":"Pay rent"}`), changed: true,
			check: func(t *testing.T, n Event) {
				if n.Title != "Pay rent" {
					t.Errorf("title: got %q", n.Title)
				}
			}},
		{name: "priority only", e: task, in: patchJSON(t, `{"priority":0}`), changed: true},
		{name: "description only", e: task, in: patchJSON(t, `{"description":"more"}`), changed: true},
		{name: "project_tag to null", e: task, in: patchJSON(t, `{"project_tag":null}`), changed: true,
			check: func(t *testing.T, n Event) {
				if n.ProjectTag != nil {
					t.Errorf("project_tag: got %s, want nil", deref(n.ProjectTag))
				}
			}},
		{name: "due_at moved by a microsecond", e: task, in: patchJSON(t, `{"due_at":"2026-11-25T00:00:42.500001Z"}`), changed: true,
			changes: map[string]Change{"due_at": {Old: "2026-11-25T00:00:42.500000Z", New: "2026-11-25T00:00:42.500001Z"}}},
		{name: "due_at cleared", e: task, in: patchJSON(t, `{"due_at":null,"title":"x"}`), changed: true,
			changes: map[string]Change{"due_at": {Old: "2026-11-25T00:00:42.500000Z", New: nil}}},
		{name: "start_at set on a task", e: task, in: patchJSON(t, `{"start_at":"2026-11-24T09:00:00+09:00"}`), changed: true,
			changes: map[string]Change{"start_at": {Old: nil, New: "2026-11-24T00:00:00.000000Z"}}},
		{name: "a calendar entry moved", e: cal, in: patchJSON(t, `{"start_at":"2026-11-22T09:00:00Z","end_at":"2026-11-22T11:00:00Z"}`), changed: true,
			changes: map[string]Change{
				"start_at": {Old: "2026-11-21T09:00:00.000000Z", New: "2026-11-22T09:00:00.000000Z"},
				"end_at":   {Old: "2026-11-21T10:00:00.000000Z", New: "2026-11-22T11:00:00.000000Z"}}},
		{name: "a calendar entry's end only", e: cal, in: patchJSON(t, `{"end_at":null}`), changed: true,
			changes: map[string]Change{"end_at": {Old: "2026-11-21T10:00:00.000000Z", New: nil}}},
		{name: "an activity's end", e: log, in: patchJSON(t, `{"ended_at":"2026-11-20T10:30:00Z"}`), changed: true,
			changes: map[string]Change{"ended_at": {Old: "2026-11-20T10:00:00.000000Z", New: "2026-11-20T10:30:00.000000Z"}}},
		{name: "an activity's start cleared", e: log, in: patchJSON(t, `{"started_at":null}`), changed: true,
			changes: map[string]Change{"started_at": {Old: "2026-11-20T09:00:00.000000Z", New: nil}}},

		// A form shows minutes: the same minute is the stored time.
		{name: "form: the same minute keeps the seconds", e: task, in: patchForm(t, "title=t&due_at=2026-11-25T09:00&priority=2&project_tag=home&desc=", seoul),
			check: func(t *testing.T, n Event) { checkTime(t, "due_at", n.DueAt, &due) }},
		{name: "form: the same minute with seconds sent", e: task, in: patchForm(t, "due_at=2026-11-25T09:00:59", seoul)},
		{name: "form: another minute", e: task, in: patchForm(t, "due_at=2026-11-25T09:01", seoul), changed: true,
			changes: map[string]Change{"due_at": {Old: "2026-11-25T00:00:42.500000Z", New: "2026-11-25T00:01:00.000000Z"}}},
		{name: "form: an empty time is null", e: task, in: patchForm(t, "due_at=", seoul), changed: true,
			changes: map[string]Change{"due_at": {Old: "2026-11-25T00:00:42.500000Z", New: nil}}},
		{name: "form: the same minute in JSON is a change", e: task, in: patchJSON(t, `{"due_at":"2026-11-25T09:00:00+09:00"}`), changed: true,
			changes: map[string]Change{"due_at": {Old: "2026-11-25T00:00:42.500000Z", New: "2026-11-25T00:00:00.000000Z"}}},

		// all_day toggling, read in the zone given.
		{name: "all_day on", e: cal, in: patchJSON(t, `{"all_day":true}`), changed: true,
			changes: map[string]Change{
				"all_day":  {Old: false, New: true},
				"start_at": {Old: "2026-11-21T09:00:00.000000Z", New: "2026-11-20T15:00:00.000000Z"},
				"end_at":   {Old: "2026-11-21T10:00:00.000000Z", New: "2026-11-21T15:00:00.000000Z"}}},
		{name: "all_day on, from a form that sends it", e: cal, in: patchForm(t, "all_day=on", seoul), changed: true,
			changes: map[string]Change{
				"all_day":  {Old: false, New: true},
				"start_at": {Old: "2026-11-21T09:00:00.000000Z", New: "2026-11-20T15:00:00.000000Z"},
				"end_at":   {Old: "2026-11-21T10:00:00.000000Z", New: "2026-11-21T15:00:00.000000Z"}}},
		{name: "all_day off keeps the span", e: allDay(t, cal, seoul), in: patchJSON(t, `{"all_day":false}`), changed: true,
			changes: map[string]Change{"all_day": {Old: true, New: false}}},
		{name: "all_day off: a form without the checkbox", e: allDay(t, cal, seoul), in: patchForm(t, "title=t", seoul), changed: true,
			changes: map[string]Change{"all_day": {Old: true, New: false}}},
		{name: "all_day kept: a form with the checkbox", e: allDay(t, cal, seoul), in: patchForm(t, "title=t&all_day=on&start_at=2026-11-21", seoul)},
		{name: "all_day: a title-only JSON patch keeps the span", e: allDay(t, cal, seoul), in: patchJSON(t, `{"title":"renamed"}`), changed: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, times, changed, err := ApplyPatch(c.e, c.in, now, seoul)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if changed != c.changed {
				t.Errorf("changed: got %v, want %v", changed, c.changed)
			}
			want := c.changes
			if want == nil {
				want = map[string]Change{}
			}
			if !reflect.DeepEqual(times, want) {
				t.Errorf("reschedule changes:\ngot  %v\nwant %v", times, want)
			}
			wantUpdated := c.e.UpdatedAt
			if c.changed {
				wantUpdated = nowUS
			}
			if !n.UpdatedAt.Equal(wantUpdated) {
				t.Errorf("updated_at: got %s, want %s", n.UpdatedAt, wantUpdated)
			}
			if !changed {
				checkEvent(t, n, c.e)
			}
			// The times in the row are the times of the event.
			for name, ch := range times {
				if name == "all_day" {
					if ch.New != n.AllDay {
						t.Errorf("all_day change new %v, event %v", ch.New, n.AllDay)
					}
					continue
				}
				if got := timeValue(*n.timeFieldByName(name)); got != ch.New {
					t.Errorf("%s: change new %v, event %v", name, ch.New, got)
				}
			}
			if p := storageProblems(n, seoul); len(p) > 0 {
				t.Errorf("the patched event breaks %v", p)
			}
			if c.check != nil {
				c.check(t, n)
			}
		})
	}
}

// timeFieldByName returns the time field name of e (a test helper).
func (e *Event) timeFieldByName(name string) **time.Time {
	switch name {
	case "start_at":
		return &e.StartAt
	case "end_at":
		return &e.EndAt
	case "due_at":
		return &e.DueAt
	case "started_at":
		return &e.StartedAt
	}
	return &e.EndedAt
}

// allDay is cal made an all-day entry in loc.
func allDay(t *testing.T, cal Event, loc *time.Location) Event {
	t.Helper()
	n, _, _, err := ApplyPatch(cal, Input{AllDay: Opt[bool]{Set: true, V: true}}, t0, loc)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestApplyPatchRefused(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	running := fixture(KindActivityLog, StatusInProgress)
	cases := []struct {
		name  string
		e     Event
		body  string
		field string
	}{
		{"a time of another kind", fixture(KindTask, StatusPlanned), `{"ended_at":"2026-11-25T00:00:00Z"}`, "ended_at"},
		{"all_day on a task", fixture(KindTask, StatusPlanned), `{"all_day":true}`, "all_day"},
		{"a calendar entry without start", fixture(KindCalendarEvent, StatusPlanned), `{"start_at":null}`, "start_at"},
		{"an end before the start", fixture(KindCalendarEvent, StatusPlanned), `{"end_at":"2026-11-21T08:00:00Z"}`, "end_at"},
		{"an activity ended before it started", fixture(KindActivityLog, StatusDone), `{"ended_at":"2026-11-20T08:00:00Z"}`, "ended_at"},
		{"an activity with no time left", fixture(KindActivityLog, StatusDone), `{"started_at":null,"ended_at":null}`, "ended_at"},
		{"an end on a running log", running, `{"ended_at":"2026-11-25T00:00:00Z"}`, "ended_at"},
		{"an empty title on a task", fixture(KindTask, StatusPlanned), `{"title":"  "}`, "title"},
		{"a control character", fixture(KindTask, StatusPlanned), `{"description":"a\u0000b"}`, "description"},
		{"a long project_tag", fixture(KindTask, StatusPlanned), `{"project_tag":"` + strings.Repeat("p", 65) + `"}`, "project_tag"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, times, changed, err := ApplyPatch(c.e, patchJSON(t, c.body), now, seoul)
			if got := fieldsOf(err); !reflect.DeepEqual(got, []string{c.field}) {
				t.Fatalf("got %v (%v), want a 422 naming [%s]", got, err, c.field)
			}
			if changed || times != nil {
				t.Errorf("a refused patch reports changes: %v %v", changed, times)
			}
			checkEvent(t, n, c.e)
		})
	}
	// A running log may be given an earlier start.
	n, times, _, err := ApplyPatch(running, patchJSON(t, `{"started_at":"2026-11-20T08:00:00Z"}`), now, seoul)
	if err != nil || !reflect.DeepEqual(keys(times), []string{"started_at"}) || n.EndedAt != nil {
		t.Errorf("earlier start of a running log: %v, %v, ended_at %s", err, times, fmtPtr(n.EndedAt))
	}
}
