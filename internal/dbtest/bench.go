// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package dbtest

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/uptrace/bun"
)

// SeedLogs writes n finished activity logs of 20 minutes, one a minute,
// the last ending a minute before at, with a title, a description and, on
// every other one, the tag "work": the rows the listing benchmarks read.
func SeedLogs(tb testing.TB, db *bun.DB, n int, at time.Time) {
	tb.Helper()
	if _, err := db.ExecContext(context.Background(), `INSERT INTO events (kind, status, title, description, started_at, ended_at, project_tag, created_at, updated_at)
		SELECT 'activity_log', 'done', 'Worked on item ' || g, 'notes of ' || g,
			?::timestamptz - g * interval '1 minute' - interval '20 minutes', ?::timestamptz - g * interval '1 minute',
			CASE WHEN g % 2 = 0 THEN 'work' END, ?::timestamptz, ?::timestamptz
		FROM generate_series(1, ?) g`, at, at, at, at, n); err != nil {
		tb.Fatalf("dbtest: seed %d logs: %v", n, err)
	}
}

// ProcessCPU is the CPU time the process has used (user and system, every
// thread, the collector's included), in ns: on a shared machine it moves
// much less than the wall clock, so the benchmarks report it beside their
// time.
func ProcessCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
