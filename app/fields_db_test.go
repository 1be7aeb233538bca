// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"

	"events/models"
)

// TestFieldConstraintsInDatabase holds the migrated database to the field
// table (models.EventFields): the CHECK constraints of events are exactly
// those its fields declare, each declared once (so a refusal names one
// field), and each field's bounds, as the table gives them, are refused by
// the database itself, naming that field.
func TestFieldConstraintsInDatabase(t *testing.T) {
	t.Parallel()
	_, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	ctx := context.Background()

	var inDB []string
	if err := db.NewRaw(`SELECT conname FROM pg_constraint
		WHERE conrelid = 'events'::regclass AND contype = 'c' ORDER BY conname`).Scan(ctx, &inDB); err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, f := range models.EventFields {
		declared = append(declared, f.Constraints...)
	}
	sort.Strings(declared)
	if !slices.Equal(declared, slices.Compact(slices.Clone(declared))) {
		t.Errorf("a constraint is declared by two fields: %v", declared)
	}
	if !slices.Equal(inDB, declared) {
		t.Errorf("CHECK constraints of events:\n database %v\n declared %v", inDB, declared)
	}

	var id int64
	if err := db.NewRaw(`INSERT INTO events (kind, status, title, source, source_ref)
		VALUES ('task', 'planned', 'x', 'chat', 'r') RETURNING id`).Scan(ctx, &id); err != nil {
		t.Fatal(err)
	}
	set := func(f *models.Field, v any) (refusedFor string, err error) {
		_, err = db.NewRaw("UPDATE events SET ? = ? WHERE id = ?", bun.Ident(f.Column), v, id).Exec(ctx)
		var pgErr pgdriver.Error
		if errors.As(err, &pgErr) && pgErr.Field('C') == "23514" {
			return models.ConstraintField(pgErr.Field('n')), nil
		}
		return "", err
	}
	for i := range models.EventFields {
		f := &models.EventFields[i]
		type try struct {
			what   string
			v      any
			refuse bool
		}
		var tries []try
		switch {
		case f.MaxLen > 0:
			tries = []try{
				{"the longest text", strings.Repeat("é", f.MaxLen), false},
				{"one character too many", strings.Repeat("é", f.MaxLen+1), true},
				{"a tab", "a\tb", !f.Multiline},
				{"a newline", "a\nb", !f.Multiline},
				{"a control character", "a\x01b", true},
				{"a bidirectional override", "a\u202eb", !f.Multiline},
			}
			if f.Prefix != "" {
				tries = append(tries, try{"its leading marker", f.Prefix + "x", true})
			}
			if f.Nullable {
				// null says "none": an empty text is never stored
				tries = append(tries, try{"an empty text", "", true})
			}
		case f.Type == models.TypeInt && f.Max > f.Min:
			tries = []try{{"the least", f.Min, false}, {"the most", f.Max, false},
				{"one below", f.Min - 1, true}, {"one above", f.Max + 1, true}}
		}
		for _, c := range tries {
			got, err := set(f, c.v)
			switch {
			case err != nil:
				t.Errorf("%s, %s: %v", f.Name, c.what, err)
			case c.refuse && got != f.Name:
				t.Errorf("%s, %s: the database's refusal names %q, want %q", f.Name, c.what, got, f.Name)
			case !c.refuse && got != "":
				t.Errorf("%s, %s: refused by the database (naming %q), the table accepts it", f.Name, c.what, got)
			}
		}
	}
}

// TestStoredProjectTagsLoseTheirHash: the migration that makes the database
// refuse a leading "#" first writes the tags stored with one as the API
// now stores them, and moves their updated_at (their ETag) on.
func TestStoredProjectTagsLoseTheirHash(t *testing.T) {
	t.Parallel()
	_, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	ctx := context.Background()
	const migration = "20261127001600_project_tag_without_hash.tx"
	runMigration(t, db, migration+".down.sql")
	str := func(s string) *string { return &s }
	stored := map[string]*string{"#work": str("work"), "# #home": str("home"), "#": nil, "plain": str("plain"), "a#b": str("a#b")}
	ids := map[string]int64{}
	for tag := range stored {
		var id int64
		if err := db.NewRaw(`INSERT INTO events (kind, status, title, project_tag, updated_at)
			VALUES ('task', 'planned', 'x', ?, '2026-11-20T00:00:00Z') RETURNING id`, tag).Scan(ctx, &id); err != nil {
			t.Fatal(err)
		}
		ids[tag] = id
	}
	runMigration(t, db, migration+".up.sql")
	for tag, want := range stored {
		var row struct {
			Tag     *string   `bun:"project_tag"`
			Updated time.Time `bun:"updated_at"`
		}
		if err := db.NewRaw("SELECT project_tag, updated_at FROM events WHERE id = ?", ids[tag]).Scan(ctx, &row); err != nil {
			t.Fatal(err)
		}
		if show(row.Tag) != show(want) {
			t.Errorf("%q became %s, want %s", tag, show(row.Tag), show(want))
		}
		if moved := !row.Updated.Equal(ts("2026-11-20T00:00:00Z")); moved != strings.HasPrefix(tag, "#") {
			t.Errorf("%q: updated_at %s, moved %v", tag, row.Updated, moved)
		}
	}
}

func show(p *string) string {
	if p == nil {
		return "null"
	}
	return strconv.Quote(*p)
}
