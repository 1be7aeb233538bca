// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"events/app"
	"events/internal/dbtest"
	"events/models"
)

// TestRowValuesReadAsColumns: a listing reads each event as one row value
// (app/scan.go); every field must come back as bun reads it column by column
// (Service.Get), whatever the text holds: quotes, backslashes, commas,
// parentheses, white space at either end, newlines and tabs, Hangul, the
// empty string, and NULL beside it.
func TestRowValuesReadAsColumns(t *testing.T) {
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	s, db, _ := newService(t, now)
	ctx := context.Background()
	texts := []string{
		`say "hi"`, `a\b`, `\`, `"`, `""`, `\"`, `(x, y)`, `)`, `,`, `(`, ` leading`, `trailing `,
		"line\nbreak", "a\ttab", `회의록, "정리"`, `NULL`, `null`, `t`, `x`, "",
	}
	for i, text := range texts {
		title := text
		if title == "" {
			title = "-"
		}
		var tag, ref any
		if i%2 == 0 && !strings.ContainsAny(text, "\n\t") { // a tag or a reference holds no control character
			tag, ref = "tag "+text+"x", "ref "+text+"x"
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO events (kind, status, title, description, due_at, priority, project_tag, source, source_ref, created_at, updated_at)
			VALUES ('task', 'planned', ?, ?, ?::timestamptz + ? * interval '1.5 seconds', ? % 4, ?, CASE WHEN ?::text IS NULL THEN NULL ELSE 'email'::event_source END, ?, ?, ?)`,
			title, text, now, i, i, tag, ref, ref, now, now); err != nil {
			t.Fatalf("insert %q: %v", text, err)
		}
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO events (kind, status, title, description, started_at, ended_at, created_at, updated_at)
		VALUES ('activity_log', 'done', '', '', ?, ?, ?, ?)`, now.Add(-time.Hour), now.Add(-time.Minute), now, now); err != nil {
		t.Fatal(err)
	}
	page, err := s.List(ctx, models.ListQuery{Listing: models.ListEvents, Loc: seoul, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != len(texts)+1 {
		t.Fatalf("%d events listed, want %d", len(page.Items), len(texts)+1)
	}
	for _, e := range page.Items {
		want, err := s.Get(ctx, e.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i := range models.EventFields {
			f := &models.EventFields[i]
			var got, w any
			switch f.Type {
			case models.TypeText, models.TypeEnum:
				g1, g2 := f.Text(&e)
				w1, w2 := f.Text(&want)
				got, w = [2]any{g1, g2}, [2]any{w1, w2}
			case models.TypeTime:
				got, w = f.Time(&e), f.Time(&want)
				if gt, wt := got.(*time.Time), w.(*time.Time); gt != nil && wt != nil && gt.Equal(*wt) {
					continue
				}
			case models.TypeBool:
				got, w = f.Bool(&e), f.Bool(&want)
			case models.TypeInt:
				got, w = f.Int(&e), f.Int(&want)
			case models.TypeLabels:
				got, w = f.Labels(&e), f.Labels(&want)
			}
			if !reflect.DeepEqual(got, w) {
				t.Errorf("event %d (%q), %s: listed %#v, read as columns %#v", e.ID, want.Title, f.Name, got, w)
			}
		}
	}
}

// BenchmarkListRows reads 1,000 events through a listing (Service.List)
// and reports the process's CPU a row: the driver's reading of the row
// value and its splitting into an event (PostgreSQL's CPU is its own).
func BenchmarkListRows(b *testing.B) {
	db := dbtest.New(b)
	ctx := context.Background()
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	dbtest.SeedLogs(b, db, 1000, t0)
	s := app.NewService(db, seoul, func() time.Time { return t0 })
	before := dbtest.ProcessCPU()
	for b.Loop() {
		p, err := s.List(ctx, models.ListQuery{Listing: models.ListEvents, Loc: seoul, Limit: 1000})
		if err != nil || len(p.Items) != 1000 {
			b.Fatalf("%d events, %v", len(p.Items), err)
		}
	}
	b.ReportMetric(float64(dbtest.ProcessCPU()-before)/float64(b.N)/1000, "cpu-ns/row")
}
