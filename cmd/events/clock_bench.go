// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

//go:build bench

package main

import (
	"log/slog"
	"os"
	"time"
)

// With -tags bench (cmd/bench builds the service so), EVENTS_BENCH_NOW
// starts the service's clock at a moment of the bench's seed, from which it
// runs on: Today, Activity and the rest read the same days whatever the hour
// or the day the bench runs on. Production builds have none of it.
func init() {
	v := os.Getenv("EVENTS_BENCH_NOW")
	if v == "" {
		return
	}
	at, err := time.Parse(time.RFC3339, v)
	if err != nil {
		slog.Error("EVENTS_BENCH_NOW must be a time such as 2026-11-22T18:00:00+09:00", "value", v)
		os.Exit(1)
	}
	started := time.Now()
	clock = func() time.Time { return at.Add(time.Since(started)) }
}
