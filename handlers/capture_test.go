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
		`{"kind":"calendar_event","text":"lunch 12:00","start_at":"2026-11-22T12:00:00+09:00"}`,
		`{"kind":"task","text":"tomorrow 9:00 #home"}`, // no title left
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
