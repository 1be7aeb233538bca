// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"regexp"
	"slices"
	"sort"
	"testing"

	"events/models"
)

// TestStatusListsOfTheDatabase holds the status lists the migrations must
// write out literally (an index predicate, CHECK constraints) to the sets
// models defines.
func TestStatusListsOfTheDatabase(t *testing.T) {
	t.Parallel()
	_, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	ctx := context.Background()
	statuses := func(in func(models.Status) bool) []string {
		var out []string
		for _, s := range models.Statuses {
			if in(s) {
				out = append(out, string(s))
			}
		}
		sort.Strings(out)
		return out
	}
	literal := regexp.MustCompile(`'([a-z_]+)'::event_status`)
	listed := func(def string) []string {
		var out []string
		for _, m := range literal.FindAllStringSubmatch(def, -1) {
			out = append(out, m[1])
		}
		sort.Strings(out)
		return out
	}
	cases := []struct {
		name, sql string
		want      []string
	}{
		{"events_active_idx: active", `SELECT pg_get_expr(indpred, indrelid) FROM pg_index WHERE indexrelid = 'events_active_idx'::regclass`,
			statuses(models.Status.Active)},
		{"completed_at_when_finished: not active", `SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'completed_at_when_finished'`,
			statuses(func(s models.Status) bool { return !s.Active() })},
		{"undo_from_finished: not open", `SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'undo_from_finished'`,
			statuses(func(s models.Status) bool { return !s.Open() })},
	}
	for _, c := range cases {
		var def string
		if err := db.NewRaw(c.sql).Scan(ctx, &def); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := listed(def); !slices.Equal(got, c.want) {
			t.Errorf("%s: the database lists %v (%s), models %v", c.name, got, def, c.want)
		}
	}
}
