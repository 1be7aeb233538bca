// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"regexp"
	"testing"
	"time"

	"events/app"
	"events/models"
)

func TestDurationInWords(t *testing.T) {
	for _, c := range []struct {
		seconds int64
		want    string
	}{
		{0, "0 min"}, {-5, "0 min"}, {1, "under 1 min"}, {29, "under 1 min"}, {30, "1 min"}, {89, "1 min"}, {90, "2 min"},
		{2700, "45 min"}, {3600, "1 h"}, {3629, "1 h"}, {11400, "3 h 10 min"}, {86400, "24 h"}, {90000 + 59*60, "25 h 59 min"},
	} {
		if got := duration(c.seconds); got != c.want {
			t.Errorf("duration(%d) = %q, want %q", c.seconds, got, c.want)
		}
	}
}

func TestWeekStartsOnMonday(t *testing.T) {
	seoul, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ now, want string }{
		{"2026-11-22T23:59:00+09:00", "2026-11-16T00:00:00+09:00"}, // Sunday night
		{"2026-11-23T00:00:00+09:00", "2026-11-23T00:00:00+09:00"}, // Monday midnight
		{"2026-11-22T15:30:00Z", "2026-11-23T00:00:00+09:00"},      // Sunday in UTC, Monday in Seoul
		{"2027-01-01T12:00:00+09:00", "2026-12-28T00:00:00+09:00"}, // across a year
	} {
		now, _ := time.Parse(time.RFC3339, c.now)
		want, _ := time.Parse(time.RFC3339, c.want)
		if got := weekStart(now, seoul); !got.Equal(want) {
			t.Errorf("weekStart(%s) = %s, want %s", c.now, got, want)
		}
	}
}

func TestDateRangeInWords(t *testing.T) {
	d := func(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t }
	for _, c := range []struct{ a, b, want string }{
		{"2026-11-16", "2026-11-22", "16 – 22 Nov 2026"},
		{"2026-11-30", "2026-12-06", "30 Nov – 6 Dec 2026"},
		{"2026-12-28", "2027-01-03", "28 Dec 2026 – 3 Jan 2027"},
		{"2026-11-16", "2026-11-16", "Mon 16 Nov 2026"},
	} {
		if got := dateRange(d(c.a), d(c.b)); got != c.want {
			t.Errorf("dateRange(%s, %s) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

// TestLogLengthReadsTheSameOnTodayAndInTheLogbook: a log of under half a
// minute, even one of under a second, is "under 1 min" both in its row and
// in the review's logbook (the logbook read "0 min" for it, from its length
// cut to whole seconds).
func TestLogLengthReadsTheSameOnTodayAndInTheLogbook(t *testing.T) {
	seoul, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 23, 9, 0, 0, 0, seoul)
	duration := regexp.MustCompile(`<span class="duration">([^<]*)</span>`)
	for _, length := range []time.Duration{400 * time.Millisecond, 29 * time.Second, 90 * time.Second, 3*time.Hour + 10*time.Minute} {
		end := start.Add(length)
		ev := models.Event{ID: 7, Kind: models.KindActivityLog, Status: models.StatusDone, Title: "회의", StartedAt: &start, EndedAt: &end}
		drawn := string(appendRow(nil, &rowView{Event: &ev, Loc: seoul}))
		row := ""
		if m := duration.FindStringSubmatch(drawn); m != nil {
			row = m[1]
		}
		got := entry(app.LogbookEntry{Date: "2026-11-23", What: app.LogbookLog, At: start, Event: ev}, false, seoul, end.Add(time.Hour)).Span
		if got != row || got == "" {
			t.Errorf("a log of %v: the logbook says %q, its row %q", length, got, row)
		}
	}
}
