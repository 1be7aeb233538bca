// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
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
	if !strings.Contains(body, `<p class="tab-notice" role="status">Added “Pay rent”: due Mon 30 Nov, any time that day · #home. It is in <a href="/events?tab=upcoming">Upcoming, under Mon 30 Nov</a>.</p>`) {
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
