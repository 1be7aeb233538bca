// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"testing"
	"time"

	"events/internal/i18n"
)

// TestRelTimeAsFormatted: the relative day and clock time a row shows are
// what time.Format writes with the layouts they stand for, read apart here:
// over three years of days on either side of today, at times either side
// of midnight, in zones east and west of UTC and across a change of
// daylight saving time.
func TestRelTimeAsFormatted(t *testing.T) {
	for _, zone := range []string{"Asia/Seoul", "America/New_York", "UTC", "Pacific/Chatham"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		today := time.Date(2026, 11, 23, 0, 0, 0, 0, loc)
		for days := -1100; days <= 1100; days++ {
			for _, clock := range []time.Duration{0, 9*time.Hour + 5*time.Minute, 23*time.Hour + 59*time.Minute + 59*time.Second} {
				at := time.Date(2026, 11, 23+days, 0, 0, 0, 0, loc).Add(clock)
				want := formattedRelTime(at, today, loc)
				if got := string(appendRelTime(i18n.English, nil, at.UTC(), today.UTC(), loc)); got != want {
					t.Fatalf("%s, %s: %q, want %q", zone, at, got, want)
				}
			}
		}
	}
}

// formattedRelTime is relTime's text as time.Format writes it.
func formattedRelTime(at, today time.Time, loc *time.Location) string {
	l, d := at.In(loc), today.In(loc)
	ly, lm, ld := l.Date()
	dy, dm, dd := d.Date()
	days := int(time.Date(ly, lm, ld, 12, 0, 0, 0, time.UTC).Sub(time.Date(dy, dm, dd, 12, 0, 0, 0, time.UTC)).Hours() / 24)
	var day string
	switch {
	case days == 0:
		day = "today "
	case days == 1:
		day = "tomorrow "
	case days == -1:
		day = "yesterday "
	case days > 1 && days < 7:
		day = l.Format("Mon ")
	case ly == dy:
		day = l.Format("Mon 2 Jan, ")
	default:
		day = l.Format("Mon 2 Jan 2006, ")
	}
	return day + l.Format("15:04")
}
