// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestPaceCollector: with neither GOGC nor GOMEMLIMIT set, the service
// collects at fivefold growth under a soft limit of 48 MiB; either one set
// is left to the runtime, which has read it already.
func TestPaceCollector(t *testing.T) {
	gogc, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(gogc); debug.SetMemoryLimit(limit) })

	paceCollector(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != 400 {
		t.Errorf("GOGC is %d, want 400", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != 48<<20 {
		t.Errorf("the soft memory limit is %d, want 48 MiB", got)
	}

	set := map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}
	paceCollector(func(k string) string { return set[k] })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set, the service changed the pace to %d", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set, the service set a limit of %d", got)
	}
}
