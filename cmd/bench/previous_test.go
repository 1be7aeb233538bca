// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAgainstPreviousReadsTheMainTableOnly: the ten-million table names
// the same listings as the main table; each scenario is compared once.
func TestAgainstPreviousReadsTheMainTableOnly(t *testing.T) {
	table := func(inbox string) string {
		return "x; taken 2026-11-23 13:27 UTC; load\n\n" +
			"| scenario | a | b | throughput ratio | CPU ratio |\n|---|--:|--:|--:|--:|\n" +
			"| Inbox | 1 | 2 | " + inbox + " (30–40) | " + inbox + " (30–40) |\n\n" +
			"| listing | p50 ms at 1M | p50 ms at 10M | ratio (median) |\n|---|--:|--:|--:|\n" +
			"| Inbox | 1.36 | 1.52 | 1.05 |\n"
	}
	path := filepath.Join(t.TempDir(), "bench.md")
	if err := os.WriteFile(path, []byte(table("37%")), 0o644); err != nil {
		t.Fatal(err)
	}
	got := againstPrevious(path, table("40%"))
	if n := strings.Count(got, "| Inbox |"); n != 1 {
		t.Errorf("Inbox compared %d times, want once:\n%s", n, got)
	}
	if !strings.Contains(got, "| Inbox | +3 | +3 |") || !strings.Contains(got, "(2026-11-23 13:27 UTC)") {
		t.Errorf("the comparison is not +3 points against the run of 13:27:\n%s", got)
	}
}

// TestPairsAreListedAndNotReadAsMedians: the file lists every pair, and a
// later run compares its medians with the previous run's medians, not with
// a pair of that run.
func TestPairsAreListedAndNotReadAsMedians(t *testing.T) {
	inbox := &scenario{key: "inbox", name: "Inbox", script: "inbox.pgbench"}
	at := time.Date(2026, 11, 24, 6, 0, 0, 0, time.UTC)
	results := map[string]*result{"inbox": {pairs: []pair{
		{svc: 500, pg: 1000, svcCPU: 0.3, dbCPU: 0.3, pgCPU: 0.3, pacedCPU: 0.36, at: at},
		{svc: 900, pg: 1000, svcCPU: 0.2, dbCPU: 0.2, pgCPU: 0.36, at: at.Add(2 * time.Minute)},
	}}, "healthz": {pairs: []pair{{svc: 20000, svcCPU: 0.04, at: at.Add(-time.Minute)}}}}
	// /healthz has no pgbench side: dashes, as in the main table
	healthz := &scenario{key: "healthz", name: "`GET /healthz`"}
	pairs := pairsSection([]*scenario{healthz, inbox}, results)
	for _, row := range []string{
		"| healthz | 1 | 05:59:00 | 20000 | – | – | – | – | 0.040 | 0.000 | – | – |",
		"| inbox | 1 | 06:00:00 | 500 | 1000 | 50% | 50% | 60% | 0.300 | 0.300 | 0.300 | 0.360 |",
		"| inbox | 2 | 06:02:00 | 900 | 1000 | 90% | 90% | – | 0.200 | 0.200 | 0.360 | – |",
	} {
		if !strings.Contains(pairs, row) {
			t.Errorf("the pairs lack %q:\n%s", row, pairs)
		}
	}
	main := func(median string) string {
		return "x; taken 2026-11-24 06:10 UTC; load\n\n" +
			"| scenario | a | b | throughput ratio | CPU ratio |\n|---|--:|--:|--:|--:|\n" +
			"| Inbox | 1 | 2 | " + median + " (50–90) | " + median + " (50–90) |\n"
	}
	path := filepath.Join(t.TempDir(), "bench.md")
	if err := os.WriteFile(path, []byte(main("70%")+"\n"+pairs+"\n## Plans\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := againstPrevious(path, main("72%"))
	if !strings.Contains(got, "| Inbox | +2 | +2 |") || strings.Count(got, "| Inbox |") != 1 {
		t.Errorf("the comparison is not +2 points against the previous median, once:\n%s", got)
	}
}
