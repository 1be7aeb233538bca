// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// Fixed instants: times are injected, never read from the clock.
var (
	t0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC) // when the fixtures were created
	// now carries nanoseconds, so that every test also sees the truncation
	// to microseconds that PostgreSQL would apply.
	now   = time.Date(2026, 11, 25, 3, 30, 15, 123456789, time.UTC)
	nowUS = time.Date(2026, 11, 25, 3, 30, 15, 123456000, time.UTC)
)

func mustZone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("LoadLocation(%q): %v", name, err)
	}
	return loc
}

func ptr[T any](v T) *T { return &v }

// at returns a pointer to a time; ts parses an RFC 3339 time.
func at(t time.Time) *time.Time { return &t }

func ts(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("bad test time %q: %v", s, err)
	}
	return v.UTC()
}

// class names the HTTP answer an error would get: "ok", "400", "409", "422",
// or "other" for an error of any other type.
func class(err error) string {
	var bad *BadRequestError
	var conflict *ConflictError
	var fe FieldErrors
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &bad):
		return "400"
	case errors.As(err, &conflict):
		return "409"
	case errors.As(err, &fe):
		return "422"
	}
	return "other"
}

// fieldsOf lists the fields a FieldErrors names, nil for any other error.
func fieldsOf(err error) []string {
	var fe FieldErrors
	if !errors.As(err, &fe) {
		return nil
	}
	var names []string
	for _, e := range fe {
		names = append(names, e.Field)
	}
	return names
}

// wantFieldError fails unless err is a FieldErrors (422) naming field.
func wantFieldError(t *testing.T, err error, field string) {
	t.Helper()
	if got := class(err); got != "422" {
		t.Fatalf("error: got %s (%v), want 422 naming %s", got, err, field)
	}
	if names := fieldsOf(err); !slices.Contains(names, field) {
		t.Errorf("fields named: got %v, want %s among them (%v)", names, field, err)
	}
}

func fmtPtr(p *time.Time) string {
	if p == nil {
		return "<nil>"
	}
	return p.UTC().Format(time.RFC3339Nano)
}

func samePtr(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

// checkTime fails when a time field differs from want (nil: unset).
func checkTime(t *testing.T, name string, got, want *time.Time) {
	t.Helper()
	if !samePtr(got, want) {
		t.Errorf("%s: got %s, want %s", name, fmtPtr(got), fmtPtr(want))
	}
}

func fmtStatus(s *Status) string {
	if s == nil {
		return "<nil>"
	}
	return string(*s)
}

func checkStatusPtr(t *testing.T, name string, got, want *Status) {
	t.Helper()
	if fmtStatus(got) != fmtStatus(want) {
		t.Errorf("%s: got %s, want %s", name, fmtStatus(got), fmtStatus(want))
	}
}

// storageProblems lists the rules of docs/DESIGN.md and the specification that a
// stored event must satisfy and e breaks: the storage rules, the CHECK
// constraints, the text bounds and the time ranges. loc is the zone all-day
// spans were written in.
func storageProblems(e Event, loc *time.Location) []string {
	var p []string
	bad := func(format string, ok bool) {
		if !ok {
			p = append(p, format)
		}
	}
	bad("kind is an enum value", e.Kind.Valid())
	bad("status is an enum value", e.Status.Valid())
	bad("a calendar_event has start_at", e.Kind != KindCalendarEvent || e.StartAt != nil)
	bad("an activity_log has started_at or ended_at", e.Kind != KindActivityLog || e.StartedAt != nil || e.EndedAt != nil)
	bad("end_at >= start_at", e.StartAt == nil || e.EndAt == nil || !e.EndAt.Before(*e.StartAt))
	bad("ended_at >= started_at", e.StartedAt == nil || e.EndedAt == nil || !e.EndedAt.Before(*e.StartedAt))
	bad("a running activity log has no ended_at", !(e.Kind == KindActivityLog && e.Status == StatusInProgress) || e.EndedAt == nil)
	bad("cancelled <=> cancelled_at", (e.Status == StatusCancelled) == (e.CancelledAt != nil))
	bad("deferred <=> defer_until", (e.Status == StatusDeferred) == (e.DeferUntil != nil))
	bad("completed_at => done or cancelled", e.CompletedAt == nil || e.Status == StatusDone || e.Status == StatusCancelled)
	bad("source <=> source_ref", (e.Source == nil) == (e.SourceRef == nil))
	bad("source is an enum value", e.Source == nil || e.Source.Valid())
	bad("priority 0..3", e.Priority >= 0 && e.Priority <= 3)
	bad("title trimmed", e.Title == strings.TrimSpace(e.Title))
	bad("title required for task and calendar_event", e.Kind == KindActivityLog || e.Title != "")
	for _, f := range checkedTexts(CreateFields) {
		s, ok := f.Text(&e)
		bad(f.Name+" text", !ok || (textOK(s, f.MaxLen, f.Multiline) && s == f.normalise(s) && !(f.Nullable && s == "")))
	}
	for _, f := range tableFields(func(f *Field) bool { return f.Type == TypeTime && f.Nullable }) {
		t := f.Time(&e)
		if t == nil {
			continue
		}
		// the times a PATCH reschedules are the kinds' own
		if f.Reschedule && !HasTimeField(e.Kind, f.Name) {
			p = append(p, f.Name+" is a field of another kind")
		}
		if y := t.UTC().Year(); y < 1 || y > 9999 {
			p = append(p, f.Name+" is outside the years 0001..9999")
		}
		if !t.Equal(t.Truncate(time.Microsecond)) {
			p = append(p, f.Name+" has more than microsecond precision")
		}
	}
	bad("all_day only for a calendar_event", !e.AllDay || e.Kind == KindCalendarEvent)
	if e.AllDay && e.Kind == KindCalendarEvent && e.StartAt != nil {
		s, _ := DayBounds(*e.StartAt, loc)
		bad("an all-day span starts at a local midnight", s.Equal(*e.StartAt))
		bad("an all-day span has an end", e.EndAt != nil)
		if e.EndAt != nil {
			en, _ := DayBounds(*e.EndAt, loc)
			bad("an all-day span ends at a local midnight", en.Equal(*e.EndAt))
			bad("an all-day span is not empty", e.EndAt.After(*e.StartAt))
		}
	}
	return p
}

// textOK: valid UTF-8, at most max characters, no control characters but
// tab (and newline where multiline).
// tableFields are the fields of the field table (EventFields) for which
// keep is true, in its order. The tests read their lists of fields from
// it, so that a field added to the table is tested with no test to edit.
func tableFields(keep func(*Field) bool) []*Field {
	var out []*Field
	for i := range EventFields {
		if f := &EventFields[i]; keep(f) {
			out = append(out, f)
		}
	}
	return out
}

// namesOf are the API names of fs.
func namesOf(fs []*Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

// optOf reports whether the input carries the field f, and as null.
func optOf(in *Input, f *Field) (set, null bool) {
	v := reflect.ValueOf(f.input(in)).Elem()
	return v.FieldByName("Set").Bool(), v.FieldByName("Null").Bool()
}

// optValue is the input's value of the field name.
func optValue[T any](in *Input, name string) Opt[T] {
	return *fieldIndex[name].input(in).(*Opt[T])
}

// checkedTexts are the texts of the field table (models.EventFields) with
// a bound that requests of set may carry.
func checkedTexts(set FieldSet) []*Field {
	return tableFields(func(f *Field) bool { return f.MaxLen > 0 && f.Accepted(set) })
}

func textOK(s string, max int, multiline bool) bool {
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) > max {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) && !(multiline && (r == '\t' || r == '\n')) {
			return false
		}
		if !multiline && IsBidiControl(r) {
			return false
		}
	}
	return true
}

// eventDiff lists the fields of the field table in which got differs from
// want, times compared as instants.
func eventDiff(got, want Event) []string {
	var d []string
	for i := range EventFields {
		f := &EventFields[i]
		switch f.Type {
		case TypeTime:
			if g, w := f.Time(&got), f.Time(&want); !samePtr(g, w) {
				d = append(d, f.Name+" "+fmtPtr(g)+" (want "+fmtPtr(w)+")")
			}
		default:
			if g, w := f.value(&got), f.value(&want); g != w {
				d = append(d, f.Name)
			}
		}
	}
	return d
}

// deref shows an optional value, "<nil>" when absent.
func deref[T ~string](p *T) string {
	if p == nil {
		return "<nil>"
	}
	return "=" + string(*p)
}

func checkEvent(t *testing.T, got, want Event) {
	t.Helper()
	if d := eventDiff(got, want); len(d) > 0 {
		t.Errorf("event differs in %v:\ngot  %+v\nwant %+v", d, got, want)
	}
}
