// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sectionRows are the row ids of each section of the Today page, and the
// sections in page order.
func sectionRows(t *testing.T, body string) (order []string, rows map[string][]int64, html map[string]string) {
	t.Helper()
	rows, html = map[string][]int64{}, map[string]string{}
	re := regexp.MustCompile(`<section class="today-section" data-section="(\w+)"`)
	locs := re.FindAllStringSubmatchIndex(body, -1)
	for i, l := range locs {
		key := body[l[2]:l[3]]
		end := len(body)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		order = append(order, key)
		rows[key] = rowIDs(body[l[0]:end])
		html[key] = body[l[0]:end]
	}
	return order, rows, html
}

// Today draws its one listing in five sections; each row sits in the one
// its kind, status and time say.
func TestTodaySections(t *testing.T) {
	s := newServer(t) // now is 12:00 on Sun 2026-11-22 in Seoul
	overdue := s.create(`{"kind":"task","title":"Pay rent","due_at":"2026-11-21T01:00:00Z"}`)
	running := s.create(`{"kind":"activity_log","title":"Writing","status":"in_progress","started_at":"2026-11-22T02:00:00Z"}`)
	pastCal := s.create(`{"kind":"calendar_event","title":"Standup","start_at":"2026-11-22T00:00:00Z","end_at":"2026-11-22T00:30:00Z"}`)
	laterCal := s.create(`{"kind":"calendar_event","title":"Dentist","start_at":"2026-11-22T05:00:00Z"}`)
	timed := s.create(`{"kind":"task","title":"Call mum","due_at":"2026-11-22T08:00:00Z","priority":3}`)
	dayOnly := s.create(`{"kind":"task","title":"Buy bread","due_at":"2026-11-22T14:59:59.999999Z"}`)
	done := s.create(`{"kind":"task","title":"Water plants","due_at":"2026-11-22T14:59:59.999999Z"}`)
	earlierLog := s.create(`{"kind":"activity_log","title":"Ran","started_at":"2026-11-22T00:00:00Z","ended_at":"2026-11-22T00:40:00Z"}`)
	record := s.create(`{"kind":"activity_log","title":"Fed the cat"}`)  // recorded as done now
	s.json("POST", path(done.ID, "complete"), "").want(t, http.StatusOK) // after the record

	body := s.get("/events?tab=today").pageHTML(t, http.StatusOK)
	order, rows, html := sectionRows(t, body)
	if want := []string{"overdue", "now", "schedule", "todo", "done"}; !slices.Equal(order, want) {
		t.Fatalf("sections %q, want %q", order, want)
	}
	for _, want := range []struct {
		section string
		ids     []int64
	}{
		{"overdue", []int64{overdue.ID}},
		{"now", []int64{running.ID}},
		{"schedule", []int64{pastCal.ID, laterCal.ID, timed.ID}},
		{"todo", []int64{dayOnly.ID}},
		// newest first: the record and the completion share the injected
		// now, and the row made later (the record) goes first; then the
		// log that ended at 09:40
		{"done", []int64{record.ID, done.ID, earlierLog.ID}},
	} {
		if got := rows[want.section]; !slices.Equal(got, want.ids) {
			t.Errorf("section %s: rows %v, want %v", want.section, got, want.ids)
		}
	}
	for _, h := range []string{`<h2 id="section-overdue">Overdue</h2>`, `<h2 id="section-now">Now</h2>`, `<h2 id="section-schedule">Schedule</h2>`,
		`<h2 id="section-todo">To do</h2>`, `<h2 id="section-done">Done &amp; logged</h2>`} {
		if !strings.Contains(body, h) {
			t.Errorf("the page has no heading %s", h)
		}
	}
	// The quick-record line inserts into Done & logged, which says so.
	if !strings.Contains(html["done"], `data-records`) || strings.Count(body, " data-records ") != 1 {
		t.Errorf("Done & logged is not the one list marked data-records")
	}
	if !strings.Contains(body, `hx-target="[data-records]" hx-swap="afterbegin"`) {
		t.Errorf("the quick-record line does not insert at the top of [data-records]")
	}

	// The past calendar entry is marked past and offers no Complete and no
	// Defer (it offered Defer); the one still ahead offers both.
	pastRow := rowHTML(body, pastCal.ID)
	if !strings.Contains(pastRow, `data-past="true"`) || !strings.Contains(pastRow, `<span class="past">past</span>`) {
		t.Errorf("the past calendar entry is not marked past:\n%s", pastRow)
	}
	if strings.Contains(pastRow, "/complete") || strings.Contains(pastRow, "/defer") {
		t.Errorf("the past calendar entry still offers Complete or Defer:\n%s", pastRow)
	}
	if later := rowHTML(body, laterCal.ID); !strings.Contains(later, "/complete") || !strings.Contains(later, "/defer") || strings.Contains(later, "data-past") {
		t.Errorf("the calendar entry ahead lost Complete or Defer, or is marked past:\n%s", later)
	}
	// The running log shows its elapsed time (since 11:00: an hour).
	if r := rowHTML(body, running.ID); !strings.Contains(r, `<span class="elapsed">1 h 00 min</span>`) || !strings.Contains(r, "since today 11:00") {
		t.Errorf("the running log does not show since when and how long:\n%s", r)
	}
	// Relative dates and priority in the form's words.
	if r := rowHTML(body, timed.ID); !strings.Contains(r, "due today 17:00") || !strings.Contains(r, ">High priority<") || strings.Contains(r, "P3") {
		t.Errorf("the timed task reads wrong (want due today 17:00, High priority):\n%s", r)
	}
	if r := rowHTML(body, dayOnly.ID); !strings.Contains(r, ">due today<") {
		t.Errorf("the day-only task does not read \"due today\":\n%s", r)
	}
	if r := rowHTML(body, overdue.ID); !strings.Contains(r, "due yesterday 10:00") {
		t.Errorf("the overdue task does not read \"due yesterday 10:00\":\n%s", r)
	}
}

// rowHTML is the <li> of event id in body.
func rowHTML(body string, id int64) string {
	m := regexp.MustCompile(`(?s)<li class="event-row" id="event-` + itoa(id) + `".*?</li>\s*(?:<li class="event-row"|</ul>)`).FindString(body)
	return m
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// A deferred row says until when, and Upcoming places it there: at its
// defer_until, not at its old time, even when that old time is past.
func TestUpcomingPlacesDeferredAtDeferUntil(t *testing.T) {
	s := newServer(t)                                                                                // now is 12:00 on Sun 2026-11-22 in Seoul
	cal := s.create(`{"kind":"calendar_event","title":"Dentist","start_at":"2026-11-24T01:00:00Z"}`) // Tue 10:00
	later := s.create(`{"kind":"task","title":"Taxes","due_at":"2026-11-23T01:00:00Z"}`)             // Mon 10:00, deferred to Wed 09:00
	old := s.create(`{"kind":"task","title":"Old chore","due_at":"2026-11-20T01:00:00Z"}`)           // overdue, deferred to Mon 09:00
	far := s.create(`{"kind":"task","title":"Far chore","due_at":"2026-11-23T03:00:00Z"}`)           // Mon 12:00, deferred beyond the window
	s.form("POST", path(later.ID, "defer"), url.Values{"defer_until": {"2026-11-25T00:00:00Z"}}).want(t, http.StatusOK)
	s.form("POST", path(old.ID, "defer"), url.Values{"defer_until": {"2026-11-23T00:00:00Z"}}).want(t, http.StatusOK)
	s.form("POST", path(far.ID, "defer"), url.Values{"defer_until": {"2026-12-20T00:00:00Z"}}).want(t, http.StatusOK)

	body := s.get("/events?tab=upcoming").pageHTML(t, http.StatusOK)
	if got, want := rowIDs(body), []int64{old.ID, cal.ID, later.ID}; !slices.Equal(got, want) {
		t.Errorf("upcoming rows %v, want %v (deferred at their defer_until; one deferred beyond the window left out)", got, want)
	}
	if r := rowHTML(body, later.ID); !strings.Contains(r, ">until Wed 09:00<") {
		t.Errorf("the deferred row does not say until when:\n%s", r)
	}
	if r := rowHTML(body, old.ID); !strings.Contains(r, ">until tomorrow 09:00<") {
		t.Errorf("the row deferred to tomorrow does not say so:\n%s", r)
	}
}

// Today holds the day by the one membership rule (DESIGN.md, Summary): a
// task completed today without a due day, or due another day, is in Done &
// logged (it was missing, while the review's logbook listed it); a log
// from last night into today shows today's piece beside the whole.
func TestTodayHoldsWhatHappenedToday(t *testing.T) {
	s := newServer(t) // now is 12:00 on Sun 2026-11-22 in Seoul
	inbox := s.create(`{"kind":"task","title":"Reply to Jin"}`)
	s.op(inbox.ID, "complete", "")
	later := s.create(`{"kind":"task","title":"Book flights","due_at":"2026-11-27T09:00:00+09:00"}`)
	s.op(later.ID, "complete", "")
	night := s.create(`{"kind":"activity_log","title":"배포","started_at":"2026-11-21T23:10:00+09:00","ended_at":"2026-11-22T00:50:00+09:00"}`)
	body := s.get("/events?tab=today").pageHTML(t, http.StatusOK)
	_, rows, html := sectionRows(t, body)
	for _, id := range []int64{inbox.ID, later.ID, night.ID} {
		if !slices.Contains(rows["done"], id) {
			t.Errorf("Done & logged %v lacks %d", rows["done"], id)
		}
	}
	if !strings.Contains(html["done"], `<span class="duration">50 min of 1 h 40 min</span>`) {
		t.Errorf("the log across midnight does not show today's piece:\n%s", html["done"])
	}
}
