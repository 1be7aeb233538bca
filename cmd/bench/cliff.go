// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"
	"golang.org/x/sys/unix"

	"events/app"
	"events/cmd/internal/harness"
)

// The cliff line (issue 16, point 4): after the main run, a second database
// in the same cluster holds -cliff events, a second service runs on it, and
// each listing's p50 at a moderate constant rate is taken on both services
// in turn, pair after pair. A listing served by its index answers as fast
// over ten million events as over one: the table gives the ratio of the
// p50s and the plans at the larger size.

const (
	cliffDatabase = "events_cliff"
	cliffRate     = 50 // requests a second: moderate, far below saturation
	cliffStep     = 3 * time.Second
	cliffPairs    = 5
)

// cliffListings are the listings the line compares.
var cliffListings = []string{"today", "inbox", "activity", "upcoming", "summary", "search-en", "search-ko", "page",
	"list", "list-deep", "list-kind", "list-kind-deep", "list-status", "list-project", "list-source", "list-window"}

func cliff(ctx context.Context, e *env) (string, error) {
	if e.o.cliff <= 0 {
		return "", nil
	}
	n := max(10, e.o.cliff/10*10)
	c, seeded, reused, err := cliffDB(ctx, e, n)
	if err != nil {
		return "", err
	}
	defer c.db.Close()

	bin, err := filepath.Abs(filepath.Join(e.o.dir, "events")) // built by main
	if err != nil {
		return "", err
	}
	if c.now, err = seedClock(ctx, c.db); err != nil {
		return "", err
	}
	if c.service, err = harness.Start(ctx, bin, harness.Options{Env: c.serviceEnv(), CPU: e.o.serviceCPU()}); err != nil {
		return "", err
	}
	defer c.service.Stop()
	say("cliff: service pid %d on %s over %d events", c.service.Pid(), c.service.Base, n)

	// the same scenarios twice: one list aimed at each service
	pick := func() []*scenario {
		return slices.DeleteFunc(scenarios(), func(s *scenario) bool { return !slices.Contains(cliffListings, s.key) })
	}
	small, large := pick(), pick()
	// the plans on both: the buffers a listing touches do not move with
	// the load of the machine, its p50 does
	plans, smallPlans := map[string]string{}, map[string]string{}
	for _, x := range []struct {
		e     *env
		list  []*scenario
		plans map[string]string
	}{{e, small, smallPlans}, {c, large, plans}} {
		for _, s := range x.list {
			if s.sql, _, _, err = logged(ctx, x.e, s.sample(x.e)[0]); err != nil {
				return "", fmt.Errorf("cliff: capture %s: %w", s.key, err)
			}
			s.explain = true
			if x.plans[s.key], err = explain(ctx, x.e, []*scenario{s}); err != nil {
				return "", err
			}
		}
	}

	type pair struct{ small, large time.Duration }
	results := map[string][]pair{}
	// a listing whose requests fail at the cliff rate is a finding of the
	// line, not the end of the run: its row says so, the others go on
	failed := map[string]string{}
	for _, s := range small {
		l := large[slices.IndexFunc(large, func(x *scenario) bool { return x.key == s.key })]
		if err := cliffPairsOf(ctx, e, c, s, l, n, func(a, b time.Duration) { results[s.key] = append(results[s.key], pair{a, b}) }); err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			say("cliff %-9s failed: %v", s.key, err)
			failed[s.key] = err.Error()
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "\n## No cliffs: %s events against %s\n\n", thousands(n), thousands(e.o.events))
	how := "seeded in " + seeded.Round(time.Second).String()
	if reused {
		how = "seeded by an earlier run in " + seeded.Round(time.Second).String()
	}
	fmt.Fprintf(&b, "A second database in the same cluster, %s (%s; what the seed does at that size: README, Performance), "+
		"served by a second service like the first. Each listing's p50 at a constant %d requests a second for %d s, "+
		"on the %s service, then on the %s one: %d pairs after one step each not counted. The ratio is the "+
		"larger database's p50 over the smaller's, the median of the pairs and their min–max. The buffers are the shared buffers "+
		"the listing's statements touch under EXPLAIN (ANALYZE, BUFFERS) on each database, which other work on the machine does not move; "+
		"the plans are those at %s.\n\n",
		cliffDatabase, how, cliffRate, int(cliffStep.Seconds()), thousands(e.o.events), thousands(n), cliffPairs, thousands(n))
	fmt.Fprintf(&b, "| listing | p50 ms at %s | p50 ms at %s | ratio (median) | ratio (min–max) | within 1.5× | buffers at %s / %s | read by (plan at %s) |\n",
		short(e.o.events), short(n), short(e.o.events), short(n), short(n))
	b.WriteString("|---|--:|--:|--:|--:|:-:|--:|---|\n")
	for _, s := range small {
		ps := results[s.key]
		if why, ok := failed[s.key]; ok {
			fmt.Fprintf(&b, "| %s | – | – | – | – | **no**: %s | %d / %d | %s |\n", s.name, strings.ReplaceAll(why, "|", "/"),
				buffers(smallPlans[s.key]), buffers(plans[s.key]), readBy(plans[s.key]))
			continue
		}
		rs := make([]float64, len(ps))
		for i, p := range ps {
			rs[i] = ratio(ms(p.large), ms(p.small))
		}
		med := median(rs, func(x float64) float64 { return x })
		within := "yes"
		if med > 1.5 {
			within = "**no**"
		}
		fmt.Fprintf(&b, "| %s | %.2f | %.2f | %.2f | %.2f–%.2f | %s | %d / %d | %s |\n", s.name,
			median(ps, func(p pair) float64 { return ms(p.small) }),
			median(ps, func(p pair) float64 { return ms(p.large) }),
			med, slices.Min(rs), slices.Max(rs), within, buffers(smallPlans[s.key]), buffers(plans[s.key]), readBy(plans[s.key]))
	}
	fmt.Fprintf(&b, "\n### Plans at %s events\n\n", thousands(n))
	for _, s := range large {
		b.WriteString(strings.Replace(plans[s.key], "### ", "#### ", -1))
	}
	return b.String(), nil // printed with the table
}

// cliffPairsOf measures one listing on both services: a first step on
// each, not counted (the pages of the larger database come into memory,
// the connections open), then cliffPairs pairs, each handed to add.
func cliffPairsOf(ctx context.Context, e, c *env, s, l *scenario, n int, add func(a, b time.Duration)) error {
	for _, x := range []struct {
		e *env
		s *scenario
	}{{e, s}, {c, l}} {
		if _, err := p50At(x.e, x.s); err != nil {
			return err
		}
	}
	for range cliffPairs {
		if err := ctx.Err(); err != nil {
			return err
		}
		a, err := p50At(e, s)
		if err != nil {
			return fmt.Errorf("at %d: %w", e.o.events, err)
		}
		b, err := p50At(c, l)
		if err != nil {
			return fmt.Errorf("at %d: %w", n, err)
		}
		add(a, b)
		say("cliff %-9s p50 %6.2f ms at %d, %6.2f ms at %d: %.2f×  load %s", s.key, ms(a), e.o.events, ms(b), n, ratio(ms(b), ms(a)), loadavg())
	}
	return nil
}

// p50At is the p50 of one step at the cliff rate.
func p50At(e *env, s *scenario) (time.Duration, error) {
	atk := vegeta.NewAttacker(vegeta.Workers(4), vegeta.MaxWorkers(16), vegeta.Connections(16), vegeta.MaxConnections(16),
		vegeta.KeepAlive(true), vegeta.Timeout(30*time.Second))
	m := attack(atk, s.targeter(e), vegeta.Rate{Freq: cliffRate, Per: time.Second}, cliffStep, s.key)
	if m.Success < 1 {
		return 0, fmt.Errorf("%d of %d requests failed (%v; %v)", m.Requests-uint64(float64(m.Requests)*m.Success+0.5), m.Requests, m.StatusCodes, m.Errors)
	}
	return m.Latencies.P50, nil
}

// cliffDB opens the cliff database, seeding it first unless an earlier run
// left it with n events. The env it returns is the main one aimed at it.
func cliffDB(ctx context.Context, e *env, n int) (c *env, seeded time.Duration, reused bool, err error) {
	u, err := url.Parse(e.dsn)
	if err != nil {
		return nil, 0, false, err
	}
	u.Path = "/" + cliffDatabase
	c = &env{}
	*c = *e
	c.dsn, c.o.events, c.service = u.String(), n, nil
	open := func() *bun.DB {
		sqldb := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(c.dsn), pgdriver.WithApplicationName("bench"),
			pgdriver.WithConnParams(app.SessionParams(nil)), pgdriver.WithTimeout(2*time.Hour)))
		sqldb.SetMaxOpenConns(4)
		return bun.NewDB(sqldb, pgdialect.New())
	}

	var exists bool
	if err := e.db.NewRaw("SELECT EXISTS (SELECT FROM pg_database WHERE datname = ?)", cliffDatabase).Scan(ctx, &exists); err != nil {
		return nil, 0, false, err
	}
	if exists {
		c.db = open()
		var have int
		var secs float64
		_ = c.db.NewRaw("SELECT events FROM bench_seed").Scan(ctx, &have)
		_ = c.db.NewRaw("SELECT seconds FROM bench_cliff").Scan(ctx, &secs)
		if have == n && secs > 0 {
			// migrations added since it was seeded (the service refuses a
			// database that lacks one)
			if err := app.Migrate(ctx, c.db); err != nil {
				return nil, 0, false, err
			}
			say("cliff: reusing %s with %d events (seeded in %s)", cliffDatabase, n, secDuration(secs).Round(time.Second))
			return c, secDuration(secs), true, nil
		}
		c.db.Close()
		say("cliff: %s holds %d events, not %d: made again", cliffDatabase, have, n)
		if _, err := e.db.ExecContext(ctx, "DROP DATABASE "+cliffDatabase+" WITH (FORCE)"); err != nil {
			return nil, 0, false, err
		}
	}
	if _, err := e.db.ExecContext(ctx, "CREATE DATABASE "+cliffDatabase); err != nil {
		return nil, 0, false, err
	}
	// The seed's own connections, closed after it: while it runs, they may
	// use every CPU even where PostgreSQL is pinned to one.
	sdb := open()
	defer sdb.Close()
	if err := app.Migrate(ctx, sdb); err != nil {
		return nil, 0, false, err
	}
	var onConn func(int)
	if e.o.pin && e.postgres != 0 {
		onConn = func(pid int) {
			var all unix.CPUSet
			for i := range runtime.NumCPU() {
				all.Set(i)
			}
			if err := unix.SchedSetaffinity(pid, &all); err != nil {
				say("cliff: backend %d stays on its CPU: %v", pid, err)
			}
		}
	}
	say("cliff: seeding %d events into %s", n, cliffDatabase)
	took, err := seedWith(ctx, sdb, n, say, onConn)
	if err != nil {
		return nil, 0, false, err
	}
	if _, err := sdb.ExecContext(ctx, fmt.Sprintf("CREATE TABLE bench_cliff (seconds float8 NOT NULL); INSERT INTO bench_cliff VALUES (%f)", took.Seconds())); err != nil {
		return nil, 0, false, err
	}
	say("cliff: seeded %d events in %s", n, took.Round(time.Second))
	c.db = open()
	return c, took, false, nil
}

func secDuration(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

var (
	indexScan = regexp.MustCompile(`(?:Index Scan|Index Only Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) (\w+)`)
	seqScan   = regexp.MustCompile(`Seq Scan on (\w+)`)
)

// buffers is the shared buffers (hit and read) the statements of a
// scenario's plans touch: the first Buffers line of each plan is its root's,
// which counts its children's.
func buffers(plans string) int {
	total := 0
	for _, plan := range strings.Split(plans, "```text\n")[1:] {
		if m := bufferLine.FindStringSubmatch(plan); m != nil {
			hit, _ := strconv.Atoi(m[1])
			read, _ := strconv.Atoi(m[3])
			total += hit + read
		}
	}
	return total
}

var bufferLine = regexp.MustCompile(`Buffers: shared(?: hit=(\d+))?( read=(\d+))?`)

// readBy names the indexes a plan reads and any table it reads whole.
func readBy(plan string) string {
	var by []string
	for _, m := range indexScan.FindAllStringSubmatch(plan, -1) {
		if !slices.Contains(by, "`"+m[1]+"`") {
			by = append(by, "`"+m[1]+"`")
		}
	}
	for _, m := range seqScan.FindAllStringSubmatch(plan, -1) {
		if s := "**whole " + m[1] + "**"; !slices.Contains(by, s) {
			by = append(by, s)
		}
	}
	if len(by) == 0 {
		return "–"
	}
	return strings.Join(by, ", ")
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// short is 1M, 10M, 250k, 900.
func short(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}
