// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// The seed: ten years ending now, about 270 events a day, written by
// INSERT ... SELECT statements over generate_series (a million events each)
// with the secondary indexes and the foreign keys dropped, then rebuilt,
// then VACUUM (ANALYZE). Beyond a million events it reaches further back
// instead of growing denser (seedShape).
//
// Event g (1..n) is created at now - (n-g) * (ten years / n). Its kind comes
// from g mod 10: 0-5 an activity log (60%), 6-8 a task (30%), 9 a calendar
// entry (10%). A task is due, and a calendar entry starts, up to 30 days
// after it was created, so the newest ones lie ahead (Upcoming). What is past
// is done, or now and then cancelled. The special rows, each a task (k is
// n/1M, at least 1, so there are as many at ten million as at one):
//
//	g mod 25000k = 6     undated open task (the Inbox)
//	g mod 25000k = 16    overdue open task
//	g mod 25000k = 26    deferred task (a third of them due back already)
//	g mod 250000k = 36   task in progress
//	g > poolBase, g mod 10 = 6   the lifecycle pool: planned, due one every 9 hours from now on
//
// "deploy" starts the title of event g mod 500k = 7 and "회의록" that of
// g mod 500k = 250k+7 (the search scenarios), and every 37th event has an
// external source. History: a create row for
// every event, a reschedule for every fifth task or calendar entry, and the
// complete, cancel or defer that led to its status.

// poolSize is the number of events the lifecycle scenario works over.
func poolSize(n int) int { return min(1000, n/10) }

// poolBase is the id after which every id = 6 mod 10 is in the pool:
// base + 6 + 10k for k in [0, poolSize).
func poolBase(n int) int { return n - 10*poolSize(n) }

const seedEvents = `
INSERT INTO events (id, kind, status, title, description, start_at, end_at, all_day, due_at,
    started_at, ended_at, priority, project_tag, completed_at, cancelled_at, defer_until,
    source, source_ref, undo_status, created_at, updated_at, zone)
SELECT g, kind, status, title, '', start_at, end_at, false, due_at,
    started_at, ended_at, priority, project_tag, completed_at, cancelled_at, defer_until,
    source, source_ref, undo_status, created_at,
    greatest(created_at, completed_at, cancelled_at, least(created_at + interval '1 hour', now())),
    'Asia/Seoul' -- the service's zone (EVENTS_TIMEZONE's default): a seed as the service writes it
FROM (
    SELECT g, kind, status, title, priority, project_tag, source, source_ref, created_at,
        CASE WHEN kind = 'calendar_event' THEN at END AS start_at,
        CASE WHEN kind = 'calendar_event' AND g % 3 <> 0 THEN at + interval '1 hour' END AS end_at,
        CASE WHEN kind = 'task' AND role <> 'inbox' THEN at END AS due_at,
        CASE WHEN kind = 'activity_log' AND g % 4 <> 0 THEN at - (5 + r2 * 115) * interval '1 minute' END AS started_at,
        CASE WHEN kind = 'activity_log' THEN at END AS ended_at,
        CASE WHEN status = 'done' AND kind <> 'activity_log' THEN least(at + r3 * interval '2 days', now()) END AS completed_at,
        CASE WHEN status = 'cancelled' THEN least(at + r3 * interval '2 days', now()) END AS cancelled_at,
        CASE WHEN status = 'deferred' THEN date_trunc('hour', now()) + ((g / {special}) % 12 - 4) * interval '1 day' + interval '30 minutes' END AS defer_until,
        CASE WHEN status IN ('done', 'cancelled', 'deferred') AND NOT (kind = 'activity_log' AND status = 'done')
             THEN (CASE WHEN kind = 'activity_log' THEN 'done' ELSE 'planned' END)::event_status END AS undo_status
    FROM (
        SELECT g, kind, role, at, r2, r3, created_at,
            (CASE
                WHEN role = 'pool' OR role = 'inbox' OR role = 'overdue' THEN 'planned'
                WHEN role = 'deferred' THEN 'deferred'
                WHEN role = 'running' THEN 'in_progress'
                WHEN kind = 'activity_log' THEN CASE WHEN r1 < 0.02 THEN 'cancelled' ELSE 'done' END
                WHEN at >= now() THEN CASE WHEN kind = 'calendar_event' AND r1 < 0.1 THEN 'tentative' ELSE 'planned' END
                WHEN r1 < 0.06 THEN 'cancelled'
                ELSE 'done' END)::event_status AS status,
            CASE kind WHEN 'task' THEN 'Task ' WHEN 'calendar_event' THEN 'Meeting ' ELSE 'Worked on ' END
                || CASE WHEN g % {word} = 7 THEN 'deploy ' WHEN g % {word} = {word2} THEN '회의록 ' ELSE '' END
                || (ARRAY['plan', 'notes', 'review', 'email', '정리', '준비', '점검', '보고'])[g % 8 + 1] || ' ' || g AS title,
            (g % 4)::smallint AS priority,
            (ARRAY['home', 'work', 'health'])[g % 7 + 1] AS project_tag,
            CASE WHEN g % 37 = 0 THEN (ARRAY['calendar', 'issue_tracker', 'email', 'chat', 'shell', 'import', 'other'])[(g / 37) % 7 + 1]::event_source END AS source,
            CASE WHEN g % 37 = 0 THEN 'bench-' || g END AS source_ref
        FROM (
            SELECT g, kind, role, r1, r2, r3, created_at,
                CASE
                    WHEN kind = 'activity_log' THEN created_at
                    WHEN role = 'pool' THEN date_trunc('minute', now()) + interval '1 hour' + (g / 10 % 1000) * interval '9 hours'
                    WHEN role = 'overdue' THEN least(created_at, now() - (1 + g % 30) * interval '1 day')
                    ELSE created_at + r2 * interval '30 days' END AS at
            FROM (
                SELECT g, r1, r2, r3,
                    now() - ({n} - g) * (interval '{days} days' / {n}) AS created_at,
                    (CASE WHEN g % 10 < 6 THEN 'activity_log' WHEN g % 10 < 9 THEN 'task' ELSE 'calendar_event' END)::event_kind AS kind,
                    CASE
                        WHEN g > {base} AND g % 10 = 6 THEN 'pool'
                        WHEN g % {special} = 6 THEN 'inbox'
                        WHEN g % {special} = 16 THEN 'overdue'
                        WHEN g % {special} = 26 THEN 'deferred'
                        WHEN g % {running} = 36 THEN 'running'
                        ELSE '' END AS role
                FROM (SELECT g, random() AS r1, random() AS r2, random() AS r3 FROM generate_series({lo}, {hi}) g) s
            ) k
        ) t
    ) st
) e`

const seedHistory = `
INSERT INTO event_history (event_id, change_kind, actor, status_before, status_after, changes, occurred_at)
SELECT e.id, h.change_kind, h.actor, h.status_before, h.status_after, h.changes, h.occurred_at
FROM (
    SELECT e.*,
        CASE WHEN e.kind = 'activity_log' THEN 'done'
             WHEN e.status IN ('tentative', 'in_progress') THEN e.status
             ELSE 'planned' END::event_status AS created_as,
        CASE WHEN e.kind = 'task' THEN 'due_at' ELSE 'start_at' END AS moved
    FROM events e
    WHERE e.id BETWEEN {lo} AND {hi}
) e
CROSS JOIN LATERAL (VALUES
    (1, 'create'::history_change_kind,
        (CASE WHEN e.source IS NOT NULL THEN 'import' ELSE 'api' END)::event_actor,
        NULL::event_status, e.created_as, '{}'::jsonb, e.created_at),
    (2, 'reschedule', 'user', e.created_as, e.created_as,
        jsonb_build_object(e.moved, jsonb_build_object(
            'old', to_char((coalesce(e.due_at, e.start_at) - interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
            'new', to_char(coalesce(e.due_at, e.start_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))),
        least(e.created_at + interval '1 minute', now())),
    (3, CASE e.status WHEN 'done' THEN 'complete' WHEN 'cancelled' THEN 'cancel' ELSE 'defer' END::history_change_kind,
        'user', e.created_as, e.status,
        jsonb_build_object(
            CASE e.status WHEN 'done' THEN 'completed_at' WHEN 'cancelled' THEN 'cancelled_at' ELSE 'defer_until' END,
            jsonb_build_object('old', NULL, 'new', to_char(coalesce(e.completed_at, e.cancelled_at, e.defer_until) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))),
        coalesce(e.completed_at, e.cancelled_at, least(e.created_at + interval '2 minutes', now())))
) h(n, change_kind, actor, status_before, status_after, changes, occurred_at)
WHERE h.n = 1
   OR (h.n = 2 AND e.kind <> 'activity_log' AND e.id % 5 = 0 AND coalesce(e.due_at, e.start_at) IS NOT NULL)
   OR (h.n = 3 AND e.undo_status IS NOT NULL)
ORDER BY e.id, h.n`

// dropped is what the seed drops before the load and builds again after.
type dropped struct{ indexes, constraints []string }

// seedChunk is the number of events one INSERT writes: the events and
// their history go in slices of a million, so a seed of ten million says how
// far it is and sorts a million events' history at a time.
var seedChunk = 1_000_000

// seedShape is what changes with the size of the seed. Up to a million it is
// the shape described above. Beyond, what a person has now stays as it is at
// a million and the rest reaches further back: the history spans n/1M times
// ten years (about 270 events a day whatever n), the Inbox, overdue, deferred
// and running rows keep their number, and so do the titles with the search
// words. So every listing answers what it answers at a million, and a bigger
// seed measures only what the older rows cost (the cliff line).
type seedShape struct {
	days    int // the span of the history
	special int // the period of the Inbox, overdue and deferred rows
	running int // the period of the tasks in progress
	word    int // the period of the titles with "deploy" (at 7) and "회의록" (at word/2+7)
}

func shapeOf(n int) seedShape {
	k := max(1, n/1_000_000)
	return seedShape{days: max(3652, int(int64(3652)*int64(n)/1_000_000)), special: 25000 * k, running: 250000 * k, word: 500 * k}
}

// seed fills an empty, migrated database with n events and their history.
func seed(ctx context.Context, db *bun.DB, n int, say func(string, ...any)) (time.Duration, error) {
	return seedWith(ctx, db, n, say, nil)
}

// seedWith is seed; onConn, when not nil, is called with the backend pid of
// each connection the seed works on (the cliff seed lets them use every CPU).
func seedWith(ctx context.Context, db *bun.DB, n int, say func(string, ...any), onConn func(pid int)) (time.Duration, error) {
	began := time.Now()
	// two connections: the load runs on the first; the indexes are built on
	// both at once, the longest first (a GIN or GiST build takes one CPU)
	var conns [2]bun.Conn
	for i := range conns {
		conn, err := db.Conn(ctx)
		if err != nil {
			return 0, err
		}
		defer conn.Close()
		for _, q := range []string{
			"SET synchronous_commit = off",
			"SET maintenance_work_mem = '1GB'",
			"SET work_mem = '256MB'",
		} {
			if _, err := conn.ExecContext(ctx, q); err != nil {
				return 0, err
			}
		}
		if onConn != nil {
			var pid int
			if err := conn.NewRaw("SELECT pg_backend_pid()").Scan(ctx, &pid); err != nil {
				return 0, err
			}
			onConn(pid)
		}
		conns[i] = conn
	}
	conn := conns[0]
	execOn := func(conn bun.Conn, query string) error {
		_, err := conn.ExecContext(ctx, query)
		if err != nil {
			return fmt.Errorf("seed: %w\n%s", err, query)
		}
		return nil
	}
	exec := func(query string) error { return execOn(conn, query) }
	var d dropped
	if err := conn.NewRaw(`SELECT c.conrelid::regclass || ' ADD CONSTRAINT ' || quote_ident(c.conname) || ' ' || pg_get_constraintdef(c.oid)
		FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid IN ('events'::regclass, 'event_history'::regclass)`).
		Scan(ctx, &d.constraints); err != nil {
		return 0, err
	}
	// the GIN and GiST builds first: they take longest
	if err := conn.NewRaw(`SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i
		JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
		WHERE i.indrelid IN ('events'::regclass, 'event_history'::regclass) AND NOT i.indisprimary
		ORDER BY a.amname = 'btree', c.relname`).
		Scan(ctx, &d.indexes); err != nil {
		return 0, err
	}
	for _, q := range []string{
		"SELECT setseed(0.2026)",
		`DO $$ DECLARE r record; BEGIN
			FOR r IN SELECT conrelid::regclass AS t, conname FROM pg_constraint
				WHERE contype = 'f' AND conrelid IN ('events'::regclass, 'event_history'::regclass) LOOP
				EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', r.t, r.conname);
			END LOOP;
			FOR r IN SELECT indexrelid::regclass AS i FROM pg_index
				WHERE indrelid IN ('events'::regclass, 'event_history'::regclass) AND NOT indisprimary LOOP
				EXECUTE format('DROP INDEX %s', r.i);
			END LOOP; END $$`,
	} {
		if err := exec(q); err != nil {
			return 0, err
		}
	}
	sh := shapeOf(n)
	fill := func(query string, lo, hi int) string {
		return strings.NewReplacer("{n}", strconv.Itoa(n), "{base}", strconv.Itoa(poolBase(n)),
			"{lo}", strconv.Itoa(lo), "{hi}", strconv.Itoa(hi), "{days}", strconv.Itoa(sh.days),
			"{special}", strconv.Itoa(sh.special), "{running}", strconv.Itoa(sh.running),
			"{word}", strconv.Itoa(sh.word), "{word2}", strconv.Itoa(sh.word/2+7)).Replace(query)
	}
	// The events of all slices in one transaction, so that now() is the same
	// for every slice.
	for _, what := range []struct{ name, query string }{{"events", seedEvents}, {"history", seedHistory}} {
		step := time.Now()
		if what.name == "history" {
			// the history reads the events a slice at a time: by their
			// primary key, once the planner knows how many there are
			if err := exec("ANALYZE events"); err != nil {
				return 0, err
			}
		}
		if err := exec("BEGIN"); err != nil {
			return 0, err
		}
		for lo := 1; lo <= n; lo += seedChunk {
			hi := min(n, lo+seedChunk-1)
			if err := exec(fill(what.query, lo, hi)); err != nil {
				_ = exec("ROLLBACK")
				return 0, err
			}
			if n > seedChunk {
				say("seed: %s of %d of %d events (%s)", what.name, hi, n, time.Since(step).Round(time.Second))
			}
		}
		if err := exec("COMMIT"); err != nil {
			return 0, err
		}
		say("seed: %s of %d events in %s", what.name, n, time.Since(step).Round(100*time.Millisecond))
	}
	step := time.Now()
	if err := inParallel(ctx, conns[:], d.indexes, execOn); err != nil {
		return 0, err
	}
	for _, c := range d.constraints {
		if err := exec("ALTER TABLE " + c); err != nil {
			return 0, err
		}
	}
	say("seed: %d indexes and %d foreign keys rebuilt in %s", len(d.indexes), len(d.constraints), time.Since(step).Round(100*time.Millisecond))
	step = time.Now()
	for _, q := range []string{
		"SELECT setval(pg_get_serial_sequence('events', 'id'), (SELECT max(id) FROM events))",
		"SELECT setval(pg_get_serial_sequence('event_history', 'id'), (SELECT max(id) FROM event_history))",
	} {
		if err := exec(q); err != nil {
			return 0, err
		}
	}
	if err := inParallel(ctx, conns[:], []string{"VACUUM (ANALYZE) event_history", "VACUUM (ANALYZE) events"}, execOn); err != nil {
		return 0, err
	}
	say("seed: vacuum and analyze in %s", time.Since(step).Round(100*time.Millisecond))
	for _, q := range []string{
		"CREATE TABLE bench_seed (events int NOT NULL)",
		fmt.Sprintf("INSERT INTO bench_seed VALUES (%d)", n),
	} {
		if err := exec(q); err != nil {
			return 0, err
		}
	}
	return time.Since(began), nil
}

// inParallel runs the statements in order, each on the first of the
// connections that is free; the first error stops the rest.
func inParallel(ctx context.Context, conns []bun.Conn, stmts []string, run func(bun.Conn, string) error) error {
	work := make(chan string)
	errs := make(chan error, len(conns))
	for _, c := range conns {
		go func() {
			var err error
			for q := range work {
				if err == nil && ctx.Err() == nil {
					err = run(c, q)
				}
			}
			errs <- err
		}()
	}
	for _, q := range stmts {
		work <- q
	}
	close(work)
	var first error
	for range conns {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first == nil {
		first = ctx.Err()
	}
	return first
}
