// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"events/internal/importer"
	"events/internal/timewtest"
)

// timewTags are the tags of the random intervals: Korean, English, one
// with a space, as a real week has them.
var timewTags = []string{"work", "독서", "회의", "email", "client acme", "code-review"}

// TestLabelSummaryMatchesTimew: random intervals recorded with the real
// Timewarrior (timew track), exported (timew export), imported by the
// importer into the service, then the summary's per-label seconds, for
// each day and for the week, equal `timew summary`'s per-tag totals, and
// each day's logged_seconds its total: to the second.
func TestLabelSummaryMatchesTimew(t *testing.T) {
	t.Parallel()
	run := timewtest.New(t)
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("EVENTS_TIMEW_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("EVENTS_TIMEW_SEED=%d reproduces this run", seed)
	rng := rand.New(rand.NewPCG(seed, 56))

	// a week of intervals one after another, some across midnight, some
	// to the second, tagged with 0 to 3 tags
	const local = "2006-01-02T15:04:05"
	weekStart := time.Date(2026, 11, 16, 0, 0, 0, 0, seoul)
	at := weekStart.Add(6 * time.Hour)
	n := 25 + rng.IntN(15)
	for i := 0; i < n; i++ {
		at = at.Add(time.Duration(rng.IntN(180))*time.Minute + time.Duration(rng.IntN(60))*time.Second)
		end := at.Add(time.Duration(5+rng.IntN(300))*time.Minute + time.Duration(rng.IntN(60))*time.Second)
		if !end.Before(weekStart.AddDate(0, 0, 7)) {
			break
		}
		args := []string{"track", at.Format(local), "-", end.Format(local)}
		for _, j := range rng.Perm(len(timewTags))[:rng.IntN(4)] {
			args = append(args, timewTags[j])
		}
		run(append(args, ":yes")...)
		at = end
	}

	// imported as a person would: timew export, then the importer
	p, err := importer.Parse([]byte(run("export")), importer.Options{Zone: seoul, Now: time.Date(2026, 12, 1, 0, 0, 0, 0, seoul)})
	if err != nil || len(p.Refused) > 0 {
		t.Fatalf("import: %v %v", err, p.Refused)
	}
	s, _, _ := newService(t, time.Date(2026, 12, 1, 12, 0, 0, 0, seoul))
	for _, r := range p.Records {
		create(t, s, string(r.Body()))
	}

	to := weekStart.AddDate(0, 0, 7)
	sum, err := s.Summary(context.Background(), &weekStart, &to, seoul)
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder // the week's per-label table beside timew's, for the log
	check := func(what, from, until string, filter []string, want int64) {
		t.Helper()
		args := append([]string{"summary", from, "-", until}, filter...)
		if until == "2026-11-23" && from == "2026-11-16" && len(filter) == 1 {
			fmt.Fprintf(&table, "| %s | %s | %s |\n", filter[0], hms(want), hms(timewTotal(t, run(args...))))
		}
		if timewTotal(t, run(args...)) != want {
			t.Errorf("%s: the summary says %s, timew summary %s says %s", what, hms(want), strings.Join(args[1:], " "), hms(timewTotal(t, run(args...))))
		}
	}
	week := map[string]int64{}
	for _, l := range sum.Total.Labels {
		week[l.Label] = l.Seconds
	}
	for _, tag := range timewTags {
		check("the week's "+tag, "2026-11-16", "2026-11-23", []string{tag}, week[tag])
	}
	for _, d := range sum.Days {
		next := day(t, d.Date).AddDate(0, 0, 1).Format(time.DateOnly)
		check(d.Date+"'s total", d.Date, next, nil, d.LoggedSeconds)
		byLabel := map[string]int64{}
		for _, l := range d.Labels {
			byLabel[l.Label] = l.Seconds
		}
		for _, tag := range timewTags {
			check(d.Date+"'s "+tag, d.Date, next, []string{tag}, byLabel[tag])
		}
	}
	t.Logf("the week, per label (summary | timew summary <tag>):\n| label | summary | timew |\n|---|---|---|\n%s| all | %s | %s |",
		table.String(), hms(sum.Total.LoggedSeconds), hms(timewTotal(t, run("summary", "2026-11-16", "-", "2026-11-23"))))
	if t.Failed() {
		t.Logf("timew summary of the week:\n%s", run("summary", "2026-11-16", "-", "2026-11-23"))
	}
}

func timewTotal(t *testing.T, out string) int64 { return timewtest.Total(t, out) }

func hms(s int64) string { return timewtest.HMS(s) }

func day(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.ParseInLocation(time.DateOnly, s, seoul)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
