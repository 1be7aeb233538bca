// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"events/app"
	"events/handlers"
	apiclient "events/internal/client"
	"events/internal/dbtest"
	"events/models"
)

// TestWeekReplayAgreesEverywhere replays the week of issue 55 (Mon 23 -
// Sun 29 Nov 2026 in Asia/Seoul: a log from Wed 23:10 to Thu 00:50, a
// timer with a standup, a reading and a 회의 typed over it, 90-second logs
// of two projects, a 30-second log, odd seconds, a log from Sat 22:00 into
// Sunday, a running log, a task done without a due day, a three-day
// holiday) on the real service with its clock on Sunday 23:00, and reads
// each day's and each project's minutes from the review page, the Activity
// tab, a pivot of the CSV export's counted_minutes and `events review
// --week`, side by side: they must be equal, and equal to the summary's
// seconds rounded as DESIGN.md says. The table is in the test's log (go
// test -v -run TestWeekReplayAgreesEverywhere ./cmd/events).
func TestWeekReplayAgreesEverywhere(t *testing.T) {
	needPostgres(t)
	t.Parallel()
	seoul, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		tm, err := time.ParseInLocation("2006-01-02 15:04:05", s, seoul)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	clock := dbtest.NewClock(at("2026-11-29 23:00:00"))
	svc := app.NewService(dbtest.New(t), seoul, clock.Now)
	f, err := handlers.New(svc, handlers.Options{RequestTimeout: 30 * time.Second, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go f.Listener(ln)
	t.Cleanup(func() { f.ShutdownWithContext(context.Background()) })
	base := "http://" + ln.Addr().String()
	get := func(target string) []byte {
		t.Helper()
		resp, err := http.Get(base + target)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", target, resp.StatusCode, b)
		}
		return b
	}
	post := func(target string, body map[string]any) int64 {
		t.Helper()
		b, _ := json.Marshal(body)
		resp, err := http.Post(base+target, "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var e struct {
			ID int64 `json:"id"`
		}
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode/100 != 2 || json.Unmarshal(raw, &e) != nil {
			t.Fatalf("POST %s %s: %d %s", target, b, resp.StatusCode, raw)
		}
		return e.ID
	}
	log := func(title, tag, from, to string) int64 {
		body := map[string]any{"kind": "activity_log", "title": title, "started_at": at(from).Format(time.RFC3339), "ended_at": at(to).Format(time.RFC3339)}
		if tag != "" {
			body["project_tag"] = tag
		}
		return post("/api/events", body)
	}
	// the week
	log("Write the spec", "work", "2026-11-23 09:00:00", "2026-11-23 12:30:00")
	log("standup", "work", "2026-11-23 13:30:00", "2026-11-23 13:45:00")
	log("Build the importer", "work", "2026-11-23 14:00:00", "2026-11-23 17:45:00")
	log("러닝", "건강", "2026-11-23 20:00:00", "2026-11-23 21:10:00")
	log("Email", "", "2026-11-24 09:10:00", "2026-11-24 12:00:00")
	log("Review PRs (the timer)", "work", "2026-11-24 13:00:00", "2026-11-24 17:00:00")
	log("standup 15m", "work", "2026-11-24 13:30:00", "2026-11-24 13:45:00")
	log("30 min reading", "", "2026-11-24 14:00:00", "2026-11-24 14:30:00")
	log("회의 1시간", "meet", "2026-11-24 15:00:00", "2026-11-24 16:00:00")
	log("Plan the release", "work", "2026-11-25 09:00:00", "2026-11-25 11:20:00")
	log("야간 배포", "ops", "2026-11-25 23:10:00", "2026-11-26 00:50:00")
	log("Fix the deploy", "ops", "2026-11-26 10:00:00", "2026-11-26 12:00:00")
	log("quick note", "work", "2026-11-26 12:00:00", "2026-11-26 12:00:30")
	log("Write the report", "work", "2026-11-26 14:00:00", "2026-11-26 18:20:00")
	log("Pair on tests", "work", "2026-11-27 09:00:00", "2026-11-27 10:30:20")
	log("Tidy the desk", "", "2026-11-27 10:30:20", "2026-11-27 11:00:50")
	log("수영", "건강", "2026-11-27 21:00:00", "2026-11-27 22:30:00")
	log("Sketch", "art", "2026-11-28 10:00:00", "2026-11-28 10:01:30")
	log("Call mum", "home", "2026-11-28 11:00:00", "2026-11-28 11:01:30")
	log("Movie night", "home", "2026-11-28 22:00:00", "2026-11-29 01:30:00")
	log("Read", "", "2026-11-29 15:00:00", "2026-11-29 16:37:40")
	post("/api/events", map[string]any{"kind": "activity_log", "title": "Writing", "status": "in_progress", "project_tag": "work",
		"started_at": at("2026-11-29 22:30:00").Format(time.RFC3339)})
	post("/api/events", map[string]any{"kind": "calendar_event", "title": "휴가", "all_day": true,
		"start_at": at("2026-11-27 00:00:00").Format(time.RFC3339), "end_at": at("2026-11-30 00:00:00").Format(time.RFC3339)})
	clock.Set(at("2026-11-25 16:00:00"))
	inbox := post("/api/events", map[string]any{"kind": "task", "title": "Reply to Jin"})
	post("/api/events/"+strconv.FormatInt(inbox, 10)+"/complete", map[string]any{})
	clock.Set(at("2026-11-29 23:00:00"))

	days := []string{"2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"}
	window := "from=" + url.QueryEscape(at("2026-11-23 00:00:00").Format(time.RFC3339)) + "&to=" + url.QueryEscape(at("2026-11-30 00:00:00").Format(time.RFC3339))

	// the summary's seconds, rounded as DESIGN.md says (Shown minutes)
	var sum apiclient.Summary
	if err := json.Unmarshal(get("/api/events/summary?"+window), &sum); err != nil {
		t.Fatal(err)
	}
	type numbers struct{ days, projects map[string]int64 }
	newNumbers := func() numbers { return numbers{map[string]int64{}, map[string]int64{}} }
	summary := newNumbers()
	seconds := map[string]int64{}
	for _, d := range sum.Days {
		secs := make([]int64, len(d.Projects))
		for i, p := range d.Projects {
			secs[i] = p.Seconds
		}
		total, parts := models.DayMinutes(d.LoggedSeconds, secs)
		summary.days[d.Date] = total
		seconds[d.Date] = d.LoggedSeconds
		for i, p := range d.Projects {
			summary.projects[projectName(p.ProjectTag)] += parts[i]
		}
	}

	// the review page
	review := newNumbers()
	page := string(get("/events/review?from=2026-11-23&to=2026-11-30"))
	for _, d := range days {
		i := strings.Index(page, `data-date="`+d+`"`)
		m := regexp.MustCompile(`<span class="day-total(?: none)?" data-seconds="\d+">([^<]*)</span>`).FindStringSubmatch(page[i:])
		review.days[d] = pageMinutes(t, m[1])
	}
	for _, m := range regexp.MustCompile(`<span class="legend-name">(?:<a [^>]*><bdi>)?([^<]*)(?:</bdi></a>)?</span> <span class="legend-time">([^<]*)</span>`).FindAllStringSubmatch(page, -1) {
		name := "#" + m[1]
		if m[1] == "no project" {
			name = "(none)"
		}
		review.projects[name] = pageMinutes(t, m[2])
	}
	m := regexp.MustCompile(`<span id="review-logged">([^<]*)</span>`).FindStringSubmatch(page)
	reviewTotal := pageMinutes(t, m[1])

	// the Activity tab: each day's heading
	activity := newNumbers()
	tab := string(get("/events?tab=activity"))
	for _, m := range regexp.MustCompile(`<section class="day-group" data-day="([0-9-]+)"[^>]*>\s*<div class="day-heading"><h2 [^>]*>[^<]*</h2>(?: <span class="day-logged" data-seconds="\d+">([^<]*) logged</span>)?`).FindAllStringSubmatch(tab, -1) {
		if m[2] != "" {
			activity.days[m[1]] = pageMinutes(t, m[2])
		}
	}

	// a pivot of the CSV export's counted_minutes
	pivot := newNumbers()
	records, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(get("/api/events/export?"+window), []byte(models.CSVBOM)))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, name := range records[0] {
		col[name] = i
	}
	for _, r := range records[1:] {
		n, _ := strconv.ParseInt(r[col["counted_minutes"]], 10, 64)
		if n == 0 {
			continue
		}
		pivot.days[r[col["local_date"]]] += n
		tag := r[col["project_tag"]]
		pivot.projects[projectName(map[bool]*string{true: nil, false: &tag}[tag == ""])] += n
	}

	// events review --week, in the terminal client, its clock on Sunday
	var out bytes.Buffer
	api, err := apiclient.New(base, "", false)
	if err != nil {
		t.Fatal(err)
	}
	api.Zone = "Asia/Seoul"
	c := &cli{api: api, loc: seoul, now: clock.Now(), out: &out, width: 80, key: "replay"}
	if err := c.review(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	terminal := newNumbers()
	var terminalTotal int64
	for _, line := range strings.Split(out.String(), "\n") {
		fields := strings.Fields(line)
		switch {
		case len(fields) >= 3 && regexp.MustCompile(`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)$`).MatchString(fields[0]):
			terminal.days["2026-"+fields[1]] = cliMinutes(t, fields[2])
		case len(fields) == 3 && (strings.HasPrefix(fields[0], "#") || fields[0] == "(none)"):
			terminal.projects[fields[0]] = cliMinutes(t, fields[1])
		case len(fields) == 2 && fields[0] == "total":
			terminalTotal = cliMinutes(t, fields[1])
		}
	}

	// side by side
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-12s %9s %10s %10s %10s %10s %10s\n", "day", "seconds", "summary", "review", "activity", "csv pivot", "terminal")
	var total int64
	for _, d := range days {
		fmt.Fprintf(&table, "%-12s %9d %10s %10s %10s %10s %10s\n", d, seconds[d], hm(summary.days[d]), hm(review.days[d]), hm(activity.days[d]), hm(pivot.days[d]), hm(terminal.days[d]))
		total += summary.days[d]
		for _, n := range []numbers{review, activity, pivot, terminal} {
			if n.days[d] != summary.days[d] {
				t.Errorf("%s: the screens disagree", d)
				break
			}
		}
	}
	var names []string
	for name := range summary.projects {
		names = append(names, name)
	}
	slices.Sort(names)
	fmt.Fprintf(&table, "%-12s %9s %10s %10s %10s %10s %10s\n", "project", "", "summary", "review", "", "csv pivot", "terminal")
	var projects int64
	for _, name := range names {
		fmt.Fprintf(&table, "%-12s %9s %10s %10s %10s %10s %10s\n", name, "", hm(summary.projects[name]), hm(review.projects[name]), "", hm(pivot.projects[name]), hm(terminal.projects[name]))
		projects += summary.projects[name]
		for _, n := range []numbers{review, pivot, terminal} {
			if n.projects[name] != summary.projects[name] {
				t.Errorf("%s: the screens disagree", name)
				break
			}
		}
	}
	fmt.Fprintf(&table, "%-12s %9d %10s %10s %10s %10s %10s\n", "total", sum.Total.LoggedSeconds, hm(total), hm(reviewTotal), "", "", hm(terminalTotal))
	t.Log(table.String())
	if reviewTotal != total || terminalTotal != total || projects != total || len(names) < 5 {
		t.Errorf("the totals disagree, or the projects do not add up to them: %d projects", len(names))
	}
	// the midnight pieces and the task done without a due day
	for _, want := range []string{"50 min of 1 h 40 min", "1 h 30 min of 3 h 30 min"} {
		if !strings.Contains(tab, want) || !strings.Contains(page, want) {
			t.Errorf("Activity or the review lacks the piece %q", want)
		}
	}
	if !strings.Contains(string(get("/api/events/export?"+window)), "Reply to Jin") {
		t.Errorf("the week's export lacks the task done without a due day")
	}
	if strings.Count(records[0][0], "id") != 1 || rowsOf(records, col, "야간 배포") != 2 {
		t.Errorf("the log across midnight is not a row per day piece")
	}
}

func projectName(tag *string) string {
	if tag == nil {
		return "(none)"
	}
	return "#" + *tag
}

func rowsOf(records [][]string, col map[string]int, title string) int {
	n := 0
	for _, r := range records[1:] {
		if r[col["title"]] == title {
			n++
		}
	}
	return n
}

// pageMinutes reads a page's duration: "3 h 10 min", "45 min", "2 h",
// "under 1 min" (0).
func pageMinutes(t *testing.T, s string) int64 {
	t.Helper()
	if s == "under 1 min" || s == "0 min" || s == "no time logged" {
		return 0
	}
	m := regexp.MustCompile(`^(?:(\d+) h)? ?(?:(\d+) min)?$`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("not a duration: %q", s)
	}
	h, _ := strconv.ParseInt(m[1], 10, 64)
	mm, _ := strconv.ParseInt(m[2], 10, 64)
	return h*60 + mm
}

// cliMinutes reads the terminal's duration: "2h10m", "40m", "3h".
func cliMinutes(t *testing.T, s string) int64 {
	t.Helper()
	m := regexp.MustCompile(`^(?:(\d+)h)?(?:(\d+)m)?$`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("not a duration: %q", s)
	}
	h, _ := strconv.ParseInt(m[1], 10, 64)
	mm, _ := strconv.ParseInt(m[2], 10, 64)
	return h*60 + mm
}

func hm(m int64) string { return fmt.Sprintf("%d:%02d", m/60, m%60) }
