// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// The deep-undo measurement (issue 16, point 4): complete + reactivate on an
// event with a long history must cost what it costs on a short one.
var (
	deepSteps  = flag.Int("deep-steps", 10_000, "history rows of the deep event of the undo measurement (the shallow one has 10)")
	deepRounds = flag.Int("deep-rounds", 5, "rounds of the undo measurement; the ratio's spread is over rounds")
	deepCycles = flag.Int("deep-cycles", 200, "complete + reactivate cycles on each event in each round of the undo measurement")
)

// deepBlock is how many cycles run on one event before the other gets its
// turn; after each block the event is put back to its seeded history, so the
// shallow event never holds more than 10 + 2*deepBlock rows.
const deepBlock = 25

// deepEvent is one event of the measurement and the history it was made with.
type deepEvent struct {
	id, lastRow int64 // the event; its newest seeded history row
	steps       int
	// per round, one entry per cycle
	complete, reactivate [][]time.Duration
}

// deepStat is the p50 of one kind of request in round r.
type deepStat func(ev *deepEvent, r int) time.Duration

var (
	statComplete   deepStat = func(ev *deepEvent, r int) time.Duration { return p50(ev.complete[r]) }
	statReactivate deepStat = func(ev *deepEvent, r int) time.Duration { return p50(ev.reactivate[r]) }
	// a cycle's two requests, per request
	statCycle deepStat = func(ev *deepEvent, r int) time.Duration {
		both := make([]time.Duration, len(ev.complete[r]))
		for i := range both {
			both[i] = (ev.complete[r][i] + ev.reactivate[r][i]) / 2
		}
		return p50(both)
	}
)

// deepUndo creates two planned tasks, one with 10 history rows and one with
// -deep-steps (a create, a reschedule, then complete/reactivate pairs, as the
// service would have written them), runs complete + reactivate cycles on
// each through the service's API, alternating between the two in blocks, and
// returns a Markdown section with the p50 per request of each and their
// ratio. It removes its events and rows afterwards.
func deepUndo(ctx context.Context, e *env) (string, error) {
	rounds, cycles := max(1, *deepRounds), max(1, *deepCycles)
	say("deep undo: building events of 10 and %d history rows", *deepSteps)
	began := time.Now()
	small, err := deepSeed(ctx, e, 10)
	if err != nil {
		return "", err
	}
	deep, err := deepSeed(ctx, e, max(10, *deepSteps))
	if err != nil {
		return "", err
	}
	defer func() {
		if err := deepRemove(context.WithoutCancel(ctx), e, small.id, deep.id); err != nil {
			say("deep undo: removing its events: %v", err)
		}
	}()
	say("deep undo: built in %s; %d rounds of %d cycles on each", time.Since(began).Round(time.Millisecond), rounds, cycles)

	client := &http.Client{Timeout: 30 * time.Second}
	// a few cycles first, so connections and plans are warm on both
	for _, ev := range []*deepEvent{small, deep} {
		if err := deepCycle(ctx, client, e, ev, 5, -1); err != nil {
			return "", err
		}
		if err := deepReset(ctx, e, ev); err != nil {
			return "", err
		}
	}
	for r := range rounds {
		for _, ev := range []*deepEvent{small, deep} {
			ev.complete = append(ev.complete, nil)
			ev.reactivate = append(ev.reactivate, nil)
		}
		for done := 0; done < cycles; done += deepBlock {
			n := min(deepBlock, cycles-done)
			// alternate which event goes first, so neither always follows a reset
			order := []*deepEvent{small, deep}
			if (done/deepBlock+r)%2 == 1 {
				order = []*deepEvent{deep, small}
			}
			for _, ev := range order {
				if err := deepCycle(ctx, client, e, ev, n, r); err != nil {
					return "", err
				}
				if err := deepReset(ctx, e, ev); err != nil {
					return "", err
				}
			}
		}
		say("deep undo: round %d: p50 complete %.3f ms (%d rows) vs %.3f ms (%d rows), reactivate %.3f vs %.3f ms, per request of a cycle %.3f vs %.3f ms",
			r+1, ms(statComplete(small, r)), small.steps, ms(statComplete(deep, r)), deep.steps,
			ms(statReactivate(small, r)), ms(statReactivate(deep, r)), ms(statCycle(small, r)), ms(statCycle(deep, r)))
	}
	sec := deepReport(small, deep, cycles)
	fmt.Println(sec)
	return sec, nil
}

// deepSeed stores a planned task whose history is a create row, a
// reschedule row and (steps-2)/2 complete/reactivate pairs, each reactivate
// undoing the complete before it, in the past and in order. Every pair
// leaves the undo stack empty, so the rows are what the service writes for
// such a history whatever its version.
func deepSeed(ctx context.Context, e *env, steps int) (*deepEvent, error) {
	pairs := (steps - 2) / 2
	ev := &deepEvent{steps: 2 + 2*pairs}
	err := e.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := tx.NewRaw(`INSERT INTO events (kind, status, title, due_at, priority, created_at, updated_at)
			VALUES ('task', 'planned', ?, date_trunc('second', now()) + interval '30 days', 1,
				date_trunc('second', now()) - interval '30 days', date_trunc('second', now()) - interval '30 days')
			RETURNING id`, fmt.Sprintf("bench deep undo, %d steps", ev.steps)).Scan(ctx, &ev.id); err != nil {
			return err
		}
		// ids reserved in one go, so each reactivate can name its complete
		var first int64
		if err := tx.NewRaw(`SELECT nextval(pg_get_serial_sequence('event_history', 'id'))`).Scan(ctx, &first); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('event_history', 'id'), ?)`, first+int64(ev.steps)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `
INSERT INTO event_history (id, event_id, change_kind, actor, status_before, status_after, changes, undoes, occurred_at)
SELECT h.id, ?0, h.change_kind, h.actor, h.status_before, h.status_after, h.changes, h.undoes, h.occurred_at
FROM (SELECT e.created_at AS t0, e.due_at AS due FROM events e WHERE e.id = ?0) e
CROSS JOIN LATERAL (
    VALUES (?1::bigint, 'create'::history_change_kind, 'api'::event_actor, NULL::event_status, 'planned'::event_status,
            '{}'::jsonb, NULL::bigint, e.t0),
           (?1 + 1, 'reschedule', 'api', 'planned', 'planned',
            jsonb_build_object('due_at', jsonb_build_object(
                'old', to_char((e.due - interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                'new', to_char(e.due AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))),
            NULL, e.t0 + interval '1 second')
    UNION ALL
    SELECT ?1 + 2 * p + k, CASE k WHEN 0 THEN 'complete' ELSE 'reactivate' END::history_change_kind, 'api',
           CASE k WHEN 0 THEN 'planned' ELSE 'done' END::event_status,
           CASE k WHEN 0 THEN 'done' ELSE 'planned' END::event_status,
           jsonb_build_object('completed_at', jsonb_build_object(
               'old', CASE k WHEN 1 THEN to_char(c.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END,
               'new', CASE k WHEN 0 THEN to_char(c.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END)),
           CASE k WHEN 1 THEN ?1 + 2 * p END,
           c.at + k * interval '1 millisecond'
    FROM generate_series(1, ?2::int) p
    CROSS JOIN generate_series(0, 1) k
    CROSS JOIN LATERAL (SELECT e.t0 + p * interval '1 minute' AS at) c
) h(id, change_kind, actor, status_before, status_after, changes, undoes, occurred_at)
ORDER BY h.id`, ev.id, first, pairs)
		if err != nil {
			return err
		}
		return tx.NewRaw(`SELECT max(id) FROM event_history WHERE event_id = ?`, ev.id).Scan(ctx, &ev.lastRow)
	})
	if err != nil {
		return nil, fmt.Errorf("deep undo: seeding %d steps: %w", steps, err)
	}
	_, err = e.db.ExecContext(ctx, "ANALYZE event_history")
	return ev, err
}

// deepCycle runs n complete + reactivate cycles on ev, appending the
// latencies to round r (none when r < 0).
func deepCycle(ctx context.Context, client *http.Client, e *env, ev *deepEvent, n int, r int) error {
	for range n {
		for _, op := range []string{"complete", "reactivate"} {
			req, err := http.NewRequestWithContext(ctx, "POST", fmt.Sprintf("%s/api/events/%d/%s", e.service.Base, ev.id, op), nil)
			if err != nil {
				return err
			}
			t0 := time.Now()
			res, err := client.Do(req)
			if err != nil {
				return fmt.Errorf("deep undo: %s %d: %w", op, ev.id, err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			d := time.Since(t0)
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("deep undo: %s %d: %s %s", op, ev.id, res.Status, strings.TrimSpace(string(body)))
			}
			switch {
			case r < 0:
			case op == "complete":
				ev.complete[r] = append(ev.complete[r], d)
			default:
				ev.reactivate[r] = append(ev.reactivate[r], d)
			}
		}
	}
	return nil
}

// deepReset puts ev back to its seeded history (rewrite): the rows the
// cycles added go, and the task is planned with nothing to undo.
func deepReset(ctx context.Context, e *env, ev *deepEvent) error {
	if err := rewrite(ctx, e,
		fmt.Sprintf("DELETE FROM event_history WHERE event_id = %d AND id > %d", ev.id, ev.lastRow),
		fmt.Sprintf(`UPDATE events SET status = 'planned', completed_at = NULL, undo_status = NULL WHERE id = %d`, ev.id),
	); err != nil {
		return fmt.Errorf("deep undo: reset: %w", err)
	}
	return nil
}

// deepRemove deletes the measurement's events and their history.
func deepRemove(ctx context.Context, e *env, ids ...int64) error {
	var stmts []string
	for _, id := range ids {
		if id != 0 {
			stmts = append(stmts, fmt.Sprintf("DELETE FROM event_history WHERE event_id = %d", id),
				fmt.Sprintf("DELETE FROM events WHERE id = %d", id))
		}
	}
	return rewrite(ctx, e, stmts...)
}

// p50 is the median of ds (0 when empty).
func p50(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// deepReport is the Markdown section: per event and kind of request the
// median over rounds of each round's p50, and the ratio deep/shallow of each
// round's p50s, median and spread.
func deepReport(small, deep *deepEvent, cycles int) string {
	rounds := len(small.complete)
	var b strings.Builder
	fmt.Fprintf(&b, "## Undo on a long history\n\n")
	fmt.Fprintf(&b, "Complete + reactivate cycles through the API on a planned task with %d history rows and on one with %d "+
		"(a create, a reschedule and complete/reactivate pairs written in SQL), one request at a time, alternating between "+
		"the two in blocks of %d cycles, each event put back to its %d or %d rows after its block; %d rounds of %d cycles on each. "+
		"p50: the median over rounds of each round's p50. Ratio: the %d-row p50 over the %d-row p50 of each round, "+
		"median and min–max over rounds.\n\n",
		small.steps, deep.steps, deepBlock, small.steps, deep.steps, rounds, cycles, deep.steps, small.steps)
	fmt.Fprintf(&b, "| request | p50 ms, %d rows | p50 ms, %d rows | ratio | min–max |\n|---|--:|--:|--:|--:|\n", small.steps, deep.steps)
	for _, row := range []struct {
		name string
		f    deepStat
	}{{"`POST .../complete`", statComplete}, {"`POST .../reactivate`", statReactivate}, {"a cycle, per request", statCycle}} {
		ps := func(ev *deepEvent) float64 {
			v := make([]time.Duration, rounds)
			for r := range rounds {
				v[r] = row.f(ev, r)
			}
			return ms(p50(v))
		}
		rs := make([]float64, rounds)
		for r := range rounds {
			rs[r] = float64(row.f(deep, r)) / float64(max(1, row.f(small, r)))
		}
		slices.Sort(rs)
		fmt.Fprintf(&b, "| %s | %.3f | %.3f | %.2f | %.2f–%.2f |\n", row.name, ps(small), ps(deep), rs[rounds/2], rs[0], rs[rounds-1])
	}
	return b.String()
}
