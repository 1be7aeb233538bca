// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

type report struct {
	o             options
	metrics       *vegeta.Metrics
	load          *load
	before, after sample
	settled       bool
	peakRSS       int64
	edgeLines     int // requests nginx logged: the load went through the edge
	db            dbCheck
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// failures are the checks the run did not pass.
func (r report) failures() []string {
	var f []string
	if n := len(r.load.errs); n > 0 {
		f = append(f, fmt.Sprintf("%d kinds of errors (see the table)", n))
	}
	if r.metrics.Success < 1 {
		f = append(f, fmt.Sprintf("success ratio %.5f, want 1", r.metrics.Success))
	}
	if !r.settled {
		f = append(f, fmt.Sprintf("not back at the starting level within %s: goroutines %d -> %d, heap %s -> %s",
			r.o.settle, r.before.goroutines, r.after.goroutines, mib(r.before.heap), mib(r.after.heap)))
	}
	if r.db.missing+r.db.extra+r.db.opMismatch+r.db.statusBroken > 0 {
		f = append(f, fmt.Sprintf("the database differs from the acknowledged writes: %+v", r.db))
	}
	return f
}

func (r report) markdown() string {
	var b strings.Builder
	m := r.metrics
	fmt.Fprintf(&b, "\n## Soak: %s at %d requests a second through nginx (%s, %d cores, %s)\n\n", r.o.duration, r.o.rate, time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(), runtime.Version())
	fmt.Fprintf(&b, "| measure | value |\n|---|---|\n")
	fmt.Fprintf(&b, "| requests | %d (%.1f/s achieved); nginx's access log has %d lines |\n", m.Requests, m.Throughput, r.edgeLines)
	fmt.Fprintf(&b, "| success ratio | %.5f |\n", m.Success)
	fmt.Fprintf(&b, "| latency p50 / p99 / max | %s / %s / %s |\n", m.Latencies.P50.Round(10*time.Microsecond), m.Latencies.P99.Round(10*time.Microsecond), m.Latencies.Max.Round(10*time.Microsecond))
	fmt.Fprintf(&b, "| creates acknowledged | %d |\n", len(r.load.created))
	fmt.Fprintf(&b, "| lifecycle operations acknowledged | %d |\n", r.load.opsOK)
	fmt.Fprintf(&b, "| events / history rows stored | %d / %d |\n", r.db.events, r.db.history)
	fmt.Fprintf(&b, "| acknowledged but missing / stored but not acknowledged | %d / %d |\n", r.db.missing, r.db.extra)
	fmt.Fprintf(&b, "| events whose history differs from the acknowledged operations / whose status is not their last step's | %d / %d |\n", r.db.opMismatch, r.db.statusBroken)
	fmt.Fprintf(&b, "| goroutines before / after | %d / %d |\n", r.before.goroutines, r.after.goroutines)
	fmt.Fprintf(&b, "| heap in use before / after (after a collection) | %s / %s |\n", mib(r.before.heap), mib(r.after.heap))
	fmt.Fprintf(&b, "| resident memory before / peak / after | %s / %s / %s |\n", mib(r.before.rss), mib(r.peakRSS), mib(r.after.rss))
	fmt.Fprintf(&b, "\n| request | sent | answers |\n|---|---|---|\n")
	var kinds []string
	for k := range r.load.sent {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		var codes []string
		for c, n := range r.load.codes {
			if strings.HasPrefix(c, k+" ") {
				codes = append(codes, fmt.Sprintf("%s × %d", strings.TrimPrefix(c, k+" "), n))
			}
		}
		sort.Strings(codes)
		fmt.Fprintf(&b, "| %s | %d | %s |\n", k, r.load.sent[k], strings.Join(codes, ", "))
	}
	if len(r.load.errs) > 0 {
		fmt.Fprintf(&b, "\n| error | count |\n|---|---|\n")
		for e, n := range r.load.errs {
			fmt.Fprintf(&b, "| %s | %d |\n", strings.ReplaceAll(e, "|", "\\|"), n)
		}
	}
	if f := r.failures(); len(f) == 0 {
		fmt.Fprintf(&b, "\nAll checks passed: no error, back at the starting level, the database holds exactly the acknowledged writes.\n")
	}
	return b.String()
}
