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
