// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"strings"
	"testing"
	"time"
)

// captureNow is Monday 23 November 2026, 14:00 in Seoul.
const captureNow = "2026-11-23T14:00:00+09:00"

func TestDueDayOnlyTellsTypedTimesApart(t *testing.T) {
	seoul := mustZone(t, "Asia/Seoul")
	for _, c := range []struct {
		due  string
		want bool
	}{
		{"2026-11-23T23:59:59.999999+09:00", true},
		{"2026-11-23T23:59:59+09:00", false},
		{"2026-11-23T23:59:00+09:00", false},
		{"2026-11-24T00:00:00+09:00", false},
		{"2026-11-23T23:59:59.999999+08:00", false}, // another zone's end of day
	} {
		if got := DueDayOnly(ts(t, c.due), seoul); got != c.want {
			t.Errorf("DueDayOnly(%s) = %v, want %v", c.due, got, c.want)
		}
	}
	// The end of a day that starts at 01:00 (Santiago skips midnight on 6 September 2026).
	santiago := mustZone(t, "America/Santiago")
	e := EndOfDay(2026, 9, 5, santiago)
	if !DueDayOnly(e, santiago) || !e.Add(time.Microsecond).Equal(dayStart(2026, 9, 6, santiago)) {
		t.Errorf("EndOfDay(5 Sep, Santiago) = %s", e)
	}
}

// TestCaptureDurationFromStartNeverEndsInFuture: a duration word carried
// from an explicit started_at ends where it ends; past now, a finished log
// is refused naming text (a running one keeps its start), and up to now
// it is stored. Before, `x 2h` with a start half an hour ago stored a done
// log ending an hour and a half ahead.
func TestCaptureDurationFromStartNeverEndsInFuture(t *testing.T) {
	seoul := mustZone(t, "Asia/Seoul")
	clock := ts(t, captureNow) // 14:00 in Seoul
	for _, c := range []struct {
		body  string
		field string // "" when stored
	}{
		{`{"kind":"activity_log","text":"x 2h","started_at":"2026-11-23T13:30:00+09:00"}`, "text"},
		{`{"kind":"activity_log","text":"x 1m","started_at":"2026-11-23T13:59:00.000001+09:00"}`, "text"},
		{`{"kind":"activity_log","text":"x 1m","started_at":"2026-11-23T13:59:00+09:00"}`, ""},
		{`{"kind":"activity_log","text":"x 2h","started_at":"2026-11-23T09:00:00+09:00"}`, ""},
		{`{"kind":"activity_log","text":"x 2h","started_at":"2026-11-23T13:30:00+09:00","status":"in_progress"}`, ""},
		{`{"kind":"activity_log","text":"x 2h","started_at":"2026-11-23T13:30:00+09:00","ended_at":"2026-11-23T13:45:00+09:00"}`, ""},
	} {
		in, err := DecodeJSON([]byte(c.body), CreateFields)
		if err != nil {
			t.Fatal(err)
		}
		e, err := in.NewEvent(clock, seoul)
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: %v", c.body, err)
			} else if e.EndedAt != nil && e.EndedAt.After(clock) {
				t.Errorf("%s: stored a log ending at %s, after now", c.body, e.EndedAt)
			}
			continue
		}
		if fs := fieldsOf(err); len(fs) != 1 || fs[0] != c.field || !strings.Contains(err.Error(), "cannot end in the future") {
			t.Errorf("%s: %v (%v), want a 422 naming %s", c.body, fs, err, c.field)
		}
	}
}

// A calendar entry made from a line is the entry made from its fields: the
// all-day span of its days in the service's zone (even when the line was
// read in another), the fields of the body winning, and a line with no day
// or time refused naming text unless start_at comes with it. The note of
// an ambiguous range reaches the new event, and only its JSON.
func TestCaptureCalendarNewEvent(t *testing.T) {
	seoul := mustZone(t, "Asia/Seoul")
	clock := ts(t, captureNow)
	for _, c := range []struct {
		body, tz         string
		start, end, note string
		allDay           bool
		field            string // "" when stored
	}{
		{body: `{"kind":"calendar_event","text":"휴가 12/24"}`, start: "2026-12-24T00:00:00+09:00", end: "2026-12-25T00:00:00+09:00", allDay: true},
		{body: `{"kind":"calendar_event","text":"offsite 12/3-12/5"}`, start: "2026-12-03T00:00:00+09:00", end: "2026-12-06T00:00:00+09:00", allDay: true},
		{body: `{"kind":"calendar_event","text":"x 12/24"}`, tz: "America/New_York", start: "2026-12-24T00:00:00+09:00", end: "2026-12-25T00:00:00+09:00", allDay: true},
		{body: `{"kind":"calendar_event","text":"lunch tue 12-1"}`, start: "2026-11-24T12:00:00+09:00", end: "2026-11-24T13:00:00+09:00", note: "Read “12-1” as 12:00–13:00."},
		{body: `{"kind":"calendar_event","text":"Dentist tue 15:00-16:00","end_at":"2026-11-24T17:00:00+09:00"}`, start: "2026-11-24T15:00:00+09:00", end: "2026-11-24T17:00:00+09:00"},
		{body: `{"kind":"calendar_event","text":"Dentist tue 15:00","start_at":"2026-11-25T09:00:00+09:00"}`, start: "2026-11-25T09:00:00+09:00", end: "2026-11-24T16:00:00+09:00", field: "end_at"},
		{body: `{"kind":"calendar_event","text":"lunch with Kim","start_at":"2026-11-25T12:00:00+09:00"}`, start: "2026-11-25T12:00:00+09:00"},
		{body: `{"kind":"calendar_event","text":"lunch with Kim"}`, field: "text"},
		{body: `{"kind":"calendar_event","text":"x tue 30 mns"}`, field: "text"},
	} {
		in, err := DecodeJSON([]byte(c.body), CreateFields)
		if err != nil {
			t.Fatal(err)
		}
		if c.tz != "" {
			in.TextZone = mustZone(t, c.tz)
		}
		e, err := in.NewEvent(clock, seoul)
		if c.field != "" {
			if fs := fieldsOf(err); len(fs) != 1 || fs[0] != c.field {
				t.Errorf("%s: %v, want a 422 naming %s", c.body, err, c.field)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.body, err)
			continue
		}
		checkCaptureTime(t, c.body+" start_at", e.StartAt, c.start)
		checkCaptureTime(t, c.body+" end_at", e.EndAt, c.end)
		if e.AllDay != c.allDay || e.CaptureNote != c.note {
			t.Errorf("%s: all_day %v note %q, want %v %q", c.body, e.AllDay, e.CaptureNote, c.allDay, c.note)
		}
		js := string(e.AppendJSON(nil))
		if has := strings.Contains(js, `"capture_note":`); has != (c.note != "") {
			t.Errorf("%s: JSON %s, capture_note present %v, want %v", c.body, js, has, c.note != "")
		}
	}
}

func checkCaptureTime(t *testing.T, name string, got *time.Time, want string) {
	t.Helper()
	if want == "" {
		if got != nil {
			t.Errorf("%s = %s, want none", name, got)
		}
		return
	}
	w := ts(t, want)
	if got == nil || !got.Equal(w) || got.Location() != time.UTC {
		t.Errorf("%s = %v, want %s (in UTC)", name, got, w.UTC())
	}
}
