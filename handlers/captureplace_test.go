// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// The task line places a task where its tab puts it: on Today a task due
// next week is not put in To do; the answer says it is in Upcoming, under
// its day. A task due today at a clock time goes to Schedule; on Upcoming
// a task goes under its day's heading.
func TestTaskLinePlacesTheTaskByItsDue(t *testing.T) {
	s := newServer(t) // Sun 22 Nov 12:00 in Seoul
	line := func(text, page string) answer {
		return s.form("POST", "/api/events", url.Values{"kind": {"task"}, "text": {text}},
			"HX-Request", "true", "HX-Target", "ul", "HX-Current-URL", "http://example.test"+page)
	}
	a := line("Pay rent 11/30 #home", "/events")
	body := a.html(t, http.StatusCreated)
	if a.Header.Get("HX-Retarget") != "#tabbed" || a.Header.Get("HX-Reswap") != "outerHTML" {
		t.Errorf("the answer is not retargeted at the tab: %v", a.Header)
	}
	if !strings.Contains(body, `<p class="tab-notice" id="tab-notice" role="status">Added “Pay rent”: due Mon 30 Nov, any time that day · #home. It is in <a href="/events?tab=upcoming">Upcoming, under Mon 30 Nov</a>.</p>`) {
		t.Errorf("no sentence of where the task went:\n%s", body)
	}
	if len(rowIDs(body)) != 0 {
		t.Errorf("Today shows a task due next week: %v", rowIDs(body))
	}
	body = line("Call mum 18:00", "/events?tab=today").html(t, http.StatusCreated)
	sched := ""
	if i, j := strings.Index(body, `data-section="schedule"`), strings.Index(body, `data-section="todo"`); i >= 0 && j > i {
		sched = body[i:j]
	}
	if !strings.Contains(sched, `data-captured="true"`) || !strings.Contains(sched, "Call mum") || strings.Contains(body, "tab-notice") {
		t.Errorf("a task due today at 18:00 is not in Schedule, marked:\n%s", body)
	}
	body = line("Taxes 11/30", "/events?tab=upcoming").html(t, http.StatusCreated)
	if got := dayOutline(body); len(got) != 5 || got[0] != "# Today" || got[2] != "# Mon 30 Nov" {
		t.Errorf("Upcoming after the task line = %q", got)
	}
	group := ""
	if i := strings.Index(body, `data-day="2026-11-30"`); i >= 0 {
		group = body[i:]
	}
	if !strings.Contains(group, `data-captured="true"`) || !strings.Contains(group, "Taxes") || strings.Contains(body, "tab-notice") {
		t.Errorf("the task is not under Mon 30 Nov, marked:\n%s", body)
	}
	// far ahead: the week's plan on the review page; no due: the Inbox
	if body := line("Renew passport 2027-01-20", "/events").html(t, http.StatusCreated); !strings.Contains(body, `It is in the <a href="/events/review?from=2027-01-18&amp;to=2027-01-25">plan of the week of 18 Jan</a>.`) {
		t.Errorf("a task far ahead:\n%s", body)
	}
	if body := line("Someday idea", "/events?tab=activity").html(t, http.StatusCreated); !strings.Contains(body, `It waits in the <a href="/events?tab=inbox">Inbox</a>.`) {
		t.Errorf("a task without a due time:\n%s", body)
	}
	// from the Inbox, or without the page's address: the row alone, as before
	if a := line("Plain 11/30", "/events?tab=inbox"); a.Header.Get("HX-Retarget") != "" || !strings.HasPrefix(string(a.Body), `<li class="event-row"`) {
		t.Errorf("from the Inbox: %s", a)
	}
}

// One line, any kind (issue 55): a line with a day and a clock range typed
// in the record line or the task line, in English or Korean, is a calendar
// entry, and the answer says so in words; a range still ahead today is one
// too, never a log placed yesterday; a range that is over stays a log; a
// task line's single clock time with a day is the due time.
func TestLinesOfAnyKindMakeCalendarEntries(t *testing.T) {
	s := newServer(t) // Sun 22 Nov 12:00 in Seoul
	line := func(kind, text string, headers ...string) answer {
		v := url.Values{"kind": {kind}, "text": {text}}
		if kind == "activity_log" {
			v.Set("stop_running", "true") // as the record line sends it
		}
		return s.form("POST", "/api/events", v,
			append([]string{"HX-Request", "true", "HX-Target", "ul", "HX-Current-URL", "http://example.test/events"}, headers...)...)
	}
	kindOf := func(id string) (kind, start, end string) {
		var e struct {
			Kind    string  `json:"kind"`
			StartAt *string `json:"start_at"`
			EndAt   *string `json:"end_at"`
		}
		s.json("GET", "/api/events/"+id, "").wantJSON(t, http.StatusOK, &e)
		if e.StartAt == nil || e.EndAt == nil {
			return e.Kind, "", ""
		}
		return e.Kind, *e.StartAt, *e.EndAt
	}
	for _, c := range []struct {
		kind, text, lang, say, start, end string
	}{
		{"activity_log", "Dentist tue 15:00-16:00 #health", "en", "Added to your calendar: Tue 24 Nov 15:00–16:00.", "2026-11-24T06:00:00.000000Z", "2026-11-24T07:00:00.000000Z"},
		{"task", "Dentist tue 15:00-16:00 #health", "en", "Added to your calendar: Tue 24 Nov 15:00–16:00.", "2026-11-24T06:00:00.000000Z", "2026-11-24T07:00:00.000000Z"},
		{"activity_log", "치과 화요일 오후 3시-4시 #건강", "ko", "캘린더에 추가했습니다: 11월 24일 (화) 15:00–16:00.", "2026-11-24T06:00:00.000000Z", "2026-11-24T07:00:00.000000Z"},
		{"task", "치과 화요일 오후 3시-4시 #건강", "ko", "캘린더에 추가했습니다: 11월 24일 (화) 15:00–16:00.", "2026-11-24T06:00:00.000000Z", "2026-11-24T07:00:00.000000Z"},
		// no day, still ahead today: today's, not yesterday's log
		{"activity_log", "Review 15:00-16:00", "en", "Added to your calendar: Sun 22 Nov 15:00–16:00.", "2026-11-22T06:00:00.000000Z", "2026-11-22T07:00:00.000000Z"},
		// begun and not ended
		{"activity_log", "Workshop 11:30-12:30", "en", "Added to your calendar: Sun 22 Nov 11:30–12:30.", "2026-11-22T02:30:00.000000Z", "2026-11-22T03:30:00.000000Z"},
	} {
		a := line(c.kind, c.text, "Cookie", "events_lang="+c.lang)
		body := a.html(t, http.StatusCreated)
		if !strings.Contains(body, c.say) {
			t.Errorf("%s %q: the answer does not say %q:\n%s", c.kind, c.text, c.say, body)
		}
		id := strings.TrimPrefix(a.Header.Get("Location"), "/api/events/")
		if k, start, end := kindOf(id); k != "calendar_event" || start != c.start || end != c.end {
			t.Errorf("%s %q made %s %s–%s, want a calendar_event %s–%s", c.kind, c.text, k, start, end, c.start, c.end)
		}
	}
	// a range that is over stays a log; a task's day and clock time is its due
	a := line("activity_log", "Standup 9:30-10:00")
	a.html(t, http.StatusCreated)
	if k, _, _ := kindOf(strings.TrimPrefix(a.Header.Get("Location"), "/api/events/")); k != "activity_log" {
		t.Errorf("a range that is over made a %s", k)
	}
	a = line("task", "Dentist tue 15:00")
	a.html(t, http.StatusCreated)
	var task struct {
		Kind  string  `json:"kind"`
		DueAt *string `json:"due_at"`
	}
	s.json("GET", a.Header.Get("Location"), "").wantJSON(t, http.StatusOK, &task)
	if task.Kind != "task" || task.DueAt == nil || *task.DueAt != "2026-11-24T06:00:00.000000Z" {
		t.Errorf("Dentist tue 15:00 in the task line: %s due %v", task.Kind, task.DueAt)
	}
}

// Issue 55, point 5: the answer to a line that made a calendar entry
// offers its Undo, which cancels the entry and says so: on the sentence
// above a tab that does not show the entry, and on its row when the tab
// does.
func TestUndoOfALineThatMadeACalendarEntry(t *testing.T) {
	s := newServer(t) // Sun 22 Nov 12:00 in Seoul
	line := func(text string, headers ...string) answer {
		return s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {text}, "stop_running": {"true"}},
			append([]string{"HX-Request", "true", "HX-Target", "ul", "HX-Current-URL", "http://example.test/events"}, headers...)...)
	}
	status := func(id string) string {
		var e struct{ Status string }
		s.json("GET", "/api/events/"+id, "").wantJSON(t, http.StatusOK, &e)
		return e.Status
	}
	// Tuesday's entry is not on Today: the sentence carries the Undo.
	a := line("Dentist tue 15:00-16:00 #health")
	body, id := a.html(t, http.StatusCreated), strings.TrimPrefix(a.Header.Get("Location"), "/api/events/")
	undo := `<button type="button" class="undo-create" hx-post="/api/events/` + id + `/cancel" hx-target="closest p" hx-swap="outerHTML">Undo: cancel this entry</button></p>`
	if !strings.Contains(body, "Added to your calendar: Tue 24 Nov 15:00–16:00.") || !strings.Contains(body, undo) {
		t.Fatalf("the sentence offers no Undo (%s):\n%s", undo, body)
	}
	out := s.form("POST", "/api/events/"+id+"/cancel", url.Values{}, "HX-Request", "true", "HX-Target", "p#tab-notice").html(t, http.StatusOK)
	if out != `<p class="tab-notice" id="tab-notice" role="status">Cancelled “Dentist”: it is no longer on your calendar.</p>` || status(id) != "cancelled" {
		t.Errorf("the Undo answered %s; the entry is %s", out, status(id))
	}
	// Today's entry is on Today: its row carries the Undo, and the row
	// cancelled offers the way back.
	a = line("Review 15:00-16:00", "Cookie", "events_lang=ko")
	body, id = a.html(t, http.StatusCreated), strings.TrimPrefix(a.Header.Get("Location"), "/api/events/")
	undo = `<button type="button" class="undo-create" hx-post="/api/events/` + id + `/cancel" hx-target="closest li" hx-swap="outerHTML">되돌리기: 이 일정 취소</button>`
	if row := rowOf(body, mustID(t, id)); !strings.Contains(row, undo) {
		t.Fatalf("the new row offers no Undo (%s):\n%s", undo, body)
	}
	out = s.form("POST", "/api/events/"+id+"/cancel", url.Values{}, "HX-Request", "true", "HX-Target", "li#event-"+id).html(t, http.StatusOK)
	if !strings.Contains(out, `data-status="cancelled"`) || strings.Contains(out, "undo-create") || !strings.Contains(out, `hx-post="/api/events/`+id+`/reactivate"`) || status(id) != "cancelled" {
		t.Errorf("the row's Undo answered %s; the entry is %s", out, status(id))
	}
	// A task from the task line is no calendar entry: no such Undo.
	if body := s.form("POST", "/api/events", url.Values{"kind": {"task"}, "text": {"Call mum 18:00"}}, "HX-Request", "true", "HX-Current-URL", "http://example.test/events").html(t, http.StatusCreated); strings.Contains(body, "undo-create") {
		t.Errorf("a task offers the calendar's Undo")
	}
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
