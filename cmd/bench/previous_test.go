package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
