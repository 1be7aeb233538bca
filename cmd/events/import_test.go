// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apiclient "events/internal/client"
	"events/internal/dbtest"
)

const importToken = "import-test-token-0123456789"

// importService is a real `events serve` on its own database that
// authenticates with importToken.
func importService(t *testing.T) *server {
	t.Helper()
	needPostgres(t)
	return start(t, "DATABASE_URL="+dbtest.NewURL(t), "HOST=127.0.0.1", "EVENTS_API_TOKENS="+importToken, "EVENTS_TIMEZONE=Asia/Seoul")
}

// runImport runs `events import args...` against s and returns its output
// (stdout and stderr) and exit code.
func runImport(t *testing.T, s *server, token string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(build(t), append([]string{"import"}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "EVENTS_URL=" + s.base, "EVENTS_TOKEN=" + token, "EVENTS_TIMEZONE=Asia/Seoul"}
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// importedEvent is an event as the API answers it: the API client's.
type importedEvent = apiclient.Event

// apiDo sends one request with the token and decodes a 2xx answer into v.
func apiDo(t *testing.T, method, url, body string, v any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+importToken)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, url, res.StatusCode, data)
	}
	if v != nil {
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s %s: %v\n%s", method, url, err, data)
		}
	}
}

// imported lists every event of source, by source_ref (each ref at most
// once: a second one fails the test).
func imported(t *testing.T, s *server, source string) map[string]importedEvent {
	t.Helper()
	out := map[string]importedEvent{}
	cursor := ""
	for {
		var page struct {
			Items      []importedEvent `json:"items"`
			NextCursor *string         `json:"next_cursor"`
		}
		url := s.base + "/api/events?limit=1000&source=" + source
		if cursor != "" {
			url += "&cursor=" + cursor
		}
		apiDo(t, "GET", url, "", &page)
		for _, e := range page.Items {
			if _, twice := out[*e.SourceRef]; twice {
				t.Errorf("source_ref %s stored twice", *e.SourceRef)
			}
			out[*e.SourceRef] = e
		}
		if page.NextCursor == nil {
			return out
		}
		cursor = *page.NextCursor
	}
}

// historyKinds lists the change kinds of event id's history.
func historyKinds(t *testing.T, s *server, id int64) []string {
	t.Helper()
	var page struct {
		Items []struct {
			ChangeKind string `json:"change_kind"`
		} `json:"items"`
	}
	apiDo(t, "GET", fmt.Sprintf("%s/api/events/%d/history", s.base, id), "", &page)
	var kinds []string
	for _, h := range page.Items {
		kinds = append(kinds, h.ChangeKind)
	}
	return kinds
}

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "import", name) }

func at(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func sameTime(p *time.Time, want time.Time) bool { return p != nil && p.Equal(want) }

// TestImportEachFormatTwice imports each real-shaped file into a real
// service twice: the first run creates its events and refuses each
// malformed record with its line, the second creates nothing.
func TestImportEachFormatTwice(t *testing.T) {
	t.Parallel()
	s := importService(t)
	window := []string{"--since", "2026-01-01", "--until", "2027-12-31"}
	for _, c := range []struct {
		file    string
		args    []string
		created int
		refused []string
	}{
		{"calendar.ics", window, 12, []string{"line 89: the VEVENT has no DTSTART", "line 94: DTSTART", "line 100: DTSTART has TZID", "line 132: PRIORITY"}},
		{"timew.json", nil, 5, []string{"line 5: the interval ends", "line 6: start \"yesterday\""}},
		{"toggl.csv", nil, 4, []string{"line 6: ", "line 7: ", "line 8: the row has 8 fields"}},
		{"Home.csv", nil, 4, []string{"line 9: PRIORITY \"7\"", "line 10: TYPE \"tsk\""}},
	} {
		report := filepath.Join(t.TempDir(), "refused.csv")
		args := append(append([]string{}, c.args...), "--report", report, fixture(c.file))
		out, code := runImport(t, s, importToken, args...)
		want := fmt.Sprintf("created %d, already there 0, refused %d", c.created, len(c.refused))
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("%s, first run: exit %d, want 1 and %q:\n%s", c.file, code, want, out)
		}
		for _, r := range c.refused {
			if !strings.Contains(out, "refused: "+r) {
				t.Errorf("%s: the summary does not refuse %q:\n%s", c.file, r, out)
			}
		}
		rep, err := os.ReadFile(report)
		if err != nil || bytes.Count(rep, []byte("\n")) < 1+len(c.refused) || !strings.HasPrefix(string(rep), "line,reason,record\n") {
			t.Errorf("%s: the report: %v\n%s", c.file, err, rep)
		}
		out, code = runImport(t, s, importToken, append(append([]string{}, c.args...), fixture(c.file))...)
		want = fmt.Sprintf("created 0, already there %d, refused %d", c.created, len(c.refused))
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("%s, second run: exit %d, want 1 and %q:\n%s", c.file, code, want, out)
		}
	}

	cal := imported(t, s, "calendar")
	if len(cal) != 12 {
		t.Errorf("%d calendar events, want 12", len(cal))
	}
	// all-day: the local dates in EVENTS_TIMEZONE, the end exclusive
	if b := cal["birthday-mina@example.org"]; !b.AllDay || !sameTime(b.StartAt, at(t, "2026-12-03T00:00:00+09:00")) || !sameTime(b.EndAt, at(t, "2026-12-04T00:00:00+09:00")) || b.Title != "민아 생일" {
		t.Errorf("all-day: %+v", b)
	}
	if h := cal["holiday-2026@example.org"]; !sameTime(h.EndAt, at(t, "2026-12-27T00:00:00+09:00")) {
		t.Errorf("three days: %+v", h)
	}
	if n := cal["call-nyc@example.org"]; !sameTime(n.StartAt, at(t, "2026-12-10T09:00:00-05:00")) || n.Kind != "calendar_event" {
		t.Errorf("TZID: %+v", n)
	}
	if d := cal["dentist@example.org"]; d.Status != "tentative" {
		t.Errorf("tentative: %+v", d)
	}
	if o := cal["standup-series@example.org/20261102T140000Z"]; o.Title != "Weekly sync (moved to Tuesday)" || !sameTime(o.StartAt, at(t, "2026-11-03T10:00:00-05:00")) {
		t.Errorf("the override: %+v", o)
	}
	if o := cal["standup-series@example.org/20261026T130000Z"]; !sameTime(o.StartAt, at(t, "2026-10-26T09:00:00-04:00")) {
		t.Errorf("an occurrence: %+v", o)
	}
	if _, ok := cal["standup-series@example.org/20261109T140000Z"]; ok {
		t.Error("the EXDATE occurrence was imported")
	}
	// to-dos: the operations after the create happened once, over two
	// runs, at the source's moments (COMPLETED:, LAST-MODIFIED), which
	// the history lists before the import's create; the dinner ahead is
	// cancelled at the import
	for ref, want := range map[string][2]string{"todo-report@example.org": {"done", "complete,create"}, "todo-plants@example.org": {"cancelled", "cancel,create"},
		"dinner-cancelled@example.org": {"cancelled", "create,cancel"}, "todo-rent@example.org": {"planned", "create"}} {
		e := cal[ref]
		kinds := strings.Join(historyKinds(t, s, e.ID), ",")
		if string(e.Status) != want[0] || kinds != want[1] {
			t.Errorf("%s: status %s, history %s; want %s, %s", ref, e.Status, kinds, want[0], want[1])
		}
	}
	if r := cal["todo-report@example.org"]; !sameTime(r.CompletedAt, at(t, "2026-11-20T08:00:00Z")) {
		t.Errorf("completed at the import, not at COMPLETED: %v", r.CompletedAt)
	}
	if d := cal["dentist@example.org"]; d.Location == nil || *d.Location != "서울 강남구 테헤란로 1, 3층" || strings.Join(d.Labels, ",") != "health" {
		t.Errorf("LOCATION and CATEGORIES: %v %q", d.Location, d.Labels)
	}
	if r := cal["todo-rent@example.org"]; r.Priority != 3 || !sameTime(r.DueAt, at(t, "2026-12-01T23:59:59.999999+09:00")) || r.Kind != "task" {
		t.Errorf("VTODO: %+v", r)
	}

	imp := imported(t, s, "import")
	if len(imp) != 5+4+4 {
		t.Errorf("%d events of source import, want 13", len(imp))
	}
	// every Timewarrior tag is a label; none names a project here
	if r := imp["timew:20261127T010000Z"]; r.Status != "in_progress" || r.EndedAt != nil || r.ProjectTag != nil || strings.Join(r.Labels, ",") != "writing" {
		t.Errorf("the open interval: %+v", r)
	}
	if r := imp["timew:20261120T003000Z"]; r.Title != "Reviewed the importer" || r.ProjectTag != nil || strings.Join(r.Labels, ",") != "code-review,work" ||
		!sameTime(r.EndedAt, at(t, "2026-11-20T01:30:00Z")) {
		t.Errorf("an interval: %+v", r)
	}
	toggl, todoist := 0, 0
	for ref, e := range imp {
		switch {
		case strings.HasPrefix(ref, "toggl:"):
			toggl++
			if e.Title == "주간 회의" && (*e.ProjectTag != "회의" || !sameTime(e.StartedAt, at(t, "2026-11-17T14:00:00+09:00"))) {
				t.Errorf("a Toggl row: %+v", e)
			}
			if e.Title == "Fix the login form" && (strings.Join(e.Labels, ",") != "Acme,frontend,urgent" || !strings.Contains(e.Description, "Task: Login")) {
				t.Errorf("a Toggl row's client, tags and task: %+v", e)
			}
		case strings.HasPrefix(ref, "todoist:"):
			todoist++
			if e.Title == "Pay the electricity bill" && (e.Priority != 3 || *e.ProjectTag != "Home" || strings.Join(e.Labels, ",") != "bills,monthly" ||
				!sameTime(e.DueAt, at(t, "2026-12-05T23:59:59.999999+09:00"))) {
				t.Errorf("a Todoist task: %+v", e)
			}
		}
	}
	if toggl != 4 || todoist != 4 {
		t.Errorf("%d Toggl and %d Todoist events, want 4 and 4", toggl, todoist)
	}
}

// TestImportTimewTagsThatNameProjects: a Timewarrior tag that already
// names a project on the service (read through GET /api/events/names)
// becomes its interval's project without --project-tags, and stays a
// label; the summary names the tags found.
func TestImportTimewTagsThatNameProjects(t *testing.T) {
	t.Parallel()
	s := importService(t)
	for _, p := range []string{"work", "점심", "working"} {
		apiDo(t, "POST", s.base+"/api/events", `{"kind":"task","title":"a project","project_tag":"`+p+`"}`, nil)
	}
	out, code := runImport(t, s, importToken, fixture("timew.json"))
	if code != 1 || !strings.Contains(out, "tags that name a project on the service: work, 점심\n") || !strings.Contains(out, "created 5,") {
		t.Fatalf("exit %d, want 1, the tags work and 점심 named, 5 created:\n%s", code, out)
	}
	imp := imported(t, s, "import")
	for ref, want := range map[string]string{"timew:20261120T003000Z": "work", "timew:20261120T020000Z": "work", "timew:20261120T050000Z": "점심", "timew:20261127T010000Z": ""} {
		e := imp[ref]
		got := ""
		if e.ProjectTag != nil {
			got = *e.ProjectTag
		}
		if got != want || len(e.Labels) == 0 {
			t.Errorf("%s: project %q labels %q, want project %q and its tags as labels", ref, got, e.Labels, want)
		}
	}
}

// TestImportDryRunWritesNothing: --dry-run reads and checks every record
// and sends no write.
func TestImportDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	s := importService(t)
	out, code := runImport(t, s, importToken, "--dry-run", "--since", "2026-01-01", "--until", "2027-12-31", fixture("calendar.ics"))
	if code != 1 || !strings.Contains(out, "would create 12, refused 4") || !strings.Contains(out, "dry run: nothing was sent") {
		t.Errorf("dry run: exit %d\n%s", code, out)
	}
	if n := len(imported(t, s, "calendar")); n != 0 {
		t.Errorf("a dry run stored %d events", n)
	}
	// the service's own rules, checked in-process: a title over 500 characters
	long := filepath.Join(t.TempDir(), "long.json")
	if err := os.WriteFile(long, []byte(`[{"start":"20261120T003000Z","end":"20261120T013000Z","annotation":"`+strings.Repeat("a", 501)+`"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = runImport(t, s, importToken, "--dry-run", long)
	if code != 1 || !strings.Contains(out, "refused: line 1: the service would refuse it: title") {
		t.Errorf("dry run of a long title: exit %d\n%s", code, out)
	}
}

// TestImportCutOffAndRerun kills an import midway and starts it again:
// every interval is stored exactly once.
func TestImportCutOffAndRerun(t *testing.T) {
	t.Parallel()
	s := importService(t)
	const n = 600
	var b strings.Builder
	b.WriteString("[\n")
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		start := base.Add(time.Duration(i) * time.Hour)
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id":%d,"start":"%s","end":"%s","tags":["work"],"annotation":"interval %d"}`, n-i, start.Format("20060102T150405Z"), start.Add(40*time.Minute).Format("20060102T150405Z"), i)
	}
	b.WriteString("\n]\n")
	file := filepath.Join(t.TempDir(), "timew.json")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(build(t), "import", file)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "EVENTS_URL=" + s.base, "EVENTS_TOKEN=" + importToken}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stored := 0
	for deadline := time.Now().Add(time.Minute); stored < 50 && time.Now().Before(deadline); {
		var page struct{ Items []importedEvent }
		apiDo(t, "GET", s.base+"/api/events?limit=1000&source=import", "", &page)
		stored = len(page.Items)
		time.Sleep(10 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	<-done
	first := len(imported(t, s, "import"))
	if first == 0 || first >= n {
		t.Fatalf("the kill came at %d of %d stored; the test needs it midway", first, n)
	}

	// A create in flight at the kill may still be committed after the count
	// above: the rerun finds it there.
	out, code := runImport(t, s, importToken, file)
	var created, already int
	if _, err := fmt.Sscanf(out[strings.Index(out, "\ncreated ")+1:], "created %d, already there %d, refused 0", &created, &already); err != nil ||
		code != 0 || created+already != n || already < first {
		t.Errorf("the rerun after %d stored: exit %d, %v\n%s", first, code, err, out)
	}
	got := imported(t, s, "import")
	if len(got) != n {
		t.Errorf("%d events after the rerun, want %d", len(got), n)
	}
	for i := 0; i < n; i++ {
		ref := "timew:" + base.Add(time.Duration(i)*time.Hour).Format("20060102T150405Z")
		if e, ok := got[ref]; !ok || e.Title != fmt.Sprintf("interval %d", i) {
			t.Errorf("%s: %+v", ref, e)
		}
	}
}

// TestImportFinishesAnOperationLeftUndone: a to-do created by a run cut off
// before its complete is completed by the next run, once; the run after
// that changes nothing.
func TestImportFinishesAnOperationLeftUndone(t *testing.T) {
	t.Parallel()
	s := importService(t)
	// what a run cut off between the create and the complete leaves
	var e importedEvent
	apiDo(t, "POST", s.base+"/api/events", `{"kind":"task","title":"Send the report","source":"calendar","source_ref":"todo-report@example.org"}`, &e)

	window := []string{"--since", "2026-01-01", "--until", "2027-12-31"}
	out, _ := runImport(t, s, importToken, append(window, fixture("calendar.ics"))...)
	if !strings.Contains(out, "created 11, already there 1, refused 4, finished 1") {
		t.Errorf("first run:\n%s", out)
	}
	out, _ = runImport(t, s, importToken, append(window, fixture("calendar.ics"))...)
	if !strings.Contains(out, "created 0, already there 12, refused 4\n") {
		t.Errorf("second run:\n%s", out)
	}
	var now importedEvent
	apiDo(t, "GET", fmt.Sprintf("%s/api/events/%d", s.base, e.ID), "", &now)
	if kinds := strings.Join(historyKinds(t, s, e.ID), ","); now.Status != "done" || kinds != "complete,create" {
		t.Errorf("status %s, history %s; want done, complete (at COMPLETED:), create", now.Status, kinds)
	}
}

// TestImportRefusals: a file of no known format, a wrong flag, and a
// service that refuses the credential each stop with one sentence.
func TestImportRefusals(t *testing.T) {
	t.Parallel()
	s := importService(t)
	odd := filepath.Join(t.TempDir(), "odd.csv")
	if err := os.WriteFile(odd, []byte("name,amount\nrent,100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		token string
		args  []string
		code  int
		want  string
	}{
		{importToken, []string{odd}, 1, "cannot tell the file's format"},
		{importToken, []string{"--from", "csv", odd}, 2, `--from "csv": the formats are ical, timew, toggl, todoist`},
		{importToken, nil, 2, "events import takes one FILE"},
		{"wrong-token-0123456789", []string{fixture("timew.json")}, 1, "reading the projects the service has: 401"},
		{"wrong-token-0123456789", []string{fixture("toggl.csv")}, 1, "stopped at line 2: 401"},
	} {
		out, code := runImport(t, s, c.token, c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, want %d and %q:\n%s", c.args, code, c.code, c.want, out)
		}
	}
	if n := len(imported(t, s, "import")); n != 0 {
		t.Errorf("%d events stored", n)
	}
}

// TestImportProgressOnATerminal: a file of more than 300 records shows a
// progress bar on a terminal (a pseudo-terminal made by script(1)), and
// none when the output is not one.
func TestImportProgressOnATerminal(t *testing.T) {
	t.Parallel()
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("SKIPPED LOUDLY: script(1) is not installed, so no terminal can be made")
	}
	s := importService(t)
	var b strings.Builder
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	b.WriteString("[\n")
	for i := 0; i < 400; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		start := base.Add(time.Duration(i) * time.Hour)
		fmt.Fprintf(&b, `{"id":%d,"start":"%s","end":"%s","tags":["bulk"]}`, i+1, start.Format("20060102T150405Z"), start.Add(30*time.Minute).Format("20060102T150405Z"))
	}
	b.WriteString("\n]\n")
	file := filepath.Join(t.TempDir(), "bulk.json")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(script, "-qec", build(t)+" import --dry-run "+file, "/dev/null")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "EVENTS_URL=" + s.base, "EVENTS_TOKEN=" + importToken}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "importing") || !strings.Contains(string(out), "would create 400, refused 0") {
		t.Errorf("on a terminal: %v\n%q", err, out)
	}
	out2, code := runImport(t, s, importToken, "--dry-run", file)
	if code != 0 || strings.Contains(out2, "importing") {
		t.Errorf("not on a terminal: exit %d\n%s", code, out2)
	}
}
