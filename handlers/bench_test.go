package handlers_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"events/app"
	"events/app/dbtest"
	"events/handlers"
)

// BenchmarkListJSON answers GET /api/events/activity with pages of 10, 100
// and 1000 real rows and reports the allocations per listed row: they must
// not grow with the page (make bench runs it).
func BenchmarkListJSON(b *testing.B) {
	db := dbtest.New(b)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `INSERT INTO events (kind, status, title, description, started_at, ended_at, project_tag, created_at, updated_at)
		SELECT 'activity_log', 'done', 'Worked on item ' || g, 'notes of ' || g,
			?::timestamptz - g * interval '1 minute' - interval '20 minutes', ?::timestamptz - g * interval '1 minute',
			CASE WHEN g % 2 = 0 THEN 'work' END, ?::timestamptz, ?::timestamptz
		FROM generate_series(1, 1100) g`, t0, t0, t0, t0); err != nil {
		b.Fatal(err)
	}
	svc := app.NewService(db, seoul, func() time.Time { return t0 })
	f, err := handlers.New(svc, handlers.Options{Logger: quiet, RequestTimeout: 5 * time.Second})
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
// over 120 tasks and calendar entries of the day, each with its lifecycle
// buttons, and reports the time and allocations per row.
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
	f, err := handlers.New(svc, handlers.Options{Logger: quiet, RequestTimeout: 5 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		res, err := f.Test(httptest.NewRequest("GET", "/events", nil), -1)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || n < 120*500 {
			b.Fatalf("GET /events: %d, %d bytes", res.StatusCode, n)
		}
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(b.N)/120, "allocs/row")
}
