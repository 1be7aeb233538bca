package handlers

import (
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
// headings, in the order of the constants above.
var todayHeadings = [...]struct{ Key, Heading string }{
	secOverdue:  {"overdue", "Overdue"},
	secNow:      {"now", "Now"},
	secSchedule: {"schedule", "Schedule"},
	secTodo:     {"todo", "To do"},
	secDone:     {"done", "Done & logged"},
}

// todaySection is one section of Today: its rows, drawn.
type todaySection struct {
	Key, Heading string
	Rows         template.HTML // each row on a line of its own (rowSlots.place)
	Records      bool          // the quick-record line inserts here
	Tasks        bool          // the task capture line inserts here
}

// todayLimit is the page size Today asks its listing for: a whole day in
// one read, so every section is complete.
const todayLimit = "1000"

// todaySectionOf is the section of r (a sec constant), a row of the Today
// listing:
//   - Overdue: an open task due before today;
//   - Now: a running activity log;
//   - Done & logged: a finished task, a finished log;
//   - Schedule: a calendar entry (whatever its status), an open task with a
//     clock time (a due time that is not only a day, or a start);
//   - To do: the rest (open tasks due some time today, deferred tasks back).
func todaySectionOf(r *rowView) int {
	switch {
	case r.IsOverdue():
		return secOverdue
	case r.Running():
		return secNow
	case r.Kind == models.KindCalendarEvent:
		return secSchedule
	case r.Kind == models.KindActivityLog || r.Status == models.StatusDone:
		return secDone
	case r.DueAt != nil && !models.DueDayOnly(*r.DueAt, r.Loc):
		return secSchedule
	case r.DueAt == nil && r.StartAt != nil:
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
	return todaySectionsAt(s, events, h.svc.Location(), h.today(), h.svc.Now())
}

// todaySectionsAt is todaySections in loc, on the day that starts at
// today, at now: their rows placed in s (splice.go). Each section collects
// the indexes of its rows, and the rows are copied once, section after
// section, into one array that the sections share.
func todaySectionsAt(s *rowSlots, events []models.Event, loc *time.Location, today, now time.Time) []todaySection {
	rows := make([]rowView, len(events))
	var bySection [len(todayHeadings)][]int
	for i := range events {
		rows[i] = newRow(&events[i], loc, today, targetSelf, "")
		rows[i].markPast(now)
		k := todaySectionOf(&rows[i])
		bySection[k] = append(bySection[k], i)
	}
	// Done & logged runs newest first; the others keep the listing's order.
	slices.SortStableFunc(bySection[secDone], func(i, j int) int {
		a, b := rows[i].Event, rows[j].Event
		if c := doneAt(b).Compare(doneAt(a)); c != 0 {
			return c
		}
		return int(b.ID - a.ID)
	})
	sorted := make([]rowView, 0, len(rows))
	out := make([]todaySection, len(todayHeadings))
	for k, hd := range todayHeadings {
		from := len(sorted)
		for _, i := range bySection[k] {
			sorted = append(sorted, rows[i])
		}
		out[k] = todaySection{Key: hd.Key, Heading: hd.Heading, Records: k == secDone, Tasks: k == secTodo,
			Rows: s.place(sorted[from:], "\n      ", "")}
	}
	return out
}
