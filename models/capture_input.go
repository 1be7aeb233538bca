// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import "time"

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
	switch kind {
	case KindTask:
		if c.DueAt != nil && !in.DueAt.Set {
			in.DueAt = Opt[time.Time]{Set: true, V: *c.DueAt}
		}
		if c.Priority != 0 && !in.Priority.Set {
			in.Priority = Opt[int]{Set: true, V: c.Priority}
		}
	case KindCalendarEvent:
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
	case KindActivityLog:
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
	}
	return true
}

// endAt is the body's end_at (a field of the table that Input does not
// name).
func (in *Input) endAt() *Opt[time.Time] {
	return in.moreOpt("end_at", func() any { return new(Opt[time.Time]) }).(*Opt[time.Time])
}
