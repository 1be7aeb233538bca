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
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"events/app"
)

// pgbenchRun is what one pgbench invocation measured in its window: from
// the start of its first transaction to the last reading of its backends
// before its last transaction finished. pgbench opens all its connections
// before it starts a transaction, so the window holds none of its
// backends' start, and it ends before they do. The service keeps its pool
// open; a new backend's start and end are pgbench's alone, and they cost
// PostgreSQL from 15 ms to 130 ms an invocation of eight, from one machine
// to another, against the 10 to 300 ms of work of a slice: taken off as a
// mean, whatever a slice's connections really cost fell on its
// transactions.
type pgbenchRun struct {
	tx   int           // transactions finished in the window
	time time.Duration // the window
	cpu  time.Duration // its backends' CPU in the window; 0 when PostgreSQL is not ours
}

// backendTitle begins the command line of a backend of pgbench's (its
// role and database, pgbenchArgs): an autovacuum worker that starts
// during a slice has another.
const backendTitle = "postgres: events events "

// pgbench runs the script key.pgbench with as many clients as the service
// has HTTP connections, on the load generator's CPU, for d, flat out or,
// when rate > 0, at rate transactions a second, and reads its window.
func pgbench(ctx context.Context, e *env, key string, d time.Duration, rate float64) (pgbenchRun, error) {
	logs, err := os.MkdirTemp(e.o.dir, "pgbench-log-")
	if err != nil {
		return pgbenchRun{}, err
	}
	defer os.RemoveAll(logs)
	args := pgbenchArgs(e, filepath.Join(e.o.dir, key+".pgbench"), d, rate, filepath.Join(logs, "tx"))
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
	samples := w.stop()
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
	return window(txs, samples, e.postgres != 0), nil
}

// txSpan is a transaction of pgbench's log: when it started and when it
// finished.
type txSpan struct{ start, end time.Time }

// window is the run of txs, with samples of its backends' CPU when ours:
// from the first sample that holds every backend at or after the first
// transaction's start, to the last such sample at or before the last
// transaction's end; the transactions that finished in between, and the
// CPU the backends spent in between. Without samples, from the first
// start to the last end. A run with no window (no transaction, or none
// between two samples) is empty.
func window(txs []txSpan, samples []cpuSample, ours bool) pgbenchRun {
	if len(txs) == 0 {
		return pgbenchRun{}
	}
	begin, last := txs[0].start, txs[0].end
	for _, t := range txs {
		if t.start.Before(begin) {
			begin = t.start
		}
		if t.end.After(last) {
			last = t.end
		}
	}
	from, to := begin, last
	var cpu time.Duration
	if ours {
		// the backends: those of the sample in the span that holds the most
		// (pgbench's first connection, which looks the server over, ended
		// before its clients connected)
		var span []cpuSample
		for _, s := range samples {
			if !s.at.Before(begin) && !s.at.After(last) {
				span = append(span, s)
			}
		}
		var backends map[int]time.Duration
		for _, s := range span {
			if len(s.cpu) > len(backends) {
				backends = s.cpu
			}
		}
		holdsAll := func(s cpuSample) bool {
			for pid := range backends {
				if _, ok := s.cpu[pid]; !ok {
					return false
				}
			}
			return true
		}
		var a, b *cpuSample
		for i := range span {
			if holdsAll(span[i]) {
				if a == nil {
					a = &span[i]
				}
				b = &span[i]
			}
		}
		if a == nil || !b.at.After(a.at) {
			return pgbenchRun{}
		}
		for pid := range backends {
			cpu += b.cpu[pid] - a.cpu[pid]
		}
		from, to = a.at, b.at
	}
	r := pgbenchRun{time: to.Sub(from), cpu: cpu}
	for _, t := range txs {
		if t.end.After(from) && !t.end.After(to) {
			r.tx++
		}
	}
	if r.tx == 0 {
		return pgbenchRun{}
	}
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
	latency, err1 := strconv.ParseInt(f[2], 10, 64)
	sec, err2 := strconv.ParseInt(f[4], 10, 64)
	usec, err3 := strconv.ParseInt(f[5], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return txSpan{}, false
	}
	end := time.Unix(sec, usec*1000)
	return txSpan{start: end.Add(-time.Duration(latency) * time.Microsecond), end: end}, true
}

// pgbenchArgs are the arguments of a pgbench run of script (see pgbench),
// its per-transaction log written to files named logPrefix.<pid>.
func pgbenchArgs(e *env, script string, d time.Duration, rate float64, logPrefix string) []string {
	threads := 1
	if !e.o.pin {
		threads = min(e.o.conns, runtime.NumCPU())
	}
	run := []string{"-T", strconv.Itoa(int(d.Seconds()))}
	if rate > 0 {
		run = append(run, "-R", strconv.FormatFloat(rate, 'f', 1, 64))
	}
	args := append([]string{"-n", "-M", "simple", "-c", strconv.Itoa(e.o.conns), "-j", strconv.Itoa(threads)}, run...)
	return append(args, "-l", "--log-prefix="+logPrefix, "-f", script, "-h", e.sockDir, "-p", "5432", "-U", "events", "events")
}

func pgbenchPath() string {
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pgbench")
	if len(matches) > 0 {
		sort.Strings(matches)
		return matches[len(matches)-1]
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
