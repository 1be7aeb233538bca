// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package importer

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hostileICal is a calendar of the hostile entries between two
// ordinary ones: a FREQ=SECONDLY series (177 bytes that once reached 5.3
// GB), a FREQ=MINUTELY one (566,229 stored events), and DTSTART in the
// last hour of 9999 with a DURATION that ends past it.
const hostileICal = "BEGIN:VCALENDAR\r\n" +
	"BEGIN:VEVENT\r\nUID:first\r\nSUMMARY:first\r\nDTSTART:20261201T090000Z\r\nEND:VEVENT\r\n" + // line 2
	"BEGIN:VEVENT\r\nUID:sec\r\nSUMMARY:every second\r\nDTSTART:20261127T000000Z\r\nRRULE:FREQ=SECONDLY\r\nEND:VEVENT\r\n" + // line 7
	"BEGIN:VEVENT\r\nUID:min\r\nSUMMARY:every minute\r\nDTSTART:20261127T000000Z\r\nRRULE:FREQ=MINUTELY\r\nEND:VEVENT\r\n" + // line 13
	"BEGIN:VEVENT\r\nUID:late\r\nSUMMARY:late\r\nDTSTART:99991231T230000Z\r\nDURATION:PT24H\r\nEND:VEVENT\r\n" + // line 19
	"BEGIN:VEVENT\r\nUID:long\r\nSUMMARY:long\r\nDTSTART:20261201T090000Z\r\nDURATION:P99999999D\r\nEND:VEVENT\r\n" + // line 25
	"BEGIN:VEVENT\r\nUID:daily\r\nSUMMARY:daily\r\nDTSTART:20261201T090000Z\r\nRRULE:FREQ=DAILY;COUNT=30\r\nEND:VEVENT\r\n" + // line 31
	"BEGIN:VEVENT\r\nUID:last\r\nSUMMARY:last\r\nDTSTART:20261202T090000Z\r\nEND:VEVENT\r\n" + // line 37
	"END:VCALENDAR\r\n"

// TestICalHostileEntriesRefused: each hostile entry is a refusal naming
// its line (and a series its rule), and the rest is imported. Before, the
// SECONDLY rule expanded into every second of two years, MINUTELY into
// 566,229 records, and the year-9999 entries panicked.
func TestICalHostileEntriesRefused(t *testing.T) {
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p, err := Parse([]byte(hostileICal), Options{Zone: seoul, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grew := after.TotalAlloc - before.TotalAlloc
	if grew > 64<<20 {
		t.Errorf("reading 7 entries allocated %d MB", grew>>20)
	}
	t.Logf("the hostile calendar (%d bytes) allocated %.1f MB in all", len(hostileICal), float64(grew)/(1<<20))
	got := refusedLines(p)
	for line, want := range map[int][]string{
		7:  {"more than 1000 occurrences", "FREQ=SECONDLY", "--max-occurrences"},
		13: {"more than 1000 occurrences", "FREQ=MINUTELY"},
		19: {"end_at", "10000"},
		25: {"DURATION", "P99999999D"},
	} {
		for _, w := range want {
			if !strings.Contains(got[line], w) {
				t.Errorf("line %d: refused %q, want it to say %q", line, got[line], w)
			}
		}
	}
	if len(p.Refused) != 4 || len(p.Records) != 32 { // first, last and 30 daily
		t.Errorf("%d records and %d refused, want 32 and 4: %v", len(p.Records), len(p.Refused), got)
	}
	// raised caps let the minutely series in, up to the file's cap
	q, err := Parse([]byte(hostileICal), Options{Zone: seoul, Now: now, MaxPerSeries: 100000, MaxPerFile: 60000})
	if err != nil {
		t.Fatal(err)
	}
	got = refusedLines(q)
	if !strings.Contains(got[7], "more than 60000 occurrences") || !strings.Contains(got[7], "--max-occurrences-per-file") {
		t.Errorf("line 7 with raised caps: %q", got[7])
	}
	if !strings.Contains(got[13], "--max-occurrences-per-file") {
		t.Errorf("line 13 with raised caps: %q", got[13])
	}
	q, err = Parse([]byte(hostileICal), Options{Zone: seoul, Now: now, Until: now.Add(3 * time.Hour), MaxPerSeries: 200, MaxPerFile: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if got = refusedLines(q); got[13] != "" || !strings.Contains(got[7], "more than 200") {
		t.Errorf("a three-hour window: the minutely series has 181 occurrences, the secondly more than 200: %v", got)
	}
}

// TestTimewStreamsInBoundedMemory: a Timewarrior file of 300,000
// intervals (about 25 MB) is read holding one interval at a time. Before,
// the whole file and every record were held: about 200 MB.
func TestTimewStreamsInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 25 MB file")
	}
	path := filepath.Join(t.TempDir(), "timew.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	const n = 300000
	base := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	fmt.Fprintln(f, "[")
	for i := 0; i < n; i++ {
		s := base.Add(time.Duration(i) * time.Hour)
		sep := ","
		if i == n-1 {
			sep = ""
		}
		fmt.Fprintf(f, `{"id":%d,"start":"%s","end":"%s","tags":["project-%d","작업"],"annotation":"interval number %d, with a few words"}%s`+"\n",
			n-i, s.Format("20060102T150405Z"), s.Add(30*time.Minute).Format("20060102T150405Z"), i%50, i, sep)
	}
	fmt.Fprintln(f, "]")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base0, peak := m.HeapAlloc, m.HeapAlloc
	count, lastLine := 0, 0
	p, err := Scan(in, Options{Zone: seoul, Now: now}, func(r Record) error {
		count++
		lastLine = r.Line
		if count%20000 == 0 {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if count != n || len(p.Refused) != 0 || lastLine != n+1 {
		t.Errorf("%d records (last on line %d), %d refused; want %d, line %d, none", count, lastLine, len(p.Refused), n, n+1)
	}
	grew := int64(peak) - int64(base0)
	if grew > 16<<20 {
		t.Errorf("the heap grew by %d MB while reading a %d-record file", grew>>20, n)
	}
	t.Logf("reading %d intervals, the heap grew by at most %.1f MB", n, float64(grew)/(1<<20))
}
