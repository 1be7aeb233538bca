// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"testing"
	"time"
)

// A time field's words, read by the capture grammar (issue 55, point 7):
// a clock time alone stays on the field's day, a named day is its own, a
// day alone keeps the field's clock, and anything else is not a time.
func TestParseTimeWords(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 29, 13, 4, 0, 0, loc)
	field := time.Date(2026, 11, 20, 8, 30, 0, 0, loc) // the field's value before the edit
	for _, c := range []struct {
		words string
		day   time.Time
		want  string // "" for not a time
	}{
		{"14:00", field, "2026-11-20 14:00"},
		{"오후 2시", field, "2026-11-20 14:00"},
		{"2pm", field, "2026-11-20 14:00"},
		{"9:00", field, "2026-11-20 09:00"},
		{"14:00", time.Time{}, "2026-11-29 14:00"}, // an empty field: today
		{"tomorrow 9:00", field, "2026-11-30 09:00"},
		{"내일 오전 9시", field, "2026-11-30 09:00"},
		{"12/1 10:00", field, "2026-12-01 10:00"},
		{"tomorrow", field, "2026-11-30 08:30"},
		{"soonish", field, ""},
		{"9:00-10:00", field, ""},
		{"lunch 12:00", field, ""},
	} {
		got, ok := ParseTimeWords(c.words, field, now, loc)
		if c.day.IsZero() {
			got, ok = ParseTimeWords(c.words, time.Time{}, now, loc)
		}
		s := ""
		if ok {
			s = got.In(loc).Format("2006-01-02 15:04")
		}
		if s != c.want {
			t.Errorf("%q = %q, want %q", c.words, s, c.want)
		}
	}
}
