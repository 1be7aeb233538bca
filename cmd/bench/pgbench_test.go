// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWindowsLeaveConnectionsOut: a pgbench run is read in a window a
// client, from its first transaction's end to its last's, its backend's
// CPU between the samples that bound it. Two clients whose backends cost
// 20 ms to start, 10 ms for the first transaction, 1 ms for each after it
// and 30 ms to end read 1 ms a transaction; pgbench's own first connection
// is no client's, a sample that misses a backend bounds nothing for it,
// and a client with one transaction has no window.
func TestWindowsLeaveConnectionsOut(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	// both clients run a transaction every 2 ms from 50 ms, ending at 52,
	// 54, ... 250 ms
	var txs []txSpan
	for end := 52; end <= 250; end += 2 {
		txs = append(txs, txSpan{client: 0, start: at(end - 2), end: at(end)}, txSpan{client: 1, start: at(end - 2), end: at(end)})
	}
	cpuAt := func(ms int) time.Duration { // a client's backend's CPU at ms
		switch {
		case ms < 50:
			return 20 * time.Millisecond
		case ms < 52:
			return time.Duration(20+5*(ms-50)) * time.Millisecond
		case ms <= 250:
			return time.Duration(30+(ms-52)/2) * time.Millisecond
		default:
			return 159 * time.Millisecond // ... and 30 ending
		}
	}
	var samples []cpuSample
	for ms := 0; ms <= 300; ms += 5 {
		s := cpuSample{at: at(ms), cpu: map[int]time.Duration{}}
		if ms <= 5 { // pgbench's first connection, ended before its clients connect
			s.cpu[100] = time.Duration(ms) * time.Millisecond
		}
		if ms >= 10 {
			s.cpu[101] = cpuAt(ms)
		}
		if ms >= 30 && ms != 250 { // a reading of the second client's missed at 250 ms
			s.cpu[102] = cpuAt(ms)
		}
		samples = append(samples, s)
	}
	backends := []int{100, 101, 102}
	r := windows(txs, samples, backends)
	// client 0 from the sample at 55 ms to the one at 250: 98 transactions,
	// 98 ms; client 1 to the one at 245: 95 and 95 ms
	rate := 98/0.195 + 95/0.190
	if r.tx != 193 || r.cpu != 193*time.Millisecond || !near(r.time.Seconds(), 193/rate) {
		t.Errorf("windows: %d transactions in %v, CPU %v; want 193 in %.4fs, 193ms", r.tx, r.time, r.cpu, 193/rate)
	}
	if got := windows(txs, nil, nil); got.tx != 198 || got.cpu != 0 || !near(got.time.Seconds(), 0.198) {
		t.Errorf("PostgreSQL not ours: %d transactions in %v, CPU %v; want 198 in 198ms, none", got.tx, got.time, got.cpu)
	}
	if got := windows(txs, samples, []int{101}); got.tx != 0 {
		t.Errorf("a client's backend not seen, yet %d transactions read", got.tx)
	}
	one := []txSpan{{client: 0, start: at(50), end: at(150)}, {client: 1, start: at(50), end: at(150)}}
	if got := windows(one, samples, backends); got.tx != 0 || got.cpu != 0 {
		t.Errorf("one transaction a client: %+v", got)
	}
}

// TestPgbenchLengthHoldsThreeTransactions: a pgbench slice runs the slice,
// or long enough for each client to run three transactions at the
// service's rate, up to 10 s.
func TestPgbenchLengthHoldsThreeTransactions(t *testing.T) {
	for _, c := range []struct {
		slice time.Duration
		tps   float64
		want  time.Duration
	}{
		{time.Second, 2400, time.Second},        // Inbox
		{time.Second, 3.1, 4 * time.Second},     // a month's export, 12 transactions
		{3 * time.Second, 1.6, 8 * time.Second}, // a year's
		{3 * time.Second, 0.5, 10 * time.Second},
		{time.Second, 0, time.Second},
	} {
		if got := pgbenchLength(c.slice, c.tps, 4); got != c.want {
			t.Errorf("slice %v at %v a second: %v, want %v", c.slice, c.tps, got, c.want)
		}
	}
}

func near(got, want float64) bool { return got > want*0.999 && got < want*1.001 }

// TestTxLogMatchesReport: pgbench's per-transaction log is read a line a
// transaction, the time of a line being its end and its latency its
// length, with or without a schedule lag (-R); a log that holds another
// count than the report is an error, as is a line it cannot read.
func TestTxLogMatchesReport(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("tx.4242", "0 0 2510 0 1764000000 523456\n1 0 1000 0 1764000000 600000\n")
	write("tx.4242.1", "2 0 1500 0 1764000001 000100 312\n")
	report := "number of clients: 3\nnumber of transactions actually processed: 3\n"
	txs, err := readTxLog(dir, report)
	if err != nil || len(txs) != 3 {
		t.Fatalf("%d transactions, %v", len(txs), err)
	}
	end := time.Unix(1764000000, 523456000)
	var found bool
	for _, tx := range txs {
		if tx.end.Equal(end) {
			found = tx.client == 0 && tx.start.Equal(end.Add(-2510*time.Microsecond))
		}
	}
	if !found {
		t.Errorf("the first line's transaction: %v", txs)
	}
	if _, err := readTxLog(dir, strings.Replace(report, "processed: 3", "processed: 4", 1)); err == nil {
		t.Error("a log of 3 transactions against a report of 4 gave no error")
	}
	if _, err := readTxLog(dir, "pgbench: error: connection refused\n"); err == nil {
		t.Error("a report without a count gave no error")
	}
	write("tx.4242.2", "3 0 skipped 0 1764000001 000200\n")
	if _, err := readTxLog(dir, strings.Replace(report, "processed: 3", "processed: 4", 1)); err == nil {
		t.Error("a line without a latency was read")
	}
}

// TestScriptSendsTheDeadlineWithItsStatement: a captured statement goes
// into the script as the service sent it, its deadline's SET LOCAL and the
// statement in one message ("\;"), ended by ";" or by \gset.
func TestScriptSendsTheDeadlineWithItsStatement(t *testing.T) {
	sel := "SET LOCAL statement_timeout = 9979; SELECT 1 FROM events WHERE title = 'a;b'"
	if got, want := scriptLine(sel, ";"), "SET LOCAL statement_timeout = 9979 \\; SELECT 1 FROM events WHERE title = 'a;b';\n"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got, want := scriptLine("COMMIT", ";"), "COMMIT;\n"; got != want {
		t.Errorf("a statement without a deadline: %q", got)
	}
	if got, want := scriptLine("SET LOCAL statement_timeout = 10; SELECT id FROM events", "\n\\gset u_"), "SET LOCAL statement_timeout = 10 \\; SELECT id FROM events\n\\gset u_\n"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestBackendWatchReadsAChild: a process started by this one can be read
// as the watch reads a backend: when it started, and its CPU (finding it
// among the children: harness, TestChildrenFindsAChild).
func TestBackendWatchReadsAChild(t *testing.T) {
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pid := cmd.Process.Pid
	if start, err := startTicks(pid); err != nil || start <= 0 {
		t.Errorf("start of %d: %d, %v", pid, start, err)
	}
	if _, err := taskCPU(pid); err != nil {
		t.Errorf("CPU of %d: %v", pid, err)
	}
}
