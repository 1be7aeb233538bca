// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"events/app"
	"events/internal/dbtest"
)

// TestStartGivesOldEventsTheZone: an event stored before zones were (zone
// null) is given EVENTS_TIMEZONE when the service starts, and answers its
// dates in it; the start says how many it gave it.
func TestStartGivesOldEventsTheZone(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewURL(t)
	db, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var id int64
	// Berlin's midnights of 2026-11-25 and 2026-11-26: one all-day day there
	if err := db.QueryRowContext(context.Background(), `INSERT INTO events (kind, status, title, description, start_at, end_at, all_day)
		VALUES ('calendar_event', 'planned', 'Old trip', '', '2026-11-24T23:00:00Z', '2026-11-25T23:00:00Z', true) RETURNING id`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	s := start(t, "DATABASE_URL="+dsn, "EVENTS_TIMEZONE=Europe/Berlin", "EVENTS_DATA_DIR="+filepath.Join(dataDir(t), "unused"))
	code, body := get(t, s.base+"/api/events/"+strconv.FormatInt(id, 10))
	var got map[string]any
	if err := json.Unmarshal([]byte(body), &got); code != 200 || err != nil {
		t.Fatalf("GET: %d %s (%v)", code, body, err)
	}
	for k, want := range map[string]any{"zone": "Europe/Berlin", "start_date": "2026-11-25", "end_date": "2026-11-25", "due_date": nil} {
		if got[k] != want {
			t.Errorf("GET: %s is %v, want %v (%s)", k, got[k], want, body)
		}
	}
	if logs := s.Logs(); !strings.Contains(logs, "events stored without a zone are given EVENTS_TIMEZONE") || !strings.Contains(logs, "events=1") {
		t.Errorf("the start does not say it gave one event the zone:\n%s", logs)
	}
}
