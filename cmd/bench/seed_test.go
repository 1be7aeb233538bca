// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"events/app"
	"events/internal/dbtest"
	"events/models"
)

func TestMain(m *testing.M) { dbtest.Main(m, app.Migrate) }

// The seed in slices (as ten million are seeded) writes the same events as
// in one statement, and leaves every index and foreign key of the schema
// as the migrations made them.
func TestSeedInSlicesIsTheSeedInOne(t *testing.T) {
	ctx := context.Background()
	const n = 25_010 // one Inbox, overdue and deferred task each, a lifecycle pool of 1,000
	whole, sliced := dbtest.New(t), dbtest.New(t)
	var before []string
	if err := whole.NewRaw(`SELECT pg_get_indexdef(indexrelid) FROM pg_index
		WHERE indrelid IN ('events'::regclass, 'event_history'::regclass) ORDER BY 1`).Scan(ctx, &before); err != nil {
		t.Fatal(err)
	}
	quiet := func(string, ...any) {}
	if _, err := seed(ctx, whole, n, quiet); err != nil {
		t.Fatal(err)
	}
	defer func(c int) { seedChunk = c }(seedChunk)
	seedChunk = 7_000
	if _, err := seed(ctx, sliced, n, quiet); err != nil {
		t.Fatal(err)
	}

	// what does not hang on the moment of the seed: now() moves between
	// the two, and every time with it (the pool's due times are whole
	// minutes after now(): left out)
	const digest = `SELECT count(*), md5(string_agg(concat_ws('|', id, kind, status, title, priority, project_tag, source,
		undo_status, due_at IS NULL, due_at - created_at, end_at - start_at, ended_at - started_at), ',' ORDER BY id))
		FROM events WHERE NOT (id > %d AND id %% 10 = 6)`
	const history = `SELECT count(*), md5(string_agg(concat_ws('|', id, event_id, change_kind, actor, status_before, status_after),
		',' ORDER BY id)) FROM event_history`
	for _, q := range []string{fmt.Sprintf(digest, poolBase(n)), history} {
		var n1, n2 int
		var d1, d2 string
		if err := whole.NewRaw(q).Scan(ctx, &n1, &d1); err != nil {
			t.Fatal(err)
		}
		if err := sliced.NewRaw(q).Scan(ctx, &n2, &d2); err != nil {
			t.Fatal(err)
		}
		if n1 != n2 || d1 != d2 {
			t.Errorf("%s\nin one statement: %d rows %s; in slices: %d rows %s", q, n1, d1, n2, d2)
		}
	}

	var counts struct{ Events, Inbox, Overdue, Deferred, Running, Pool, Deploy, Korean, ForeignKeys int }
	if err := sliced.NewRaw(`SELECT count(*),
			count(*) FILTER (WHERE kind = 'task' AND status = 'planned' AND due_at IS NULL AND start_at IS NULL),
			count(*) FILTER (WHERE kind = 'task' AND status = 'planned' AND due_at < now() - interval '1 day'),
			count(*) FILTER (WHERE status = 'deferred'),
			count(*) FILTER (WHERE status = 'in_progress'),
			count(*) FILTER (WHERE id > ? AND id % 10 = 6 AND status = 'planned'),
			count(*) FILTER (WHERE title LIKE '%deploy%'),
			count(*) FILTER (WHERE title LIKE '%회의록%'),
			(SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid IN ('events'::regclass, 'event_history'::regclass))
		FROM events`, poolBase(n)).Scan(ctx, &counts.Events, &counts.Inbox, &counts.Overdue, &counts.Deferred,
		&counts.Running, &counts.Pool, &counts.Deploy, &counts.Korean, &counts.ForeignKeys); err != nil {
		t.Fatal(err)
	}
	want := struct{ Events, Inbox, Overdue, Deferred, Running, Pool, Deploy, Korean, ForeignKeys int }{n, 1, 1, 1, 1, 1000, (n-7)/500 + 1, (n-257)/500 + 1, 2}
	if counts != want {
		t.Errorf("seeded %+v, want %+v", counts, want)
	}
	// the service's clock in the bench: 18:00 in Seoul on the day before
	// the seed's last moment, which is when the seed ran
	clock, err := seedClock(ctx, sliced)
	if err != nil {
		t.Fatal(err)
	}
	var last time.Time
	if err := sliced.NewRaw("SELECT max(created_at) FROM events").Scan(ctx, &last); err != nil {
		t.Fatal(err)
	}
	seoul, _ := models.LoadZone(app.DefaultZone)
	if l := clock.In(seoul); l.Hour() != 18 || l.Minute() != 0 || last.Sub(clock) < 6*time.Hour || last.Sub(clock) >= 30*time.Hour {
		t.Errorf("the clock starts at %s, for a seed whose last event is of %s", l, last.In(seoul))
	}
	var after []string
	if err := sliced.NewRaw(`SELECT pg_get_indexdef(indexrelid) FROM pg_index
		WHERE indrelid IN ('events'::regclass, 'event_history'::regclass) ORDER BY 1`).Scan(ctx, &after); err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Fatalf("indexes after the seed:\n%v\nbefore:\n%v", after, before)
	}
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("index %d: %s after the seed, %s before", i, after[i], before[i])
		}
	}
}
