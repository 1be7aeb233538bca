// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"events/app"
	"events/internal/dbtest"
	"events/models"
)

// TestThrowAwayFieldReachesAColumn: the recipe for a field (docs/
// contributing.md, Adding a field) holds in a real database. A throw-away
// field added as one line of the table (models.AddThrowAwayField), its
// column added to a scratch database's events as a migration would, is
// read by the listings (the row scanner follows the table) into the
// event's JSON, a null as null, with no other edit. (Writing it through a
// create or a PATCH needs a field of Event, bun's model, which a
// throw-away field has not: models' TestThrowAwayFieldReachesEveryPlace
// proves the requests up to the event.)
func TestThrowAwayFieldReachesAColumn(t *testing.T) {
	remove := models.AddThrowAwayField("scratch_place", "Scratch place", models.KindTask, models.KindCalendarEvent)
	app.RereadTableRow()
	t.Cleanup(func() {
		remove()
		app.RereadTableRow()
	})
	ctx := context.Background()
	db := dbtest.New(t)
	if _, err := db.ExecContext(ctx, "ALTER TABLE events ADD COLUMN scratch_place text"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO events (kind, status, title, scratch_place, zone, created_at, updated_at)
		VALUES ('task', 'planned', 'with', '3층 "회의실"', 'Asia/Seoul', now(), now()),
		       ('task', 'planned', 'without', NULL, 'Asia/Seoul', now(), now())`); err != nil {
		t.Fatal(err)
	}
	seoul, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	svc := app.NewService(db, seoul, time.Now)
	q, err := models.ParseListQuery(models.ListEvents, url.Values{}, seoul)
	if err != nil {
		t.Fatal(err)
	}
	page, err := svc.List(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"with": `"scratch_place":"3층 \"회의실\""`, "without": `"scratch_place":null`}
	if len(page.Items) != len(want) {
		t.Fatalf("%d events listed, want %d", len(page.Items), len(want))
	}
	for _, e := range page.Items {
		if js := string(e.AppendJSON(nil)); !strings.Contains(js, want[e.Title]) {
			t.Errorf("the event %q as listed lacks %s: %s", e.Title, want[e.Title], js)
		}
	}
}
