// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// extremeRows are logs the API accepts at the ends of the years 1 to 9999.
var extremeRows = []string{
	`{"kind":"activity_log","title":"since year one","started_at":"0001-01-01T00:00:00Z","ended_at":"0001-01-01T01:00:00Z"}`,
	`{"kind":"activity_log","title":"whole range","started_at":"0001-01-01T00:00:00Z","ended_at":"9999-12-31T23:59:59Z"}`,
	`{"kind":"activity_log","title":"last hour","started_at":"9999-12-31T23:00:00Z","ended_at":"9999-12-31T23:59:59Z"}`,
	`{"kind":"activity_log","title":"long ago to now","started_at":"0001-01-01T00:00:00Z","ended_at":"2026-11-22T02:00:00Z"}`,
	`{"kind":"activity_log","title":"running since year one","started_at":"0001-01-01T00:00:00Z"}`,
	`{"kind":"activity_log","title":"9998 years","started_at":"0001-06-01T00:00:00Z","ended_at":"9999-06-01T00:00:00Z"}`,
}

// TestExtremeRowsBlockNoCreate: with logs of year 1, year 9999, running
// since year 1 and spans of 9998 years stored, every create path and every
// read answers as it would without them. Before, each later overlapping
// log create answered 400 malformed: the placement before the overlapped
// logs computed a start in year 0 or −291 and sent it to PostgreSQL.
func TestExtremeRowsBlockNoCreate(t *testing.T) {
	for i, row := range extremeRows {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			s := newServer(t)
			s.json("POST", "/api/events", row).want(t, 201)
			for _, body := range []string{
				`{"kind":"activity_log","title":"plain","started_at":"2026-11-22T01:00:00Z","ended_at":"2026-11-22T02:30:00Z"}`,
				`{"kind":"activity_log","title":"early","started_at":"0001-01-01T00:10:00Z","ended_at":"0001-01-01T00:20:00Z"}`,
				`{"kind":"activity_log","title":"late","started_at":"9999-12-31T23:10:00Z","ended_at":"9999-12-31T23:20:00Z"}`,
				`{"kind":"activity_log","text":"record line 15m #p"}`,
				`{"kind":"activity_log","title":"running now","started_at":"2026-11-22T02:50:00Z"}`,
				`{"kind":"activity_log","title":"before","overlap":"before","started_at":"2026-11-22T01:00:00Z","ended_at":"2026-11-22T01:30:00Z"}`,
				`{"kind":"task","text":"task line tomorrow #p"}`,
			} {
				a := s.json("POST", "/api/events", body)
				if a.Status != 201 && a.Status != 409 {
					t.Errorf("POST %s: %s", body, a)
				}
			}
			for _, target := range []string{
				"/api/events", "/api/events/today", "/events", "/events?tab=inbox", "/events?tab=upcoming",
				"/events/review", "/api/events/summary?from=0001-01-02T00:00:00Z&to=0001-01-09T00:00:00Z",
				"/api/events/summary?from=9999-12-20T00:00:00Z&to=9999-12-30T00:00:00Z",
				"/api/events/summary", "/events/search?q=" + url.QueryEscape("year"),
				"/api/events/export?format=csv&from=0001-01-02T00:00:00Z&to=9999-12-30T00:00:00Z",
				"/events/review?from=0001-01-02&to=0001-01-08", "/events/review?from=9999-12-24&to=9999-12-30",
			} {
				a := s.get(target)
				if a.Status != 200 {
					t.Errorf("GET %s: %s", target, a)
				}
			}
			if i == 1 { // the export's minutes are the true number, not a wrapped time.Duration
				csv := s.get("/api/events/export?format=csv&from=0001-01-02T00:00:00Z&to=9999-12-30T00:00:00Z")
				want := ",whole range," // title; the local columns end with minutes and counted_minutes
				min := strconv.FormatInt((time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()-
					time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix()+30)/60, 10)
				found := false
				for _, line := range strings.Split(string(csv.Body), "\n") {
					if strings.Contains(line, want) {
						found = true
						// minutes, then counted_minutes, end the row
						if !strings.Contains(strings.TrimRight(line, "\r"), ","+min+",") {
							t.Errorf("the 9998-year row's minutes: want %s in %q", min, line)
						}
					}
				}
				if !found {
					t.Errorf("no whole range row in the export:\n%s", csv.Body)
				}
			}
		})
	}
}
