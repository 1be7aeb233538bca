// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package i18n

import (
	"strconv"
	"strings"
	"time"
)

// The dates, times and durations of the pages as each language writes
// them (docs/DESIGN.md, Languages). The words come from the catalogue;
// the order of the parts is the language's (CLDR's medium date with the
// weekday: English "Sun 29 Nov", Korean "11월 29일 (일)"). Clock times are
// 24-hour in both ("14:00"). Rows draw these hundreds of times a page, so
// the words are read from the catalogue once, here, and appended as bytes.

// dateWords are a language's words for dates and durations.
type dateWords struct {
	weekday                    [7]string // short: "Sun", "일"
	weekdayLong                [7]string // the weekday alone within the coming week: "Tue", "화요일"
	month                      [12]string
	today, tomorrow, yesterday string
	// hour and minute follow a number: " h", "시간"; underMinute is a
	// duration under a minute, justStarted a timer under a minute old
	hour, minute, underMinute, justStarted string
	// clockSep comes between a date and its clock time: ", " in English,
	// " " in Korean ("Mon 30 Nov, 09:00", "11월 30일 (월) 09:00")
	clockSep string
	// date and dateYear are the order of a date's parts, without and with
	// its year (date_pattern, date_pattern_year), read once
	date, dateYear []datePart
}

// datePart is a piece of a date pattern: words as written, or one of the
// date's parts ("Weekday", "Day", "Month", "Year").
type datePart struct {
	text, field string
}

// parseDatePattern splits a date pattern ("{{.Month}} {{.Day}}일
// ({{.Weekday}})") into its pieces.
func parseDatePattern(s string) []datePart {
	var parts []datePart
	for s != "" {
		before, rest, ok := strings.Cut(s, "{{.")
		if before != "" {
			parts = append(parts, datePart{text: before})
		}
		if !ok {
			break
		}
		field, after, _ := strings.Cut(rest, "}}")
		parts = append(parts, datePart{field: field})
		s = after
	}
	return parts
}

func (l *Lang) loadDateWords() {
	w := &l.words
	for i, d := range []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"} {
		w.weekday[i] = l.T("weekday_" + d)
		w.weekdayLong[i] = l.T("weekday_long_" + d)
	}
	for i := range w.month {
		w.month[i] = l.T("month_" + strconv.Itoa(i+1))
	}
	w.today, w.tomorrow, w.yesterday = l.T("day_today"), l.T("day_tomorrow"), l.T("day_yesterday")
	w.hour, w.minute = l.T("unit_hour"), l.T("unit_minute")
	w.underMinute, w.justStarted = l.T("duration_under_minute"), l.T("elapsed_just_started")
	w.clockSep = l.T("date_clock_separator")
	w.date, w.dateYear = parseDatePattern(l.Raw("date_pattern")), parseDatePattern(l.Raw("date_pattern_year"))
}

// AppendDay appends the day of t relative to today (both in the page's
// zone): "today", "tomorrow", "yesterday", the weekday within the coming
// week, else the date, with the year only when it is not today's; it
// reports whether it wrote a date rather than a word.
func (l *Lang) AppendDay(b []byte, t, today time.Time) ([]byte, bool) {
	y, m, d := t.Date()
	ty, tm, td := today.Date()
	days := dayNumber(y, m, d) - dayNumber(ty, tm, td)
	switch {
	case days == 0:
		return append(b, l.words.today...), false
	case days == 1:
		return append(b, l.words.tomorrow...), false
	case days == -1:
		return append(b, l.words.yesterday...), false
	case days > 1 && days < 7:
		return append(b, l.words.weekdayLong[t.Weekday()]...), false
	}
	return l.AppendDate(b, t, y != ty), true
}

// AppendDate appends t's date with its weekday, and its year when year is
// set: "Tue 1 Dec 2026", "2026년 12월 1일 (화)".
func (l *Lang) AppendDate(b []byte, t time.Time, year bool) []byte {
	y, m, d := t.Date()
	pattern := l.words.date
	if year {
		pattern = l.words.dateYear
	}
	for _, p := range pattern {
		switch p.field {
		case "":
			b = append(b, p.text...)
		case "Weekday":
			b = append(b, l.words.weekday[t.Weekday()]...)
		case "Day":
			b = strconv.AppendInt(b, int64(d), 10)
		case "Month":
			b = append(b, l.words.month[m-1]...)
		case "Year":
			b = strconv.AppendInt(b, int64(y), 10)
		}
	}
	return b
}

// Date is AppendDate as a string.
func (l *Lang) Date(t time.Time, year bool) string { return string(l.AppendDate(nil, t, year)) }

// ClockSep is what comes between a date and its clock time.
func (l *Lang) ClockSep() string { return l.words.clockSep }

// AppendDuration appends a length of seconds in hours and minutes,
// rounded to the minute: "1 h 30 min", "1시간 30분". Lengths are seconds,
// not time.Duration, which overflows past 292 years.
func (l *Lang) AppendDuration(b []byte, seconds int64) []byte {
	m := (seconds + 30) / 60
	switch {
	case m < 1:
		return append(b, l.words.underMinute...)
	case m < 60:
		return append(strconv.AppendInt(b, m, 10), l.words.minute...)
	case m%60 == 0:
		return append(strconv.AppendInt(b, m/60, 10), l.words.hour...)
	}
	b = append(append(strconv.AppendInt(b, m/60, 10), l.words.hour...), ' ')
	return append(strconv.AppendInt(b, m%60, 10), l.words.minute...)
}

// Duration is AppendDuration as a string.
func (l *Lang) Duration(seconds int64) string { return string(l.AppendDuration(nil, seconds)) }

// Elapsed is a running timer's time so far, truncated to the minute:
// "25 min", "1 h 05 min" ("25분", "1시간 5분").
func (l *Lang) Elapsed(seconds int64) string {
	if seconds < 60 {
		return l.words.justStarted
	}
	m := seconds / 60
	if m < 60 {
		return string(append(strconv.AppendInt(nil, m, 10), l.words.minute...))
	}
	b := append(append(strconv.AppendInt(nil, m/60, 10), l.words.hour...), ' ')
	if l != Korean && m%60 < 10 {
		b = append(b, '0')
	}
	return string(append(strconv.AppendInt(b, m%60, 10), l.words.minute...))
}

// OverlapLength is how much two logs overlap: whole minutes, rounded up
// (an overlap of 20 s is "1 min"), hours beyond the hour ("1 h 05 min",
// "1시간 5분").
func (l *Lang) OverlapLength(seconds int64) string {
	m := (seconds + 59) / 60
	if m >= 60 && m%60 == 0 {
		return string(append(strconv.AppendInt(nil, m/60, 10), l.words.hour...))
	}
	return l.Elapsed(max(m, 1) * 60)
}

// dayNumber counts days since the epoch to a calendar date.
func dayNumber(y int, m time.Month, d int) int {
	return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// Span is a timed span in words, start and end in their own zone: "Tue 1
// Dec 15:00–16:00", "12월 1일 (화) 15:00–16:00"; the end's date is written
// too when it falls on another day.
func (l *Lang) Span(start, end time.Time) string {
	b := append(l.AppendDate(nil, start, false), ' ')
	b = append(start.AppendFormat(b, "15:04"), "–"...)
	if y, m, d := start.Date(); end.Year() != y || end.Month() != m || end.Day() != d {
		b = append(l.AppendDate(b, end, false), ' ')
	}
	return string(end.AppendFormat(b, "15:04"))
}
