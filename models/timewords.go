// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import "time"

// timeWordsTitle stands in for a title when a time field's words are read
// as a capture text: the grammar reads a line, and the title is what is
// left of it once the time words are read.
const timeWordsTitle = "x"

// ParseTimeWords reads what a person typed in a time field of a form with
// the one capture grammar (ParseCapture): "14:00", "오후 2시", "2pm",
// "tomorrow 9:00", "내일 오전 9시", "12/1 10:00". A clock time without a day
// stays on day's date (the field's day before the edit, in loc; today when
// the field was empty); a day without a clock time keeps day's clock. ok is
// false when the words are not all time words, or name a range.
func ParseTimeWords(s string, day, now time.Time, loc *time.Location) (t time.Time, ok bool) {
	c, err := ParseCapture(KindCalendarEvent, timeWordsTitle+" "+s, now, loc)
	if err != nil || c.Title != timeWordsTitle || c.StartAt == nil || c.Ranged {
		return t, false
	}
	if day.IsZero() {
		day = now
	}
	d, at := day.In(loc), c.StartAt.In(loc)
	switch {
	case c.AllDay: // a day alone: on it, at the field's clock time
		t = time.Date(at.Year(), at.Month(), at.Day(), d.Hour(), d.Minute(), 0, 0, loc)
	case !c.DayNamed: // a clock time alone: on the field's day
		t = time.Date(d.Year(), d.Month(), d.Day(), at.Hour(), at.Minute(), 0, 0, loc)
	default:
		t = at
	}
	return t.UTC(), InBounds(t)
}
