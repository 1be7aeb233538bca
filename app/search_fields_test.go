// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"events/models"
)

// TestSearchedFieldsAreTheIndexed holds the database's search to the field
// table: events_search_text takes, by name, exactly the columns of the
// fields the table searches (models.Field.Searched) and reads each, and
// events_search_idx is over it with all of them, as the service's search
// calls it (app.SearchExpr). A field the table searches that the function
// does not take, or one it takes that the table does not search, fails
// naming the migration to write.
func TestSearchedFieldsAreTheIndexed(t *testing.T) {
	t.Parallel()
	_, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	ctx := context.Background()
	var args, body []string
	if err := db.NewRaw(`SELECT array_to_string(proargnames, ','), prosrc FROM pg_proc WHERE proname = 'events_search_text'`).
		Scan(ctx, &args, &body); err != nil {
		t.Fatal(err)
	}
	if len(args) != 1 {
		t.Fatalf("%d functions events_search_text in the database, want one", len(args))
	}
	inDB := strings.Split(args[0], ",")
	last := lastSearchMigration(t)
	declared := models.SearchColumns()
	for _, c := range declared {
		if !slices.Contains(inDB, c) {
			t.Errorf("%s is searched (models/fields.go, .searched()), but the database's events_search_text(%s) does not take it: write a migration after %s that replaces the function with an argument %s and rebuilds events_search_idx over it",
				c, args[0], last, c)
		}
	}
	for _, c := range inDB {
		if !slices.Contains(declared, c) {
			t.Errorf("the database's events_search_text(%s) takes %s, which models/fields.go does not search: say .searched() on its line, or write a migration after %s that drops it from the function and events_search_idx",
				args[0], c, last)
		}
		if !strings.Contains(body[0], c) {
			t.Errorf("events_search_text takes %s but does not read it (%s): its migration, %s", c, body[0], last)
		}
	}
	var index string
	if err := db.NewRaw(`SELECT pg_get_indexdef('events_search_idx'::regclass)`).Scan(ctx, &index); err != nil {
		t.Fatal(err)
	}
	if want := "events_search_text(" + strings.Join(inDB, ", ") + ") gin_trgm_ops"; !strings.Contains(index, want) {
		t.Errorf("events_search_idx is %s, want it over %s: %s rebuilds it", index, want, last)
	}
}

// lastSearchMigration is the name of the last migration that makes
// events_search_text.
func lastSearchMigration(t *testing.T) string {
	files, err := filepath.Glob("../migrations/*.up.sql")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	last := "none"
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "FUNCTION events_search_text(") {
			last = "migrations/" + filepath.Base(f)
		}
	}
	return last
}
