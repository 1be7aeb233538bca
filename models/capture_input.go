// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"time"

	"events/internal/capture"

	"events/internal/i18n"
)

// The capture language (DESIGN.md, "Capture text") is read by package
// capture; ParseCapture is the domain's one way into it.

// MaxCaptureText is the longest capture text, in characters.
const MaxCaptureText = 500

// Capture is what a capture text says (capture.Capture).
type Capture = capture.Capture

// ParseCapture reads a capture text of any kind, with the clock at now and
// times read in loc. A refusal is FieldErrors naming "text".
func ParseCapture(kind Kind, text string, now time.Time, loc *time.Location) (Capture, error) {
	var fe FieldErrors
	if kind != KindActivityLog && kind != KindTask && kind != KindCalendarEvent {
		fe.add("text", CodeNotAllowedForKind, "is read only for a task, a calendar_event or an activity_log")
		return Capture{}, fe
	}
	checkText(&fe, "text", text, MaxCaptureText, true)
	if len(fe) > 0 {
		return Capture{}, fe
	}
	c, err := capture.Parse(capture.Kind(kind), text, now, loc, capture.Rules{MaxTag: MaxProjectTag, MaxLabel: MaxLabel, MaxLabels: MaxLabels})
	if m, ok := err.(i18n.Msg); ok {
		fe.addMsg("text", CodeAmbiguousText, m)
		return Capture{}, fe
	} else if err != nil {
		fe.add("text", CodeAmbiguousText, "%s", err)
		return Capture{}, fe
	}
	return c, nil
}

// applyCapture reads in.Text (DESIGN.md, "Capture text") into the fields
// of in that the body does not give, so that what follows (defaults,
// validation, the stored row) is the same as for a body that sent those
// fields. kind is the body's kind ("" when it has none or a bad one: the
// kind's own error says so). Refusals name text; false means stop.
//
// Fields given explicitly win: an explicit title is refused with text (the
// title stays literal, never parsed); an explicit project_tag, due_at or
// priority replaces the text's; for an activity log, an explicit started_at
// or ended_at replaces that end of the span, and a duration word then
// carries the other end with it (ended_at 10:00 with 15m starts at 9:45);
// an explicit status in_progress keeps the text's start and drops its end
// (a running log since then). A duration carried from an explicit start
// past now is refused: a finished log never ends in the future. For a
// calendar entry, an explicit start_at, end_at or all_day replaces the
// text's; a text that names no day or time needs an explicit start_at.
// An all-day span read in another zone (?tz=) is stored as the same days
// in loc, the zone every all-day entry is fixed in.
func (in *Input) applyCapture(kind Kind, now time.Time, loc *time.Location, fe *FieldErrors) bool {
	switch {
	case in.Title.Set:
		fe.add("text", CodeConflictingFields, "cannot be sent with title: send the line as text, or the fields themselves")
		return false
	case kind == "":
		return true // kind is required; its error is enough
	}
	textLoc := loc
	if in.TextZone != nil {
		textLoc = in.TextZone
	}
	c, err := ParseCapture(kind, in.Text.V, now, textLoc)
	if err != nil {
		if e, ok := err.(FieldErrors); ok {
			*fe = append(*fe, e...)
		} else {
			fe.add("text", CodeAmbiguousText, "%s", err)
		}
		return false
	}
	in.Title = Opt[string]{Set: true, V: c.Title}
	in.captureNote = c.Note
	if c.ProjectTag != nil && !in.ProjectTag.Set {
		in.ProjectTag = Opt[string]{Set: true, V: *c.ProjectTag}
	}
	if len(c.Labels) > 0 && !in.Labels.Set {
		in.Labels = Opt[[]string]{Set: true, V: c.Labels}
	}
	switch kind {
	case KindTask:
		if c.DueAt != nil && !in.DueAt.Set {
			in.DueAt = Opt[time.Time]{Set: true, V: *c.DueAt}
		}
		if c.Priority != 0 && !in.Priority.Set {
			in.Priority = Opt[int]{Set: true, V: c.Priority}
		}
	case KindCalendarEvent:
		return in.captureSpan(c, loc, textLoc, fe)
	case KindActivityLog:
		return in.captureLog(c, now, fe)
	}
	return true
}

// captureSpan fills a calendar entry's span from the capture c read in
// textLoc where the body does not give it (applyCapture has the rules);
// an all-day span read in another zone is the same days in loc.
func (in *Input) captureSpan(c Capture, loc, textLoc *time.Location, fe *FieldErrors) bool {
	if c.StartAt == nil {
		if !in.StartAt.Set {
			fe.add("text", CodeRequired, "names no day or time, and start_at is not given: a calendar_event needs one (tue 15:00, 12/24)")
			return false
		}
		return true
	}
	start, end := *c.StartAt, *c.EndAt
	if c.AllDay && textLoc != loc {
		first, after := start.In(textLoc), end.In(textLoc)
		start = dayStart(first.Year(), first.Month(), first.Day(), loc)
		end = dayStart(after.Year(), after.Month(), after.Day(), loc)
	}
	if !in.StartAt.Set {
		in.StartAt = Opt[time.Time]{Set: true, V: start}
	}
	if endAt := in.endAt(); !endAt.Set {
		*endAt = Opt[time.Time]{Set: true, V: end}
	}
	if c.AllDay && !in.AllDay.Set {
		in.AllDay = Opt[bool]{Set: true, V: true}
	}
	return true
}

// captureLog fills a log's times from the capture c where the body does
// not give them (applyCapture has the rules): false, with the error in
// fe, for a finished log that would end after now.
func (in *Input) captureLog(c Capture, now time.Time, fe *FieldErrors) bool {
	if c.StartedAt == nil {
		return true
	}
	start, end := *c.StartedAt, *c.EndedAt
	switch {
	case in.StartedAt.Set && in.EndedAt.Set:
		return true
	case in.EndedAt.Set && !in.EndedAt.Null && c.Duration > 0:
		start = in.EndedAt.V.Add(-c.Duration)
	case in.StartedAt.Set && !in.StartedAt.Null && c.Duration > 0:
		end = in.StartedAt.V.Add(c.Duration)
	}
	if !in.StartedAt.Set {
		in.StartedAt = Opt[time.Time]{Set: true, V: start}
	}
	running := in.Status.Set && in.Status.V == StatusInProgress
	if !in.EndedAt.Set && !running {
		if end.After(now) && InBounds(end) {
			// a duration carried from an explicit start: a finished
			// log never ends in the future (DESIGN.md, Capture text);
			// past 9999, the bounds say so, naming ended_at
			fe.add("text", CodeInTheFuture, "the duration %s from started_at ends at %s, after now: a finished log cannot end in the future (send status in_progress for a running one)",
				c.Duration, FormatTime(end))
			return false
		}
		in.EndedAt = Opt[time.Time]{Set: true, V: end}
	}
	return true
}

// endAt is the body's end_at (a field of the table that Input does not
// name).
func (in *Input) endAt() *Opt[time.Time] {
	return in.moreOpt("end_at", func() any { return new(Opt[time.Time]) }).(*Opt[time.Time])
}

// LineKind reads a line typed where a log or a task is made (the pages'
// record and task lines, `events log`, `events add`) as DESIGN.md's "One
// line, any kind" says: it is a calendar entry when, read as one, it names
// a day and a clock range, or a clock range that has not ended at now
// (placed today, or from yesterday when it crosses midnight and that
// placing still runs). ok reports that; start and end are the entry's
// span, to be sent with the line as start_at and end_at. A range that is
// over, and any other line, stays the kind it was typed for (ok false).
func LineKind(kind Kind, text string, now time.Time, loc *time.Location) (start, end time.Time, ok bool) {
	if kind != KindActivityLog && kind != KindTask {
		return start, end, false
	}
	c, err := ParseCapture(KindCalendarEvent, text, now, loc)
	if err != nil || c.StartAt == nil || !c.Ranged || c.AllDay {
		return start, end, false
	}
	if c.DayNamed {
		return *c.StartAt, *c.EndAt, true
	}
	s, e := c.StartAt.In(loc), c.EndAt.In(loc)
	length := c.EndAt.Sub(*c.StartAt)
	l := now.In(loc)
	wraps := e.Day() != s.Day()
	for _, back := range []int{-1, 0} {
		from := time.Date(l.Year(), l.Month(), l.Day()+back, s.Hour(), s.Minute(), 0, 0, loc).UTC()
		to := from.Add(length)
		switch {
		case back == -1 && !wraps:
			// a range within one day is today's
		case wraps && from.After(now):
			// across midnight and not begun: last night's, as a log reads it
		case to.After(now):
			return from, to, true
		}
	}
	return start, end, false
}

// AsLineOfAnyKind makes a create from a log's or a task's line whose text
// LineKind reads as a calendar entry into that entry's create (kind,
// start_at, end_at), dropping the log's options the line sent; true when
// it did. A create that gives a status (a started log) or a span of its own
// is left as it is. loc is the service's zone (the body's TextZone wins).
func (in *Input) AsLineOfAnyKind(now time.Time, loc *time.Location) bool {
	if !in.Text.Set || !in.Kind.Set || in.Status.Set || in.StartAt.Set || in.StartedAt.Set || in.EndedAt.Set || in.DueAt.Set {
		return false
	}
	if in.TextZone != nil {
		loc = in.TextZone
	}
	if in.TypedAt.Set {
		now = in.TypedAt.V
	}
	start, end, ok := LineKind(in.Kind.V, in.Text.V, now, loc)
	if !ok {
		return false
	}
	in.Kind.V = KindCalendarEvent
	in.StartAt = Opt[time.Time]{Set: true, V: start}
	*in.endAt() = Opt[time.Time]{Set: true, V: end}
	in.StopRunning, in.Overlap = Opt[bool]{}, Opt[string]{}
	return true
}
