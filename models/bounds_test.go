// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestComputedTimesStayInBounds sends every kind of computed time to the
// edges of the years 0001 to 9999: capture durations, ranges and since,
// all-day spans, a quick record's defaults, in zones from UTC-12 to
// UTC+14. Each create is either stored with every time inside the bounds
// or refused with a 422 naming the field that would leave them; before,
// `x 24h` with started_at in the last hour of 9999 stored an ended_at in
// the year 10000, which no read could write.
func TestComputedTimesStayInBounds(t *testing.T) {
	utc, seoul := time.UTC, mustZone(t, "Asia/Seoul")
	east, west := mustZone(t, "Etc/GMT-14"), mustZone(t, "Etc/GMT+12") // UTC+14, UTC-12
	last := "9999-12-31T23:59:59.999999Z"
	cases := []struct {
		name  string
		body  map[string]any
		now   string // the clock; an ordinary day when empty
		loc   *time.Location
		field string // the field the 422 names; "" when stored
	}{
		{"the issue's body", map[string]any{"kind": "activity_log", "text": "x 24h", "started_at": "9999-12-31T23:00:00Z"}, "", seoul, "ended_at"},
		{"a duration ending at the last instant", map[string]any{"kind": "activity_log", "text": "x 1h", "started_at": "9999-12-31T22:59:59.999999Z"}, last, seoul, ""},
		{"a duration ending a microsecond past it", map[string]any{"kind": "activity_log", "text": "x 1m", "started_at": "9999-12-31T23:59:00.000001Z"}, "", seoul, "ended_at"},
		{"a duration before the year 1", map[string]any{"kind": "activity_log", "text": "x 24h", "ended_at": "0001-01-01T01:00:00Z"}, "", seoul, "started_at"},
		{"a duration from the first instant", map[string]any{"kind": "activity_log", "text": "x 1m", "ended_at": "0001-01-01T00:01:00Z"}, "", seoul, ""},
		{"a far offset's duration", map[string]any{"kind": "activity_log", "text": "x 15분", "ended_at": "0001-01-01T00:14:59+00:00"}, "", east, "started_at"},
		{"since, on the first day", map[string]any{"kind": "activity_log", "text": "x since 0:00"}, "0001-01-01T05:00:00Z", utc, ""},
		{"since, the day before the first", map[string]any{"kind": "activity_log", "text": "x since 9:30"}, "0001-01-01T05:00:00Z", utc, "started_at"},
		{"a range on the first day", map[string]any{"kind": "activity_log", "text": "x 1:00-2:00"}, "0001-01-01T05:00:00Z", utc, ""},
		{"a range the day before the first", map[string]any{"kind": "activity_log", "text": "x 6:00-7:00"}, "0001-01-01T05:00:00Z", utc, "started_at"},
		{"a range the day before the first, far east", map[string]any{"kind": "activity_log", "text": "x 23:00-01:00"}, "0001-01-01T05:00:00Z", east, "started_at"},
		{"a range on the local year 0, far west", map[string]any{"kind": "activity_log", "text": "x 23:00-01:00"}, "0001-01-01T13:30:00Z", west, ""},
		{"a quick record at the last instant", map[string]any{"kind": "activity_log"}, last, seoul, ""},
		{"a running log at the last instant", map[string]any{"kind": "activity_log", "status": "in_progress"}, last, east, ""},
		{"a duration at the last instant", map[string]any{"kind": "activity_log", "text": "x 24h"}, last, west, ""},
		{"a task due at the last instant", map[string]any{"kind": "task", "title": "t", "due_at": last}, "", seoul, ""},
		{"a task due today at the last instant", map[string]any{"kind": "task", "text": "t today"}, last, utc, ""},
		{"an all-day entry on the last day (UTC)", map[string]any{"kind": "calendar_event", "title": "c", "all_day": true, "start_at": "9999-12-30T00:00:00Z"}, "", utc, ""},
		{"an all-day entry that would end in 10000", map[string]any{"kind": "calendar_event", "title": "c", "all_day": true, "start_at": "9999-12-31T00:00:00Z"}, "", utc, "end_at"},
		{"an all-day entry whose Seoul day is in 10000", map[string]any{"kind": "calendar_event", "title": "c", "all_day": true, "start_at": last}, "", seoul, "end_at"},
		{"an all-day entry that would start in the year 0", map[string]any{"kind": "calendar_event", "title": "c", "all_day": true, "start_at": "0001-01-01T00:00:00Z"}, "", east, "start_at"},
		{"an all-day entry on the first day far west", map[string]any{"kind": "calendar_event", "title": "c", "all_day": true, "start_at": "0001-01-01T12:00:00Z"}, "", west, ""},
		{"an all-day end far east", map[string]any{"kind": "calendar_event", "title": "c", "all_day": true, "start_at": "9999-12-30T00:00:00Z", "end_at": "9999-12-31T10:00:01Z"}, "", east, "end_at"},
		{"an all-day end far east at its last day", map[string]any{"kind": "calendar_event", "title": "c", "all_day": true, "start_at": "9999-12-30T00:00:00Z", "end_at": "9999-12-31T09:00:00Z"}, "", east, ""},
		{"a calendar entry of the whole range", map[string]any{"kind": "calendar_event", "title": "c", "start_at": "0001-01-01T00:00:00Z", "end_at": last}, "", seoul, ""},
	}
	for _, c := range cases {
		body, err := json.Marshal(c.body)
		if err != nil {
			t.Fatal(err)
		}
		in, err := DecodeJSON(body, CreateFields)
		if err != nil {
			t.Fatalf("%s: decode %s: %v", c.name, body, err)
		}
		clock := now
		if c.now != "" {
			clock = ts(t, c.now)
		}
		e, err := in.NewEvent(clock, c.loc)
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: %s refused: %v", c.name, body, err)
				continue
			}
			if berr := e.CheckBounds(); berr != nil {
				t.Errorf("%s: %s stored out of bounds: %v", c.name, body, berr)
			}
			continue
		}
		if fs := fieldsOf(err); len(fs) == 0 || fs[0] != c.field || class(err) != "422" {
			t.Errorf("%s: %s: got %v (%v), want a 422 naming %s", c.name, body, fs, err, c.field)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "0001 to 9999") {
			t.Errorf("%s: the refusal %q does not say the bounds", c.name, msg)
		}
	}
}

// TestPatchKeepsTimesInBounds: an all-day PATCH whose span would leave the
// bounds is refused naming the field, and the event is unchanged.
func TestPatchKeepsTimesInBounds(t *testing.T) {
	seoul := mustZone(t, "Asia/Seoul")
	e := Event{ID: 1, Kind: KindCalendarEvent, Status: StatusPlanned, Title: "c", StartAt: at(ts(t, "9999-12-30T00:00:00Z")), CreatedAt: now, UpdatedAt: now}
	in, err := DecodeJSON([]byte(`{"all_day":true,"start_at":"9999-12-31T20:00:00Z"}`), PatchFields)
	if err != nil {
		t.Fatal(err)
	}
	got, _, _, err := ApplyPatch(e, in, now, seoul)
	if fs := fieldsOf(err); len(fs) != 1 || fs[0] != "end_at" {
		t.Fatalf("ApplyPatch: %v (%v), want a 422 naming end_at", fs, err)
	}
	if !got.StartAt.Equal(*e.StartAt) || got.AllDay {
		t.Errorf("a refused PATCH changed the event: %+v", got)
	}
}

// TestLifecycleKeepsTimesInBounds: a step whose time would leave the
// bounds (a clock past 9999) is refused naming the field; at the last
// instant it is taken.
func TestLifecycleKeepsTimesInBounds(t *testing.T) {
	running := Event{ID: 1, Kind: KindActivityLog, Status: StatusInProgress, StartedAt: at(ts(t, "9999-12-31T00:00:00Z"))}
	if _, _, err := Apply(running, OpComplete, Input{}, MaxTime, ActorAPI, nil); err != nil {
		t.Errorf("complete at the last instant: %v", err)
	}
	_, _, err := Apply(running, OpComplete, Input{}, MaxTime.Add(time.Microsecond), ActorAPI, nil)
	if fs := fieldsOf(err); len(fs) != 2 || fs[0] != "completed_at" || fs[1] != "ended_at" {
		t.Errorf("complete past the last instant: %v (%v), want a 422 naming completed_at and ended_at", fs, err)
	}
}

// TestCheckBounds names the first time field outside the bounds, whatever
// field it is, and nothing for the edges themselves.
func TestCheckBounds(t *testing.T) {
	e := Event{ID: 7, CreatedAt: MinTime, UpdatedAt: MaxTime, DueAt: at(MaxTime)}
	if err := e.CheckBounds(); err != nil {
		t.Errorf("the edges: %v", err)
	}
	for i := range EventFields {
		f := &EventFields[i]
		if f.Type != TypeTime {
			continue
		}
		for _, bad := range []time.Time{MaxTime.Add(time.Microsecond), MinTime.Add(-time.Microsecond), time.Date(20000, 1, 1, 0, 0, 0, 0, time.UTC)} {
			e := Event{ID: 7, CreatedAt: now, UpdatedAt: now}
			f.SetTime(&e, &bad)
			err := e.CheckBounds()
			oob, ok := err.(*OutOfBoundsError)
			if !ok || oob.Field != f.Name || oob.ID != 7 || !strings.Contains(err.Error(), f.Name) {
				t.Errorf("%s = %s: %v", f.Name, bad, err)
			}
		}
	}
}
