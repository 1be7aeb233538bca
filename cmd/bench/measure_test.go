// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"events/cmd/internal/harness"
)

// TestEveryKeepsRatesBelowOneASecond: the latency step of a scenario that
// answers about once a second runs at half of that, not at all of it.
func TestEveryKeepsRatesBelowOneASecond(t *testing.T) {
	for _, c := range []struct {
		rate float64
		gap  time.Duration
	}{
		{0.52, 1923076923 * time.Nanosecond},
		{2.5, 400 * time.Millisecond},
		{600, 1666666 * time.Nanosecond},
	} {
		// the wait before the second request, the first one sent at 0
		wait, stop := every(c.rate).Pace(0, 1)
		if stop || wait != 2*c.gap {
			t.Errorf("every(%v): second request after %v (stop %v), want %v", c.rate, wait, stop, 2*c.gap)
		}
	}
}

// TestPerSecondShowsSlowRates: below ten a second a rate keeps two decimals,
// so an export's 1.05 a second does not read as pgbench's half.
func TestPerSecondShowsSlowRates(t *testing.T) {
	for v, want := range map[float64]string{1.05: "1.05", 0.524: "0.52", 2.2: "2.20", 9.994: "9.99", 10.4: "10", 599.6: "600"} {
		if got := perSecond(v); got != want {
			t.Errorf("perSecond(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestPickLeavesTheFloorOut: a run without -scenarios runs every scenario
// but the optional ones (the floor, /readyz, and the page not compressed);
// naming one runs it, in the table's order.
func TestPickLeavesTheFloorOut(t *testing.T) {
	keys := func(list []*scenario) []string {
		var out []string
		for _, s := range list {
			out = append(out, s.key)
		}
		return out
	}
	all := pick(scenarios(), "")
	if len(all) != len(scenarios())-2 || slices.Contains(keys(all), "readyz") || slices.Contains(keys(all), "page-plain") || !slices.Contains(keys(all), "export-year") {
		t.Errorf("default run: %v", keys(all))
	}
	if got := keys(pick(scenarios(), "inbox,readyz,healthz")); !slices.Equal(got, []string{"healthz", "readyz", "inbox"}) {
		t.Errorf("-scenarios inbox,readyz,healthz: %v", got)
	}
	if got := keys(pick(scenarios(), "page-plain,page")); !slices.Equal(got, []string{"page", "page-plain"}) {
		t.Errorf("-scenarios page-plain,page: %v", got)
	}
}

// TestPairSumsItsSlices: a pair's figures are its slices' sums, not a mean
// of each slice's rates.
func TestPairSumsItsSlices(t *testing.T) {
	tick := func(ms float64) int64 { return int64(ms * harness.TicksPerSecond / 1000) }
	tot := totals{
		// two service slices: 1,000 requests in 1 s, then 500 in 1 s with 10 refused
		requests: 1500, answered: 1490, svcTime: 2 * time.Second,
		svcTicks: tick(600), dbTicks: tick(900), rssKiB: 40 << 10,
		// two pgbench windows: 3,000 transactions in 2 s, 1,200 ms of PostgreSQL's CPU
		flat: pgbenchRun{tx: 3000, time: 2 * time.Second, cpu: 1200 * time.Millisecond},
		// two more at the service's rate: 1,490 transactions in 2 s, 800 ms
		paced: pgbenchRun{tx: 1490, time: 2 * time.Second, cpu: 800 * time.Millisecond},
	}
	p := tot.pair(1)
	if !near(p.svc, 745) || !near(p.pg, 1500) || p.errors != 10 || p.rssKiB != 40<<10 {
		t.Errorf("rates: service %v/s, pgbench %v/s, %d errors, rss %d", p.svc, p.pg, p.errors, p.rssKiB)
	}
	if !near(p.svcCPU, 0.4) || !near(p.dbCPU, 0.6) || !near(p.pgCPU, 0.4) {
		t.Errorf("CPU a request: service %v, its PostgreSQL %v, pgbench's %v", p.svcCPU, p.dbCPU, p.pgCPU)
	}
	if !near(p.cpuRatio(), 0.4) || !near(p.ratio(), 745.0/1500) {
		t.Errorf("ratios %v, %v", p.ratio(), p.cpuRatio())
	}
	if !near(p.pacedCPU, 800.0/1490) || !near(p.pacedRatio(), 800.0/1490) {
		t.Errorf("at the same pace: %v ms, ratio %v", p.pacedCPU, p.pacedRatio())
	}
	if flat := (totals{requests: 10, svcTicks: 1, dbTicks: 1, flat: tot.flat}).pair(1); flat.pacedRatio() != 0 {
		t.Errorf("-paced=false: a ratio at the same pace of %v", flat.pacedRatio())
	}
	// complete / reactivate: a transaction is two requests
	if p2 := tot.pair(2); !near(p2.pg, 3000) || !near(p2.pgCPU, 0.2) {
		t.Errorf("two requests a transaction: %v/s, %v ms", p2.pg, p2.pgCPU)
	}
}

// TestSlicesAreWholeSeconds: pgbench -T counts whole seconds, so a slice is
// the step over -slices rounded, and at least one second.
func TestSlicesAreWholeSeconds(t *testing.T) {
	year := &scenario{minStep: 10 * time.Second}
	page := &scenario{}
	for _, c := range []struct {
		step   time.Duration
		slices int
		s      *scenario
		want   time.Duration
	}{
		{3 * time.Second, 3, page, time.Second},
		{3 * time.Second, 3, year, 3 * time.Second},
		{3 * time.Second, 1, page, 3 * time.Second},
		{3 * time.Second, 6, page, time.Second},
		{20 * time.Second, 3, page, 7 * time.Second},
	} {
		e := &env{o: options{step: c.step, slices: c.slices}}
		if got := c.s.sliceOf(e); got != c.want {
			t.Errorf("step %v, %d slices, min step %v: slice %v, want %v", c.step, c.slices, c.s.minStep, got, c.want)
		}
	}
}

// TestPacedPgbenchKeepsToARate: with -paced, a pgbench slice runs at the
// service's rate (-R, transactions a second); flat out, it has no -R. Both
// log every transaction.
func TestPacedPgbenchKeepsToARate(t *testing.T) {
	e := &env{o: options{conns: 4, pin: true, dir: "bench"}, sockDir: "/run/pg"}
	flat := pgbenchArgs(e, "bench/inbox.pgbench", 2*time.Second, 0, "bench/log/tx")
	want := "-n -M simple -c 4 -j 1 -T 2 -l --log-prefix=bench/log/tx -f bench/inbox.pgbench -h /run/pg -p 5432 -U events events"
	if got := strings.Join(flat, " "); got != want {
		t.Errorf("flat out:\n got %s\nwant %s", got, want)
	}
	paced := pgbenchArgs(e, "bench/inbox.pgbench", 2*time.Second, 1390.46, "bench/log/tx")
	want = "-n -M simple -c 4 -j 1 -T 2 -R 1390.5 -l --log-prefix=bench/log/tx -f bench/inbox.pgbench -h /run/pg -p 5432 -U events events"
	if got := strings.Join(paced, " "); got != want {
		t.Errorf("paced:\n got %s\nwant %s", got, want)
	}
}

// TestAttackReadsAnswersCompressed: a target of static that names no
// encoding asks for gzip and its answer is read as it comes, compressed, not unzipped by
// the load generator; one that names its own keeps it; the targets' shared
// header is not written to.
func TestAttackReadsAnswersCompressed(t *testing.T) {
	page := []byte(strings.Repeat(`<li class="event-row">a row of the Today page</li>`, 2000))
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	_, _ = zw.Write(page)
	_ = zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(zipped.Bytes())
			return
		}
		_, _ = w.Write(page)
	}))
	defer srv.Close()

	for _, c := range []struct {
		header http.Header
		want   int
	}{
		{nil, zipped.Len()},
		{http.Header{"Accept": {"text/html"}}, zipped.Len()},
		{http.Header{"Accept-Encoding": {"identity"}}, len(page)},
	} {
		shared := c.header.Clone()
		tr := static(func(*env) []vegeta.Target { return []vegeta.Target{{Method: "GET", URL: srv.URL, Header: shared}} })(nil)
		atk := vegeta.NewAttacker(vegeta.Workers(1), vegeta.MaxWorkers(1), vegeta.KeepAlive(true))
		m := attack(atk, tr, vegeta.Rate{Freq: 20, Per: time.Second}, 200*time.Millisecond, "compressed")
		if m.Requests == 0 || m.Success != 1 {
			t.Fatalf("header %v: %d requests, success %v", c.header, m.Requests, m.Success)
		}
		if got := int(m.BytesIn.Total / m.Requests); got != c.want {
			t.Errorf("header %v: read %d bytes an answer, want %d (page %d, gzipped %d)", c.header, got, c.want, len(page), zipped.Len())
		}
		if !reflect.DeepEqual(shared, c.header.Clone()) {
			t.Errorf("header %v: the target's header became %v", c.header, shared)
		}
	}
}

func TestExplainKeepsToAnExportsRangeAndFirstBatch(t *testing.T) {
	export := pick(scenarios(), "export")[0]
	export.sql = []string{
		"SET LOCAL statement_timeout = 9979; SELECT coalesce(min(id) - 1, 0) FROM events",
		"SET LOCAL statement_timeout = 9842; SELECT e.id FROM events e WHERE e.id > 0 ORDER BY e.id LIMIT 1000",
		"SET LOCAL statement_timeout = 9701; SELECT e.id FROM events e WHERE e.id > 1000 ORDER BY e.id LIMIT 1000",
	}
	want := []string{
		"SELECT coalesce(min(id) - 1, 0) FROM events",
		"SELECT e.id FROM events e WHERE e.id > 0 ORDER BY e.id LIMIT 1000",
	}
	if got := export.explained(); !slices.Equal(got, want) {
		t.Errorf("export explains %q, want its range and first batch %q", got, want)
	}

	inbox := pick(scenarios(), "inbox")[0]
	inbox.sql = []string{"BEGIN", "SET LOCAL statement_timeout = 9979; WITH x AS (SELECT 1) SELECT * FROM x", "SELECT 2", "COMMIT"}
	if got := inbox.explained(); !slices.Equal(got, []string{"WITH x AS (SELECT 1) SELECT * FROM x", "SELECT 2"}) {
		t.Errorf("a listing explains %q, want every query and nothing else", got)
	}

	record := pick(scenarios(), "record")[0]
	record.sql = []string{"SELECT 1"}
	if got := record.explained(); got != nil {
		t.Errorf("a scenario without explain explains %q", got)
	}
}
