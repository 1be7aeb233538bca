// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"events/app"
	"events/internal/dbtest"
)

// TestExportMemoryStaysFlat runs the real binary and exports 10,000 and
// then 100,000 events (NDJSON, each with its history: some 90 MB), reading
// the answer as fast as it comes while sampling the process's resident
// memory from /proc. The export streams in batches, so ten times the events
// costs no more memory: the peak at 100,000 stays within a few MB of the
// peak at 10,000 (a server that held the file would need its ~90 MB).
func TestExportMemoryStaysFlat(t *testing.T) {
	needPostgres(t)
	if testing.Short() {
		t.Skip("exports 100,000 events")
	}
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.NewURL(t)
	db, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	insert := func(from, to int) {
		t.Helper()
		if _, err := db.ExecContext(ctx, `
WITH e AS (
  INSERT INTO events (kind, status, title, description, started_at, ended_at, project_tag)
  SELECT 'activity_log', 'done', (ARRAY['standup', '주간 회의 준비', 'code review, "quoted"', '점심'])[1 + i % 4] || ' ' || i,
         'notes, with a comma' || E'\n' || repeat('x', i % 200),
         timestamptz '2026-01-01 09:00+09' + i * interval '5 minutes', timestamptz '2026-01-01 09:00+09' + i * interval '5 minutes' + interval '4 minutes',
         (ARRAY['work', 'home', NULL])[1 + i % 3]
  FROM generate_series(?::int, ?::int) i
  RETURNING id, status)
INSERT INTO event_history (event_id, change_kind, actor, status_after, changes)
SELECT id, 'create', 'api', status, '{}' FROM e`, from, to); err != nil {
			t.Fatal(err)
		}
	}
	insert(1, 10000)
	// GOMEMLIMIT: on a machine busy with other tests the collector runs late
	// and the garbage of finished batches counts in the RSS (a peak of 114 MB
	// was seen). With a soft limit the collector keeps the heap near what is
	// live, so a growth of the peak is memory the export holds, not garbage.
	// GOGC=100, the runtime's default, rather than the service's own pace
	// (paceCollector), which lets garbage grow fivefold before collecting.
	s := start(t, "DATABASE_URL="+dsn, "HOST=127.0.0.1", "EVENTS_AUTH=off", "GOGC=100", "GOMEMLIMIT=40MiB")
	pid := s.cmd.Process.Pid

	export := func(format string, want int) (peakKB int64, rate float64, size int64) {
		t.Helper()
		var peak atomic.Int64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if kb := rssKB(t, pid); kb > peak.Load() {
					peak.Store(kb)
				}
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
		began := time.Now()
		resp, err := http.Get(s.base + "/api/events/export?format=" + format)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("export: %d", resp.StatusCode)
		}
		counted := &countingReader{r: resp.Body}
		n := 0
		if format == "csv" {
			r := csv.NewReader(counted)
			for {
				if _, err := r.Read(); err == io.EOF {
					break
				} else if err != nil {
					t.Fatal(err)
				}
				n++
			}
			n-- // the header
		} else {
			sc := bufio.NewScanner(counted)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				n++
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
		}
		size = counted.n
		took := time.Since(began)
		close(stop)
		wg.Wait()
		if n != want {
			t.Fatalf("export has %d lines, want %d", n, want)
		}
		return peak.Load(), float64(n) / took.Seconds(), size
	}
	export("ndjson", 10000) // warm: templates, pools, the first batches
	peak10k, rate10k, _ := export("ndjson", 10000)
	insert(10001, 100000)
	peak100k, rate100k, size := export("ndjson", 100000)
	csvPeak, csvRate, csvSize := export("csv", 100000)
	t.Logf("CSV export: 100,000 events (%d MB) at %.0f/s, peak RSS %d MB", csvSize>>20, csvRate, csvPeak/1024)
	if grew := csvPeak - peak10k; grew > 16<<10 {
		t.Errorf("the peak RSS of a CSV export of 100,000 events is %d MB above that of 10,000 in NDJSON: the export does not stream", grew>>10)
	}
	t.Logf("NDJSON export: 10,000 events at %.0f/s, peak RSS %d MB; 100,000 events (%d MB) at %.0f/s, peak RSS %d MB",
		rate10k, peak10k/1024, size>>20, rate100k, peak100k/1024)
	if grew := peak100k - peak10k; grew > 16<<10 {
		t.Errorf("the peak RSS grew by %d MB from 10,000 to 100,000 events: the export does not stream", grew>>10)
	}
	if size < 50<<20 {
		t.Errorf("the export of 100,000 events is %d bytes: too small to tell", size)
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// rssKB is the resident memory of a process, from /proc.
func rssKB(t *testing.T, pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}
