// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"events/app"
	"events/models"
)

// OverlapsOf derives what stored logs overlap from their times at read
// time (issue 55, point 6): both ways round, a running log up to now,
// never a cancelled log or the log itself, and the place before them only
// when it is free.
func TestOverlapsOfStoredLogs(t *testing.T) {
	t.Parallel()
	now := ts("2026-11-22T03:00:00Z") // 12:00 in Seoul
	s, _, clk := newService(t, now)
	ctx := context.Background()
	timer := create(t, s, `{"kind":"activity_log","title":"deep work","status":"in_progress","started_at":"2026-11-22T09:00:00+09:00"}`)
	standup := create(t, s, `{"kind":"activity_log","title":"standup","started_at":"2026-11-22T10:00:00+09:00","ended_at":"2026-11-22T10:15:00+09:00"}`)
	late := create(t, s, `{"kind":"activity_log","title":"late","started_at":"2026-11-22T11:30:00+09:00","ended_at":"2026-11-22T12:30:00+09:00"}`)
	gym := create(t, s, `{"kind":"activity_log","title":"gym","started_at":"2026-11-22T07:00:00+09:00","ended_at":"2026-11-22T08:00:00+09:00"}`)
	// early overlaps gym; the place before gym (6:20-7:00) is free
	early := create(t, s, `{"kind":"activity_log","title":"early","started_at":"2026-11-22T07:40:00+09:00","ended_at":"2026-11-22T08:20:00+09:00"}`)
	// blocked overlaps late; the place before late is taken by the timer
	blocked := create(t, s, `{"kind":"activity_log","title":"blocked","started_at":"2026-11-22T12:00:00+09:00","ended_at":"2026-11-22T12:40:00+09:00"}`)
	gone := create(t, s, `{"kind":"activity_log","title":"gone","started_at":"2026-11-22T10:00:00+09:00","ended_at":"2026-11-22T10:10:00+09:00"}`)
	mustOperate(t, s, gone.ID, models.OpCancel, "")
	task := create(t, s, `{"kind":"task","title":"a task","due_at":"2026-11-22T10:00:00+09:00"}`)

	got, err := s.OverlapsOf(ctx, []models.Event{timer, standup, late, gym, early, blocked, task})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(o app.Overlapping) (out []int64) {
		for _, x := range o.Overlaps {
			out = append(out, x.ID)
		}
		return out
	}
	for _, c := range []struct {
		name   string
		id     int64
		want   []int64
		before string // the place before them, "" for none
	}{
		// the running log up to now (12:00): late from 11:30 and blocked from 12:00 not at all
		{"timer", timer.ID, []int64{standup.ID, late.ID}, ""},
		{"standup", standup.ID, []int64{timer.ID}, "2026-11-21T23:45:00Z"},
		// before the timer (8:00-9:00) early's end is in the way
		{"late", late.ID, []int64{timer.ID, blocked.ID}, ""},
		// before early (6:40-7:40): the log's own span is no obstacle
		{"gym", gym.ID, []int64{early.ID}, "2026-11-21T21:40:00Z"},
		{"early", early.ID, []int64{gym.ID}, "2026-11-21T21:20:00Z"},
		{"blocked", blocked.ID, []int64{late.ID}, ""},
	} {
		o, ok := got[c.id]
		if !ok || !slices.Equal(ids(o), c.want) {
			t.Errorf("%s overlaps %v, want %v", c.name, ids(o), c.want)
			continue
		}
		switch {
		case c.before == "" && o.Before != nil:
			t.Errorf("%s: a place before is offered, %v, where none is free", c.name, o.Before)
		case c.before != "" && (o.Before == nil || !o.Before.Start.Equal(ts(c.before))):
			t.Errorf("%s: place before = %v, want from %s", c.name, o.Before, c.before)
		}
	}
	if _, ok := got[task.ID]; ok {
		t.Errorf("a task is said to overlap")
	}
	if o := got[standup.ID].Overlaps[0]; o.Seconds != 900 || o.Title != "deep work" {
		t.Errorf("standup's overlap = %+v, want deep work by 900 s", o)
	}
	// as time goes by, the running log comes to overlap blocked
	clk.Add(20 * time.Minute)
	got, err = s.OverlapsOf(ctx, []models.Event{timer})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{standup.ID, late.ID, blocked.ID}; !slices.Equal(ids(got[timer.ID]), want) {
		t.Errorf("at 12:20 the timer overlaps %v, want %v", ids(got[timer.ID]), want)
	}
}

// A page's overlaps read from one scan of its window are what a probe of
// each log's span reads: random days of logs (overlapping piles, one log
// over all of them, running logs, logs in the future, cancelled ones,
// instants, sub-second edges) with the clock inside them, read both ways.
func TestOverlapsFromTheWindowAreTheProbes(t *testing.T) {
	t.Parallel()
	base := ts("2026-11-20T00:00:00Z")
	_, db, clk := newService(t, base)
	log := &queryLog{}
	s := app.NewService(db.WithQueryHook(log), seoul, clk.Now)
	each := app.NewService(db, seoul, clk.Now)
	app.ProbeEachOverlap(each)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(55, 6))
	for round := range 6 {
		base := base.AddDate(0, 0, 30*round) // a month apart: each round reads its own logs
		n := 40 + rng.IntN(80)
		for i := range n {
			start := base.Add(time.Duration(rng.Int64N(int64(72 * time.Hour)))).Truncate(time.Microsecond)
			if rng.IntN(4) == 0 {
				start = start.Truncate(time.Minute) // shared edges
			}
			length := time.Duration(rng.Int64N(int64(3 * time.Hour)))
			switch rng.IntN(10) {
			case 0:
				length = time.Duration(rng.Int64N(int64(2 * time.Second))) // under a second
			case 1:
				length = 0
			}
			end := start.Add(length).Truncate(time.Microsecond)
			status, ended := "done", &end
			switch rng.IntN(8) {
			case 0:
				status, ended = "in_progress", nil
			case 1:
				status = "cancelled"
			}
			if _, err := db.ExecContext(ctx, `INSERT INTO events (kind, status, title, started_at, ended_at, cancelled_at)
				VALUES ('activity_log', ?, ?, ?, ?, CASE WHEN ? = 'cancelled' THEN ?::timestamptz END)`,
				status, "log "+strconv.Itoa(i), start, ended, status, end); err != nil {
				t.Fatal(err)
			}
		}
		// one log over the whole pile: it overlaps more than a page names
		if _, err := db.ExecContext(ctx, `INSERT INTO events (kind, status, title, started_at, ended_at)
			VALUES ('activity_log', 'done', 'all of it', ?, ?)`, base.Add(-time.Hour), base.Add(73*time.Hour)); err != nil {
			t.Fatal(err)
		}
		clk.Set(base.Add(time.Duration(rng.Int64N(int64(80 * time.Hour)))).Add(time.Duration(rng.IntN(1000))))
		page, err := s.List(ctx, listQuery(t, models.ListEvents, "kind=activity_log&limit=1000&from="+
			models.FormatTime(base.Add(-2*time.Hour))+"&to="+models.FormatTime(base.Add(80*time.Hour))))
		if err != nil {
			t.Fatal(err)
		}
		window, err := s.OverlapsOf(ctx, page.Items)
		if err != nil {
			t.Fatal(err)
		}
		if q := log.last(); strings.Contains(q, "unnest") {
			t.Fatalf("round %d: the page's overlaps were probed, not read from its window:\n%s", round, q)
		}
		probed, err := each.OverlapsOf(ctx, page.Items)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(window, probed) {
			for id := range maps.Keys(probed) {
				if !reflect.DeepEqual(window[id], probed[id]) {
					t.Errorf("round %d, log %d: from the window %+v, from its probe %+v", round, id, window[id], probed[id])
				}
			}
			t.Fatalf("round %d: the window read %d logs' overlaps, the probes %d", round, len(window), len(probed))
		}
		if len(probed) < n/3 {
			t.Fatalf("round %d: only %d of %d logs overlap: the rounds test little", round, len(probed), n)
		}
		// the round's running logs end, or they would run into the next
		if _, err := db.ExecContext(ctx, `UPDATE events SET status = 'done', ended_at = started_at + interval '1 hour'
			WHERE status = 'in_progress'`); err != nil {
			t.Fatal(err)
		}
	}
}
