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
	secOverdue  = "overdue"
	secNow      = "now"
	secSchedule = "schedule"
	secTodo     = "todo"
	secDone     = "done"
)

var todayHeadings = []struct{ Key, Heading string }{
	{secOverdue, "Overdue"},
	{secNow, "Now"},
	{secSchedule, "Schedule"},
	{secTodo, "To do"},
	{secDone, "Done & logged"},
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

// todaySectionOf is the section of r, a row of the Today listing:
//   - Overdue: an open task due before today;
//   - Now: a running activity log;
//   - Done & logged: a finished task, a finished log;
//   - Schedule: a calendar entry (whatever its status), an open task with a
//     clock time (a due time that is not only a day, or a start);
//   - To do: the rest (open tasks due some time today, deferred tasks back).
func todaySectionOf(r rowView) string {
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
// today, at now: their rows placed in s (splice.go).
func todaySectionsAt(s *rowSlots, events []models.Event, loc *time.Location, today, now time.Time) []todaySection {
	byKey := map[string][]rowView{}
	for _, e := range events {
		r := newRow(e, loc, today, targetSelf, "")
		r.markPast(now)
		k := todaySectionOf(r)
		byKey[k] = append(byKey[k], r)
	}
	// Newest first. A row is hundreds of bytes: the sort moves their
	// places, and each row is copied once into its place after (sorting
	// the rows themselves moved them, with the garbage collector's write
	// barriers, a tenth of the page's CPU at a few hundred rows).
	done := byKey[secDone]
	order := make([]int, len(done))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		a, b := &done[i], &done[j]
		if c := doneAt(&b.Event).Compare(doneAt(&a.Event)); c != 0 {
			return c
		}
		return int(b.ID - a.ID)
	})
	sorted := make([]rowView, len(done))
	for k, i := range order {
		sorted[k] = done[i]
	}
	byKey[secDone] = sorted
	out := make([]todaySection, len(todayHeadings))
	for i, hd := range todayHeadings {
		out[i] = todaySection{Key: hd.Key, Heading: hd.Heading, Records: hd.Key == secDone, Tasks: hd.Key == secTodo,
			Rows: s.place(byKey[hd.Key], "\n      ", "")}
	}
	return out
}
