package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWindowLeavesConnectionsOut: a pgbench run is read from the sample at
// or after its first transaction's start to the last sample at or before
// its last transaction's end. Two backends that cost 20 ms each to start
// and 30 ms each to end, and 1 ms a transaction in between, read 1 ms a
// transaction; a sample missing a backend (not yet found, or a reading
// that failed) bounds nothing, and pgbench's first connection, ended before
// its clients connected, is none of them.
func TestWindowLeavesConnectionsOut(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	// connected by 40 ms; from 50 ms each backend runs a transaction of
	// 1 ms of CPU every 2 ms, finishing at 52, 54, ... 250 ms; then each
	// spends 30 ms ending
	var txs []txSpan
	for end := 52; end <= 250; end += 2 {
		txs = append(txs, txSpan{start: at(end - 2), end: at(end)}, txSpan{start: at(end - 2), end: at(end)})
	}
	cpuAt := func(ms int) time.Duration { // one backend's CPU at ms
		switch {
		case ms < 50:
			return 20 * time.Millisecond
		case ms <= 250:
			return time.Duration(20+(ms-50)/2) * time.Millisecond
		default:
			return 150 * time.Millisecond // 20 + 100 + 30 ending
		}
	}
	var samples []cpuSample
	for ms := 0; ms <= 300; ms += 5 {
		s := cpuSample{at: at(ms), cpu: map[int]time.Duration{}}
		if ms <= 5 { // pgbench's first connection, closed before its clients connect
			s.cpu[100] = time.Duration(ms) * time.Millisecond
		}
		if ms >= 10 { // the first backend found at 10 ms, the second at 30
			s.cpu[101] = cpuAt(ms)
		}
		if ms >= 30 && ms != 250 { // a reading of the second missed at 250 ms
			s.cpu[102] = cpuAt(ms)
		}
		samples = append(samples, s)
	}
	r := window(txs, samples, true)
	// from the sample at 50 ms to the one at 245 ms (the one at 250 lacks
	// a backend): 97 transactions each, 97 ms of CPU each
	if r.tx != 194 || r.time != 195*time.Millisecond || r.cpu != 194*time.Millisecond {
		t.Errorf("window: %d transactions in %v, CPU %v; want 194 in 195ms, 194ms", r.tx, r.time, r.cpu)
	}
	if got := window(txs, nil, false); got.tx != 200 || got.time != 200*time.Millisecond || got.cpu != 0 {
		t.Errorf("PostgreSQL not ours: %d transactions in %v, CPU %v; want 200 in 200ms, none", got.tx, got.time, got.cpu)
	}
	// no sample holds both backends within the transactions' span
	if got := window(txs, samples[:10], true); got.tx != 0 {
		t.Errorf("no sample bounds the run, yet %d transactions read", got.tx)
	}
	if got := window(nil, samples, true); got.tx != 0 || got.cpu != 0 {
		t.Errorf("no transaction: %+v", got)
	}
}

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
			found = tx.start.Equal(end.Add(-2510 * time.Microsecond))
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
