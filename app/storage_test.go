// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/uptrace/bun/driver/pgdriver"
)

// TestStorageRulesHeldByDatabase inserts rows straight into the tables,
// around every Go check, and expects the database itself to refuse each
// broken rule.
func TestStorageRulesHeldByDatabase(t *testing.T) {
	t.Parallel()
	_, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	const ok = `INSERT INTO events (kind, status, title, ended_at) VALUES ('activity_log', 'done', 'fine', now())`
	if _, err := db.Exec(ok); err != nil {
		t.Fatalf("a valid row was refused: %v", err)
	}
	cases := []struct {
		name, sql, code, constraint string
	}{
		{"calendar_event without start_at", `INSERT INTO events (kind, status, title) VALUES ('calendar_event', 'planned', 'x')`, "23514", "calendar_event_has_start"},
		{"activity_log without a time", `INSERT INTO events (kind, status, title) VALUES ('activity_log', 'done', 'x')`, "23514", "activity_log_has_a_time"},
		{"cancelled without cancelled_at", `INSERT INTO events (kind, status, title) VALUES ('task', 'cancelled', 'x')`, "23514", "cancelled_iff_cancelled_at"},
		{"cancelled_at while planned", `INSERT INTO events (kind, status, title, cancelled_at) VALUES ('task', 'planned', 'x', now())`, "23514", "cancelled_iff_cancelled_at"},
		{"deferred without defer_until", `INSERT INTO events (kind, status, title) VALUES ('task', 'deferred', 'x')`, "23514", "deferred_iff_defer_until"},
		{"defer_until while planned", `INSERT INTO events (kind, status, title, defer_until) VALUES ('task', 'planned', 'x', now())`, "23514", "deferred_iff_defer_until"},
		{"completed_at while planned", `INSERT INTO events (kind, status, title, completed_at) VALUES ('task', 'planned', 'x', now())`, "23514", "completed_at_when_finished"},
		{"running log with an end", `INSERT INTO events (kind, status, started_at, ended_at) VALUES ('activity_log', 'in_progress', now(), now())`, "23514", "running_log_has_no_end"},
		{"undo status while planned", `INSERT INTO events (kind, status, title, undo_status) VALUES ('task', 'planned', 'x', 'planned')`, "23514", "undo_from_finished"},
		{"end_at before start_at", `INSERT INTO events (kind, status, title, start_at, end_at) VALUES ('calendar_event', 'planned', 'x', now(), now() - interval '1 hour')`, "23514", "end_at_after_start_at"},
		{"ended_at before started_at", `INSERT INTO events (kind, status, started_at, ended_at) VALUES ('activity_log', 'done', now(), now() - interval '1 hour')`, "23514", "ended_at_after_started_at"},
		{"task with ended_at", `INSERT INTO events (kind, status, title, ended_at) VALUES ('task', 'planned', 'x', now())`, "23514", "time_fields_of_kind"},
		{"activity_log with due_at", `INSERT INTO events (kind, status, ended_at, due_at) VALUES ('activity_log', 'done', now(), now())`, "23514", "time_fields_of_kind"},
		{"all-day task", `INSERT INTO events (kind, status, title, all_day) VALUES ('task', 'planned', 'x', true)`, "23514", "time_fields_of_kind"},
		{"task without title", `INSERT INTO events (kind, status, title) VALUES ('task', 'planned', '')`, "23514", "title_required"},
		{"title over 500", `INSERT INTO events (kind, status, title) VALUES ('task', 'planned', repeat('a', 501))`, "23514", "title_length"},
		{"description over 20000", `INSERT INTO events (kind, status, title, description) VALUES ('task', 'planned', 'x', repeat('a', 20001))`, "23514", "description_length"},
		{"priority 4", `INSERT INTO events (kind, status, title, priority) VALUES ('task', 'planned', 'x', 4)`, "23514", "priority_range"},
		{"empty project_tag", `INSERT INTO events (kind, status, title, project_tag) VALUES ('task', 'planned', 'x', '')`, "23514", "project_tag_length"},
		{"source without source_ref", `INSERT INTO events (kind, status, title, source) VALUES ('task', 'planned', 'x', 'email')`, "23514", "source_ref_iff_source"},
		{"source_ref without source", `INSERT INTO events (kind, status, title, source_ref) VALUES ('task', 'planned', 'x', 'r')`, "23514", "source_ref_iff_source"},
		{"control character in title", "INSERT INTO events (kind, status, title) VALUES ('task', 'planned', E'a\\x01b')", "23514", "title_without_controls"},
		{"tab in project_tag", "INSERT INTO events (kind, status, title, project_tag) VALUES ('task', 'planned', 'x', E'a\\tb')", "23514", "project_tag_without_controls"},
		{"bidi override in project_tag", "INSERT INTO events (kind, status, title, project_tag) VALUES ('task', 'planned', 'x', U&'a\\202Eb')", "23514", "project_tag_without_bidi"},
		{"bidi isolate in source_ref", "INSERT INTO events (kind, status, title, source, source_ref) VALUES ('task', 'planned', 'x', 'chat', U&'r\\2066')", "23514", "source_ref_without_bidi"},
		{"unknown kind", `INSERT INTO events (kind, status, title) VALUES ('meeting', 'planned', 'x')`, "22P02", ""},
		{"unknown status", `INSERT INTO events (kind, status, title) VALUES ('task', 'snoozed', 'x')`, "22P02", ""},
		{"unknown source", `INSERT INTO events (kind, status, title, source, source_ref) VALUES ('task', 'planned', 'x', 'fax', 'r')`, "22P02", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := db.Exec(c.sql)
			var pgErr pgdriver.Error
			if !errors.As(err, &pgErr) {
				t.Fatalf("want SQLSTATE %s, got %v", c.code, err)
			}
			if got := pgErr.Field('C'); got != c.code {
				t.Errorf("SQLSTATE = %s, want %s (%v)", got, c.code, err)
			}
			if c.constraint != "" && pgErr.Field('n') != c.constraint {
				t.Errorf("constraint = %q, want %q", pgErr.Field('n'), c.constraint)
			}
		})
	}
}

func TestDedupAndHistoryRulesHeldByDatabase(t *testing.T) {
	t.Parallel()
	_, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	insert := `INSERT INTO events (kind, status, title, source, source_ref) VALUES ('task', 'planned', 'x', 'email', 'msg-1') RETURNING id`
	var id int64
	if err := db.QueryRow(insert).Scan(&id); err != nil {
		t.Fatal(err)
	}
	sqlState := func(err error) (string, string) {
		var pgErr pgdriver.Error
		if !errors.As(err, &pgErr) {
			t.Fatalf("want a PostgreSQL error, got %v", err)
		}
		return pgErr.Field('C'), pgErr.Field('n')
	}
	if code, name := sqlState(db.QueryRow(insert).Scan(&id)); code != "23505" || name != "events_source_ref_key" {
		t.Errorf("second (source, source_ref): %s %s, want 23505 events_source_ref_key", code, name)
	}
	// Events without a source are not deduplicated.
	for i := 0; i < 2; i++ {
		if _, err := db.Exec(`INSERT INTO events (kind, status, title) VALUES ('task', 'planned', 'same')`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO event_history (event_id, change_kind, actor, status_after) VALUES (?, 'create', 'api', 'planned')`, id); err != nil {
		t.Fatal(err)
	}
	if code, _ := sqlState(func() error { _, err := db.Exec(`DELETE FROM events WHERE id = ?`, id); return err }()); code != "23503" {
		t.Errorf("deleting an event with history: %s, want 23503 (ON DELETE RESTRICT)", code)
	}
	_, err := db.Exec(`UPDATE event_history SET actor = 'system'`)
	if err == nil || !strings.Contains(err.Error(), "facts") {
		t.Errorf("updating history: %v, want it refused", err)
	}
	if code, name := sqlState(func() error {
		_, err := db.Exec(`INSERT INTO event_history (event_id, change_kind, actor, status_before, status_after) VALUES (?, 'reactivate', 'api', 'done', 'planned')`, id)
		return err
	}()); code != "23514" || name != "undoes_only_reactivate" {
		t.Errorf("reactivate without undoes: %s %s", code, name)
	}
}

// TestRejectedCreateWritesNothing: a create the database refuses leaves no
// event and no history row behind.
func TestRejectedCreateWritesNothing(t *testing.T) {
	t.Parallel()
	s, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	for _, body := range []string{
		`{"kind":"calendar_event","title":"no start"}`,
		`{"kind":"task","title":"x","completed_at":"2026-11-22T00:00:00Z"}`,
		`{"kind":"task","title":"` + strings.Repeat("a", 501) + `"}`,
		`{"kind":"activity_log","status":"in_progress","ended_at":"2026-11-22T00:00:00Z"}`,
	} {
		if _, err := tryCreate(s, body); err == nil {
			t.Errorf("%.60s: accepted", body)
		}
	}
	if e, h := counts(t, db); e != 0 || h != 0 {
		t.Errorf("after refused creates: %d events, %d history rows; want none", e, h)
	}
}
