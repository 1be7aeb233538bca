// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"

	apiclient "events/internal/client"
	"events/models"
)

// runCLI runs `events args...` against base with the import token, stdout
// a pipe; env adds variables. It returns stdout, stderr and the exit code.
func runCLI(t *testing.T, base string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(build(t), args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "EVENTS_URL=" + base, "EVENTS_TOKEN=" + importToken, "EVENTS_TIMEZONE=Asia/Seoul"}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if bytes.IndexByte(stdout.Bytes(), 0x1b) >= 0 || bytes.IndexByte(stderr.Bytes(), 0x1b) >= 0 {
		t.Errorf("events %s wrote an escape to a pipe:\n%q\n%q", strings.Join(args, " "), stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String(), code
}

// mustCLI runs a command that must succeed and answers its stdout.
func mustCLI(t *testing.T, base string, args ...string) string {
	t.Helper()
	out, errOut, code := runCLI(t, base, nil, args...)
	if code != 0 {
		t.Fatalf("events %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

var createdID = regexp.MustCompile(`^(?:Logged|Started|Added|Stopped|Done|Undone) (\d+)  `)

// idOf is the event id a write's first line names.
func idOf(t *testing.T, out string) int64 {
	t.Helper()
	m := createdID.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no event id in %q", out)
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	return id
}

func cliEvent(t *testing.T, s *server, id int64) importedEvent {
	t.Helper()
	var e importedEvent
	apiDo(t, "GET", fmt.Sprintf("%s/api/events/%d", s.base, id), "", &e)
	return e
}

// sameJSON fails unless got parses as JSON and equals what the API
// answers to GET path directly.
func sameJSON(t *testing.T, s *server, got, path string) {
	t.Helper()
	var fromCLI, fromAPI any
	if err := json.Unmarshal([]byte(got), &fromCLI); err != nil {
		t.Fatalf("--json output does not parse: %v\n%s", err, got)
	}
	apiDo(t, "GET", s.base+path, "", &fromAPI)
	if !reflect.DeepEqual(fromCLI, fromAPI) {
		t.Errorf("--json output differs from GET %s:\n%s\n%v", path, got, fromAPI)
	}
}

// columns is a line as display cells: the rune at each terminal column (0
// for the second column of a wide character).
func columns(line string) []rune {
	var cells []rune
	for _, r := range line {
		cells = append(cells, r)
		for i := 1; i < runewidth.RuneWidth(r); i++ {
			cells = append(cells, 0)
		}
	}
	return cells
}

// checkTable fails unless every line of a table fits in width display
// columns and each data row's cell of the named left-aligned columns
// starts exactly where the head's name starts.
func checkTable(t *testing.T, out string, width int, names ...string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for _, l := range lines {
		if w := runewidth.StringWidth(l); w > width {
			t.Errorf("a line is %d columns wide, more than %d: %q", w, width, l)
		}
	}
	head := columns(lines[0])
	starts := make([]int, len(names))
	for n, name := range names {
		starts[n] = -1
		for i := range head {
			if strings.HasPrefix(string(head[i:]), name) {
				starts[n] = i
				break
			}
		}
		if starts[n] < 1 {
			t.Fatalf("no column %s in %q", name, lines[0])
		}
	}
	for _, l := range lines[1:] {
		row := columns(l)
		for n, at := range starts {
			next := len(row)
			if n+1 < len(starts) {
				next = min(starts[n+1], len(row))
			}
			switch {
			case at < len(row) && row[at] != ' ' && row[at] != 0 && row[at-1] == ' ':
				// the cell starts where its head does
			case at >= len(row) || strings.TrimSpace(string(row[at:next])) == "":
				// an empty cell
			default:
				t.Errorf("column %s (at %d) does not line up in %q", names[n], at, l)
			}
		}
	}
	return lines
}

// TestTerminalClientRoundTrips runs each terminal command of the real
// binary against a real service: records, timers, tasks, the listings
// and the review, as tables that fit 80 columns with Korean titles and
// as the API's JSON.
func TestTerminalClientRoundTrips(t *testing.T) {
	t.Parallel()
	s := importService(t)
	b := s.base

	// log: a record read with the capture grammar
	out := mustCLI(t, b, "log", "standup 15m #work")
	standup := cliEvent(t, s, idOf(t, out))
	if standup.Kind != "activity_log" || standup.Status != "done" || standup.Title != "standup" || *standup.ProjectTag != "work" || standup.EndedAt.Sub(*standup.StartedAt) != 15*time.Minute {
		t.Errorf("log: %+v", standup)
	}
	if !regexp.MustCompile(`^Logged \d+  \d\d:\d\d-\d\d:\d\d \(15m\)  standup  #work\n$`).MatchString(out) {
		t.Errorf("log printed %q", out)
	}
	out = mustCLI(t, b, "log", "--json", "회의 1시간 #팀")
	var meeting struct {
		importedEvent
		Overlaps []any `json:"overlaps"`
	}
	// the event reads itself (models.Event.UnmarshalJSON): the overlaps apart
	err := json.Unmarshal([]byte(out), &meeting.importedEvent)
	if err == nil {
		err = json.Unmarshal([]byte(out), &struct {
			Overlaps *[]any `json:"overlaps"`
		}{&meeting.Overlaps})
	}
	if err != nil || meeting.ID == 0 || meeting.Overlaps == nil || meeting.Title != "회의" {
		t.Fatalf("log --json: %v\n%s", err, out)
	}
	if got := cliEvent(t, s, meeting.ID); !reflect.DeepEqual(got, meeting.importedEvent) {
		t.Errorf("log --json answered %+v, the API has %+v", meeting.importedEvent, got)
	}

	// start, start again (stops the first), stop
	out = mustCLI(t, b, "start", "deep work #work")
	first := idOf(t, out)
	if e := cliEvent(t, s, first); e.Status != "in_progress" || e.EndedAt != nil || e.Title != "deep work" {
		t.Errorf("start: %+v", e)
	}
	out = mustCLI(t, b, "start", "리뷰 작성")
	second := idOf(t, out)
	if e := cliEvent(t, s, first); e.Status != "done" || e.EndedAt == nil {
		t.Errorf("a second start left the first running: %+v", e)
	}
	if !strings.Contains(out, fmt.Sprintf("\nStopped %d  ", first)) {
		t.Errorf("start does not say it stopped %d:\n%s", first, out)
	}
	out = mustCLI(t, b, "stop")
	if idOf(t, out) != second || cliEvent(t, s, second).Status != "done" {
		t.Errorf("stop: %s%+v", out, cliEvent(t, s, second))
	}
	if out, errOut, code := runCLI(t, b, nil, "stop"); code != 1 || out != "" || errOut != "events: No timer is running: there is no activity log in progress.\n" {
		t.Errorf("stop with nothing running: exit %d, %q %q", code, out, errOut)
	}

	// add: tasks read with the capture grammar
	out = mustCLI(t, b, "add", "보고서 제출 내일 오후 5시 !low #팀")
	report := cliEvent(t, s, idOf(t, out))
	seoul, _ := time.LoadLocation("Asia/Seoul")
	tomorrow := time.Now().In(seoul).AddDate(0, 0, 1)
	if due := report.DueAt.In(seoul); report.Kind != "task" || report.Priority != 1 || report.Title != "보고서 제출" || due.Day() != tomorrow.Day() || due.Hour() != 17 {
		t.Errorf("add: %+v", report)
	}
	if !strings.Contains(out, "due tomorrow 17:00") && !strings.Contains(out, "due "+tomorrow.Format("01-02")+" 17:00") {
		t.Errorf("add printed %q", out)
	}
	long := strings.Repeat("아주 긴 제목의 할 일 ", 8) + "#집안일"
	longTask := idOf(t, mustCLI(t, b, "add", long))
	rent := idOf(t, mustCLI(t, b, "add", "Pay rent #home"))
	overdue := idOf(t, mustCLI(t, b, "add", "세금 신고 2026-01-05 9:00"))

	// today and inbox: tables within 80 columns whose columns line up
	out = mustCLI(t, b, "today")
	lines := checkTable(t, out, 80, "KIND", "STATUS", "WHEN", "TITLE", "PROJECT")
	if strings.Contains(out, "보고서 제출") {
		t.Errorf("today lists a task due tomorrow:\n%s", out)
	}
	for _, want := range []string{"standup", "회의", "deep work", "리뷰 작성", "세금 신고"} {
		if !strings.Contains(out, want) {
			t.Errorf("today lacks %s:\n%s", want, out)
		}
	}
	if !strings.HasPrefix(strings.TrimLeft(lines[1], " "), fmt.Sprint(overdue)+"  task") || !strings.Contains(lines[1], "due 01-05 09:00") {
		t.Errorf("today does not list the overdue task first:\n%s", out)
	}
	out = mustCLI(t, b, "inbox")
	checkTable(t, out, 80, "KIND", "STATUS", "TITLE", "PROJECT")
	if !strings.Contains(out, "#집안일") || !strings.Contains(out, "...  #집안일") || !strings.Contains(out, "Pay rent") || strings.Contains(out, "WHEN") {
		t.Errorf("inbox:\n%s", out)
	}
	narrow, _, _ := runCLI(t, b, []string{"COLUMNS=60"}, "inbox")
	checkTable(t, narrow, 60, "TITLE", "PROJECT")
	sameJSON(t, s, mustCLI(t, b, "today", "--json"), "/api/events/today?limit=1000&tz=Asia%2FSeoul")
	sameJSON(t, s, mustCLI(t, b, "inbox", "--json"), "/api/events/inbox?limit=1000")

	// done, undo
	if out := mustCLI(t, b, "done", fmt.Sprint(rent)); idOf(t, out) != rent || cliEvent(t, s, rent).Status != "done" {
		t.Errorf("done: %s", out)
	}
	if out := mustCLI(t, b, "undo", fmt.Sprint(rent)); !strings.Contains(out, "Pay rent  #home") || cliEvent(t, s, rent).Status != "planned" {
		t.Errorf("undo: %s", out)
	}
	var answer map[string]any
	if err := json.Unmarshal([]byte(mustCLI(t, b, "done", "--json", fmt.Sprint(longTask))), &answer); err != nil || answer["status"] != "done" {
		t.Errorf("done --json: %v %v", err, answer)
	}

	// review: today's projects, as the summary answers them
	now := time.Now().In(seoul)
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, seoul)
	q := url.Values{"from": {day.Format(time.RFC3339)}, "to": {day.AddDate(0, 0, 1).Format(time.RFC3339)}, "tz": {"Asia/Seoul"}}
	sameJSON(t, s, mustCLI(t, b, "review", "--json"), "/api/events/summary?"+q.Encode())
	var sum struct {
		Total struct {
			LoggedSeconds int64 `json:"logged_seconds"`
			Projects      []struct {
				ProjectTag *string `json:"project_tag"`
				Seconds    int64   `json:"seconds"`
			} `json:"projects"`
		} `json:"total"`
	}
	apiDo(t, "GET", s.base+"/api/events/summary?"+q.Encode(), "", &sum)
	out = mustCLI(t, b, "review")
	if len(sum.Total.Projects) < 2 {
		t.Fatalf("the summary has %d projects", len(sum.Total.Projects))
	}
	// one day: its minutes split among its projects (DESIGN.md, Summary,
	// Shown minutes), as the review page shows them
	secs := make([]int64, len(sum.Total.Projects))
	for i, p := range sum.Total.Projects {
		secs[i] = p.Seconds
	}
	dayMinutes, projectMinutes := models.DayMinutes(sum.Total.LoggedSeconds, secs)
	for i, p := range sum.Total.Projects {
		name := "(none)"
		if p.ProjectTag != nil {
			name = "#" + *p.ProjectTag
		}
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` +` + minutesText(projectMinutes[i]) + ` +\d+%$`).MatchString(out) {
			t.Errorf("review has no row %s %s:\n%s", name, minutesText(projectMinutes[i]), out)
		}
	}
	if !regexp.MustCompile(`(?m)^total +` + minutesText(dayMinutes) + `$`).MatchString(out) {
		t.Errorf("review has no total %s:\n%s", minutesText(dayMinutes), out)
	}
	checkTable(t, out[strings.Index(out, "PROJECT"):], 80)
	out = mustCLI(t, b, "review", "--week")
	if n := len(regexp.MustCompile(`(?m)^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d-\d\d +\d`).FindAllString(out, -1)); n != 7 || !strings.Contains(out, "\ntotal ") {
		t.Errorf("review --week has %d days:\n%s", n, out)
	}
	monday := time.Date(now.Year(), now.Month(), now.Day()-(int(now.Weekday())+6)%7, 0, 0, 0, 0, seoul)
	q = url.Values{"from": {monday.Format(time.RFC3339)}, "to": {monday.AddDate(0, 0, 7).Format(time.RFC3339)}, "tz": {"Asia/Seoul"}}
	sameJSON(t, s, mustCLI(t, b, "review", "--week", "--json"), "/api/events/summary?"+q.Encode())

	// On a terminal (a real pty, through script(1)) the table takes the
	// terminal's width and a bold head, unless NO_COLOR is set.
	if _, err := exec.LookPath("script"); err != nil {
		t.Logf("SKIPPED the terminal check: no script(1): %v", err)
		return
	}
	onTTY := func(env ...string) string {
		cmd := exec.Command("script", "-qec", "stty cols 100 rows 40; exec "+build(t)+" inbox", "/dev/null")
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "EVENTS_URL=" + b, "EVENTS_TOKEN=" + importToken, "EVENTS_TIMEZONE=Asia/Seoul", "TERM=xterm", "COLUMNS=50"}, env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("script: %v\n%s", err, out)
		}
		return strings.ReplaceAll(string(out), "\r\n", "\n")
	}
	mustCLI(t, b, "add", strings.Repeat("긴 제목 ", 20)+"#집안일")
	tty := onTTY()
	lines = checkTable(t, strings.ReplaceAll(strings.ReplaceAll(tty, "\x1b[1m", ""), "\x1b[0m", ""), 100, "TITLE", "PROJECT")
	if !strings.HasPrefix(tty, "\x1b[1mID  KIND") || len(lines) != 3 || runewidth.StringWidth(lines[2]) < 98 || !strings.HasSuffix(lines[2], "...  #집안일") {
		t.Errorf("inbox on a 100-column terminal:\n%q", tty)
	}
	if plain := onTTY("NO_COLOR=1"); strings.Contains(plain, "\x1b") {
		t.Errorf("NO_COLOR on a terminal wrote escapes:\n%q", plain)
	}
}

// TestTerminalClientRefusalsAndUsage: a refusal of the API exits 1 with
// its detail and each field's message the detail does not say, one a
// line, and writes nothing; a
// wrong command line exits 2 and sends nothing.
func TestTerminalClientRefusalsAndUsage(t *testing.T) {
	t.Parallel()
	s := importService(t)
	out, errOut, code := runCLI(t, s.base, nil, "log", "standup 30 mns")
	lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
	// once: the detail names the field and its message, so no field line repeats it
	if code != 1 || out != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], "events: The request has a problem with 1 field: text: ") || !strings.Contains(lines[0], "30 mns") {
		t.Errorf("a refused log: exit %d, %q %q", code, out, errOut)
	}
	if _, errOut, code := runCLI(t, s.base, nil, "done", "999999"); code != 1 || errOut != "events: There is no such event.\n" {
		t.Errorf("done of no event: exit %d, %q", code, errOut)
	}
	task := idOf(t, mustCLI(t, s.base, "add", "water the plants"))
	if _, errOut, code := runCLI(t, s.base, nil, "undo", fmt.Sprint(task)); code != 1 || !strings.HasPrefix(errOut, "events: ") || len(errOut) < 20 {
		t.Errorf("undo of a step never taken: exit %d, %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, s.base, []string{"EVENTS_TOKEN=wrong"}, "today"); code != 1 || !strings.HasPrefix(errOut, "events: ") {
		t.Errorf("a wrong token: exit %d, %q", code, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"log"}, "events: log takes TEXT, such as: events log 'standup 15m #work'\n"},
		{[]string{"add", "  "}, "events: add takes TEXT, such as: events add 'standup 15m #work'\n"},
		{[]string{"done"}, "events: done takes one event ID, such as: events done 12\n"},
		{[]string{"undo", "12", "13"}, "events: undo takes one event ID, such as: events undo 12\n"},
		{[]string{"done", "twelve"}, "events: done: \"twelve\" is not an event ID (a whole number from 1, as events today shows)\n"},
		{[]string{"today", "now"}, "events: today takes no arguments; got \"now\"\n"},
		{[]string{"inbox", "--week"}, "events: inbox: unknown flag \"--week\" (put -- before text that starts with a dash; events inbox -h shows how)\n"},
		{[]string{"log", "-5m", "nap"}, "events: log: unknown flag \"-5m\" (put -- before text that starts with a dash; events log -h shows how)\n"},
	} {
		if out, errOut, code := runCLI(t, s.base, nil, c.args...); code != 2 || out != "" || errOut != c.want {
			t.Errorf("events %s: exit %d, %q %q; want 2 and %q", strings.Join(c.args, " "), code, out, errOut, c.want)
		}
	}
	if _, errOut, code := runCLI(t, s.base, []string{"EVENTS_URL=ftp://x"}, "today"); code != 2 || !strings.Contains(errOut, "EVENTS_URL must be") {
		t.Errorf("a wrong EVENTS_URL: exit %d, %q", code, errOut)
	}
	if out, _, code := runCLI(t, s.base, nil, "log", "-h"); code != 0 || !strings.Contains(out, "events start TEXT") {
		t.Errorf("log -h: exit %d, %q", code, out)
	}
	var page struct {
		Items []importedEvent `json:"items"`
	}
	apiDo(t, "GET", s.base+"/api/events?limit=1000", "", &page)
	if len(page.Items) != 1 || page.Items[0].ID != task {
		t.Errorf("the refusals wrote: %+v", page.Items)
	}
}

// TestTerminalClientRetriesWithItsKey cuts the first answer to a log off
// (a real proxy forwards the request, then drops the connection before the
// answer): the client sends it again with the same Idempotency-Key, so
// the record is stored once and the command succeeds.
func TestTerminalClientRetriesWithItsKey(t *testing.T) {
	t.Parallel()
	s := importService(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	upstream := strings.TrimPrefix(s.base, "http://")
	var mu sync.Mutex
	cut := 0
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer in.Close()
				outConn, err := net.Dial("tcp", upstream)
				if err != nil {
					return
				}
				defer outConn.Close()
				go io.Copy(outConn, in)
				buf := make([]byte, 4096)
				n, err := outConn.Read(buf)
				mu.Lock()
				drop := n > 0 && bytes.HasPrefix(buf[:n], []byte("HTTP/1.1 201")) && cut == 0
				if drop {
					cut++
				}
				mu.Unlock()
				if drop || err != nil {
					return // the answer is lost
				}
				in.Write(buf[:n])
				io.Copy(in, outConn)
			}()
		}
	}()
	out := mustCLI(t, "http://"+ln.Addr().String(), "log", "retried 10m")
	mu.Lock()
	if cut != 1 {
		t.Errorf("the proxy cut %d answers, want 1", cut)
	}
	mu.Unlock()
	id := idOf(t, out)
	var page struct {
		Items []importedEvent `json:"items"`
	}
	apiDo(t, "GET", s.base+"/api/events?limit=1000", "", &page)
	if len(page.Items) != 1 || page.Items[0].ID != id || page.Items[0].Title != "retried" {
		t.Errorf("after a lost answer the store holds %+v, want only %d", page.Items, id)
	}
}

// The terminal rounds as the pages do: a 30-second log is 1 minute (it was
// "0m" here and "1 min" on the page), and a review's days and projects add
// up to the total it prints (a week of 90-second logs printed parts that
// did not add up to its total).
func TestCLIRoundsAsThePages(t *testing.T) {
	for secs, want := range map[int64]string{29: "0m", 30: "1m", 89: "1m", 90: "2m", 3600 + 29: "1h", 2*3600 + 10*60: "2h10m"} {
		if got := duration(secs); got != want {
			t.Errorf("duration(%d) = %s, want %s", secs, got, want)
		}
	}
	a, b := "a", "b"
	day := func(date string, ps ...apiclient.ProjectSeconds) apiclient.SummaryDay {
		d := apiclient.SummaryDay{Date: date}
		d.Projects = ps
		for _, p := range ps {
			d.LoggedSeconds += p.Seconds
		}
		return d
	}
	s := apiclient.Summary{Days: []apiclient.SummaryDay{
		day("2026-11-16", apiclient.ProjectSeconds{ProjectTag: &a, Seconds: 90}, apiclient.ProjectSeconds{ProjectTag: &b, Seconds: 90}),
		day("2026-11-17", apiclient.ProjectSeconds{ProjectTag: &a, Seconds: 90}),
		day("2026-11-18", apiclient.ProjectSeconds{ProjectTag: &b, Seconds: 90}),
	}}
	s.Total.LoggedSeconds = 360
	s.Total.Projects = []apiclient.ProjectSeconds{{ProjectTag: &a, Seconds: 180}, {ProjectTag: &b, Seconds: 180}}
	got := shownReview(s)
	if fmt.Sprint(got.days, got.total, got.projects) != "[3 2 2] 7 [4 3]" {
		t.Errorf("shownReview = days %v, total %d, projects %v; want [3 2 2] 7 [4 3]", got.days, got.total, got.projects)
	}
}

// events cancel ID cancels a wrong record, so it counts nowhere (the
// command the detail page of a log names), and events undo brings the
// record back.
func TestTerminalClientCancels(t *testing.T) {
	t.Parallel()
	s := importService(t)
	out := mustCLI(t, s.base, "log", "wrong record 20m #work")
	id := idOf(t, out)
	out = mustCLI(t, s.base, "cancel", fmt.Sprint(id))
	if !regexp.MustCompile(`^Cancelled \d+  \d\d:\d\d-\d\d:\d\d \(20m\)  wrong record  #work\n$`).MatchString(out) || cliEvent(t, s, id).Status != "cancelled" {
		t.Errorf("cancel printed %q; status %s", out, cliEvent(t, s, id).Status)
	}
	if out := mustCLI(t, s.base, "undo", fmt.Sprint(id)); cliEvent(t, s, id).Status != "done" {
		t.Errorf("undo after cancel: %s", out)
	}
	if _, errOut, code := runCLI(t, s.base, nil, "cancel"); code != 2 || !strings.Contains(errOut, "cancel takes one event ID") {
		t.Errorf("cancel without an ID: exit %d, %q", code, errOut)
	}
}

// A refusal is printed once: a field error the detail already says is not
// repeated as a field line under it (the terminal printed "title: must not
// be empty" twice); one the detail does not say still is.
func TestCLIPrintsARefusalOnce(t *testing.T) {
	p := &apiclient.Problem{Status: 422, Title: "Unprocessable Entity", Detail: "title: must not be empty",
		Errors: []apiclient.FieldError{{Field: "title", Message: "must not be empty"}}}
	if got := (refusal{p}).Error(); got != "title: must not be empty" {
		t.Errorf("refusal = %q, want the detail once", got)
	}
	p = &apiclient.Problem{Status: 422, Detail: "2 fields are wrong",
		Errors: []apiclient.FieldError{{Field: "title", Message: "must not be empty"}, {Field: "priority", Message: "must be 0 to 3"}}}
	if got := (refusal{p}).Error(); got != "2 fields are wrong\ntitle: must not be empty\npriority: must be 0 to 3" {
		t.Errorf("refusal = %q", got)
	}
}

// TestCLISpeaksKorean: with LANG (or LC_ALL) Korean the terminal client
// prints the catalogue's Korean, with the table's columns still aligned
// (runewidth counts a Hangul syllable as two columns); English otherwise.
func TestCLISpeaksKorean(t *testing.T) {
	t.Parallel()
	s := importService(t)
	ko := []string{"LANG=ko_KR.UTF-8"}
	out, errOut, code := runCLI(t, s.base, ko, "add", "월세 내기 내일 9:00 #집")
	if code != 0 || !strings.HasPrefix(out, "추가함 ") || !strings.Contains(out, "마감 ") {
		t.Fatalf("add in Korean: exit %d, %q %q", code, out, errOut)
	}
	mustCLI(t, s.base, "log", "회의 30m #work")
	out, _, _ = runCLI(t, s.base, ko, "today")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 2 || !strings.Contains(lines[0], "종류") || !strings.Contains(lines[0], "제목") || !strings.Contains(out, "기록") {
		t.Fatalf("today in Korean:\n%s", out)
	}
	col := displayWidth(lines[0][:strings.Index(lines[0], "제목")])
	for _, l := range lines[1:] {
		if i := strings.Index(l, "회의"); i >= 0 && displayWidth(l[:i]) != col {
			t.Errorf("the title column starts at %d, its heading at %d:\n%s", displayWidth(l[:i]), col, out)
		}
	}
	if out, _, _ := runCLI(t, s.base, []string{"LANG=ko_KR.UTF-8", "LC_ALL=C"}, "today"); !strings.Contains(out, "TITLE") {
		t.Errorf("LC_ALL=C is English:\n%s", out)
	}
	if out, _, _ := runCLI(t, s.base, ko, "review"); !strings.Contains(out, "돌아보기") || !strings.Contains(out, "합계") && !strings.Contains(out, "프로젝트") {
		t.Errorf("review in Korean:\n%s", out)
	}
}

// One line, any kind (issue 55): `events add` and `events log` make a
// calendar entry of a line that names a day and a clock range, and say so
// in words, in the output's language.
func TestCLILinesOfAnyKindMakeCalendarEntries(t *testing.T) {
	t.Parallel()
	s := importService(t)
	for _, c := range []struct {
		args []string
		env  []string
		say  string
	}{
		{[]string{"add", "Dentist 2030-12-03 15:00-16:00 #health"}, nil, "Added to your calendar: Tue 3 Dec 15:00–16:00."},
		{[]string{"log", "Review 2030-12-03 9:00-10:30"}, nil, "Added to your calendar: Tue 3 Dec 09:00–10:30."},
		{[]string{"add", "치과 2030-12-03 오후 3시-4시 #건강"}, []string{"LANG=ko_KR.UTF-8"}, "캘린더에 추가했습니다: 12월 3일 (화) 15:00–16:00."},
	} {
		out, errOut, code := runCLI(t, s.base, c.env, c.args...)
		if code != 0 {
			t.Fatalf("events %q: exit %d\n%s%s", c.args, code, out, errOut)
		}
		if !strings.Contains(out, c.say) {
			t.Errorf("events %q printed %q, want %q", c.args, out, c.say)
		}
		m := regexp.MustCompile(`^\S+ (\d+)  `).FindStringSubmatch(out) // the verb is the output's language's
		if m == nil {
			t.Fatalf("no event id in %q", out)
		}
		id, _ := strconv.ParseInt(m[1], 10, 64)
		e := cliEvent(t, s, id)
		if e.Kind != "calendar_event" || e.StartAt == nil || e.StartAt.In(time.UTC).Format(time.DateOnly) != "2030-12-03" {
			t.Errorf("events %q made %+v, want a calendar entry on 3 Dec 2030", c.args, e)
		}
	}
}

// TestCLIRefusalsInKorean: under a Korean locale the client sends
// Accept-Language, so the service's refusals print in Korean; the
// capture grammar's note too. Without one they stay English.
func TestCLIRefusalsInKorean(t *testing.T) {
	t.Parallel()
	s := importService(t)
	_, errOut, code := runCLI(t, s.base, []string{"LANG=ko_KR.UTF-8"}, "add", "월세 #집 #돈")
	if code == 0 || !strings.Contains(errOut, "#태그가 둘입니다(#집, #돈)") || strings.Contains(errOut, "holds two") {
		t.Errorf("a refusal under LANG=ko_KR.UTF-8: exit %d, %q", code, errOut)
	}
	_, errOut, code = runCLI(t, s.base, nil, "add", "rent #home #money")
	if code == 0 || !strings.Contains(errOut, "holds two #tags (#home and #money)") {
		t.Errorf("a refusal without a Korean locale: exit %d, %q", code, errOut)
	}
	out, errOut, code := runCLI(t, s.base, []string{"LC_ALL=ko_KR.UTF-8"}, "log", "점심 2030-12-03 12-1")
	if code != 0 || !strings.Contains(out, "“12-1”: 12:00부터 13:00까지로 읽었습니다.") {
		t.Errorf("the capture note under LC_ALL=ko_KR.UTF-8: exit %d, %q %q", code, out, errOut)
	}
}

// TestCLIShowsLabelsAndPlace (issue 56): a line prints its labels (in the
// form the capture text reads back) and its place; today's table has a
// labels and a place column that line up; the review gives each label's
// time, a union within the label, and says that labels overlap.
func TestCLIShowsLabelsAndPlace(t *testing.T) {
	t.Parallel()
	s := importService(t)
	out := mustCLI(t, s.base, "log", `회의 30m #work @회의 @"client acme"`)
	if !strings.HasSuffix(out, `  회의  #work  @회의 @"client acme"`+"\n") {
		t.Errorf("log printed %q, want the project and both labels", out)
	}
	mustCLI(t, s.base, "log", "리뷰 20m @회의")
	seoul, _ := time.LoadLocation("Asia/Seoul")
	now := time.Now().In(seoul)
	due := time.Date(now.Year(), now.Month(), now.Day(), 23, 0, 0, 0, seoul).Format(time.RFC3339)
	var dentist importedEvent
	apiDo(t, "POST", s.base+"/api/events", `{"kind":"task","title":"치과","due_at":"`+due+`","location":"서울 강남구 테헤란로 1","labels":["health"]}`, &dentist)

	out = mustCLI(t, s.base, "today")
	lines := checkTable(t, out, 80, "KIND", "STATUS", "WHEN", "TITLE", "PROJECT", "LABELS", "PLACE")
	for _, want := range []string{`@회의 @"client`, "@health", "서울 강남"} {
		if !strings.Contains(out, want) {
			t.Errorf("today lacks %s:\n%s", want, out)
		}
	}
	if len(lines) != 4 {
		t.Errorf("today has %d lines, want a head and 3 rows:\n%s", len(lines), out)
	}

	out = mustCLI(t, s.base, "review")
	for _, want := range []string{"LABEL", "@회의", `@"client acme"`, "Labels overlap", "\nto the time logged.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("review lacks %s:\n%s", want, out)
		}
	}
	// 회의 is the union of its two logs (30 min), not their sum (50 min)
	if !regexp.MustCompile(`(?m)^@회의 +30m$`).MatchString(out) || !regexp.MustCompile(`(?m)^@"client acme" +30m$`).MatchString(out) {
		t.Errorf("review's labels are not each 30m:\n%s", out)
	}
	if out, _, _ := runCLI(t, s.base, []string{"LANG=ko_KR.UTF-8"}, "review"); !strings.Contains(out, "라벨") || !strings.Contains(out, "@회의") {
		t.Errorf("review in Korean lacks its labels:\n%s", out)
	}
}
