// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import "time"

// Shown minutes (DESIGN.md, Summary): every screen and file shows logged
// time in whole minutes, and the parts it shows add up to the total it
// shows. The unit is the local day: a day's total is its seconds rounded
// to the nearest minute (half a minute up); the day's projects split that
// total by the largest remainder; a window's total and its projects are
// the sums of its days'. The review page, the terminal client's review and
// the CSV export's counted_minutes all count this way, so a spreadsheet's
// pivot of the export, the page and the terminal give the same numbers.

// MinutesOf is seconds rounded to the nearest whole minute, half a minute
// up: a 30-second log is 1 minute on every screen.
func MinutesOf(seconds int64) int64 {
	if seconds <= 0 {
		return 0
	}
	return (seconds + 30) / 60
}

// SplitMinutes splits total whole minutes among parts given in seconds (the
// largest remainder method): each part gets its whole minutes cut down,
// and the minutes left over go one each to the parts with the largest
// seconds cut off, equal ones in the order given. When total is
// MinutesOf(sum of parts), or any whole number of minutes within a minute
// of the parts' sum, the parts add up to total and none is off its exact
// value by a minute or more.
func SplitMinutes(total int64, parts []int64) []int64 {
	out := make([]int64, len(parts))
	left := total
	for i, p := range parts {
		if p > 0 {
			out[i] = p / 60
			left -= out[i]
		}
	}
	if len(parts) == 0 {
		return out
	}
	// order of the remainders: largest first, equal ones as given; a
	// selection each round keeps this free of allocation for the usual
	// handful of parts
	taken := make([]bool, len(parts))
	for ; left > 0; left-- {
		best := -1
		for i, p := range parts {
			if taken[i] {
				continue
			}
			if best < 0 || rem(p) > rem(parts[best]) {
				best = i
			}
		}
		if best < 0 { // every part has had one: start again (total far above the sum)
			clear(taken)
			left++
			continue
		}
		taken[best] = true
		out[best]++
	}
	return out
}

func rem(seconds int64) int64 {
	if seconds <= 0 {
		return -1
	}
	return seconds % 60
}

// DayMinutes are one day's shown minutes: its total and its parts (in the
// order of the seconds given), which add up to it.
func DayMinutes(daySeconds int64, partSeconds []int64) (int64, []int64) {
	m := MinutesOf(daySeconds)
	return m, SplitMinutes(m, partSeconds)
}

// DayPiece is the part of a span inside one local day (DESIGN.md, Summary,
// Days): what that day shows and counts of it.
type DayPiece struct {
	Date       string // YYYY-MM-DD in the zone
	Start, End time.Time
}

// maxPieceSpan is the longest span DayPieces cuts at midnights: ten years.
const maxPieceSpan = 10 * 366 * 24 * time.Hour

// DayPieces cuts the span [start, end) at the local midnights of loc: a
// piece for each local day it reaches into, oldest first. A span that ends
// at a midnight has no piece after it; a span of no length (end not after
// start) is one piece of no length on its day. A span longer than
// maxPieceSpan is one piece on its first day: no one logs a decade, and a
// stored row from year 1 to year 9999 must not cost millions of pieces on
// every screen and export that reads it.
func DayPieces(start, end time.Time, loc *time.Location) []DayPiece {
	if !end.After(start) {
		return []DayPiece{{Date: start.In(loc).Format(time.DateOnly), Start: start, End: start}}
	}
	if end.Sub(start) > maxPieceSpan { // Sub saturates, so years apart stay larger
		return []DayPiece{{Date: start.In(loc).Format(time.DateOnly), Start: start, End: end}}
	}
	var out []DayPiece
	for s := start; s.Before(end); {
		next := DayStart(s, loc, 1)
		e := end
		if next.Before(e) {
			e = next
		}
		out = append(out, DayPiece{Date: s.In(loc).Format(time.DateOnly), Start: s, End: e})
		s = e
	}
	return out
}
