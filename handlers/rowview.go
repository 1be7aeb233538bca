// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"html/template"
	"slices"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/internal/i18n"
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
	Message string // a short note, such as why an operation was refused
	Note    string // what a capture text was read as, on a new row (capture.go)
	// Overlaps: what the log's span overlaps, read with the row (timers.go):
	// its mark and the move before them; nil when it overlaps nothing.
	// Added: the row answers the create that made it (its overlap mark
	// says so, and a calendar entry a line made offers its undo).
	Overlaps *app.Overlapping
	Added    bool
	Target   string    // where the answer to a lifecycle button goes
	Today    time.Time // the start of the service's day: an open task due before it is overdue
	Past     bool      // a calendar entry or timed task that has ended (markPast)
	// elapsed is a running log's time so far in seconds (markPast; Elapsed)
	elapsed int64
	// L is the language the row is drawn in: the answer's (langOf), set
	// where rows are drawn (splice.go, sendRow, page); nil is English
	L *i18n.Lang
	// Piece: the row stands for one day's piece of a log across local
	// midnight (Activity, daygroups.go): its length is the piece's, with
	// the whole beside it. Extra: the row is the piece of another day than
	// the one the listing places the log on, with an id of its own.
	Piece *models.DayPiece
	Extra bool

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

// row is e as a row of a list, with its overlap mark read (markRow).
func (h *Handlers) row(c *fiber.Ctx, e models.Event, message string) rowView {
	r := listRow(&e, h.svc.Zone(), h.today(), h.svc.Now(), message)
	h.markRow(c, &r)
	return r
}

// rows places events as the rows of a list in s (splice.go), each followed
// by a newline.
func (h *Handlers) rows(s *rowSlots, events []models.Event) template.HTML {
	return rowsAt(s, events, h.svc.Zone(), h.today(), h.svc.Now())
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
	return models.DayStart(h.svc.Now(), h.svc.Zone(), 0)
}

// listView is a page of drawn rows and the address of the next page, if any.
type listView struct {
	Rows template.HTML // each row followed by a newline (rowSlots.place)
	More string
}

// lang is the row's language (L, else English).
func (r *rowView) lang() *i18n.Lang {
	if r.L == nil {
		return i18n.English
	}
	return r.L
}

// statusLabel is a status in words ("in progress" for in_progress), in l.
func statusLabel(l *i18n.Lang, s models.Status) string { return l.T("status_" + string(s)) }

// KindLabel is the row's kind in a word ("Task", "Log"): kind_label_ and
// the kind in the catalogue.
func (r rowView) KindLabel() string { return r.lang().T("kind_label_" + string(r.Kind)) }

func (r rowView) StatusLabel() string { return statusLabel(r.lang(), r.Status) }

func (r rowView) Tag() string {
	if r.ProjectTag == nil {
		return ""
	}
	return shown(*r.ProjectTag)
}

// rowText is a text of the table a row draws after its label: the field's
// name (its class), its label's message id and the text.
type rowText struct{ Class, Label, Text string }

// RowTexts are the row's texts of the fields the table draws on a row
// (models.RowText), for the row template; the Go writer reads them from
// the table itself (appendRowTexts).
func (r rowView) RowTexts() []rowText {
	var out []rowText
	for _, f := range models.RowTextFields() {
		if s, ok := f.Text(r.Event); ok {
			out = append(out, rowText{f.Name, f.RowLabel, s})
		}
	}
	return out
}

// IsOverdue reports an open task due before today.
func (r rowView) IsOverdue() bool {
	return models.Overdue(r.Event, r.Today)
}

// PriorityLabel is the row's priority in the words of the form's choices
// (formView.PriorityOptions), "" for none.
func (r rowView) PriorityLabel() string {
	if r.Priority < 1 || r.Priority > 3 {
		return ""
	}
	return r.lang().T("priority_" + strconv.Itoa(int(r.Priority)))
}

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
		r.elapsed = max(models.Seconds(*r.StartedAt, now), 0)
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
			// an entry that has ended is not completed, nor put off: its
			// time has gone by (Defer would move nothing a person can use)
			if op != models.OpComplete && op != models.OpDefer {
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
	return string(appendRowDuration(nil, &r))
}

// appendRowDuration appends a finished log's length, or its day piece's
// and the whole's ("50 min of 1 h 40 min"); nothing for anything else.
func appendRowDuration(b []byte, r *rowView) []byte {
	d, ok := logLength(r.Event)
	if !ok {
		return b
	}
	lang := r.lang()
	if r.Piece != nil {
		before, after := lang.Wrap("row_piece_of")
		b = append(lang.AppendDuration(append(b, before...), models.Seconds(r.Piece.Start, r.Piece.End)), after...)
	}
	return lang.AppendDuration(b, d)
}

// Elapsed is a running log's time so far, "1 h 25 min"; "" for any other
// row.
func (r rowView) Elapsed() string {
	if !r.Running() || r.StartedAt == nil {
		return ""
	}
	return r.lang().Elapsed(r.elapsed)
}

// Until is the end of a deferred row's deferral, nil for any other row.
func (r rowView) Until() *localTime {
	if r.Status != models.StatusDeferred || r.DeferUntil == nil {
		return nil
	}
	return relTimeIn(r.lang(), *r.DeferUntil, r.Today, r.Loc)
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
		out[i] = opSlot{Op: op, Offered: r.offers(op), Label: opLabel(r.lang(), op)}
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
// week, else the date, with the year only when it is not today's year
// (i18n.Lang.AppendDay: "오늘", "11월 29일 (일)" in Korean).
func relDay(t, today time.Time, loc *time.Location) string {
	return string(appendRelDay(i18n.English, nil, t, today, loc))
}

// appendRelDay appends relDay(t, today, loc) in lang.
func appendRelDay(lang *i18n.Lang, b []byte, t, today time.Time, loc *time.Location) []byte {
	b, _ = lang.AppendDay(b, t.In(loc), today.In(loc))
	return b
}

// relTime is t as its relative day and clock time: "today 17:00",
// "Tue 09:00", "Mon 30 Nov, 09:00" (a date takes a comma before the clock).
func relTime(t, today time.Time, loc *time.Location) *localTime {
	return relTimeIn(i18n.English, t, today, loc)
}

// relTimeIn is relTime in lang.
func relTimeIn(lang *i18n.Lang, t, today time.Time, loc *time.Location) *localTime {
	return &localTime{Text: string(appendRelTime(lang, nil, t, today, loc)), Attr: models.FormatTime(t)}
}

// appendRelTime appends the text of relTimeIn(lang, t, today, loc).
func appendRelTime(lang *i18n.Lang, b []byte, t, today time.Time, loc *time.Location) []byte {
	l := t.In(loc)
	b, date := lang.AppendDay(b, l, today.In(loc))
	if date {
		b = append(b, lang.ClockSep()...)
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

// dateText is t's date in lang, with its year only when that is not
// this year.
func dateText(lang *i18n.Lang, t time.Time, loc *time.Location) string {
	l := t.In(loc)
	return lang.Date(l, l.Year() != time.Now().In(loc).Year())
}

// showTime is t as a date and clock time (the detail page, the history).
func showTime(t *time.Time, loc *time.Location) *localTime {
	return showTimeIn(i18n.English, t, loc)
}

// showTimeIn is showTime in lang.
func showTimeIn(lang *i18n.Lang, t *time.Time, loc *time.Location) *localTime {
	if t == nil {
		return nil
	}
	return &localTime{Text: dateText(lang, *t, loc) + lang.ClockSep() + t.In(loc).Format(clockLayout), Attr: models.FormatTime(*t)}
}

// appendWhen appends where the row sits in time, in the page's zone, as the
// text of its time element: a task's due time, a calendar entry's span, an
// activity's span; start is r.SpanStart().
func appendWhen(b []byte, r *rowView, start time.Time) []byte {
	today, loc, lang := r.Today, r.Loc, r.lang()
	if today.IsZero() { // no day to be relative to
		today = models.DayStart(time.Now(), loc, 0)
	}
	switch r.Kind {
	case models.KindTask:
		switch {
		case r.DueAt != nil && models.DueDayOnly(*r.DueAt, loc):
			before, after := lang.Wrap("row_due")
			return append(appendRelDay(lang, append(b, before...), start, today, loc), after...) // a day without a time (capture text)
		case r.DueAt != nil:
			before, after := lang.Wrap("row_due")
			return append(appendRelTime(lang, append(b, before...), start, today, loc), after...)
		}
		before, after := lang.Wrap("row_starts")
		return append(appendRelTime(lang, append(b, before...), start, today, loc), after...)
	case models.KindCalendarEvent:
		switch {
		case r.AllDay && r.EndAt != nil && r.EndAt.Sub(start) > 25*time.Hour:
			b = append(appendRelDay(lang, b, start, today, loc), " – "...)
			return appendRelDay(lang, b, r.EndAt.Add(-time.Hour), today, loc)
		case r.AllDay:
			before, after := lang.Wrap("row_all_day")
			return append(appendRelDay(lang, append(b, before...), start, today, loc), after...)
		case r.EndAt != nil:
			b = append(appendRelTime(lang, b, start, today, loc), "–"...)
			return appendUntilRel(lang, b, start, *r.EndAt, today, loc)
		}
	case models.KindActivityLog:
		switch {
		case r.Running():
			before, after := lang.Wrap("row_since")
			return append(appendRelTime(lang, append(b, before...), start, today, loc), after...)
		case r.StartedAt != nil && r.EndedAt != nil && !r.EndedAt.Equal(*r.StartedAt):
			b = append(appendRelTime(lang, b, start, today, loc), "–"...)
			return appendUntilRel(lang, b, *r.StartedAt, *r.EndedAt, today, loc)
		}
	}
	return appendRelTime(lang, b, start, today, loc)
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
func appendUntilRel(lang *i18n.Lang, b []byte, start, end, today time.Time, loc *time.Location) []byte {
	s, e := start.In(loc), end.In(loc)
	if s.Year() == e.Year() && s.YearDay() == e.YearDay() {
		return appendClock(b, e)
	}
	return appendRelTime(lang, b, end, today, loc)
}
