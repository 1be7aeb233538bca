// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Capture text (DESIGN.md): POST /api/events reads text into fields. The
// clock stands at t0, Sunday 22 November 2026, 12:00 in Seoul.

// at parses an answer's time, failing on nil.
func at(t *testing.T, name string, s *string) time.Time {
	t.Helper()
	if s == nil {
		t.Fatalf("%s is null", name)
	}
	v, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		t.Fatalf("%s = %q: %v", name, *s, err)
	}
	return v
}

func wantAt(t *testing.T, name string, got *string, want time.Time) {
	t.Helper()
	if g := at(t, name, got); !g.Equal(want) {
		t.Errorf("%s = %s, want %s", name, g.UTC().Format(time.RFC3339Nano), want.UTC().Format(time.RFC3339Nano))
	}
}

// tagOf is the event's tag, "" for none.
func tagOf(e event) string {
	if e.ProjectTag == nil {
		return ""
	}
	return *e.ProjectTag
}

func kst(month time.Month, day, h, m int) time.Time {
	return time.Date(2026, month, day, h, m, 0, 0, seoul)
}

func TestCaptureTextActivityLogs(t *testing.T) {
	s := newServer(t)
	for _, c := range []struct {
		body, title, tag string
		start, end       time.Time
	}{
		{`{"kind":"activity_log","text":"standup 15m #work"}`, "standup", "work", kst(11, 22, 11, 45), kst(11, 22, 12, 0)},
		{`{"kind":"activity_log","text":"회의 1시간"}`, "회의", "", kst(11, 22, 11, 0), kst(11, 22, 12, 0)},
		{`{"kind":"activity_log","text":"리뷰 1시간 30분 #팀"}`, "리뷰", "팀", kst(11, 22, 10, 30), kst(11, 22, 12, 0)},
		{`{"kind":"activity_log","text":"gym 9:30-10:15 #health"}`, "gym", "health", kst(11, 22, 9, 30), kst(11, 22, 10, 15)},
		{`{"kind":"activity_log","text":"deploy since 11:20"}`, "deploy", "", kst(11, 22, 11, 20), kst(11, 22, 12, 0)},
		{`{"kind":"activity_log","text":"read \\15m of a book"}`, "read 15m of a book", "", time.Time{}, kst(11, 22, 12, 0)},
	} {
		e := s.create(c.body)
		if e.Title != c.title || tagOf(e) != c.tag || e.Status != "done" {
			t.Errorf("%s: title %q tag %q status %s, want %q %q done", c.body, e.Title, tagOf(e), e.Status, c.title, c.tag)
		}
		if c.start.IsZero() { // no time word: a quick record, done now
			if e.StartedAt != nil {
				t.Errorf("%s: started_at = %s, want null", c.body, *e.StartedAt)
			}
		} else {
			wantAt(t, c.body+" started_at", e.StartedAt, c.start)
		}
		wantAt(t, c.body+" ended_at", e.EndedAt, c.end)
	}
	// A log may be only a duration and a tag: its title is empty.
	if e := s.create(`{"kind":"activity_log","text":"30m #focus"}`); e.Title != "" || tagOf(e) != "focus" {
		t.Errorf("30m #focus: title %q tag %q", e.Title, tagOf(e))
	}
}

func TestCaptureTextTasks(t *testing.T) {
	s := newServer(t)
	for _, c := range []struct {
		text, title, tag string
		priority         int
		due              time.Time
	}{
		{"Pay rent tomorrow 9:00 #home !high", "Pay rent", "home", 3, kst(11, 23, 9, 0)},
		{"보고서 제출 내일 오후 5시 !low", "보고서 제출", "", 1, kst(11, 23, 17, 0)},
		{"call mom 18:00", "call mom", "", 0, kst(11, 22, 18, 0)},
		{"water plants 9am", "water plants", "", 0, kst(11, 23, 9, 0)}, // 9:00 has passed: tomorrow
		{"dentist 11/25 10:30", "dentist", "", 0, kst(11, 25, 10, 30)},
		{"team lunch 2026-12-01 12:00 #team", "team lunch", "team", 0, kst(12, 1, 12, 0)},
		// A day without a time is due at its last microsecond (models.DueDayOnly).
		{"Pay rent tomorrow", "Pay rent", "", 0, kst(11, 24, 0, 0).Add(-time.Microsecond)},
		{"장보기 월요일", "장보기", "", 0, kst(11, 24, 0, 0).Add(-time.Microsecond)},
		{"plan week sunday", "plan week", "", 0, kst(11, 30, 0, 0).Add(-time.Microsecond)}, // today is Sunday: a week ahead
	} {
		e := s.create(`{"kind":"task","text":"` + c.text + `"}`)
		if e.Title != c.title || tagOf(e) != c.tag || e.Priority != c.priority || e.Status != "planned" {
			t.Errorf("%q: title %q tag %q priority %d status %s", c.text, e.Title, tagOf(e), e.Priority, e.Status)
		}
		wantAt(t, c.text+" due_at", e.DueAt, c.due)
	}
	// A task with no time word has no due time.
	if e := s.create(`{"kind":"task","text":"buy milk #home"}`); e.DueAt != nil || e.Title != "buy milk" {
		t.Errorf("buy milk: due %v title %q", e.DueAt, e.Title)
	}
}

// ?tz= moves the day and the clock the text is read in.
func TestCaptureTextZone(t *testing.T) {
	s := newServer(t)
	ny, _ := time.LoadLocation("America/New_York") // t0 is Saturday 21 November, 22:00 there
	e := s.json("POST", "/api/events?tz=America/New_York", `{"kind":"activity_log","text":"call 9:00-9:30"}`).event(t, http.StatusCreated)
	wantAt(t, "started_at", e.StartedAt, time.Date(2026, 11, 21, 9, 0, 0, 0, ny))
	wantAt(t, "ended_at", e.EndedAt, time.Date(2026, 11, 21, 9, 30, 0, 0, ny))
	e = s.json("POST", "/api/events?tz=America/New_York", `{"kind":"task","text":"dentist tomorrow 9am"}`).event(t, http.StatusCreated)
	wantAt(t, "due_at", e.DueAt, time.Date(2026, 11, 22, 9, 0, 0, 0, ny))
	e = s.json("POST", "/api/events?tz=UTC", `{"kind":"task","text":"file taxes today"}`).event(t, http.StatusCreated)
	wantAt(t, "due_at", e.DueAt, time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC).Add(-time.Microsecond))
	s.json("POST", "/api/events?tz=Mars/Olympus", `{"kind":"task","text":"x today"}`).problem(t, http.StatusBadRequest, "tz")
}

// Fields given in the body win over what the text says.
func TestCaptureTextExplicitFieldsWin(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","text":"Pay rent tomorrow 9:00 #home !high","priority":1,"project_tag":"flat"}`)
	if e.Priority != 1 || tagOf(e) != "flat" || e.Title != "Pay rent" {
		t.Errorf("priority %d tag %q title %q, want 1 flat Pay rent", e.Priority, tagOf(e), e.Title)
	}
	wantAt(t, "due_at", e.DueAt, kst(11, 23, 9, 0))
	e = s.create(`{"kind":"task","text":"Pay rent tomorrow","due_at":"2026-12-01T08:00:00+09:00"}`)
	wantAt(t, "due_at", e.DueAt, kst(12, 1, 8, 0))
	// An explicit end carries the duration's start with it.
	e = s.create(`{"kind":"activity_log","text":"standup 15m #work","ended_at":"2026-11-22T10:00:00+09:00"}`)
	wantAt(t, "started_at", e.StartedAt, kst(11, 22, 9, 45))
	wantAt(t, "ended_at", e.EndedAt, kst(11, 22, 10, 0))
	// A running log since the text's start.
	e = s.create(`{"kind":"activity_log","text":"deep work since 11:00","status":"in_progress"}`)
	wantAt(t, "started_at", e.StartedAt, kst(11, 22, 11, 0))
	if e.EndedAt != nil || e.Status != "in_progress" {
		t.Errorf("running log: ended_at %v status %s", e.EndedAt, e.Status)
	}
	e = s.create(`{"kind":"activity_log","text":"notes 10m","description":"from the call"}`)
	if e.Description != "from the call" || e.Title != "notes" {
		t.Errorf("description %q title %q", e.Description, e.Title)
	}
}

func TestCaptureTextRefusals(t *testing.T) {
	s := newServer(t)
	for _, body := range []string{
		`{"kind":"task","title":"Pay rent","text":"Pay rent tomorrow"}`,
		`{"kind":"calendar_event","text":"lunch with Kim"}`, // no day or time, no start_at
		`{"kind":"task","text":"tomorrow 9:00 #home"}`,      // no title left
		`{"kind":"activity_log","text":"x #a #b"}`,
		`{"kind":"activity_log","text":"x 25h"}`,
		`{"kind":"task","text":"x !high !low"}`,
		`{"kind":"task","text":""}`,
		`{"kind":"task","text":null}`,
		`{"kind":"task","text":12}`,
		`{"kind":"task","text":"` + strings.Repeat("a", 501) + `"}`,
	} {
		s.json("POST", "/api/events", body).problem(t, http.StatusUnprocessableEntity, "text")
	}
	// text is a create's only: a PATCH refuses it by name.
	e := s.create(`{"kind":"task","text":"a task"}`)
	s.json("PATCH", path(e.ID), `{"text":"b task"}`).problem(t, http.StatusUnprocessableEntity, "text")
	if n, _ := s.counts(); n != 1 {
		t.Errorf("%d events stored, want 1", n)
	}
}

// Calendar entries take text (issue 47): a day and a range, a Korean
// afternoon that applies to both ends, a day alone (all day) and days
// joined like a range (all day, the last included), as the all-day span
// every all-day entry is stored as. A range of bare hours is read as the
// nearest sensible span and the create's answer says so in capture_note,
// which no later answer carries.
func TestCaptureTextCalendarEntries(t *testing.T) {
	s := newServer(t) // Sunday 22 November 2026, 12:00 in Seoul
	for _, c := range []struct {
		text, title, tag string
		start, end       time.Time
		allDay           bool
	}{
		{"Dentist tue 15:00-16:00", "Dentist", "", kst(11, 24, 15, 0), kst(11, 24, 16, 0), false},
		{"치과 화요일 오후 3시-4시 #건강", "치과", "건강", kst(11, 24, 15, 0), kst(11, 24, 16, 0), false},
		{"Dentist tue 3-4pm #health", "Dentist", "health", kst(11, 24, 15, 0), kst(11, 24, 16, 0), false},
		{"휴가 12/24", "휴가", "", kst(12, 24, 0, 0), kst(12, 25, 0, 0), true},
		{"vacation 12월 24일", "vacation", "", kst(12, 24, 0, 0), kst(12, 25, 0, 0), true},
		{"offsite 12/3-12/5", "offsite", "", kst(12, 3, 0, 0), kst(12, 6, 0, 0), true},
		{"오프사이트 12월 3일~5일", "오프사이트", "", kst(12, 3, 0, 0), kst(12, 6, 0, 0), true},
		{"call tue 3pm 30 min", "call", "", kst(11, 24, 15, 0), kst(11, 24, 15, 30), false},
	} {
		a := s.json("POST", "/api/events", `{"kind":"calendar_event","text":"`+c.text+`"}`)
		e := a.event(t, http.StatusCreated)
		if e.Kind != "calendar_event" || e.Title != c.title || tagOf(e) != c.tag || e.AllDay != c.allDay || e.Status != "planned" {
			t.Errorf("%q: kind %s title %q tag %q all_day %v status %s", c.text, e.Kind, e.Title, tagOf(e), e.AllDay, e.Status)
		}
		wantAt(t, c.text+" start_at", e.StartAt, c.start)
		wantAt(t, c.text+" end_at", e.EndAt, c.end)
		if strings.Contains(string(a.Body), "capture_note") {
			t.Errorf("%q: a capture_note where nothing was ambiguous: %s", c.text, a.Body)
		}
	}
	a := s.json("POST", "/api/events", `{"kind":"calendar_event","text":"lunch tue 12-1"}`)
	e := a.event(t, http.StatusCreated)
	wantAt(t, "12-1 start_at", e.StartAt, kst(11, 24, 12, 0))
	wantAt(t, "12-1 end_at", e.EndAt, kst(11, 24, 13, 0))
	if want := `"capture_note":"Read “12-1” as 12:00–13:00."`; !strings.Contains(string(a.Body), want) {
		t.Errorf("the answer does not say how 12-1 was read (%s): %s", want, a.Body)
	}
	if b := s.get(path(e.ID)).want(t, http.StatusOK).Body; strings.Contains(string(b), "capture_note") {
		t.Errorf("a later read carries the create's capture_note: %s", b)
	}
	// The page's row says it too (the record line of /events).
	row := s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {"breakfast 8-9"}}, "HX-Request", "true").html(t, http.StatusCreated)
	for _, want := range []string{"08:00–09:00", "Read “8-9” as 08:00–09:00."} {
		if !strings.Contains(row, want) {
			t.Errorf("the new row lacks %q:\n%s", want, row)
		}
	}
	// Todoist's priorities beside !high, !medium, !low.
	for text, want := range map[string]int{"pay rent p1": 3, "pay rent p2": 2, "pay rent p3": 1, "월세 p1 내일": 3} {
		if e := s.create(`{"kind":"task","text":"` + text + `"}`); e.Priority != want {
			t.Errorf("%q: priority %d, want %d", text, e.Priority, want)
		}
	}
}

// A word the grammar nearly read is refused naming it, never left in the
// title: a number with a unit it does not know, an 오후 before a number it
// cannot read with. Nothing is stored.
func TestCaptureTextNearMissNamesTheWord(t *testing.T) {
	s := newServer(t)
	for body, word := range map[string]string{
		`{"kind":"activity_log","text":"standup 30 mns"}`:           "30 mns",
		`{"kind":"activity_log","text":"standup 30mns #work"}`:      "30mns",
		`{"kind":"activity_log","text":"회의 오후 25시"}`:                "오후 25시",
		`{"kind":"task","text":"전화 오후 3"}`:                          "오후 3",
		`{"kind":"calendar_event","text":"call tue 3pm 30 minuts"}`: "30 minuts",
	} {
		p := s.json("POST", "/api/events", body).problem(t, http.StatusUnprocessableEntity, "text")
		if len(p.Errors) != 1 || !strings.Contains(p.Errors[0].Message, "“"+word+"”") {
			t.Errorf("%s: %+v, want a message naming %q", body, p.Errors, word)
		}
	}
	if n, _ := s.counts(); n != 0 {
		t.Errorf("%d events stored, want 0", n)
	}
}

// A form sends text like JSON; the row a page gets shows what was understood.
func TestCaptureTextForm(t *testing.T) {
	s := newServer(t)
	a := s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {"standup 15m #work"}}, "HX-Request", "true")
	row := a.html(t, http.StatusCreated)
	for _, want := range []string{">standup<", "11:45–12:00", "15 min", `href="/events?project_tag=work"`} {
		if !strings.Contains(row, want) {
			t.Errorf("the new row lacks %q:\n%s", want, row)
		}
	}
	a = s.form("POST", "/api/events", url.Values{"kind": {"task"}, "text": {"Pay rent tomorrow #home !high"}}, "HX-Request", "true")
	row = a.html(t, http.StatusCreated)
	for _, want := range []string{"Pay rent", "due tomorrow<", "High priority", "#<bdi>home</bdi>"} {
		if !strings.Contains(row, want) {
			t.Errorf("the new task row lacks %q:\n%s", want, row)
		}
	}
	if want := "Added: due tomorrow, any time that day · high priority · #home."; !strings.Contains(row, want) {
		t.Errorf("the new task row does not say %q:\n%s", want, row)
	}
	if strings.Contains(row, "23:59") {
		t.Errorf("a due day without a time shows a clock time:\n%s", row)
	}
	var task event
	for _, e := range s.get("/api/events?kind=task").page(t).Items {
		task = e
	}
	if d := string(s.get("/events/"+strconv.FormatInt(task.ID, 10)).want(t, http.StatusOK).Body); !strings.Contains(d, "Due Mon 23 Nov 2026, any time that day") {
		t.Errorf("the detail page of a task due on a day without a time does not say so")
	}
	s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {"a"}, "title": {"b"}}).problem(t, http.StatusUnprocessableEntity, "text")
}

// The same line sent again with its Idempotency-Key is answered what it was
// first answered, even once the clock has moved; the same key in another
// zone is another request.
func TestCaptureTextIdempotency(t *testing.T) {
	s := newServer(t)
	body := `{"kind":"activity_log","text":"standup 15m #work"}`
	first := s.json("POST", "/api/events", body, "Idempotency-Key", "cap-1").want(t, http.StatusCreated)
	s.clock.Add(10 * time.Minute)
	again := s.json("POST", "/api/events", body, "Idempotency-Key", "cap-1").want(t, http.StatusCreated)
	if string(first.Body) != string(again.Body) || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("the repeat answered %s, want the first answer %s replayed", again.Body, first.Body)
	}
	s.json("POST", "/api/events?tz=UTC", body, "Idempotency-Key", "cap-1").problem(t, http.StatusUnprocessableEntity, "Idempotency-Key")
	if n, _ := s.counts(); n != 1 {
		t.Errorf("%d events stored, want 1", n)
	}
}

// A tag links to its listing: /events?project_tag=work holds the tag's
// events of every kind and status, and nothing else.
func TestTagListing(t *testing.T) {
	s := newServer(t)
	s.create(`{"kind":"activity_log","text":"standup 15m #work"}`)
	done := s.create(`{"kind":"task","text":"ship release #work"}`)
	s.op(done.ID, "complete", "")
	s.create(`{"kind":"task","text":"water plants #home"}`)
	s.create(`{"kind":"task","text":"no tag at all"}`)
	page := s.get("/events?project_tag=work").want(t, http.StatusOK)
	body := string(page.Body)
	for _, want := range []string{"Tagged", ">standup<", ">ship release<", `href="/events?project_tag=work"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the tag listing lacks %q", want)
		}
	}
	for _, not := range []string{"water plants", "no tag at all"} {
		if strings.Contains(body, not) {
			t.Errorf("the tag listing holds %q", not)
		}
	}
	// Korean tags and tags with spaces round-trip through the link.
	e := s.create(`{"kind":"task","title":"보고서","project_tag":"팀 일"}`)
	d := string(s.get(path(e.ID)[len("/api"):]).want(t, http.StatusOK).Body)
	if !strings.Contains(d, `href="/events?project_tag=%ED%8C%80%20%EC%9D%BC"`) {
		t.Errorf("the detail page has no link to its tag's listing:\n%s", d)
	}
	if !strings.Contains(string(s.get("/events?project_tag=%ED%8C%80+%EC%9D%BC").want(t, http.StatusOK).Body), "보고서") {
		t.Errorf("the Korean tag's listing lacks its event")
	}
	if b := string(s.get("/events?project_tag=work&tab=today").want(t, http.StatusBadRequest).Body); !strings.Contains(b, "<strong>tab</strong>") {
		t.Errorf("a tag listing with tab: the refusal does not name tab")
	}
	if b := string(s.get("/events?project_tag=").want(t, http.StatusBadRequest).Body); !strings.Contains(b, "<strong>project_tag</strong>") {
		t.Errorf("an empty tag: the refusal does not name project_tag")
	}
}
