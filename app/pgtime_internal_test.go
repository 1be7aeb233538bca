// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestParsePGTimeIsTimeParse reads PostgreSQL's text forms of times as
// time.Parse reads them: the same instant, over every year a timestamptz
// prints with four digits, leap days and the ends of months, every length
// of fraction, and in UTC with the same representation as time.Parse's
// answer in UTC (==, what the rows' times are compared by). Forms it does
// not read by position (a zone other than +00) and fields out of range give
// time.Parse's answer; BC and years of five digits, which time.Parse cannot
// read, TestParsePGTimeBeyondFourDigits.
func TestParsePGTimeIsTimeParse(t *testing.T) {
	check := func(s string, byPosition bool) {
		t.Helper()
		got, err := parsePGTime(s)
		want, wantErr := time.Parse(pgTimeLayout, s)
		if (err != nil) != (wantErr != nil) || !got.Equal(want) || byPosition && got != want.UTC() {
			t.Errorf("parsePGTime(%q) = %v, %v; time.Parse: %v, %v", s, got, err, want, wantErr)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		at := time.Unix(r.Int64N(253402300800+62135596800)-62135596800, 0).UTC() // 0001-01-01 to 9999-12-31
		ns := r.IntN(1_000_000_000)
		switch r.IntN(4) {
		case 0:
			ns = 0
		case 1:
			ns -= ns % 1000 // microseconds, as PostgreSQL keeps them
		}
		check(at.Add(time.Duration(ns)).Format(pgTimeLayout), true)
	}
	for _, s := range []string{
		"1970-01-01 00:00:00+00", "1969-12-31 23:59:59.999999+00", "0001-01-01 00:00:00+00", "9999-12-31 23:59:59.999999+00",
		"2000-02-29 12:00:00+00", "1900-02-28 12:00:00+00", "2024-02-29 00:00:00.5+00", "2026-11-22 03:00:00.123456+00",
		"2026-03-01 00:00:00+00", "2026-12-31 23:59:59.1+00", "2026-11-22 03:00:00.123456789+00",
	} {
		check(s, true)
	}
	for _, s := range []string{ // not by position, or out of range
		"2026-11-22 03:00:00+09", "2026-11-22 12:00:00+05:30",
		"0000-01-01 00:00:00+00", "2026-13-01 00:00:00+00", "2026-00-10 00:00:00+00", "2026-02-29 00:00:00+00", "1900-02-29 00:00:00+00",
		"2026-04-31 00:00:00+00", "2026-11-22 24:00:00+00", "2026-11-22 23:60:00+00", "2026-11-22 23:59:60+00",
		"2026-11-22 03:00:00.+00", "2026-11-22 03:00:00.1234567890+00", "2026-11-22 03:00:00,5+00", "2026-1x-22 03:00:00+00",
		"2026-11-22 03:00:0x+00", "2026-11-22 03:00:00.12a+00", strings.Repeat("9", 22),
	} {
		check(s, false)
	}
}

// TestParsePGTimeBeyondFourDigits reads the years PostgreSQL stores and
// time.Parse cannot read: five and six digits, and BC (1 BC is Go's year
// 0). Before, a row holding one failed every listing that read it.
func TestParsePGTimeBeyondFourDigits(t *testing.T) {
	for _, c := range []struct {
		s    string
		want time.Time
	}{
		{"10000-01-01 23:00:00+00", time.Date(10000, 1, 1, 23, 0, 0, 0, time.UTC)},
		{"10000-02-29 00:00:00.5+00", time.Date(10000, 2, 29, 0, 0, 0, 500000000, time.UTC)},
		{"294276-12-31 23:59:59.999999+00", time.Date(294276, 12, 31, 23, 59, 59, 999999000, time.UTC)},
		{"12026-11-22 12:00:00+09", time.Date(12026, 11, 22, 3, 0, 0, 0, time.UTC)},
		{"0001-12-31 23:00:00+00 BC", time.Date(0, 12, 31, 23, 0, 0, 0, time.UTC)},
		{"0001-02-29 00:00:00+00 BC", time.Date(0, 2, 29, 0, 0, 0, 0, time.UTC)},
		{"4713-01-01 00:00:00+00 BC", time.Date(-4712, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		got, err := parsePGTime(c.s)
		if err != nil || got != c.want {
			t.Errorf("parsePGTime(%q) = %v, %v; want %v", c.s, got, err, c.want)
		}
	}
	for _, s := range []string{"10001-02-29 00:00:00+00", "0002-02-29 00:00:00+00 BC", "1234567-01-01 00:00:00+00",
		"0000-01-01 00:00:00+00 BC", "10000-13-01 00:00:00+00", "1x000-01-01 00:00:00+00", "10000-01-01 00:00:00+00 AD", " BC"} {
		if got, err := parsePGTime(s); err == nil {
			t.Errorf("parsePGTime(%q) = %v, want an error", s, got)
		}
	}
}
