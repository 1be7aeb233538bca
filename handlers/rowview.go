// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"
	"time"

	"events/models"
)

// The targets of a lifecycle button: its own row in a list, or the whole
// detail section on the detail page.
const (
	targetSelf   = "closest li"
	targetDetail = "#" + idDetail
)

// rowView is one event as a row of a list.
type rowView struct {
	// the row's event, not a copy: a list's rows point into the slice the
	// listing was read into
	*models.Event
	Ops     []models.Op // the lifecycle operations the row offers
	Loc     *time.Location
	Message string      // a short note, such as why an operation was refused
	Note    string      // what a capture text was read as, on a new row (capture.go)
	Fix     *overlapFix // a new log's move before the logs it overlaps (timers.go)
	Target  string      // where the answer to a lifecycle button goes
	Today   time.Time   // the start of the service's day: an open task due before it is overdue
	Past    bool        // a calendar entry or timed task that has ended (markPast)
	Elapsed string      // a running log's time so far, "1 h 25 min" (markPast)

	// UndoNote is the message after a complete, cancel or defer that offers
	// the undo, "" otherwise (undoview.go).
	UndoNote string
}

// newRow is e as a row whose buttons answer into target.
func newRow(e *models.Event, loc *time.Location, today time.Time, target, message string) rowView {
	r := rowView{Event: e, Loc: loc, Message: message, Target: target, Today: today}
	if e.Kind != models.KindActivityLog { // logs are not lifecycle targets in the UI
		r.Ops = models.Available(e)
	}
	return r
}

// listRow is e as a row of a list at now: its buttons answer into the row
// itself, and a past entry or a running log is marked as such (markPast).
func listRow(e *models.Event, loc *time.Location, today, now time.Time, message string) rowView {
	r := newRow(e, loc, today, targetSelf, message)
	r.markPast(now)
	return r
}

func (h *Handlers) row(e models.Event, message string) rowView {
	return listRow(&e, h.svc.Location(), h.today(), h.svc.Now(), message)
}

// rows places events as the rows of a list in s (splice.go), each followed
// by a newline.
func (h *Handlers) rows(s *rowSlots, events []models.Event) template.HTML {
	return rowsAt(s, events, h.svc.Location(), h.today(), h.svc.Now())
}

// rowsAt places events in s as rows of a list in loc, on the day that
// starts at today, at now.
func rowsAt(s *rowSlots, events []models.Event, loc *time.Location, today, now time.Time) template.HTML {
	rows := make([]rowView, len(events))
	for i := range events {
		rows[i] = listRow(&events[i], loc, today, now, "")
	}
	return s.place(rows, "", "\n")
}

// today is the start of the service's current day, for overdue marks.
func (h *Handlers) today() time.Time {
	return models.DayStart(h.svc.Now(), h.svc.Location(), 0)
}

// listView is a page of drawn rows and the address of the next page, if any.
type listView struct {
	Rows template.HTML // each row followed by a newline (rowSlots.place)
	More string
}

var kindLabels = map[models.Kind]string{
	models.KindTask:          "Task",
	models.KindCalendarEvent: "Calendar",
	models.KindActivityLog:   "Log",
}

// statusLabel is a status in words: "in progress" for in_progress.
func statusLabel(s models.Status) string { return strings.ReplaceAll(string(s), "_", " ") }

func (r rowView) KindLabel() string { return kindLabels[r.Kind] }

func (r rowView) StatusLabel() string { return statusLabel(r.Status) }

func (r rowView) Tag() string {
	if r.ProjectTag == nil {
		return ""
	}
	return shown(*r.ProjectTag)
}

// IsOverdue reports an open task due before today.
func (r rowView) IsOverdue() bool {
	return models.Overdue(r.Event, r.Today)
}

// priorityLabels are the priorities in the words of the form's choices
// (formView.PriorityOptions).
var priorityLabels = map[int]string{1: "Low", 2: "Medium", 3: "High"}

// PriorityLabel is the row's priority in words, "" for none.
func (r rowView) PriorityLabel() string { return priorityLabels[int(r.Priority)] }

// ShowStatus tells whether the status word says something the row does not
// already: planned is the ordinary state, and a deferred row says "until".
func (r rowView) ShowStatus() bool {
	return r.Status != models.StatusPlanned && !(r.Status == models.StatusDeferred && r.DeferUntil != nil) &&
		!(r.Kind == models.KindActivityLog && (r.Status == models.StatusDone || r.Running()))
}

// markPast marks, at now, a calendar entry or a timed open task whose time
// has gone by (a past calendar entry no longer offers Complete: it is over
// either way), and a running log's elapsed time.
func (r *rowView) markPast(now time.Time) {
	if r.Running() && r.StartedAt != nil {
		r.Elapsed = elapsed(now.Sub(*r.StartedAt))
		return
	}
	end := r.SpanEnd()
	switch {
	case end == nil || r.Status == models.StatusCancelled:
		return
	case r.Kind == models.KindCalendarEvent:
		r.Past = !end.After(now)
	case r.Kind == models.KindTask && r.DueAt != nil && r.Status.Open():
		r.Past = !end.After(now) && !r.IsOverdue()
	}
	if r.Past && r.Kind == models.KindCalendarEvent {
		ops := r.Ops[:0:0]
		for _, op := range r.Ops {
			if op != models.OpComplete {
				ops = append(ops, op)
			}
		}
		r.Ops = ops
	}
}

// The values below are what the row template (views/partials/event_row)
// reads that the Go writer (rowhtml.go) appends in place.

// When is where the row sits in time (appendWhen), nil for an event with no
// time.
func (r rowView) When() *localTime {
	start := r.SpanStart()
	if start == nil {
		return nil
	}
	return &localTime{Text: string(appendWhen(nil, &r, *start)), Attr: models.FormatTime(*start)}
}

// Duration is how long a finished activity log took, "" for anything else.
func (r rowView) Duration() string {
	if d, ok := logLength(r.Event); ok {
		return durationText(d)
	}
	return ""
}

// Until is the end of a deferred row's deferral, nil for any other row.
func (r rowView) Until() *localTime {
	if r.Status != models.StatusDeferred || r.DeferUntil == nil {
		return nil
	}
	return relTime(*r.DeferUntil, r.Today, r.Loc)
}

// opSlot is one slot of a row's lifecycle buttons (partials/ops).
type opSlot struct {
	Op      models.Op
	Offered bool   // the row offers Op: a button, else an empty slot
	Label   string // the button's text (opLabel)
}

// Slots are the row's button slots, one per operation in models.Ops order.
func (r rowView) Slots() []opSlot {
	out := make([]opSlot, len(models.Ops))
	for i, op := range models.Ops {
		out[i] = opSlot{Op: op, Offered: r.offers(op), Label: opLabel(op)}
	}
	return out
}

// offers reports whether the row draws op's button. A row with an undo
// note draws no reactivate button: the note's Undo is that button, and a
// row never shows two Undo side by side (issue 47).
func (r *rowView) offers(op models.Op) bool {
	if op == models.OpReactivate && r.UndoNote != "" {
		return false
	}
	return slices.Contains(r.Ops, op)
}

// DeferDue is a task's due time as its defer menu carries it
// (data-defer-due), so app.js can offer to move the due date with the
// defer; "" for an event without one.
func (r rowView) DeferDue() string {
	if r.Kind != models.KindTask || r.DueAt == nil {
		return ""
	}
	return string(models.AppendTime(nil, *r.DueAt))
}

// SpanEnd is when the row's time ends: a calendar entry's end (else its
// start), a task's due time.
func (r rowView) SpanEnd() *time.Time {
	switch r.Kind {
	case models.KindCalendarEvent:
		if r.EndAt != nil {
			return r.EndAt
		}
		if r.AllDay && r.StartAt != nil { // one whole day
			end := models.DayStart(*r.StartAt, r.Loc, 1)
			return &end
		}
		return r.StartAt
	case models.KindTask:
		if r.DueAt != nil {
			return r.DueAt
		}
	}
	return nil
}

// elapsed is a duration in words: "25 min", "1 h 05 min".
func elapsed(d time.Duration) string {
	if d < time.Minute {
		return "just started"
	}
	m := int(d / time.Minute)
	if m < 60 {
		return strconv.Itoa(m) + " min"
	}
	return fmt.Sprintf("%d h %02d min", m/60, m%60)
}

// localTime is a time shown on a page: the text in the page's zone and the
// machine-readable attribute.
type localTime struct{ Text, Attr string }

const (
	dayLayout   = "Mon 2 Jan 2006"
	clockLayout = "15:04"
	inputLayout = "2006-01-02T15:04" // a datetime-local input's value
)

// relDay is a day in words relative to today (the start of the page's
// day): "today", "tomorrow", "yesterday", the weekday within the coming
// week, else the date, with the year only when it is not today's year.
func relDay(t, today time.Time, loc *time.Location) string {
	return string(appendRelDay(nil, t, today, loc))
}

// appendRelDay appends relDay(t, today, loc).
func appendRelDay(b []byte, t, today time.Time, loc *time.Location) []byte {
	b, _ = appendDay(b, t.In(loc), today.In(loc))
	return b
}

// appendDay appends l's day relative to today, both in the page's zone (relDay),
// and reports whether it wrote a date rather than a word. Rows draw it
// hundreds of times a page, so it reads each date once and writes the
// names itself: time.Format's "Mon 2 Jan 2006" wrote the same.
func appendDay(b []byte, l, today time.Time) ([]byte, bool) {
	y, m, d := l.Date()
	ty, tm, td := today.Date()
	days := dayNumber(y, m, d) - dayNumber(ty, tm, td)
	switch {
	case days == 0:
		return append(b, "today"...), false
	case days == 1:
		return append(b, "tomorrow"...), false
	case days == -1:
		return append(b, "yesterday"...), false
	}
	b = append(b, l.Weekday().String()[:3]...)
	if days > 1 && days < 7 {
		return b, false
	}
	b = strconv.AppendInt(append(b, ' '), int64(d), 10)
	b = append(append(b, ' '), m.String()[:3]...)
	if y != ty {
		b = strconv.AppendInt(append(b, ' '), int64(y), 10)
	}
	return b, true
}

// dayNumber counts days since the epoch to a calendar date.
func dayNumber(y int, m time.Month, d int) int {
	return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// relTime is t as its relative day and clock time: "today 17:00",
// "Tue 09:00", "Mon 30 Nov, 09:00" (a date takes a comma before the clock).
func relTime(t, today time.Time, loc *time.Location) *localTime {
	return &localTime{Text: string(appendRelTime(nil, t, today, loc)), Attr: models.FormatTime(t)}
}

// appendRelTime appends the text of relTime(t, today, loc).
func appendRelTime(b []byte, t, today time.Time, loc *time.Location) []byte {
	l := t.In(loc)
	b, date := appendDay(b, l, today.In(loc))
	if date {
		b = append(b, ", "...)
	} else {
		b = append(b, ' ')
	}
	return appendClock(b, l)
}

// appendClock appends l's clock time as clockLayout writes it: "09:05".
func appendClock(b []byte, l time.Time) []byte {
	h, m, _ := l.Clock()
	return append(b, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10))
}

// dateText is t's date, with its year only when that is not this year.
func dateText(t time.Time, loc *time.Location) string {
	if l := t.In(loc); l.Year() == time.Now().In(loc).Year() {
		return l.Format("Mon 2 Jan")
	}
	return t.In(loc).Format(dayLayout)
}

// showTime is t as a date and clock time (the detail page, the history).
func showTime(t *time.Time, loc *time.Location) *localTime {
	if t == nil {
		return nil
	}
	return &localTime{Text: dateText(*t, loc) + ", " + t.In(loc).Format(clockLayout), Attr: models.FormatTime(*t)}
}

// appendWhen appends where the row sits in time, in the page's zone, as the
// text of its time element: a task's due time, a calendar entry's span, an
// activity's span; start is r.SpanStart().
func appendWhen(b []byte, r *rowView, start time.Time) []byte {
	today, loc := r.Today, r.Loc
	if today.IsZero() { // no day to be relative to
		today = models.DayStart(time.Now(), loc, 0)
	}
	switch r.Kind {
	case models.KindTask:
		switch {
		case r.DueAt != nil && models.DueDayOnly(*r.DueAt, loc):
			return appendRelDay(append(b, "due "...), start, today, loc) // a day without a time (capture text)
		case r.DueAt != nil:
			return appendRelTime(append(b, "due "...), start, today, loc)
		}
		return appendRelTime(append(b, "starts "...), start, today, loc)
	case models.KindCalendarEvent:
		switch {
		case r.AllDay && r.EndAt != nil && r.EndAt.Sub(start) > 25*time.Hour:
			b = append(appendRelDay(b, start, today, loc), " – "...)
			return appendRelDay(b, r.EndAt.Add(-time.Hour), today, loc)
		case r.AllDay:
			return append(appendRelDay(b, start, today, loc), ", all day"...)
		case r.EndAt != nil:
			b = append(appendRelTime(b, start, today, loc), "–"...)
			return appendUntilRel(b, start, *r.EndAt, today, loc)
		}
	case models.KindActivityLog:
		switch {
		case r.Running():
			return appendRelTime(append(b, "since "...), start, today, loc)
		case r.StartedAt != nil && r.EndedAt != nil && !r.EndedAt.Equal(*r.StartedAt):
			b = append(appendRelTime(b, start, today, loc), "–"...)
			return appendUntilRel(b, *r.StartedAt, *r.EndedAt, today, loc)
		}
	}
	return appendRelTime(b, start, today, loc)
}

// until is the end of a span: its clock time on the start's day, else its
// day and time.
func until(start, end time.Time, loc *time.Location) string {
	s, e := start.In(loc), end.In(loc)
	if s.Year() == e.Year() && s.YearDay() == e.YearDay() {
		return e.Format(clockLayout)
	}
	return e.Format(dayLayout + ", " + clockLayout)
}

// appendUntilRel appends until with the end's day relative to today
// ("tomorrow 02:00").
func appendUntilRel(b []byte, start, end, today time.Time, loc *time.Location) []byte {
	s, e := start.In(loc), end.In(loc)
	if s.Year() == e.Year() && s.YearDay() == e.YearDay() {
		return appendClock(b, e)
	}
	return appendRelTime(b, end, today, loc)
}
