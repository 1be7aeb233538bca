// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"errors"
	"strings"
	"time"

	"events/models"
)

// pgTimeLayout is the layout of PostgreSQL's text form of a timestamptz in a
// session in UTC, for time.Parse.
const pgTimeLayout = "2006-01-02 15:04:05.999999999-07"

// parsePGTime reads PostgreSQL's text form of a timestamptz as a session in
// UTC prints it ("2026-11-22 03:00:00.123456+00"), by position; any other
// form goes to time.Parse. The time is made from the seconds since the epoch
// (time.Unix), which the date gives by daysFromCivil, rather than by
// time.Date, whose normalising of every field was half of the reading of a
// time on a listing (`make bench` profiles, the Today page). A field out of
// its range (which PostgreSQL never prints) goes to time.Parse too, so the
// result is always time.Parse's.
func parsePGTime(s string) (time.Time, error) {
	n := len(s)
	if n < 22 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':' || s[n-3:] != "+00" {
		return parseOtherPGTime(s)
	}
	y, mo, d := digits(s, 0, 4), digits(s, 5, 7), digits(s, 8, 10)
	h, mi, sec := digits(s, 11, 13), digits(s, 14, 16), digits(s, 17, 19)
	ns := 0
	if frac := s[19 : n-3]; frac != "" {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			return parseOtherPGTime(s)
		}
		ns = digits(s, 20, n-3)
		for i := len(frac) - 1; i < 9; i++ {
			ns *= 10
		}
	}
	if y < 1 || mo < 1 || mo > 12 || d < 1 || d > models.DaysIn(y, time.Month(mo)) || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || ns < 0 {
		return parseOtherPGTime(s)
	}
	unix := int64(daysFromCivil(y, mo, d))*86400 + int64(h*3600+mi*60+sec)
	return time.Unix(unix, int64(ns)).UTC(), nil
}

// digits is the number written in s[from:to], or -1 if a byte there is not a
// digit.
func digits(s string, from, to int) int {
	v := 0
	for i := from; i < to; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return -1
		}
		v = v*10 + int(c-'0')
	}
	return v
}

// daysFromCivil is the number of days from 1970-01-01 to the date y-m-d of
// the proleptic Gregorian calendar (y ≥ 1; before 1970 negative): the days
// of the 400-year eras, then of the years, then of the months counted from
// March, so that a leap day ends its year (Howard Hinnant's
// days_from_civil).
func daysFromCivil(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := y / 400 // y ≥ 0 here
	yoe := y - era*400
	mp := m + 9 // months since March: March 0, ..., February 11
	if m > 2 {
		mp = m - 3
	}
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// parseOtherPGTime reads the text forms parsePGTime does not read by
// position: time.Parse's, and the years it cannot read, which PostgreSQL
// stores though the service never writes them (models.MinTime..MaxTime):
// five or six digits (10000 to 294276) and BC. Such a row then reads, and
// the listings leave it out (writable) instead of failing whole.
func parseOtherPGTime(s string) (time.Time, error) {
	t, err := time.Parse(pgTimeLayout, s)
	if err == nil {
		return t, nil
	}
	if far, ferr := parseFarPGTime(s); ferr == nil {
		return far, nil
	}
	return t, err
}

var errNotFar = errors.New("not a time of a year beyond four digits or BC")

// parseFarPGTime reads "10000-01-01 23:00:00+00" and "0001-12-31
// 23:00:00+00 BC" (1 BC is Go's year 0).
func parseFarPGTime(s string) (time.Time, error) {
	body, bc := strings.CutSuffix(s, " BC")
	dash := strings.IndexByte(body, '-')
	if dash < 4 || dash > 6 || (dash == 4 && !bc) {
		return time.Time{}, errNotFar
	}
	y := digits(body, 0, dash)
	if y < 1 {
		return time.Time{}, errNotFar
	}
	if bc {
		y = 1 - y
	}
	// the rest, read in a leap year so that a 29 February reads
	t, err := time.Parse(pgTimeLayout, "2000"+body[dash:])
	if err != nil {
		return time.Time{}, err
	}
	if t.Month() == time.February && t.Day() > models.DaysIn(y, time.February) {
		return time.Time{}, errNotFar
	}
	_, offset := t.Zone()
	h, mi, sec := t.Clock()
	return time.Date(y, t.Month(), t.Day(), h, mi, sec, t.Nanosecond(), time.UTC).Add(-time.Duration(offset) * time.Second), nil
}
