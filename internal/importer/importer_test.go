// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package importer

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

var seoul, _ = time.LoadLocation("Asia/Seoul")

// now is the clock of these tests: the fixtures' dates are around it.
var now = time.Date(2026, 11, 27, 9, 0, 0, 0, seoul)

func parseFixture(t *testing.T, name string, o Options) Parsed {
	t.Helper()
	data, err := os.ReadFile("../../testdata/import/" + name)
	if err != nil {
		t.Fatal(err)
	}
	o.Zone, o.Now, o.Name = seoul, now, name
	p, err := Parse(data, o)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

func byRef(p Parsed) map[string]Record {
	m := map[string]Record{}
	for _, r := range p.Records {
		m[*r.Create.SourceRef] = r
	}
	return m
}

func refusedLines(p Parsed) map[int]string {
	m := map[int]string{}
	for _, r := range p.Refused {
		m[r.Line] = r.Reason
	}
	return m
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestDetectFormats(t *testing.T) {
	for name, want := range map[string]string{"calendar.ics": FormatICal, "timew.json": FormatTimew, "toggl.csv": FormatToggl, "Home.csv": FormatTodoist} {
		data, err := os.ReadFile("../../testdata/import/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := Detect(data); got != want || err != nil {
			t.Errorf("%s: %q %v, want %q", name, got, err, want)
		}
	}
	if _, err := Detect([]byte("name,amount\nrent,100\n")); err == nil || !strings.Contains(err.Error(), "--from") {
		t.Errorf("an unknown CSV: %v", err)
	}
}

func TestICalEntries(t *testing.T) {
	p := parseFixture(t, "calendar.ics", Options{Since: time.Date(2026, 1, 1, 0, 0, 0, 0, seoul), Until: time.Date(2027, 12, 31, 0, 0, 0, 0, seoul)})
	refs := byRef(p)

	// all-day, one day: noon of the date in --tz, no end (the service makes it one day)
	b := refs["birthday-mina@example.org"].Create
	if !b.AllDay || !b.StartAt.Equal(at("2026-12-03T12:00:00+09:00")) || b.EndAt != nil || b.Kind != "calendar_event" || val(b.Source) != "calendar" {
		t.Errorf("all-day: %+v", b)
	}
	// all-day, three days (DTEND exclusive): the end is on the last day
	h := refs["holiday-2026@example.org"].Create
	if !h.AllDay || !h.EndAt.Equal(at("2026-12-26T12:00:00+09:00")) || h.Description != "Three days away, back on the 27th.\nPhone off." {
		t.Errorf("all-day span: %+v", h)
	}
	// TZID, and a folded DESCRIPTION
	n := refs["call-nyc@example.org"].Create
	if !n.StartAt.Equal(at("2026-12-10T14:00:00Z")) || !n.EndAt.Equal(at("2026-12-10T15:30:00Z")) || !strings.Contains(n.Description, "new team in Seoul.") {
		t.Errorf("TZID: %+v", n)
	}
	if d := refs["dentist@example.org"]; d.Create.Status != "tentative" || d.Then != "" {
		t.Errorf("tentative: %+v", d)
	}
	// LOCATION (an escaped comma) and CATEGORIES are the place and labels
	if d := refs["dentist@example.org"].Create; val(d.Location) != "서울 강남구 테헤란로 1, 3층" || !slices.Equal(d.Labels, []string{"health"}) {
		t.Errorf("LOCATION, CATEGORIES: %q %q", val(d.Location), d.Labels)
	}
	// what has no home is kept under a heading in the description
	if !slices.Equal(n.Labels, []string{"work", "hiring"}) || !strings.HasSuffix(n.Description, "new team in Seoul.\n\nFrom the calendar:\nURL: https://meet.example.org/nyc-q4\n"+
		"Organizer: Kim Mina <mina@example.org>\nAttendees: Lee Jun <jun@example.org>") {
		t.Errorf("kept in the description: %q (labels %q)", n.Description, n.Labels)
	}
	// a cancelled entry in the future is cancelled at the import; one past
	// on its own day (TestICalMoments)
	if d := refs["dinner-cancelled@example.org"]; d.Then != "cancel" || d.At != nil || !d.Create.EndAt.Equal(at("2026-12-11T12:00:00Z")) {
		t.Errorf("cancelled, with DURATION: %+v", d)
	}
	// the series: 5 Mondays at 09:00 New York (EDT, then EST), less the
	// EXDATE, the 2 November one replaced by its RECURRENCE-ID entry
	want := map[string]string{
		"standup-series@example.org/20261019T130000Z": "2026-10-19T13:00:00Z",
		"standup-series@example.org/20261026T130000Z": "2026-10-26T13:00:00Z",
		"standup-series@example.org/20261102T140000Z": "2026-11-03T15:00:00Z", // the override
		"standup-series@example.org/20261116T140000Z": "2026-11-16T14:00:00Z",
	}
	series := 0
	for ref, r := range refs {
		if strings.HasPrefix(ref, "standup-series@example.org") {
			series++
			if w, ok := want[ref]; !ok || !r.Create.StartAt.Equal(at(w)) || r.Create.EndAt.Sub(*r.Create.StartAt) != 30*time.Minute {
				t.Errorf("series occurrence %s: %+v (want start %s)", ref, r.Create, w)
			}
		}
	}
	if series != len(want) {
		t.Errorf("%d occurrences, want %d", series, len(want))
	}
	if o := refs["standup-series@example.org/20261102T140000Z"].Create; o.Title != "Weekly sync (moved to Tuesday)" {
		t.Errorf("the override's title: %q", o.Title)
	}
	if len(p.Notes) != 2 || !strings.HasPrefix(p.Notes[0], "1 recurring series expanded into 3 occurrences") ||
		p.Notes[1] != "kept in descriptions: 1 calendar URL, 1 calendar organizer, 1 calendar attendee list" {
		t.Errorf("notes: %q", p.Notes)
	}
	// to-dos: DUE date at the day's end, priorities, statuses
	rent := refs["todo-rent@example.org"]
	if rent.Create.Kind != "task" || rent.Create.Priority != 3 || !rent.Create.DueAt.Equal(at("2026-12-01T23:59:59.999999+09:00")) || rent.Then != "" || val(rent.Create.Location) != "Post office" {
		t.Errorf("VTODO: %+v", rent)
	}
	// the lifecycle moments of the source: COMPLETED, LAST-MODIFIED
	if r := refs["todo-report@example.org"]; r.Create.Priority != 2 || r.Then != "complete" || !r.Create.DueAt.Equal(at("2026-12-02T09:00:00Z")) ||
		r.At == nil || !r.At.Equal(at("2026-11-20T08:00:00Z")) {
		t.Errorf("completed VTODO: %+v", r)
	}
	if r := refs["todo-plants@example.org"]; r.Create.Priority != 1 || r.Then != "cancel" || r.At == nil || !r.At.Equal(at("2026-11-22T01:00:00Z")) {
		t.Errorf("cancelled VTODO: %+v", r)
	}
	// malformed entries: each refused on its BEGIN line, the rest imported
	got := refusedLines(p)
	for line, reason := range map[int]string{89: "no DTSTART", 94: "not an iCalendar date", 100: "not an IANA zone", 132: "PRIORITY"} {
		if !strings.Contains(got[line], reason) {
			t.Errorf("line %d: refused %q, want %q (all: %v)", line, got[line], reason, got)
		}
	}
	if len(p.Refused) != 4 || len(p.Records) != 12 {
		t.Errorf("%d records, %d refused, want 12 and 4", len(p.Records), len(p.Refused))
	}
}

// TestICalMoments: a cancelled entry whose start has come counts as
// cancelled at its start (its own day), not at the import.
func TestICalMoments(t *testing.T) {
	data := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:gone\r\nSUMMARY:Team dinner\r\nDTSTART:20261111T100000Z\r\nSTATUS:CANCELLED\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	p, err := Parse([]byte(data), Options{Zone: seoul, Now: now})
	if err != nil || len(p.Records) != 1 {
		t.Fatalf("%v %+v", err, p)
	}
	if r := p.Records[0]; r.Then != "cancel" || r.At == nil || !r.At.Equal(at("2026-11-11T10:00:00Z")) {
		t.Errorf("cancelled on its own day: %+v at %v", r, r.At)
	}
}

func TestICalWindow(t *testing.T) {
	// only the occurrences inside --since/--until
	p := parseFixture(t, "calendar.ics", Options{Since: time.Date(2026, 10, 20, 0, 0, 0, 0, seoul), Until: time.Date(2026, 10, 31, 0, 0, 0, 0, seoul)})
	n := 0
	for _, r := range p.Records {
		if strings.HasPrefix(*r.Create.SourceRef, "standup-series") {
			n++
			if *r.Create.SourceRef != "standup-series@example.org/20261026T130000Z" {
				t.Errorf("outside the window: %s", *r.Create.SourceRef)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d occurrences in the window, want 1", n)
	}
}

func TestICalBrokenFile(t *testing.T) {
	for text, want := range map[string]string{
		"BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\n":                           "line 2: the VEVENT begun here never ends",
		"BEGIN:VEVENT\nEND:VEVENT\n":                                       "line 1: an iCalendar file begins with BEGIN:VCALENDAR",
		"BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\nEND:VCALENDAR\n":            "line 4: END:VCALENDAR ends the VEVENT begun on line 2",
		"BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\nEND:VTODO\nEND:VCALENDAR\n": "line 4: END:VTODO ends the VEVENT begun on line 2",
	} {
		if _, err := Parse([]byte(text), Options{Format: FormatICal}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

func TestTimew(t *testing.T) {
	p := parseFixture(t, "timew.json", Options{})
	refs := byRef(p)
	r := refs["timew:20261120T003000Z"].Create
	// every tag a label; no project (none of them names one)
	if r.Kind != "activity_log" || val(r.Source) != "import" || r.Title != "Reviewed the importer" || r.ProjectTag != nil ||
		!slices.Equal(r.Labels, []string{"code-review", "work"}) ||
		!r.StartedAt.Equal(at("2026-11-20T00:30:00Z")) || !r.EndedAt.Equal(at("2026-11-20T01:30:00Z")) || r.Status != "" {
		t.Errorf("interval: %+v", r)
	}
	if r := refs["timew:20261120T020000Z"].Create; r.Title != "work standup" || r.ProjectTag != nil || !slices.Equal(r.Labels, []string{"work", "standup"}) {
		t.Errorf("tags as the title: %+v", r)
	}
	// --project-tags (or the service's projects): the one tag that names
	// a project is the project, and stays a label
	q := parseFixture(t, "timew.json", Options{ProjectTags: []string{"work", "점심"}})
	if r := byRef(q)["timew:20261120T003000Z"].Create; val(r.ProjectTag) != "work" || !slices.Equal(r.Labels, []string{"code-review", "work"}) {
		t.Errorf("--project-tags work: %+v", r)
	}
	if r := byRef(q)["timew:20261120T050000Z"].Create; val(r.ProjectTag) != "점심" {
		t.Errorf("--project-tags 점심: %+v", r)
	}
	// the service's projects serve when --project-tags names none; two
	// tags that each name one make no project; --project-tags wins
	q = parseFixture(t, "timew.json", Options{Projects: []string{"work", "점심"}})
	if r := byRef(q)["timew:20261120T020000Z"].Create; val(r.ProjectTag) != "work" || !slices.Equal(r.Labels, []string{"work", "standup"}) {
		t.Errorf("the service's project work: %+v", r)
	}
	q = parseFixture(t, "timew.json", Options{Projects: []string{"work", "code-review"}})
	if r := byRef(q)["timew:20261120T003000Z"].Create; r.ProjectTag != nil {
		t.Errorf("two tags that name projects: %+v, want none", r)
	}
	q = parseFixture(t, "timew.json", Options{ProjectTags: []string{"점심"}, Projects: []string{"work"}})
	if r := byRef(q)["timew:20261120T020000Z"].Create; r.ProjectTag != nil {
		t.Errorf("--project-tags 점심 beside the service's work: %+v, want no project", r)
	}
	if r := refs["timew:20261121T030000Z"].Create; r.Title != "" || r.ProjectTag != nil {
		t.Errorf("no tags: %+v", r)
	}
	if r := refs["timew:20261127T010000Z"].Create; r.Status != "in_progress" || r.EndedAt != nil {
		t.Errorf("the open interval: %+v", r)
	}
	got := refusedLines(p)
	if !strings.Contains(got[5], "ends") || !strings.Contains(got[6], `start "yesterday"`) || len(p.Refused) != 2 || len(p.Records) != 5 {
		t.Errorf("refused %v, %d records", got, len(p.Records))
	}
	if _, err := Parse([]byte("[\n{\"start\":\"20261120T003000Z\"},\n{\"start\": oops}\n]"), Options{Format: FormatTimew}); err == nil || !strings.HasPrefix(err.Error(), "line 3") {
		t.Errorf("broken JSON: %v", err)
	}
}

func TestToggl(t *testing.T) {
	p := parseFixture(t, "toggl.csv", Options{})
	if len(p.Records) != 4 {
		t.Fatalf("%d records: %+v", len(p.Records), p.Records)
	}
	r := p.Records[0].Create
	// Client and Tags are labels; Task, Billable and Amount are kept
	if !slices.Equal(r.Labels, []string{"Acme", "frontend", "urgent"}) ||
		r.Description != "From Toggl:\nTask: Login\nBillable: Yes\nAmount (USD): 120.00" {
		t.Errorf("labels %q, description %q", r.Labels, r.Description)
	}
	if !slices.Equal(p.Records[1].Create.Labels, []string{"Acme"}) {
		t.Errorf("the client alone: %q", p.Records[1].Create.Labels)
	}
	if notes := strings.Join(p.Notes, "; "); notes != "kept in descriptions: 1 Toggl task, 2 Toggl billable marks, 1 Toggl amount" {
		t.Errorf("notes: %q", notes)
	}
	if r.Title != "Fix the login form" || val(r.ProjectTag) != "Website" || !r.StartedAt.Equal(at("2026-11-16T09:00:00+09:00")) ||
		!r.EndedAt.Equal(at("2026-11-16T10:30:00+09:00")) || !strings.HasPrefix(val(r.SourceRef), "toggl:") || p.Records[0].Line != 2 {
		t.Errorf("row: %+v", p.Records[0])
	}
	if r := p.Records[3].Create; !r.EndedAt.Equal(at("2026-11-18T00:20:00+09:00")) {
		t.Errorf("past midnight: %+v", r)
	}
	got := refusedLines(p)
	if !strings.Contains(got[6], "not a date") || !strings.Contains(got[7], "before it starts") || !strings.Contains(got[8], "fields") || len(p.Refused) != 3 {
		t.Errorf("refused: %v", got)
	}
	// the same row in another zone is the same record
	q := parseFixture(t, "toggl.csv", Options{})
	if *q.Records[1].Create.SourceRef != *p.Records[1].Create.SourceRef || *p.Records[1].Create.SourceRef == *p.Records[2].Create.SourceRef {
		t.Error("source_ref is not a stable hash of the row")
	}
}

func TestTodoist(t *testing.T) {
	p := parseFixture(t, "Home.csv", Options{})
	if len(p.Records) != 4 {
		t.Fatalf("%d records: %+v", len(p.Records), p.Records)
	}
	bill := p.Records[0].Create
	if bill.Title != "Pay the electricity bill" || bill.Priority != 3 || val(bill.ProjectTag) != "Home" ||
		!bill.DueAt.Equal(at("2026-12-05T23:59:59.999999+09:00")) ||
		bill.Description != "The new tariff starts in December\n\nAccount number is on the last bill" || !strings.HasPrefix(val(bill.SourceRef), "todoist:") {
		t.Errorf("task: %+v", bill)
	}
	if !slices.Equal(bill.Labels, []string{"bills", "monthly"}) {
		t.Errorf("@labels: %q", bill.Labels)
	}
	// DURATION: the planned span from the DATE
	if c := p.Records[1].Create; c.Priority != 2 || !c.StartAt.Equal(at("2026-12-02T18:00:00+09:00")) || !c.DueAt.Equal(at("2026-12-02T18:15:00+09:00")) {
		t.Errorf("a day and a time for 15 minutes: %+v", c)
	}
	if c := p.Records[2].Create; c.Priority != 1 || c.DueAt != nil ||
		c.Description != "From Todoist:\nDate: every mon\nResponsible: Jun (14781401)\nIndent: 2 (a sub-task)" {
		t.Errorf("a recurring date: %+v", c)
	}
	if c := p.Records[3].Create; c.Priority != 0 || c.DueAt != nil {
		t.Errorf("p4, no date: %+v", c)
	}
	got := refusedLines(p)
	if !strings.Contains(got[9], "PRIORITY") || !strings.Contains(got[10], "TYPE") || len(p.Refused) != 2 {
		t.Errorf("refused: %v", got)
	}
	notes := strings.Join(p.Notes, "; ")
	if notes != "kept in descriptions: 1 Todoist recurrence, 1 Todoist assignee, 1 Todoist sub-task level" {
		t.Errorf("notes: %q", notes)
	}
}

func TestKeyIsStable(t *testing.T) {
	p := parseFixture(t, "timew.json", Options{})
	q := parseFixture(t, "timew.json", Options{})
	if p.Records[0].Key() != q.Records[0].Key() || p.Records[0].Key() == p.Records[1].Key() || len(p.Records[0].Key()) > 255 {
		t.Errorf("keys: %s %s %s", p.Records[0].Key(), q.Records[0].Key(), p.Records[1].Key())
	}
}

// val is an optional text's value, "" for none.
func val[T ~string](p *T) string {
	if p == nil {
		return ""
	}
	return string(*p)
}
