// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"events/app"
	"events/internal/pgcluster"
)

// pgbenchRun is what one pgbench invocation measured in its windows, one a
// client: from the end of the client's first transaction to the end of
// its last, and in it the CPU of the client's backend and the
// transactions that ended. pgbench opens a new backend for each client;
// the service keeps its pool open. A new backend's start and end, and its
// first transaction, which reads the catalog and maps the shared buffers
// it touches for the first time, fall outside the window: they cost
// PostgreSQL from 15 ms to 130 ms an invocation of four clients and up to
// twice a long statement's work, from one machine to another, and the
// service's backends paid them once.
type pgbenchRun struct {
	tx   int           // transactions that ended in the windows
	time time.Duration // tx over the sum of the clients' rates: the time the run's rate gives them
	cpu  time.Duration // the backends' CPU in the windows; 0 when PostgreSQL is not ours
}

// backendTitle begins the command line of a backend of pgbench's (its
// role and database, pgbenchArgs): an autovacuum worker that starts
// during a slice has another.
const backendTitle = "postgres: events events "

// pgbench runs the script key.pgbench with as many clients as the service
// has HTTP connections, on the load generator's CPU, for d, flat out or,
// when rate > 0, at rate transactions a second, and reads its clients' windows.
func pgbench(ctx context.Context, e *env, key string, d time.Duration, rate float64) (pgbenchRun, error) {
	return pgbenchWith(ctx, e, key, func(script, logPrefix string) []string {
		return pgbenchArgs(e, script, d, rate, logPrefix)
	})
}

// pgbenchWith runs pgbench with the arguments argsOf gives for the script
// key.pgbench and the prefix of its per-transaction log, and reads its
// clients' windows.
func pgbenchWith(ctx context.Context, e *env, key string, argsOf func(script, logPrefix string) []string) (pgbenchRun, error) {
	logs, err := os.MkdirTemp(e.o.dir, "pgbench-log-")
	if err != nil {
		return pgbenchRun{}, err
	}
	defer os.RemoveAll(logs)
	args := argsOf(filepath.Join(e.o.dir, key+".pgbench"), filepath.Join(logs, "tx"))
	cmd := exec.CommandContext(ctx, pgbenchPath(), args...)
	// the planner's settings of the service's sessions (app.SessionDefaults)
	cmd.Env = append(os.Environ(), "PGOPTIONS="+app.SessionOptions())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	var w *backendWatch
	if e.postgres != 0 {
		w = watchBackends(e.postgres, backendTitle, 5*time.Millisecond)
	}
	err = cmd.Start()
	if err == nil {
		w.start()
		err = cmd.Wait()
	}
	samples, backends := w.stop()
	if err == nil && strings.Contains(errb.String(), "ERROR") {
		return pgbenchRun{}, fmt.Errorf("pgbench %s reported errors:\n%s", key, lastLines(errb.String(), 10))
	}
	var txs []txSpan
	if err == nil {
		txs, err = readTxLog(logs, out.String())
	}
	if err != nil {
		return pgbenchRun{}, fmt.Errorf("pgbench %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), lastLines(errb.String(), 10))
	}
	return windows(txs, samples, backends), nil
}

// txSpan is a transaction of pgbench's log: its client, when it started
// and when it ended.
type txSpan struct {
	client     int
	start, end time.Time
}

// windows reads a run (pgbenchRun) from its transactions and, when
// PostgreSQL is ours, the samples of its backends' CPU, those in the order
// they started. pgbench connects its clients one after the other (one
// thread, pgbenchArgs), after a first connection of its own that ends
// before them: the last of the backends are its clients', in order. A
// client's window runs from the first sample at or after the end of its
// first transaction to the last sample at or before the end of its last
// one; a client with fewer than two transactions has none. Without
// samples, the windows are the same without CPU.
func windows(txs []txSpan, samples []cpuSample, backends []int) pgbenchRun {
	byClient := map[int][]txSpan{}
	for _, t := range txs {
		byClient[t.client] = append(byClient[t.client], t)
	}
	ours := samples != nil
	if ours && len(backends) < len(byClient) {
		return pgbenchRun{} // a backend not seen: nothing to read its CPU from
	}
	if ours {
		backends = backends[len(backends)-len(byClient):]
	}
	clients := make([]int, 0, len(byClient))
	for c := range byClient {
		clients = append(clients, c)
	}
	sort.Ints(clients)
	var r pgbenchRun
	var rate float64 // transactions a second, summed over the clients
	for k, c := range clients {
		ts := byClient[c]
		sort.Slice(ts, func(i, j int) bool { return ts[i].end.Before(ts[j].end) })
		if len(ts) < 2 {
			continue
		}
		from, to := ts[0].end, ts[len(ts)-1].end
		var cpu time.Duration
		if ours {
			pid := backends[k]
			var a, b *cpuSample
			for i := range samples {
				if _, ok := samples[i].cpu[pid]; !ok {
					continue
				}
				if a == nil && !samples[i].at.Before(from) {
					a = &samples[i]
				}
				if !samples[i].at.After(to) {
					b = &samples[i]
				}
			}
			if a == nil || b == nil || !b.at.After(a.at) {
				continue
			}
			from, to, cpu = a.at, b.at, b.cpu[pid]-a.cpu[pid]
		}
		n := 0
		for _, t := range ts {
			if t.end.After(from) && !t.end.After(to) {
				n++
			}
		}
		if n == 0 {
			continue
		}
		r.tx += n
		r.cpu += cpu
		rate += float64(n) / to.Sub(from).Seconds()
	}
	if r.tx == 0 {
		return pgbenchRun{}
	}
	r.time = time.Duration(float64(r.tx) / rate * float64(time.Second))
	return r
}

var txLine = regexp.MustCompile(`(?m)^number of transactions actually processed: ([0-9]+)`)

// readTxLog reads pgbench's per-transaction logs in dir (-l): a line a
// transaction, "client transaction latency_us script epoch_s epoch_us
// [lag]", the time being when it finished. Their count must be the one
// pgbench's report (out) gives.
func readTxLog(dir, out string) ([]txSpan, error) {
	n := txLine.FindStringSubmatch(out)
	if n == nil {
		return nil, errors.New("no count of transactions in pgbench's report")
	}
	want, _ := strconv.Atoi(n[1])
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		return nil, err
	}
	txs := make([]txSpan, 0, want)
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			t, ok := parseTxLine(sc.Text())
			if !ok {
				f.Close()
				return nil, fmt.Errorf("%s: cannot read %q", filepath.Base(name), sc.Text())
			}
			txs = append(txs, t)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	if len(txs) != want {
		return nil, fmt.Errorf("pgbench's log holds %d transactions, its report %d", len(txs), want)
	}
	return txs, nil
}

// parseTxLine reads a line of pgbench's per-transaction log.
func parseTxLine(line string) (txSpan, bool) {
	f := strings.Fields(line)
	if len(f) < 6 {
		return txSpan{}, false
	}
	latency, err1 := strconv.ParseInt(f[2], 10, 64) // "skipped" (pgbench -L) is none
	sec, err2 := strconv.ParseInt(f[4], 10, 64)
	usec, err3 := strconv.ParseInt(f[5], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return txSpan{}, false
	}
	client, err4 := strconv.Atoi(f[0])
	if err4 != nil {
		return txSpan{}, false
	}
	end := time.Unix(sec, usec*1000)
	return txSpan{client: client, start: end.Add(-time.Duration(latency) * time.Microsecond), end: end}, true
}

// pgbenchArgs are the arguments of a pgbench run of script (see pgbench),
// its per-transaction log written to files named logPrefix.<pid>.
func pgbenchArgs(e *env, script string, d time.Duration, rate float64, logPrefix string) []string {
	// one thread: it connects the clients one after the other, so their
	// backends start in the clients' order (windows)
	threads := 1
	run := []string{"-T", strconv.Itoa(int(d.Seconds()))}
	if rate > 0 {
		run = append(run, "-R", strconv.FormatFloat(rate, 'f', 1, 64))
	}
	args := append([]string{"-n", "-M", "simple", "-c", strconv.Itoa(e.o.conns), "-j", strconv.Itoa(threads)}, run...)
	return append(args, "-l", "--log-prefix="+logPrefix, "-f", script, "-h", e.sockDir, "-p", "5432", "-U", "events", "events")
}

// pgbenchPath is pgbench on PATH, or else the one beside the newest server
// programs, where pgcluster finds them (Debian's /usr/lib/postgresql/<major>/bin).
func pgbenchPath() string {
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p
	}
	if dir, err := pgcluster.FindBinaries(); err == nil {
		p := filepath.Join(dir, "pgbench")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return "pgbench"
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
