// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"cmp"
	"html/template"
	"slices"
	"time"

	"events/models"
)

// Today in sections. The Today tab draws the rows of the one Today listing
// read in five sections, each under its heading, in this order; a row sits
// in the first section that takes it (todaySectionOf). The sections are
// drawn by the server; the quick-record line inserts its row at the top of
// Done & logged (the list marked with selRecords, contract.go), which is
// where the row sits after a reload too: that section runs newest first.
const (
	secOverdue = iota
	secNow
	secSchedule
	secTodo
	secDone
)

// todayHeadings are the sections' keys (their ids on the page) and
// headings, in the order of the constants above, and the lists the capture
// lines insert into.
var todayHeadings = [...]todayHeading{
	secOverdue:  {Key: "overdue", Heading: "section_overdue"},
	secNow:      {Key: "now", Heading: "section_now"},
	secSchedule: {Key: "schedule", Heading: "section_schedule"},
	secTodo:     {Key: "todo", Heading: "section_todo", Tasks: true},
	secDone:     {Key: "done", Heading: "section_done", Records: true},
}

// todayHeading is what a section's opening holds: the section, its heading
// and the start of its list (partials/today_section), the same on every
// page and so drawn once (drawnOnce, under todayHeads).
type todayHeading struct {
	Key, Heading string
	Records      bool // the quick-record line inserts here
	Tasks        bool // the task capture line inserts here
}

// todayHeads are the keys of the sections' openings drawn, in order.
var todayHeads = func() (keys [len(todayHeadings)]string) {
	for k, hd := range todayHeadings {
		keys[k] = "partials/today_section/" + hd.Key
	}
	return keys
}()

// todaySection is one section of Today: its opening, drawn once, and its
// rows, drawn.
type todaySection struct {
	Head string        // the key of its opening drawn (todayHeads)
	Rows template.HTML // each row on a line of its own (rowSlots.place)
}

// todayLimit is the page size Today asks its listing for: a whole day in
// one read, so every section is complete.
const todayLimit = "1000"

// todaySectionOf is the section of e (a sec constant), an event of the
// Today listing in loc, on the day that starts at today:
//   - Overdue: an open task due before today;
//   - Now: a running activity log;
//   - Done & logged: a finished task, a finished log;
//   - Schedule: a calendar entry (whatever its status), an open task with a
//     clock time (a due time that is not only a day, or a start);
//   - To do: the rest (open tasks due some time today, deferred tasks back).
func todaySectionOf(e *models.Event, loc *time.Location, today time.Time) int {
	switch {
	case models.Overdue(e, today):
		return secOverdue
	case e.Running():
		return secNow
	case e.Kind == models.KindCalendarEvent:
		return secSchedule
	case e.Kind == models.KindActivityLog || e.Status == models.StatusDone:
		return secDone
	case e.DueAt != nil && !models.DueDayOnly(*e.DueAt, loc):
		return secSchedule
	case e.DueAt == nil && e.StartAt != nil:
		return secSchedule
	}
	return secTodo
}

// doneAt is when a row of Done & logged was finished: a log's end (else
// its start), a task's completion (else its last change).
func doneAt(e *models.Event) time.Time {
	if e.Kind == models.KindActivityLog {
		if e.EndedAt != nil {
			return *e.EndedAt
		}
		if e.StartedAt != nil {
			return *e.StartedAt
		}
	}
	if e.CompletedAt != nil {
		return *e.CompletedAt
	}
	return e.UpdatedAt
}

// todaySections sorts the Today listing's events into the sections and
// draws them. The listing's order (overdue oldest first, then span start)
// is kept within each section but Done & logged, which runs newest first.
func (h *Handlers) todaySections(s *rowSlots, events []models.Event) []todaySection {
	return todaySectionsAt(s, events, h.svc.Zone(), h.today(), h.svc.Now())
}

// todaySectionsAt is todaySections in loc, on the day that starts at
// today, at now: their rows placed in s (splice.go). Each section collects
// the indexes of its events, and the rows are made once, section after
// section, into one array that the sections share.
func todaySectionsAt(s *rowSlots, events []models.Event, loc *time.Location, today, now time.Time) []todaySection {
	var bySection [len(todayHeadings)][]int
	for i := range events {
		k := todaySectionOf(&events[i], loc, today)
		bySection[k] = append(bySection[k], i)
	}
	// Done & logged runs newest first; the others keep the listing's order.
	slices.SortFunc(bySection[secDone], func(i, j int) int {
		a, b := &events[i], &events[j]
		if c := doneAt(b).Compare(doneAt(a)); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	rows := make([]rowView, 0, len(events))
	out := make([]todaySection, len(todayHeadings))
	for k, in := range bySection {
		from := len(rows)
		for _, i := range in {
			r := listRow(&events[i], loc, today, now, "")
			r.Piece = pieceOn(&events[i], today.In(loc).Format(time.DateOnly), loc, now) // today's piece of a log across midnight
			rows = append(rows, r)
		}
		out[k] = todaySection{Head: todayHeads[k], Rows: s.place(rows[from:], "\n      ", "")}
	}
	return out
}
