// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
)

// BenchmarkListJSON answers GET /api/events/activity with pages of 10, 100
// and 1000 real rows and reports the allocations per listed row: they must
// not grow with the page (make bench runs it).
func BenchmarkListJSON(b *testing.B) {
	db := dbtest.New(b)
	dbtest.SeedLogs(b, db, 1100, t0)
	svc := app.NewService(db, seoul, func() time.Time { return t0 })
	f, err := handlers.New(svc, handlers.Options{Logger: quiet, RequestTimeout: requestTimeout})
	if err != nil {
		b.Fatal(err)
	}
	from := t0.Add(-48 * time.Hour).Format(time.RFC3339)
	for _, rows := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			target := fmt.Sprintf("/api/events/activity?from=%s&limit=%d", from, rows)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				res, err := f.Test(httptest.NewRequest("GET", target, nil), -1)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 || n < int64(rows*300) {
					b.Fatalf("GET %s: %d, %d bytes", target, res.StatusCode, n)
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(b.N)/float64(rows), "allocs/row")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(rows), "B/row")
		})
	}
}

// BenchmarkEventsPage renders GET /events (the whole page, its Today tab)
// over 120 tasks of the day, each with its lifecycle buttons, gzipped as a
// browser asks for it, and reports the time, the process's CPU time and the
// allocations per row. Every answer draws every row anew (no row is cached,
// DESIGN.md, Drawing rows): this is the Today page drawn cold, its reading
// of the database included (PostgreSQL's own CPU is not the process's).
func BenchmarkEventsPage(b *testing.B) {
	db := dbtest.New(b)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `INSERT INTO events (kind, status, title, description, due_at, priority, project_tag, created_at, updated_at)
		SELECT 'task', 'planned', 'Task number ' || g, '', ?::timestamptz + g * interval '5 minutes', g % 4,
			CASE WHEN g % 2 = 0 THEN 'home' END, ?::timestamptz, ?::timestamptz
		FROM generate_series(1, 120) g`, t0, t0, t0); err != nil {
		b.Fatal(err)
	}
	svc := app.NewService(db, seoul, func() time.Time { return t0 })
	f, err := handlers.New(svc, handlers.Options{Logger: quiet, RequestTimeout: requestTimeout})
	if err != nil {
		b.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu := dbtest.ProcessCPU()
	for b.Loop() {
		req := httptest.NewRequest("GET", "/events", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := f.Test(req, -1)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" || n < 4000 {
			b.Fatalf("GET /events: %d, %q, %d bytes", res.StatusCode, res.Header.Get("Content-Encoding"), n)
		}
	}
	b.ReportMetric(float64(dbtest.ProcessCPU()-cpu)/float64(b.N)/120, "cpu-ns/row")
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(b.N)/120, "allocs/row")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/120, "ns/row")
}

// BenchmarkCompressFragment answers GET /api/events/today as htmx asks for
// it (the hot path of the pages: a tab's fragment) over 10 and 40 open
// tasks of the day, with no Accept-Encoding, with gzip, and with brotli,
// and reports the bytes sent; before that, the encoding alone of the same
// fragment with gzip 5 (what compress.go does) and brotli 4 (what it chose
// not to do): what compressing costs per answer (README, Caching and
// compression).
func BenchmarkCompressFragment(b *testing.B) {
	db := dbtest.New(b)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `INSERT INTO events (kind, status, title, description, due_at, priority, project_tag, created_at, updated_at)
		SELECT 'task', 'planned', 'Task number ' || g, '', ?::timestamptz + g * interval '5 minutes', g % 4,
			CASE WHEN g % 2 = 0 THEN 'home' END, ?::timestamptz, ?::timestamptz
		FROM generate_series(1, 40) g`, t0, t0, t0); err != nil {
		b.Fatal(err)
	}
	svc := app.NewService(db, seoul, func() time.Time { return t0 })
	f, err := handlers.New(svc, handlers.Options{Logger: quiet, RequestTimeout: requestTimeout})
	if err != nil {
		b.Fatal(err)
	}
	for _, rows := range []int{1, 10, 40} {
		// The encoding alone, at compress.go's levels, on this fragment.
		req := httptest.NewRequest("GET", fmt.Sprintf("/api/events/today?limit=%d", rows), nil)
		req.Header.Set("HX-Request", "true")
		res, err := f.Test(req, -1)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		for _, enc := range []struct {
			name string
			fn   func([]byte, []byte) []byte
		}{
			{"gzip5", func(dst, src []byte) []byte { return fasthttp.AppendGzipBytesLevel(dst, src, 5) }},
			{"gzip1", func(dst, src []byte) []byte { return fasthttp.AppendGzipBytesLevel(dst, src, 1) }},
			{"br4", func(dst, src []byte) []byte { return fasthttp.AppendBrotliBytesLevel(dst, src, 4) }},
		} {
			b.Run(fmt.Sprintf("rows=%d/encode=%s", rows, enc.name), func(b *testing.B) {
				var out []byte
				for b.Loop() {
					out = enc.fn(out[:0], body)
				}
				b.ReportMetric(float64(len(body)), "in-bytes")
				b.ReportMetric(float64(len(out)), "bytes")
			})
		}
		for _, accept := range []string{"", "gzip", "br"} {
			b.Run(fmt.Sprintf("rows=%d/accept=%s", rows, accept), func(b *testing.B) {
				target := fmt.Sprintf("/api/events/today?limit=%d", rows)
				var n int64
				for b.Loop() {
					req := httptest.NewRequest("GET", target, nil)
					req.Header.Set("HX-Request", "true")
					if accept != "" {
						req.Header.Set("Accept-Encoding", accept)
					}
					res, err := f.Test(req, -1)
					if err != nil {
						b.Fatal(err)
					}
					n, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != 200 || (res.Header.Get("Content-Encoding") == "gzip") != (accept == "gzip" && n < 20000) {
						b.Fatalf("GET %s (%s): %d, %q, %d bytes", target, accept, res.StatusCode, res.Header.Get("Content-Encoding"), n)
					}
				}
				b.ReportMetric(float64(n), "bytes")
			})
		}
	}
}
