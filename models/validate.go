// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"events/internal/capture"
)

// Bounds of the text fields, in characters.
const (
	MaxTitle       = 500
	MaxDescription = 20000
	MaxProjectTag  = 64
	MaxSourceRef   = 200
	MaxLocation    = 200
)

// kindTimeFields are the time fields each kind carries; the others stay empty.
var kindTimeFields = map[Kind][]string{
	KindTask:          {"due_at", "start_at"},
	KindCalendarEvent: {"start_at", "end_at", "all_day"},
	KindActivityLog:   {"started_at", "ended_at"},
}

// KindTimeFields are the time fields of kind k, in its form's order.
func KindTimeFields(k Kind) []string { return kindTimeFields[k] }

// InitialStatuses are the statuses a create of kind k may ask for; the
// first is the default.
func InitialStatuses(k Kind) []Status { return initialStatuses[k] }

// KindHasField reports whether kind k carries the field name (Field.Kinds:
// the table's .of, and the time fields' kindTimeFields).
func KindHasField(k Kind, name string) bool {
	f := fieldIndex[name]
	return f == nil || f.ForKind(k)
}

// kindList is kinds in words: "a task or a calendar_event" without its
// first article.
func kindList(kinds []Kind) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", a ") + " or a " + names[len(names)-1]
}

// HasTimeField reports whether kind k carries the time field name.
func HasTimeField(k Kind, name string) bool {
	for _, f := range kindTimeFields[k] {
		if f == name {
			return true
		}
	}
	return false
}

// initialStatuses are the statuses a create may ask for, by kind; the first is the default.
var initialStatuses = map[Kind][]Status{
	KindTask:          {StatusPlanned, StatusInProgress, StatusWaiting, StatusDone},
	KindCalendarEvent: {StatusPlanned, StatusTentative, StatusDone},
	KindActivityLog:   {StatusDone, StatusInProgress},
}

// NewEvent builds the event a create asks for: defaults applied, every rule
// checked. loc is the zone all-day dates are read in.
func (in Input) NewEvent(now time.Time, loc *time.Location) (Event, error) {
	now = now.UTC().Truncate(time.Microsecond)
	var fe FieldErrors
	e := Event{CreatedAt: now, UpdatedAt: now}
	switch {
	case !in.Kind.Set:
		fe.add("kind", CodeRequired, "is required: task, calendar_event or activity_log")
	case !in.Kind.V.Valid():
		fe.add("kind", CodeBadFormat, "must be one of task, calendar_event, activity_log")
	default:
		e.Kind = in.Kind.V
	}
	typed, ok := in.typedNow(now, &fe)
	if !ok {
		return Event{}, fe
	}
	if in.Text.Set && !in.applyCapture(e.Kind, typed, loc, &fe) {
		return Event{}, fe
	}
	in.copyEditable(&e)
	e.CaptureNote, e.CaptureSays = in.captureNote.Error(), in.captureNote
	e.Source = in.Source.Ptr()
	e.SourceRef = in.SourceRef.Ptr()

	if e.Kind != "" {
		allowed := initialStatuses[e.Kind]
		e.Status = allowed[0]
		if in.Status.Set {
			e.Status = in.Status.V
			if !slices.Contains(allowed, e.Status) {
				fe.add("status", CodeNotAllowedForKind, "a new %s may start as %s", e.Kind, joinStatuses(allowed))
			}
		}
		if e.Kind == KindActivityLog && !fe.has("status") {
			switch e.Status {
			case StatusDone:
				if e.EndedAt == nil {
					e.EndedAt = &typed
				}
			case StatusInProgress:
				if e.EndedAt != nil {
					fe.add("ended_at", CodeConflictingFields, "must be empty for a running (in_progress) activity log")
				}
				if e.StartedAt == nil {
					e.StartedAt = &typed
				}
			}
		}
	}
	switch {
	case e.Source != nil && e.SourceRef == nil:
		fe.add("source_ref", CodeRequired, "is required when source is given")
	case e.Source == nil && e.SourceRef != nil:
		fe.add("source", CodeRequired, "is required when source_ref is given")
	}
	validate(&e, &fe, loc)
	checkBounds(&e, &fe)
	if len(fe) > 0 {
		return Event{}, fe
	}
	// the zone its dates are read in: a task's day-only due in the
	// request's zone (?tz=), an all-day span in the service's
	e.Zone = ZoneName(loc)
	if e.Kind == KindTask && in.TextZone != nil {
		e.Zone = ZoneName(in.TextZone)
	}
	return e, nil
}

// Bounds of typed_at (DESIGN.md, "The record line offline"): a line kept
// by a page without a network is sent within days, and a phone's clock may
// run a little ahead of the server's.
const (
	TypedAtMaxAge = 7 * 24 * time.Hour
	TypedAtSkew   = 2 * time.Minute
)

// typedNow is the now a create's text and defaults are read at: typed_at
// when the body gives it, else now. A typed_at ahead of now by at most
// TypedAtSkew is now; further ahead, or older than TypedAtMaxAge, is
// refused naming typed_at.
func (in Input) typedNow(now time.Time, fe *FieldErrors) (time.Time, bool) {
	t := in.TypedAt
	switch {
	case !t.Set:
		return now, true
	case t.Null:
		fe.add("typed_at", CodeBadFormat, "must be an RFC 3339 time, not null (leave it out for now)")
	case t.V.After(now.Add(TypedAtSkew)):
		fe.add("typed_at", CodeInTheFuture, "is %s, after now (%s): the instant a line was typed cannot lie ahead", FormatTime(t.V), FormatTime(now))
	case t.V.Before(now.Add(-TypedAtMaxAge)):
		fe.add("typed_at", CodeOutOfRange, "is %s, more than 7 days ago: send the line again as it should read now", FormatTime(t.V))
	case t.V.After(now):
		return now, true // the client's clock runs a little ahead
	default:
		return t.V.UTC().Truncate(time.Microsecond), true
	}
	return time.Time{}, false
}

// copyEditable copies the editable fields present in the input onto e.
func (in Input) copyEditable(e *Event) {
	for i := range EventFields {
		if f := &EventFields[i]; f.Editable() {
			f.copyFrom(&in, e)
		}
	}
}

// ApplyPatch returns e with the PATCH applied, and the time fields that
// changed (old and new values) for the reschedule row. changed is false
// when the PATCH changes nothing at all.
func ApplyPatch(e Event, in Input, now time.Time, loc *time.Location) (n Event, times map[string]Change, changed bool, err error) {
	n = e
	if in.FromForm {
		// A form shows minutes: a time equal to the stored one at that
		// precision is the stored one, not a change.
		for i := range EventFields {
			f := &EventFields[i]
			if !f.Editable() || f.Type != TypeTime {
				continue
			}
			o := f.input(&in).(*Opt[time.Time])
			if old := f.Time(&e); o.Set && !o.Null && old != nil && o.V.Truncate(time.Minute).Equal(old.Truncate(time.Minute)) {
				o.V = *old
			}
		}
	}
	// The times are normalised in the zone they were fixed in, so that a
	// PATCH that leaves them alone leaves them as they are (an all-day
	// span fixed in Seoul keeps its dates under a service now in Berlin);
	// a PATCH that moves them fixes them anew in the service's zone.
	fixed := e.TimeZone()
	if fixed == nil {
		fixed = loc
	}
	n, fe := patched(e, in, fixed)
	if fixed.String() != loc.String() && (len(fe) > 0 || rescheduled(&e, &n)) {
		n, fe = patched(e, in, loc)
	}
	if len(fe) > 0 {
		return e, nil, false, fe
	}
	if rescheduled(&e, &n) {
		n.Zone = ZoneName(loc)
	}
	times = map[string]Change{}
	for i := range EventFields {
		f := &EventFields[i]
		if !f.Editable() {
			continue
		}
		old, new := f.value(&e), f.value(&n)
		if old == new {
			continue
		}
		changed = true
		if f.Reschedule {
			times[f.Name] = Change{Old: old, New: new}
		}
	}
	if changed {
		n.UpdatedAt = now.UTC().Truncate(time.Microsecond)
	}
	return n, times, changed, nil
}

// patched is e with the PATCH's fields copied, checked and its times
// normalised in loc.
func patched(e Event, in Input, loc *time.Location) (Event, FieldErrors) {
	n := e
	in.copyEditable(&n)
	var fe FieldErrors
	validate(&n, &fe, loc)
	checkBounds(&n, &fe)
	return n, fe
}

// rescheduled reports whether n's times (the fields a change of
// reschedules) differ from e's.
func rescheduled(e, n *Event) bool {
	for i := range EventFields {
		if f := &EventFields[i]; f.Reschedule && f.value(e) != f.value(n) {
			return true
		}
	}
	return false
}

// validate checks and normalises the fields a create and a PATCH share.
func validate(e *Event, fe *FieldErrors, loc *time.Location) {
	for i := range EventFields {
		f := &EventFields[i]
		switch {
		case f.MaxLen > 0:
			checkField(e, f, fe)
		case f.Type == TypeLabels:
			checkLabels(e, f, fe)
		case f.Type == TypeInt && f.Max > f.Min:
			if v := f.Int(e); v < int64(f.Min) || v > int64(f.Max) {
				fe.add(f.Name, CodeOutOfRange, "must be from %d to %d", f.Min, f.Max)
			}
		}
	}
	if e.Kind == "" {
		return
	}
	if (e.Kind == KindTask || e.Kind == KindCalendarEvent) && e.Title == "" && !fe.has("title") {
		fe.add("title", CodeRequired, "is required for a %s", e.Kind)
	}
	for i := range EventFields {
		// the times a PATCH reschedules are each kind's own (kindTimeFields)
		if f := &EventFields[i]; f.Reschedule && f.Type == TypeTime && f.Time(e) != nil && !HasTimeField(e.Kind, f.Name) {
			fe.add(f.Name, CodeNotAllowedForKind, "is not a field of a %s (its times are %s)", e.Kind, strings.Join(kindTimeFields[e.Kind], ", "))
		}
	}
	for i := range EventFields {
		// a field of some kinds only (Field.Kinds; the times are above)
		if f := &EventFields[i]; !f.Reschedule && !f.ForKind(e.Kind) && !f.Empty(e) {
			fe.add(f.Name, CodeNotAllowedForKind, "applies to a %s, not a %s", kindList(f.Kinds), e.Kind)
		}
	}
	if e.AllDay && e.Kind != KindCalendarEvent {
		fe.add("all_day", CodeNotAllowedForKind, "applies only to a calendar_event")
	}
	switch e.Kind {
	case KindCalendarEvent:
		if e.StartAt == nil {
			fe.add("start_at", CodeRequired, "is required for a calendar_event")
			return
		}
		if e.AllDay {
			start := localMidnight(*e.StartAt, loc)
			end := nextMidnight(*e.StartAt, loc)
			if e.EndAt != nil {
				end = ceilMidnight(*e.EndAt, loc)
			}
			s, en := start.UTC(), end.UTC()
			e.StartAt, e.EndAt = &s, &en
			switch {
			case s.Year() < 1:
				fe.add("start_at", CodeOutOfRange, "an all-day entry must start in the years 0001 to 9999 (UTC)")
				return
			case en.Year() > 9999:
				fe.add("end_at", CodeOutOfRange, "an all-day entry must end in the years 0001 to 9999 (UTC)")
				return
			}
		}
		if e.EndAt != nil && e.EndAt.Before(*e.StartAt) {
			fe.add("end_at", CodeOutOfRange, "must not be before start_at")
		} else if e.AllDay && !e.EndAt.After(*e.StartAt) {
			fe.add("end_at", CodeOutOfRange, "must be after the start day of an all-day entry")
		}
	case KindActivityLog:
		if e.StartedAt == nil && e.EndedAt == nil {
			fe.add("ended_at", CodeRequired, "an activity log needs started_at or ended_at")
		}
		if e.StartedAt != nil && e.EndedAt != nil && e.EndedAt.Before(*e.StartedAt) {
			fe.add("ended_at", CodeOutOfRange, "must not be before started_at")
		}
		if e.Status == StatusInProgress && e.EndedAt != nil && !fe.has("ended_at") {
			fe.add("ended_at", CodeConflictingFields, "must be empty while the activity log is running (in_progress): complete it instead")
		}
	}
}

func localMidnight(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return dayStart(l.Year(), l.Month(), l.Day(), loc)
}

// nextMidnight is the start of the local day after t's.
func nextMidnight(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return dayStart(l.Year(), l.Month(), l.Day()+1, loc)
}

// ceilMidnight is t when it is a local midnight, else the next local midnight.
func ceilMidnight(t time.Time, loc *time.Location) time.Time {
	m := localMidnight(t, loc)
	if m.Equal(t) {
		return m
	}
	return nextMidnight(t, loc)
}

// dayStart is the first instant of the local date y-m-d (normalised) in
// loc (capture.DayStart).
func dayStart(y int, m time.Month, d int, loc *time.Location) time.Time {
	return capture.DayStart(y, m, d, loc)
}

// EndOfDay is the last microsecond of the local date y-m-d (normalised) in
// loc: the next day's first instant minus one microsecond.
func EndOfDay(y int, m time.Month, d int, loc *time.Location) time.Time {
	return capture.EndOfDay(y, m, d, loc)
}

// DaysIn is the number of days of month m (1–12) in year y of the
// proleptic Gregorian calendar, as time.Date counts them.
func DaysIn(y int, m time.Month) int { return capture.DaysIn(y, m) }

// DueDayOnly reports whether due is a day without a clock time in loc: the
// last microsecond of a local day, as ParseCapture stores a task day given
// without a time.
func DueDayOnly(due time.Time, loc *time.Location) bool {
	l := due.In(loc)
	return l.Hour() == 23 && l.Minute() == 59 && l.Second() == 59 && l.Nanosecond() == 999999000
}

// checkField normalises the text field f of e as the field table says
// and checks what remains.
func checkField(e *Event, f *Field, fe *FieldErrors) {
	s, ok := f.Text(e)
	if !ok {
		return
	}
	if !f.Multiline && checkSent(fe, f.Name, s) {
		return
	}
	s = f.normalise(s)
	switch {
	case s == "" && f.EmptyIsNull:
		f.SetText(e, nil)
		return
	case s == "" && f.Nullable:
		fe.add(f.Name, CodeRequired, "must not be empty")
	}
	f.SetText(e, &s)
	n := len(*fe)
	checkText(fe, f.Name, s, f.MaxLen, f.Multiline)
	if f.Visible && len(*fe) == n {
		checkVisible(fe, f.Name, s)
	}
}

// checkSent refuses a control character anywhere in a one-line text as it
// was sent, and reports whether it did: trimming drops the spaces around a
// text, never a tab or a newline, so "\ta\n" is refused as "a\nb" is
// rather than trimmed into a valid "a" (one rule for JSON, forms and a
// listing's query).
func checkSent(fe *FieldErrors, name, s string) bool {
	i := strings.IndexFunc(s, unicode.IsControl)
	if i < 0 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	fe.add(name, CodeControlCharacter, "must not contain control characters (found U+%04X)", r)
	return true
}

// checkVisible refuses an invisible character in a name (Field.Visible).
func checkVisible(fe *FieldErrors, name, s string) {
	for _, r := range s {
		if IsInvisible(r) {
			fe.add(name, CodeControlCharacter, "must not contain invisible characters (found U+%04X)", r)
			return
		}
	}
}

// IsInvisible reports whether r draws nothing though it is not a space: a
// format character (Unicode category Cf: U+200B zero-width space, U+200C
// and U+200D joiners, U+2060 word joiner, U+FEFF, U+00AD soft hyphen, the
// bidirectional controls ...) or a Hangul filler (U+115F, U+1160, U+3164,
// U+FFA0), which are letters that show as nothing.
func IsInvisible(r rune) bool {
	switch r {
	case 0x115F, 0x1160, 0x3164, 0xFFA0:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

func normaliseNewlines(s string) string {
	if strings.Contains(s, "\r\n") {
		return strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s
}

// checkText refuses text over max characters and control characters: prose
// (multiline) may hold tabs and newlines, and bidirectional controls; a line
// none of them.
func checkText(fe *FieldErrors, name, s string, max int, multiline bool) {
	if n := utf8.RuneCountInString(s); n > max {
		fe.add(name, CodeTooLong, "must be at most %d characters (it has %d)", max, n)
		return
	}
	for _, r := range s {
		if unicode.IsControl(r) && !(multiline && (r == '\t' || r == '\n')) {
			fe.add(name, CodeControlCharacter, "must not contain control characters (found U+%04X)", r)
			return
		}
		if !multiline && IsBidiControl(r) {
			fe.add(name, CodeControlCharacter, "must not contain bidirectional control characters (found U+%04X)", r)
			return
		}
	}
}

// IsBidiControl reports whether r is an explicit bidirectional control
// (U+202A..U+202E embeddings and overrides, U+2066..U+2069 isolates): in an
// identifier (project_tag, source_ref) it only serves to make text read
// other than it is stored ("invoice \u202egpj.exe" shows as "invoice exe.jpg").
func IsBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}
