// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"slices"
	"testing"
)

// TestFormsKeepTheSpecification: each kind's form (derived from the field
// table) holds the fields the specification's form rules name for it, the
// kind's time fields in their order, and no field a form may not edit.
func TestFormsKeepTheSpecification(t *testing.T) {
	t.Parallel()
	every := []string{"title", "description", "priority", "project_tag"}
	times := map[Kind][]string{
		KindTask:          {"due_at", "start_at"},
		KindCalendarEvent: {"start_at", "end_at", "all_day"},
		KindActivityLog:   {"started_at", "ended_at"},
	}
	never := []string{"kind", "status", "completed_at", "cancelled_at", "defer_until", "source", "source_ref", "reactivate_to"}
	for _, k := range Kinds {
		got := namesOf(FormFields(k))
		for _, name := range every {
			if !slices.Contains(got, name) {
				t.Errorf("%s form %v lacks %s", k, got, name)
			}
		}
		var gotTimes []string
		for _, name := range got {
			if fieldIndex[name].Reschedule {
				gotTimes = append(gotTimes, name)
			}
		}
		if !slices.Equal(gotTimes, times[k]) {
			t.Errorf("%s form's times = %v, want %v", k, gotTimes, times[k])
		}
		for _, name := range never {
			if slices.Contains(got, name) {
				t.Errorf("%s form %v shows %s", k, got, name)
			}
		}
		if got[0] != "title" {
			t.Errorf("%s form starts with %s, want title", k, got[0])
		}
	}
	if f := FormFields("meeting"); f != nil {
		t.Errorf("a kind that is none has a form: %v", namesOf(f))
	}
}

// A field of some kinds only (Field.Kinds, .of in the table) is refused
// naming it on another kind (validate, which a PATCH runs too), kept on its
// own kinds; a kind's times are read from the same place.
func TestFieldOfSomeKindsOnly(t *testing.T) {
	i := slices.IndexFunc(EventFields, func(f Field) bool { return f.Name == "priority" })
	saved := EventFields[i]
	EventFields[i] = saved.of(KindTask)
	t.Cleanup(func() { EventFields[i] = saved })

	seoul := mustZone(t, "Asia/Seoul")
	for body, want := range map[string]string{
		`{"kind":"task","title":"t","priority":2}`:                                             "",
		`{"kind":"calendar_event","title":"c","start_at":"2026-11-25T09:00:00Z","priority":2}`: "priority",
		`{"kind":"activity_log","title":"l","priority":1}`:                                     "priority",
		`{"kind":"activity_log","title":"l"}`:                                                  "",
	} {
		in, err := DecodeJSON([]byte(body), CreateFields)
		if err != nil {
			t.Fatal(err)
		}
		_, err = in.NewEvent(now, seoul)
		if got := fieldsOf(err); (want == "" && err != nil) || (want != "" && !slices.Equal(got, []string{want})) {
			t.Errorf("%s: %v, want a refusal naming %q", body, err, want)
		}
	}
	for _, k := range Kinds {
		for j := range EventFields {
			f := &EventFields[j]
			if f.Reschedule && f.ForKind(k) != HasTimeField(k, f.Name) {
				t.Errorf("%s: ForKind(%s) = %v, but kindTimeFields says %v", f.Name, k, f.ForKind(k), HasTimeField(k, f.Name))
			}
		}
	}
}
