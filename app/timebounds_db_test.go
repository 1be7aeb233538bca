// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"

	"events/migrations"
	"events/models"
)

// TestTimeBoundsConstraint: the database refuses a time outside the years
// 0001 to 9999 in any time column, from any path (here SQL), and takes
// the edges; a database that already holds such a row still migrates
// (the constraint is NOT VALID), and the row stays readable by the
// listings, which leave it out.
func TestTimeBoundsConstraint(t *testing.T) {
	t.Parallel()
	s, db, _ := newService(t, time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC))
	s.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx := context.Background()
	// the status and kind each column may be set with (the other checks)
	statusOf := map[string]string{"completed_at": "done", "cancelled_at": "cancelled", "defer_until": "deferred"}
	kindOf := map[string]string{"end_at": "calendar_event", "started_at": "activity_log", "ended_at": "activity_log"}
	insert := func(col, value string) error {
		status, kind, extra, extraValue := "planned", "task", "", ""
		if st, ok := statusOf[col]; ok {
			status = st
		}
		if k, ok := kindOf[col]; ok {
			kind = k
			if k == "calendar_event" {
				extra, extraValue = ", start_at", ", '0001-01-01 00:00:00+00'"
			} else {
				status = "done"
			}
		}
		_, err := db.ExecContext(ctx, "INSERT INTO events (kind, status, title, "+col+extra+") VALUES ('"+kind+"', '"+status+"', 'x', "+value+extraValue+")")
		return err
	}
	for _, col := range []string{"due_at", "start_at", "end_at", "started_at", "ended_at", "completed_at", "cancelled_at", "defer_until", "created_at", "updated_at"} {
		for _, v := range []string{"'10000-01-01 00:00:00+00'", "'9999-12-31 23:59:59.9999995+00'", "'0001-12-31 23:59:59.999999+00 BC'", "'0001-01-01 08:59:59+09'"} {
			err := insert(col, v)
			var pgErr pgdriver.Error
			ok := errors.As(err, &pgErr) && pgErr.Field('C') == "23514"
			// an end before the year 1 is before its start too
			ok = ok && (pgErr.Field('n') == col+"_in_years_1_to_9999" || col == "end_at" && pgErr.Field('n') == "end_at_after_start_at")
			if !ok {
				t.Errorf("%s = %s: %v, want the check %s_in_years_1_to_9999", col, v, err, col)
			}
			if ok && models.ConstraintField(pgErr.Field('n')) != col {
				t.Errorf("the check %s names the field %q, want %s", pgErr.Field('n'), models.ConstraintField(pgErr.Field('n')), col)
			}
		}
	}
	for _, v := range []string{"'0001-01-01 00:00:00+00'", "'9999-12-31 23:59:59.999999+00'", "'0001-01-01 09:00:00+09'"} {
		if err := insert("due_at", v); err != nil {
			t.Errorf("due_at = %s: %v", v, err)
		}
	}
	// a database written before the constraint, holding a row beyond it
	down, err := migrations.FS.ReadFile("20261127002300_time_bounds.tx.down.sql")
	if err != nil {
		t.Fatal(err)
	}
	up, err := migrations.FS.ReadFile("20261127002300_time_bounds.tx.up.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, string(down)); err != nil {
		t.Fatal(err)
	}
	if err := insert("due_at", "'10000-01-01 00:00:00+00'"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, string(up)); err != nil {
		t.Fatalf("the migration over a row beyond the bounds: %v", err)
	}
	if err := insert("due_at", "'10000-01-01 00:00:00+00'"); err == nil || !strings.Contains(err.Error(), "due_at_in_years_1_to_9999") {
		t.Errorf("after the migration, a new row beyond the bounds: %v", err)
	}
	if _, err := s.List(ctx, listQuery(t, models.ListEvents, "")); err != nil {
		t.Errorf("a listing with the old row: %v", err)
	}
}
