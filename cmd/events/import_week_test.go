// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	apiclient "events/internal/client"
	"events/internal/timewtest"
)

// weekFile is one file of testdata/import/week: the week of 23 to 29
// November 2026 of one person, exported by each tool she moves from.
func weekFile(name string) string { return fixture(filepath.Join("week", name)) }

// TestImportOneWeekFromEachSource imports the same week, as each tool
// exports it, with `events import` as a person runs it: Timewarrior's
// intervals, then the Todoist project and the calendar, into one service,
// and the Toggl report of the same hours into another. Each run's summary
// says what was kept in descriptions; a second run creates nothing. The
// review of the week then gives the same time per day and per project from
// Timewarrior as from Toggl, and its per-label times are those of the real
// `timew summary` per tag over the same export, for the week and each day.
func TestImportOneWeekFromEachSource(t *testing.T) {
	t.Parallel()
	timew := timewtest.New(t)
	fromTimew, fromToggl := importService(t), importService(t)
	window := []string{"--since", "2026-11-23", "--until", "2026-11-29"}
	for _, c := range []struct {
		s       *server
		file    string
		args    []string
		created int
		kept    string // the summary's note on what was kept in descriptions
	}{
		{fromTimew, "timew.json", []string{"--project-tags", "Acme website,독서,운동"}, 18, ""},
		{fromTimew, "Acme website.csv", nil, 6, "kept in descriptions: 1 Todoist sub-task level, 1 Todoist recurrence, 1 Todoist assignee"},
		{fromTimew, "calendar.ics", window, 8, "kept in descriptions: 1 calendar URL, 1 calendar organizer, 1 calendar attendee list"},
		{fromToggl, "toggl.csv", nil, 18, "kept in descriptions: 5 Toggl tasks, 9 Toggl billable marks, 9 Toggl amounts"},
	} {
		args := append(append([]string{}, c.args...), weekFile(c.file))
		out, code := runImport(t, c.s, importToken, args...)
		t.Logf("events import %s:\n%s", c.file, out)
		if want := fmt.Sprintf("created %d, already there 0, refused 0\n", c.created); code != 0 || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d, want 0 and %q:\n%s", c.file, code, want, out)
		}
		if c.kept == "" && strings.Contains(out, "kept in descriptions") || c.kept != "" && !strings.Contains(out, "note: "+c.kept+"\n") {
			t.Errorf("%s: the summary should say %q:\n%s", c.file, c.kept, out)
		}
		out, code = runImport(t, c.s, importToken, args...)
		if want := fmt.Sprintf("created 0, already there %d, refused 0\n", c.created); code != 0 || !strings.Contains(out, want) {
			t.Errorf("%s, again: exit %d, want 0 and %q:\n%s", c.file, code, want, out)
		}
	}

	// what the Todoist project and the calendar carried
	tasks := imported(t, fromTimew, "import")
	cal := imported(t, fromTimew, "calendar")
	if k := cal["acme-kickoff@example.org"]; k.Location == nil || *k.Location != "Acme 서울 지사, 3층 회의실" || strings.Join(k.Labels, ",") != "work,client acme" ||
		!strings.Contains(k.Description, "From the calendar:") {
		t.Errorf("the kickoff's place, categories and organizer: %+v", k)
	}
	if d := cal["todo-dentist@example.org"]; d.Status != "done" || !sameTime(d.CompletedAt, at(t, "2026-11-25T02:00:00Z")) {
		t.Errorf("the to-do done on the 25th: %+v", d)
	}
	if d := cal["team-dinner-20261126@example.org"]; d.Status != "cancelled" || !sameTime(d.CancelledAt, at(t, "2026-11-26T19:00:00+09:00")) {
		t.Errorf("the dinner cancelled on its own day: %+v", d)
	}
	found := 0
	for ref, e := range tasks {
		if !strings.HasPrefix(ref, "todoist:") {
			continue
		}
		found++
		if e.ProjectTag == nil || *e.ProjectTag != "Acme website" {
			t.Errorf("a Todoist task's project, from the file's name: %+v", e)
		}
		if e.Title == "Ship the login fix" && (strings.Join(e.Labels, ",") != "client-acme,code-review" ||
			!sameTime(e.StartAt, at(t, "2026-11-27T15:00:00+09:00")) || !sameTime(e.DueAt, at(t, "2026-11-27T17:20:00+09:00")) ||
			!strings.Contains(e.Description, "The form keeps")) {
			t.Errorf("a Todoist task's labels, planned span and note: %+v", e)
		}
	}
	if found != 6 {
		t.Errorf("%d Todoist tasks, want 6", found)
	}

	// the review of the week from each source
	review := func(s *server) apiclient.Summary {
		var sum apiclient.Summary
		apiDo(t, "GET", s.base+"/api/events/summary?from=2026-11-23T00:00:00%2B09:00&to=2026-11-30T00:00:00%2B09:00&tz=Asia/Seoul", "", &sum)
		if len(sum.Days) != 7 {
			t.Fatalf("the review has %d days, want 7", len(sum.Days))
		}
		return sum
	}
	a, b := review(fromTimew), review(fromToggl)
	projects := func(c apiclient.SummaryCounts) string {
		var p []string
		for _, x := range c.Projects {
			name := "(none)"
			if x.ProjectTag != nil {
				name = *x.ProjectTag
			}
			p = append(p, name+" "+timewtest.HMS(x.Seconds))
		}
		return strings.Join(p, ", ")
	}
	var table strings.Builder
	table.WriteString("| day | Timewarrior: logged | per project | Toggl: logged | per project |\n|---|---|---|---|---|\n")
	row := func(day string, x, y apiclient.SummaryCounts) {
		fmt.Fprintf(&table, "| %s | %s | %s | %s | %s |\n", day, timewtest.HMS(x.LoggedSeconds), projects(x), timewtest.HMS(y.LoggedSeconds), projects(y))
		if x.LoggedSeconds != y.LoggedSeconds || projects(x) != projects(y) {
			t.Errorf("%s: from Timewarrior %s (%s), from Toggl %s (%s)", day, timewtest.HMS(x.LoggedSeconds), projects(x), timewtest.HMS(y.LoggedSeconds), projects(y))
		}
	}
	for i := range a.Days {
		row(a.Days[i].Date, a.Days[i].SummaryCounts, b.Days[i].SummaryCounts)
	}
	row("week", a.Total, b.Total)
	t.Logf("the review of the week from each source:\n%s", table.String())
	if a.Total.LoggedSeconds != 30*3600+15*60+55 {
		t.Errorf("the week logged %s, want 30:15:55", timewtest.HMS(a.Total.LoggedSeconds))
	}
	if a.Total.TasksCompleted != 1 || a.Total.Cancelled != 1 || a.Days[3].Cancelled != 1 || a.Days[2].TasksCompleted != 1 {
		t.Errorf("the calendar's done to-do (25th) and cancelled dinner (26th): %+v", a.Total)
	}

	// the same export in the real Timewarrior: each interval tracked and
	// annotated in order, so its own export is the fixture again
	data, err := os.ReadFile(weekFile("timew.json"))
	if err != nil {
		t.Fatal(err)
	}
	var intervals []struct {
		Start, End string
		Tags       []string
		Annotation string
	}
	if err := json.Unmarshal(data, &intervals); err != nil {
		t.Fatal(err)
	}
	for _, in := range intervals {
		timew(append([]string{"track", in.Start, "-", in.End}, append(in.Tags, ":yes")...)...)
		if in.Annotation != "" {
			timew("annotate", "@1", in.Annotation)
		}
	}
	if got := timew("export"); strings.TrimSpace(got) != strings.TrimSpace(string(data)) {
		t.Fatalf("timew holds another week than the fixture:\n%s", got)
	}
	tags := map[string]bool{}
	for _, in := range intervals {
		for _, tag := range in.Tags {
			tags[tag] = true
		}
	}
	var labels strings.Builder
	labels.WriteString("| label | review | timew summary |\n|---|---|---|\n")
	check := func(what string, got int64, from, to string, filter ...string) {
		t.Helper()
		out := timew(append([]string{"summary", from, "-", to}, filter...)...)
		want := timewtest.Total(t, out)
		if what == "week" {
			name := "all (logged)"
			if len(filter) > 0 {
				name = filter[0]
			}
			fmt.Fprintf(&labels, "| %s | %s | %s |\n", name, timewtest.HMS(got), timewtest.HMS(want))
		}
		if got != want {
			t.Errorf("%s %q: the review says %s, timew summary %s", what, filter, timewtest.HMS(got), timewtest.HMS(want))
		}
	}
	seconds := func(c apiclient.SummaryCounts, label string) int64 {
		for _, l := range c.Labels {
			if l.Label == label {
				return l.Seconds
			}
		}
		return 0
	}
	for _, tag := range slices.Sorted(maps.Keys(tags)) {
		check("week", seconds(a.Total, tag), "2026-11-23", "2026-11-30", tag)
		for _, d := range a.Days {
			next, _ := time.Parse(time.DateOnly, d.Date)
			check(d.Date, seconds(d.SummaryCounts, tag), d.Date, next.AddDate(0, 0, 1).Format(time.DateOnly), tag)
		}
	}
	check("week", a.Total.LoggedSeconds, "2026-11-23", "2026-11-30")
	t.Logf("the week per label, beside timew summary <tag> (the last row: all):\n%s", labels.String())
	t.Logf("timew summary 2026-11-23 - 2026-11-30 :ids:\n%s", timew("summary", "2026-11-23", "-", "2026-11-30", ":ids"))
}
