// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"events/app"
	"events/cmd/internal/harness"
)

// pair is one service step and the pgbench step after it, on one
// scenario: both see the machine as it is at that moment, so their ratio
// holds where the absolute figures swing.
type pair struct {
	svc      float64   // service requests a second, at saturation
	pg       float64   // pgbench, in service requests a second (0: no pgbench)
	svcCPU   float64   // the service's CPU per request, ms
	dbCPU    float64   // PostgreSQL's CPU per service request, ms (0: not measured)
	pgCPU    float64   // PostgreSQL's CPU per request under pgbench, ms
	pacedCPU float64   // the same, pgbench kept to the service's rate (0: not measured)
	rssKiB   int64     // the service's peak VmRSS during its step
	errors   uint64    // non-2xx or failed requests
	at       time.Time // when the service step started
}

// ratio is the throughput ratio, service over pgbench.
func (p pair) ratio() float64 { return ratio(p.svc, p.pg) }

// cpuRatio is what PostgreSQL spends per request under pgbench over what
// the service and PostgreSQL together spend per request: the throughput
// ratio the service would reach on a CPU of its own, read from /proc, so
// other load on the machine barely moves it.
func (p pair) cpuRatio() float64 { return p.cpuRatioAgainst(p.pgCPU) }

// pacedRatio is cpuRatio with pgbench kept to the service's rate. A
// PostgreSQL backend that idles between statements spends more CPU on
// each than one kept busy: flat out, pgbench keeps PostgreSQL's CPU busy
// where the service, slower than pgbench's client, leaves it idle part of
// the time. At the same pace both sides pay that alike.
func (p pair) pacedRatio() float64 { return p.cpuRatioAgainst(p.pacedCPU) }

// cpuRatioAgainst is pg, PostgreSQL's CPU a request under pgbench, over
// what the service and its PostgreSQL spend a request; 0 when either side
// was not measured.
func (p pair) cpuRatioAgainst(pg float64) float64 {
	if p.dbCPU == 0 {
		return 0
	}
	return ratio(pg, p.svcCPU+p.dbCPU)
}

// result is what a scenario measured: its pairs, then the latency at a
// constant rate of half the service's median throughput.
type result struct {
	pairs    []pair
	rate     float64
	p50, p99 time.Duration
	errors   uint64 // of the latency step
}

func measure(ctx context.Context, e *env) error {
	list := pick(scenarios(), e.o.scenarios)
	if err := cleanup(ctx, e); err != nil {
		return err
	}
	if err := capture(ctx, e, list); err != nil {
		return err
	}
	plans, err := explain(ctx, e, list)
	if err != nil {
		return err
	}
	fmt.Println(plans)
	if err := warmPool(ctx, e); err != nil {
		return err
	}

	loadBefore := loadavg()
	results := make(map[string]*result, len(list))
	for _, s := range list {
		results[s.key] = &result{}
	}
	// The pairs go in rounds: the first pair of every scenario, then the
	// second of every scenario, and so on. A phase in which the machine runs
	// slower lasts seconds to a minute; with a scenario's pairs a round
	// (minutes) apart, it falls on one of them, and the median passes over
	// it, where a scenario's pairs taken in a row could all fall in it.
	for i := range e.o.pairs {
		for _, s := range list {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			p, err := measurePair(ctx, e, s, i)
			if err != nil {
				return fmt.Errorf("%s: %w", s.key, err)
			}
			results[s.key].pairs = append(results[s.key].pairs, p)
		}
	}
	for _, s := range list {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := measureLatency(ctx, e, s, results[s.key]); err != nil {
			return fmt.Errorf("%s: %w", s.key, err)
		}
	}
	hwm := harness.StatusKiB(e.service.Pid(), "VmHWM")
	table := report(e, list, results, hwm, loadBefore)
	// the sections after the table: each measures on its own and says
	// what it found
	for _, section := range []func(context.Context, *env) (string, error){pageWeight, overload, deepUndo, importSection, cliToday, cliff} {
		sec, err := section(ctx, e)
		if err != nil {
			return err
		}
		if sec != "" {
			table += "\n" + sec
		}
	}
	if prev := againstPrevious(e.o.out, table); prev != "" {
		table += "\n" + prev
	}
	fmt.Println(table)
	out := table + "\n" + pairsSection(list, results) + "\n## Plans\n\n" + plans
	if err := os.MkdirAll(filepath.Dir(e.o.out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(e.o.out, []byte(out), 0o644); err != nil {
		return err
	}
	say("written to %s", e.o.out)
	return nil
}

// warmPool opens the service's pool before the first step: it drives
// /readyz (one SELECT 1 a request) with every connection of a step until
// PostgreSQL holds as many of the service's connections as a step can use.
// A backend started while the service keeps the shared CPU busy waited
// about 2 s to be scheduled for its 20 ms of start-up work, so the first
// pair of the first scenario that reads the database paid for starting
// the pool.
func warmPool(ctx context.Context, e *env) error {
	want := min(e.o.conns, e.poolSize)
	atk, ready := saturating(e), static(get("/readyz", nil))(e)
	var open int
	for range 20 {
		attack(atk, ready, vegeta.Rate{Freq: 0}, 500*time.Millisecond, "warm")
		if err := e.db.NewRaw("SELECT count(*) FROM pg_stat_activity WHERE application_name = ? AND datname = current_database()", app.ApplicationName).Scan(ctx, &open); err != nil {
			return err
		}
		if open >= want {
			say("the service's pool holds %d connections", open)
			return nil
		}
	}
	return fmt.Errorf("the service opened %d connections of the %d a step can use", open, want)
}

// saturating is the attacker of a saturation step: every connection of a
// step keeps one request in flight, the next sent as soon as the last is
// answered.
func saturating(e *env) *vegeta.Attacker {
	return vegeta.NewAttacker(vegeta.Workers(uint64(e.o.conns)), vegeta.MaxWorkers(uint64(e.o.conns)),
		vegeta.Connections(e.o.conns), vegeta.MaxConnections(e.o.conns), vegeta.KeepAlive(true), vegeta.Timeout(30*time.Second))
}

// pick is the scenarios of list that names (comma-separated keys) asks
// for; with no names, every scenario but the optional ones.
func pick(list []*scenario, names string) []*scenario {
	if names == "" {
		return slices.DeleteFunc(list, func(s *scenario) bool { return s.optional })
	}
	want := strings.Split(names, ",")
	return slices.DeleteFunc(list, func(s *scenario) bool { return !slices.Contains(want, s.key) })
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// peakRSS is the service's highest VmRSS over the scenario's service steps.
func (r result) peakRSS() int64 {
	var rss int64
	for _, p := range r.pairs {
		rss = max(rss, p.rssKiB)
	}
	return rss
}

// every paces one request each 1/rate seconds. A rate below one a second
// is kept as it is: a year's export answers about one a second, and half
// of that rounded to whole requests a second was all of it, so its latency
// step queued answers behind each other.
func every(rate float64) vegeta.Rate {
	return vegeta.Rate{Freq: 1, Per: time.Duration(float64(time.Second) / max(rate, 0.1))}
}

// perSecond prints a rate: whole numbers from 10 a second up, two decimals
// below (an export's 1.05 against pgbench's 2.20, not 1 against 2).
func perSecond(v float64) string {
	if v >= 10 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// measurePair runs pair i of a scenario: its service step and its pgbench
// step on the same statements, each cut into -slices slices taken in turn
// (service, pgbench, service, pgbench, ...), so that both sides see the
// same few seconds of the machine. With -paced, each pgbench slice is
// followed by another kept to the rate the service reached in the slice
// before (pacedRatio). On these shared machines the speed of a
// fixed piece of work moves up to threefold in phases of one to five
// seconds: a 3 s step and the 3 s step after it often met different
// phases, where three slices of 1 s each, interleaved, meet much the same.
func measurePair(ctx context.Context, e *env, s *scenario, i int) (pair, error) {
	var t totals
	t.at = time.Now()
	for k := range e.o.slices {
		rate, err := serviceSlice(ctx, e, s, i == 0 && k == 0, &t)
		if err != nil {
			return pair{}, err
		}
		if s.script == "" {
			continue
		}
		if err := pgbenchSlice(ctx, e, s, rate, false, &t.flat); err != nil {
			return pair{}, err
		}
		if e.o.paced {
			if err := pgbenchSlice(ctx, e, s, rate, true, &t.paced); err != nil {
				return pair{}, err
			}
		}
	}
	p := t.pair(s.perTx)
	say("%-10s pair %d  service %7.0f/s  pgbench %7.0f/s  ratio %3.0f%%  cpu ratio %3.0f%% (same pace %3.0f%%)  service %.3f + db %.3f ms/req, pgbench db %.3f ms/req (same pace %.3f)  rss %5.1f MiB  load %s",
		s.key, i+1, p.svc, p.pg, 100*p.ratio(), 100*p.cpuRatio(), 100*p.pacedRatio(), p.svcCPU, p.dbCPU, p.pgCPU, p.pacedCPU, float64(p.rssKiB)/1024, loadavg())
	return p, nil
}

// totals is what the slices of a pair measured, summed.
type totals struct {
	at time.Time // when the first service slice started
	// the service's slices
	requests, answered uint64        // sent; answered with a 2xx
	svcTime            time.Duration // sending and waiting for the last answers
	svcTicks, dbTicks  int64         // the service's CPU, PostgreSQL's
	rssKiB             int64         // the service's peak VmRSS
	// the pgbench slices: flat out, and kept to the service's rate (-paced)
	flat, paced pgbenchRun
}

// add sums a run into g: a pair's pgbench slices are one run of their
// windows.
func (g *pgbenchRun) add(r pgbenchRun) {
	g.tx += r.tx
	g.time += r.time
	g.cpu += r.cpu
}

// cpuPer is PostgreSQL's CPU per request, ms; 0 when nothing ran.
func (g pgbenchRun) cpuPer(perTx int) float64 {
	if g.tx == 0 {
		return 0
	}
	return ms(g.cpu) / float64(g.tx*perTx)
}

// pair makes the pair's figures of its slices. A pgbench transaction stands
// for perTx requests.
func (t totals) pair(perTx int) pair {
	p := pair{at: t.at, rssKiB: t.rssKiB, errors: t.requests - t.answered}
	if t.svcTime > 0 {
		p.svc = float64(t.answered) / t.svcTime.Seconds()
	}
	if t.requests > 0 {
		p.svcCPU = tickMs(t.svcTicks) / float64(t.requests)
		p.dbCPU = tickMs(t.dbTicks) / float64(t.requests) // 0 when PostgreSQL is not ours (dbTicks)
	}
	if t.flat.tx > 0 && t.flat.time > 0 {
		p.pg = float64(t.flat.tx*perTx) / t.flat.time.Seconds()
		p.pgCPU = t.flat.cpuPer(perTx)
	}
	p.pacedCPU = t.paced.cpuPer(perTx)
	return p
}

// measureLatency takes the latency at half the service's median
// throughput over the scenario's pairs.
func measureLatency(ctx context.Context, e *env, s *scenario, r *result) error {
	r.rate = median(r.pairs, func(p pair) float64 { return p.svc }) / 2
	// a few more workers than connections, so that a slow answer does not
	// hold up the constant rate; the connections stay bounded, as a real
	// client's pool would
	atk := vegeta.NewAttacker(vegeta.Workers(uint64(e.o.conns)), vegeta.MaxWorkers(uint64(4*e.o.conns)),
		vegeta.Connections(4*e.o.conns), vegeta.MaxConnections(4*e.o.conns), vegeta.KeepAlive(true), vegeta.Timeout(30*time.Second))
	lat := attack(atk, s.targeter(e), every(r.rate), s.stepOf(e), s.key)
	r.p50, r.p99 = lat.Latencies.P50, lat.Latencies.P99
	r.errors = lat.Requests - uint64(float64(lat.Requests)*lat.Success+0.5)
	say("%-10s p50 %.2f ms  p99 %.2f ms at %s/s", s.key, ms(r.p50), ms(r.p99), perSecond(r.rate))
	if r.errors > 0 { // which: the table only counts them
		say("%-10s %d errors at the constant rate: statuses %v, errors %q", s.key, r.errors, lat.StatusCodes, lat.Errors)
	}
	return s.putBack(ctx, e)
}

// serviceSlice drives the service at saturation for one slice of a step
// and adds to t its requests, its CPU and PostgreSQL's, its peak RSS; it
// returns the slice's rate, answers a second.
func serviceSlice(ctx context.Context, e *env, s *scenario, first bool, t *totals) (float64, error) {
	svc0, err := harness.CPUTicks(e.service.Pid())
	if err != nil {
		return 0, err
	}
	db0, _ := dbTicks(e)
	var prof chan error
	if first && e.o.pprof != "" && e.service.Pprof != "" {
		prof = make(chan error, 1)
		go func() { prof <- profile(e, s.key, s.sliceOf(e)) }()
	}
	stopRSS, peak := sampleRSS(e.service.Pid(), 50*time.Millisecond)
	sat := attack(saturating(e), s.targeter(e), vegeta.Rate{Freq: 0}, s.sliceOf(e), s.key)
	stopRSS()
	svc1, err := harness.CPUTicks(e.service.Pid())
	if err != nil {
		return 0, err
	}
	db1, _ := dbTicks(e)
	if prof != nil {
		if err := <-prof; err != nil {
			say("profile %s: %v", s.key, err)
		}
	}
	answered := uint64(float64(sat.Requests)*sat.Success + 0.5)
	t.requests += sat.Requests
	t.answered += answered
	t.svcTime += sat.Duration + sat.Wait
	t.svcTicks += svc1 - svc0
	t.dbTicks += db1 - db0
	t.rssKiB = max(t.rssKiB, *peak)
	if answered < sat.Requests { // which: the table only counts them
		say("%-10s %d errors in a service slice: statuses %v, errors %q", s.key, sat.Requests-answered, sat.StatusCodes, sat.Errors)
	}
	if answered == 0 {
		return 0, fmt.Errorf("the service answered none of %d requests (%v; %v)", sat.Requests, sat.StatusCodes, sat.Errors)
	}
	return float64(answered) / (sat.Duration + sat.Wait).Seconds(), s.putBack(ctx, e)
}

// pgbenchSlice runs the scenario's statements under pgbench for one slice
// of a step and adds its windows' transactions, time and PostgreSQL's CPU
// to t (pgbenchRun): flat out, or paced, kept to svcRate, the service's
// requests a second in the slice before.
func pgbenchSlice(ctx context.Context, e *env, s *scenario, svcRate float64, paced bool, t *pgbenchRun) error {
	tps := svcRate / float64(s.perTx) // the service's rate, in pgbench's transactions
	var rate float64
	if paced {
		rate = tps
	}
	d := pgbenchLength(s.sliceOf(e), tps, e.o.conns)
	r, err := pgbench(ctx, e, s.key, d, rate)
	if err != nil {
		return err
	}
	if r.tx == 0 {
		// no client ran two transactions: the slice measured nothing
		say("%-10s a pgbench slice of %v (kept to %.2f/s; 0: flat out) gave no client a second transaction: left out", s.key, d, rate)
	}
	t.add(r)
	return s.putBack(ctx, e)
}

// pgbenchLength is how long a pgbench slice runs: the slice, or where the
// statements are slow, long enough for each of the clients to run about
// three transactions at tps, the service's rate in transactions (a
// client's window leaves its first out, windows), up to 10 s. A month's
// export at three a second with four clients runs 4 s.
func pgbenchLength(slice time.Duration, tps float64, clients int) time.Duration {
	if tps <= 0 {
		return slice
	}
	need := time.Duration(math.Ceil(3*float64(clients)/tps)) * time.Second
	return max(slice, min(need, 10*time.Second))
}

// dbTicks is the CPU time of PostgreSQL's work for its clients so far, when
// the harness started it: the backends, alive or ended, and their parallel
// workers, not the background processes (a checkpoint or the background
// writer falls on whichever step it meets, and belongs to neither).
func dbTicks(e *env) (int64, error) {
	if e.postgres == 0 {
		return 0, nil
	}
	return harness.TreeTicks(e.postgres, backgroundProcess)
}

// backgroundProcess tells PostgreSQL's background processes by the title
// they give their command line.
func backgroundProcess(cmdline string) bool {
	for _, title := range []string{"checkpointer", "background writer", "walwriter", "autovacuum launcher",
		"logical replication launcher", "archiver", "stats collector"} {
		if strings.HasPrefix(cmdline, "postgres: "+title) {
			return true
		}
	}
	return false
}

func tickMs(t int64) float64 { return float64(t) * 1000 / harness.TicksPerSecond }

// sampleRSS reads the VmRSS of pid at once and then every interval until
// stop is called; *peak is the highest reading.
func sampleRSS(pid int, every time.Duration) (stop func(), peak *int64) {
	peak = new(int64)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			*peak = max(*peak, harness.StatusKiB(pid, "VmRSS"))
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }, peak
}

// attack sends tr's requests at p's pace for d and sums their results.
func attack(atk *vegeta.Attacker, tr vegeta.Targeter, p vegeta.Pacer, d time.Duration, name string) vegeta.Metrics {
	var m vegeta.Metrics
	for res := range atk.Attack(tr, p, d, name) {
		m.Add(res)
	}
	m.Close()
	return m
}

// profile saves a CPU profile of most of the saturation step, then the
// allocation profile.
func profile(e *env, key string, d time.Duration) error {
	if err := os.MkdirAll(e.o.pprof, 0o755); err != nil {
		return err
	}
	secs := max(1, int(d.Seconds())-1)
	fetch := func(path, file string) error {
		res, err := http.Get(e.service.Pprof + path)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("%s: %s", path, res.Status)
		}
		f, err := os.Create(filepath.Join(e.o.pprof, file))
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(f, res.Body)
		return err
	}
	if err := fetch(fmt.Sprintf("/debug/pprof/profile?seconds=%d", secs), key+".cpu.pprof"); err != nil {
		return err
	}
	return fetch("/debug/pprof/allocs", key+".allocs.pprof")
}

// explain prints EXPLAIN (ANALYZE, BUFFERS) of the listings' statements,
// and of an export's range of ids and first batch.
func explain(ctx context.Context, e *env, list []*scenario) (string, error) {
	var b strings.Builder
	for _, s := range list {
		for _, st := range s.explained() {
			var lines []string
			if err := e.db.NewRaw("EXPLAIN (ANALYZE, BUFFERS) "+st).Scan(ctx, &lines); err != nil {
				return "", fmt.Errorf("explain %s: %w", s.key, err)
			}
			fmt.Fprintf(&b, "### %s\n\n```text\n%s\n```\n\n", s.name, strings.Join(lines, "\n"))
		}
	}
	return b.String(), nil
}

// explained is the statements of s whose plans explain prints: its
// queries, without their deadlines, the first explainFirst of them when
// that is above 0; none unless s.explain.
func (s *scenario) explained() []string {
	if !s.explain {
		return nil
	}
	var out []string
	for _, st := range s.sql {
		if st = withoutDeadline(st); !strings.HasPrefix(st, "SELECT") && !strings.HasPrefix(st, "WITH") {
			continue
		}
		if s.explainFirst > 0 && len(out) == s.explainFirst {
			break
		}
		out = append(out, st)
	}
	return out
}

func median[T any](xs []T, f func(T) float64) float64 {
	v := make([]float64, len(xs))
	for i, x := range xs {
		v[i] = f(x)
	}
	sort.Float64s(v)
	if len(v) == 0 {
		return 0
	}
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// spread is "median% (min–max)" of a ratio over the pairs.
func spread(ps []pair, f func(pair) float64) string {
	if len(ps) == 0 || f(ps[0]) == 0 {
		return "–"
	}
	lo, hi := f(ps[0]), f(ps[0])
	for _, p := range ps {
		lo, hi = min(lo, f(p)), max(hi, f(p))
	}
	return fmt.Sprintf("%.0f%% (%.0f–%.0f)", 100*median(ps, f), 100*lo, 100*hi)
}

// report is the Markdown table: medians over the pairs, the ratios with
// their spread.
func report(e *env, list []*scenario, results map[string]*result, hwmKiB int64, loadBefore string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# events benchmark\n\n")
	seeded := "a seed of an earlier run"
	if e.seedTime > 0 {
		seeded = "seeded in " + e.seedTime.Round(time.Second).String()
	}
	fmt.Fprintf(&b, "%s; %s; %d events (%s); %d connections; %d s steps, each cut into %d slices taken in turn, service and pgbench; %d pairs of service and pgbench steps a scenario, taken in rounds (a pair of every scenario, then the next); pgbench's side is read a client at a time, from the end of its first transaction to the end of its last, its backend's CPU from /proc/<pid>/schedstat every 5 ms, so that neither side pays for new connections (a slow scenario's pgbench slice runs long enough for three transactions a client); the service's clock started at %s (18:00 in Seoul the day before the seed's last); taken %s; load average %s before, %s after.\n\n",
		machine(), pgVersion(e), e.o.events, seeded, e.o.conns, int(e.o.step.Seconds()), e.o.slices, e.o.pairs,
		e.now.Format("2006-01-02 15:04 MST"), time.Now().UTC().Format("2006-01-02 15:04 UTC"), loadBefore, loadavg())
	switch e.o.serviceCPU() {
	case 0:
		b.WriteString("CPU 0: the load generator (vegeta in the harness), pgbench and the service; CPU 1: PostgreSQL alone.\n\n")
	case 1:
		b.WriteString("CPU 0: the load generator (vegeta in the harness) and pgbench; CPU 1: the service and PostgreSQL.\n\n")
	default:
		b.WriteString("No pinning: the load generator, the service and PostgreSQL share every CPU.\n\n")
	}
	b.WriteString("Throughput ratio: service requests a second over pgbench's, in each pair, median (min–max). " +
		"CPU ratio: PostgreSQL's CPU per request under pgbench over the service's and PostgreSQL's CPU per request under the service, from /proc. " +
		"Same pace: the CPU ratio with pgbench run a second time in each slice, kept to the rate the service reached in that slice (pgbench -R), so that PostgreSQL idles between statements as it does under the service.\n\n")
	if len(list) == 0 { // -scenarios named none of the table's (-scenarios import)
		b.WriteString("None of the table's scenarios was asked for (-scenarios).\n")
	} else {
		b.WriteString("| scenario | service req/s | pgbench req/s | throughput ratio | CPU ratio | same pace | CPU ms/req: service + PostgreSQL | PostgreSQL under pgbench | same pace | p50 ms | p99 ms | at req/s | peak RSS MiB | errors |\n")
		b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	}
	for _, s := range list {
		r := results[s.key]
		pg, pgCPU := pgbenchCells(s, median(r.pairs, func(p pair) float64 { return p.pg }),
			median(r.pairs, func(p pair) float64 { return p.pgCPU }))
		errs := r.errors
		for _, p := range r.pairs {
			errs += p.errors
		}
		pacedCPU := cpuCell(s, median(r.pairs, func(p pair) float64 { return p.pacedCPU }))
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %.3f + %.3f | %s | %s | %.2f | %.2f | %s | %.1f | %d |\n", s.name,
			perSecond(median(r.pairs, func(p pair) float64 { return p.svc })), pg,
			spread(r.pairs, pair.ratio), spread(r.pairs, pair.cpuRatio), spread(r.pairs, pair.pacedRatio),
			median(r.pairs, func(p pair) float64 { return p.svcCPU }),
			median(r.pairs, func(p pair) float64 { return p.dbCPU }), pgCPU, pacedCPU,
			ms(r.p50), ms(r.p99), perSecond(r.rate), float64(r.peakRSS())/1024, errs)
	}
	for _, s := range list {
		if s.rows == 0 {
			continue
		}
		r := results[s.key]
		fmt.Fprintf(&b, "\n%s: %d rows an answer; the service streamed %.0f rows a second (pgbench read %.0f), its RSS at most %.1f MiB meanwhile.\n",
			s.name, s.rows, float64(s.rows)*median(r.pairs, func(p pair) float64 { return p.svc }),
			float64(s.rows)*median(r.pairs, func(p pair) float64 { return p.pg }), float64(r.peakRSS())/1024)
	}
	fmt.Fprintf(&b, "\nPeak RSS of the service (VmHWM) over the whole run: %.1f MiB.\n", float64(hwmKiB)/1024)
	return b.String()
}

// pairsSection lists every pair of the run, a scenario's in the order
// taken, with the CPU each side spent: what the medians of the table pass
// over (a low first pair, a phase in which one side ran slower) can be
// read from the file itself. It goes in the file only: the log has the
// same lines as they happen. Its ratio cells carry no spread, so
// againstPrevious never reads them for the main table's.
func pairsSection(list []*scenario, results map[string]*result) string {
	var b strings.Builder
	b.WriteString("## Pairs\n\nEvery pair of each scenario, in the order taken (the time is the start of its service step): " +
		"requests a second and the CPU each side spent a request, in ms.\n\n")
	b.WriteString("| scenario | pair | at (UTC) | service req/s | pgbench req/s | ratio | CPU ratio | same pace | service | its PostgreSQL | PostgreSQL under pgbench | same pace |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, s := range list {
		for i, p := range results[s.key].pairs {
			pg, pgCPU := pgbenchCells(s, p.pg, p.pgCPU)
			pacedCPU := cpuCell(s, p.pacedCPU)
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s | %s | %.3f | %.3f | %s | %s |\n", s.key, i+1,
				p.at.UTC().Format("15:04:05"), perSecond(p.svc), pg, percent(p.ratio()), percent(p.cpuRatio()), percent(p.pacedRatio()), p.svcCPU, p.dbCPU, pgCPU, pacedCPU)
		}
	}
	return b.String()
}

// pgbenchCells are a table's cells of pgbench's rate and its PostgreSQL's
// CPU a request: dashes for a scenario without a pgbench script.
func pgbenchCells(s *scenario, rate, cpu float64) (string, string) {
	if s.script == "" {
		return "–", "–"
	}
	return perSecond(rate), cpuCell(s, cpu)
}

// cpuCell is a table's cell of PostgreSQL's CPU a request under pgbench: a
// dash for a scenario without a pgbench script, and for a CPU not measured
// (-paced=false, or PostgreSQL not ours).
func cpuCell(s *scenario, cpu float64) string {
	if s.script == "" || cpu == 0 {
		return "–"
	}
	return fmt.Sprintf("%.3f", cpu)
}

// percent is a ratio in whole per cent, a dash where there is none (as in
// spread).
func percent(v float64) string {
	if v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*v)
}

func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				model = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	return fmt.Sprintf("%d × %s, %s/%s", runtime.NumCPU(), model, runtime.GOOS, runtime.GOARCH)
}

func pgVersion(e *env) string {
	var v string
	if err := e.db.NewRaw("SHOW server_version").Scan(context.Background(), &v); err != nil {
		return "PostgreSQL ?"
	}
	return "PostgreSQL " + strings.Fields(v)[0]
}
