// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"time"

	"events/models"
)

// The review of a window (DESIGN.md, Summary) arranged for a page: each
// day's logbook and plan apart, the plan of the days from today on added
// up, each day's projects placed on one scale in the window's order. The
// page (handlers/review.go) only puts it into words and colours.

// Review is a summary and its logbook arranged by day.
type Review struct {
	Summary Summary
	Today   string // the local date of now, YYYY-MM-DD
	// Plan adds up the tasks due and calendar entries of the days from
	// today on; nil when every day is past.
	Plan *SummaryCounts
	// AllAhead: every day is after today, so nothing can have been logged.
	AllAhead bool
	// Scale is the seconds that fill a day's bar: the fullest day's
	// projects, at least an hour.
	Scale int64
	Days  []ReviewDay
	// Minutes is the window's logged time as shown, and ProjectMinutes
	// each of Summary.Total.Projects': the sums of the days' (DESIGN.md,
	// Summary, Shown minutes), so the parts shown add up to the total.
	Minutes        int64
	ProjectMinutes []int64
}

// ReviewDay is one local day of a review.
type ReviewDay struct {
	SummaryDay
	Today bool
	// Ahead: today or a day after it. Such a day's tasks due and calendar
	// entries are its Plan, apart from what was logged and done.
	Ahead bool
	Later bool // a day after today
	// Counts is what the day holds besides its plan: a day ahead's
	// calendar entries are in its plan, not here.
	Counts SummaryCounts
	// Bar is the day's projects in the order of the window's totals (so a
	// project sits at the same place in every day's bar), each starting
	// where the one before it ends.
	Bar     []BarPart
	Entries []LogbookEntry // the logbook: what was logged, done or cancelled
	Plan    []LogbookEntry // a day ahead's tasks due and calendar entries
	Empty   bool           // nothing logged, done, planned or cancelled
	// Minutes is the day's logged time as shown (models.DayMinutes); its
	// bar parts' Minutes add up to it.
	Minutes int64
}

// BarPart is one project's part of a day's bar.
type BarPart struct {
	Rank    int // the project's index in the window's Total.Projects
	X       int64
	Seconds int64
	Minutes int64 // as shown: the day's minutes split by the largest remainder
}

// NewReview arranges sum and its logbook entries (Logbook's, of the same
// window in loc) with the clock at now.
func NewReview(sum Summary, entries []LogbookEntry, loc *time.Location, now time.Time) Review {
	today := now.In(loc).Format(time.DateOnly)
	r := Review{Summary: sum, Today: today, Scale: 3600, ProjectMinutes: make([]int64, len(sum.Total.Projects))}
	byDay, planned := map[string][]LogbookEntry{}, map[string][]LogbookEntry{}
	entriesAhead := map[int64]bool{} // the calendar entries of the plan, each once
	for _, e := range entries {
		if e.Date >= today && (e.What == LogbookDue || e.What == LogbookCalendar) {
			planned[e.Date] = append(planned[e.Date], e)
			if e.What == LogbookCalendar {
				entriesAhead[e.Event.ID] = true
			}
		} else {
			byDay[e.Date] = append(byDay[e.Date], e)
		}
	}
	var plan SummaryCounts
	for _, d := range sum.Days {
		day := ReviewDay{SummaryDay: d, Today: d.Date == today, Ahead: d.Date >= today, Later: d.Date > today,
			Counts: d.SummaryCounts, Bar: bar(sum.Total.Projects, d.Projects), Entries: byDay[d.Date], Plan: planned[d.Date]}
		if day.Ahead {
			plan.TasksDue += d.TasksDue
			plan.CalendarEvents += d.CalendarEvents
			day.Counts.CalendarEvents = 0 // in the plan
		}
		var logged int64
		for _, p := range d.Projects {
			logged += p.Seconds
		}
		r.Scale = max(r.Scale, logged)
		day.Minutes = shownMinutes(&r, d, day.Bar)
		day.Empty = len(day.Entries) == 0 && len(day.Plan) == 0 && d.LoggedSeconds == 0
		r.Days = append(r.Days, day)
	}
	if len(r.Days) > 0 && r.Days[len(r.Days)-1].Ahead {
		// entries, not days: a three-day holiday is one calendar entry
		plan.CalendarEvents = int64(len(entriesAhead))
		r.Plan = &plan
	}
	r.AllAhead = len(r.Days) > 0 && r.Days[0].Later
	return r
}

// shownMinutes is day d's minutes as shown, its projects' put on its bar
// parts and added to the window's.
func shownMinutes(r *Review, d SummaryDay, parts []BarPart) int64 {
	secs := make([]int64, len(d.Projects))
	for i, p := range d.Projects {
		secs[i] = p.Seconds
	}
	total, minutes := models.DayMinutes(d.LoggedSeconds, secs)
	for i, p := range d.Projects {
		for k := range parts {
			if tagKey(r.Summary.Total.Projects[parts[k].Rank].ProjectTag) == tagKey(p.ProjectTag) {
				parts[k].Minutes = minutes[i]
				r.ProjectMinutes[parts[k].Rank] += minutes[i]
			}
		}
	}
	r.Minutes += total
	return total
}

// bar places a day's projects in the order of the window's.
func bar(window, day []ProjectSeconds) []BarPart {
	var parts []BarPart
	var x int64
	for rank, w := range window {
		for _, p := range day {
			if tagKey(p.ProjectTag) != tagKey(w.ProjectTag) {
				continue
			}
			parts = append(parts, BarPart{Rank: rank, X: x, Seconds: p.Seconds})
			x += p.Seconds
		}
	}
	return parts
}
