// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"events/cmd/internal/harness"
)

var (
	overloadDuration    = flag.Duration("overload-duration", 20*time.Second, "duration of the overload step (0: no overload step)")
	overloadConnections = flag.Int("overload-connections", 500, "keep-alive connections of the overload step")
)

// overloadResult is what one overload step measured.
type overloadResult struct {
	ok, busy           []time.Duration // latencies of the 2xx answers and of the 503s
	other              int             // other statuses and transport errors
	noRetryAfter       int             // 503s without Retry-After
	health             []time.Duration // /healthz answers
	healthFailed       int             // /healthz probes that failed or were not 200
	rssBefore, rssPeak int64           // KiB
	rssAfter           int64
	elapsed            time.Duration
}

// overload drives a mixed load (Today, Inbox, a quick record, the /events
// page) over -overload-connections keep-alive connections for
// -overload-duration: each connection sends its next request as soon as the
// last is answered, a 503 included (no back-off: the worst case). A
// separate client probes /healthz every 100 ms, and the service's VmRSS is
// sampled every 250 ms, from before the load to 5 s after it. The rows the
// quick records wrote are removed afterwards.
func overload(ctx context.Context, e *env) (string, error) {
	if *overloadDuration <= 0 {
		return "", nil
	}
	conns := *overloadConnections
	targets := slices.Concat(
		get("/api/events/today", nil)(e),
		get("/api/events/inbox", nil)(e),
		post("/api/events", recordBody, jsonHeader)(e),
		get("/events", pageHeader)(e),
	)
	say("overload: %d connections for %s (Today, Inbox, quick record, /events page)", conns, *overloadDuration)
	r, err := runOverload(ctx, e.service.Base, e.service.Pid(), targets, conns, *overloadDuration)
	if cerr := cleanup(ctx, e); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	sec := r.markdown(conns, *overloadDuration)
	say("overload: 2xx %d (p99 %.1f ms), 503 %d (p99 %.1f ms), other %d; RSS %.1f / %.1f / %.1f MiB; /healthz p99 %.1f ms",
		len(r.ok), ms(pct(r.ok, 99)), len(r.busy), ms(pct(r.busy, 99)), r.other,
		mib(r.rssBefore), mib(r.rssPeak), mib(r.rssAfter), ms(pct(r.health, 99)))
	return sec, nil
}

// runOverload is the measurement itself, apart from the bench's env.
func runOverload(ctx context.Context, base string, pid int, targets []vegeta.Target, conns int, d time.Duration) (*overloadResult, error) {
	r := &overloadResult{rssBefore: harness.StatusKiB(pid, "VmRSS")}
	r.rssPeak = r.rssBefore

	client := &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
			MaxConnsPerHost:     conns,
			MaxIdleConnsPerHost: conns,
			MaxIdleConns:        conns,
			DisableCompression:  true,
		},
	}
	defer client.CloseIdleConnections()
	probe := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	defer probe.CloseIdleConnections()

	loadCtx, stopLoad := context.WithTimeout(ctx, d)
	defer stopLoad()
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		next    atomic.Uint64
		started = time.Now()
	)
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ok, busy []time.Duration
			var other, noRetry int
			for loadCtx.Err() == nil {
				t := targets[next.Add(1)%uint64(len(targets))]
				req, err := t.Request()
				if err != nil {
					other++
					continue
				}
				t0 := time.Now()
				res, err := client.Do(req.WithContext(loadCtx))
				if err == nil {
					_, err = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				took := time.Since(t0)
				switch {
				case loadCtx.Err() != nil && err != nil:
					// cut by the end of the step: not counted
				case err != nil:
					other++
				case res.StatusCode >= 200 && res.StatusCode < 300:
					ok = append(ok, took)
				case res.StatusCode == http.StatusServiceUnavailable:
					busy = append(busy, took)
					if res.Header.Get("Retry-After") == "" {
						noRetry++
					}
				default:
					other++
				}
			}
			mu.Lock()
			r.ok, r.busy = append(r.ok, ok...), append(r.busy, busy...)
			r.other += other
			r.noRetryAfter += noRetry
			mu.Unlock()
		}()
	}

	// /healthz every 100 ms and VmRSS every 250 ms, until the load ends.
	stopRSS, peak := sampleRSS(pid, 250*time.Millisecond)
	var side sync.WaitGroup
	side.Add(1)
	go func() {
		defer side.Done()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-loadCtx.Done():
				return
			case <-tick.C:
			}
			t0 := time.Now()
			res, err := probe.Get(base + "/healthz")
			if err == nil {
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
			took := time.Since(t0)
			mu.Lock()
			if err != nil || res.StatusCode != http.StatusOK {
				r.healthFailed++
			} else {
				r.health = append(r.health, took)
			}
			mu.Unlock()
		}
	}()
	wg.Wait()
	r.elapsed = time.Since(started)
	side.Wait()
	stopRSS()
	r.rssPeak = max(r.rssPeak, *peak)
	client.CloseIdleConnections()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case <-time.After(5 * time.Second):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	r.rssAfter = harness.StatusKiB(pid, "VmRSS")
	slices.Sort(r.ok)
	slices.Sort(r.busy)
	slices.Sort(r.health)
	if len(r.ok) == 0 {
		return r, fmt.Errorf("overload: no request succeeded (%d refused, %d other errors)", len(r.busy), r.other)
	}
	return r, nil
}

// markdown is the section of the bench's output.
func (r *overloadResult) markdown(conns int, d time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Overload: %d connections\n\n", conns)
	fmt.Fprintf(&b, "A mixed load (Today, Inbox, a quick record, the `/events` page, in turn) over %d keep-alive "+
		"connections for %s, each sending its next request as soon as the last is answered (a 503 too: no back-off); "+
		"`/healthz` probed every 100 ms by a client of its own; VmRSS sampled every 250 ms.\n\n", conns, d)
	b.WriteString("| measure | value |\n|---|--:|\n")
	secs := r.elapsed.Seconds()
	row := func(k, f string, args ...any) { fmt.Fprintf(&b, "| %s | "+f+" |\n", append([]any{k}, args...)...) }
	row("RSS before / peak during / 5 s after", "%.1f / %.1f / %.1f MiB", mib(r.rssBefore), mib(r.rssPeak), mib(r.rssAfter))
	row("answered 2xx", "%d (%.0f/s)", len(r.ok), float64(len(r.ok))/secs)
	row("2xx p50 / p99", "%.2f / %.2f ms", ms(pct(r.ok, 50)), ms(pct(r.ok, 99)))
	row("refused 503", "%d (%.0f/s)", len(r.busy), float64(len(r.busy))/secs)
	row("503 p50 / p99", "%.2f / %.2f ms", ms(pct(r.busy, 50)), ms(pct(r.busy, 99)))
	row("503 without Retry-After", "%d", r.noRetryAfter)
	row("other errors (statuses, transport)", "%d", r.other)
	row("`/healthz` p50 / p99 / max", "%.2f / %.2f / %.2f ms", ms(pct(r.health, 50)), ms(pct(r.health, 99)), ms(pct(r.health, 100)))
	row("`/healthz` probes failed", "%d of %d", r.healthFailed, r.healthFailed+len(r.health))
	return b.String()
}

// pct is the p-th percentile of sorted durations (100: the largest).
func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	return sorted[min(max(i-1, 0), len(sorted)-1)]
}

func mib(kib int64) float64 { return float64(kib) / 1024 }
