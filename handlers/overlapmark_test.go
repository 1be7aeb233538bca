// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// rowOf is the row of event id in a page, "" when the page has none.
func rowOf(page string, id int64) string {
	i := strings.Index(page, `<li class="event-row" id="event-`+itoa(id)+`"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(page[i:], "</li>")
	return page[i : i+j+len("</li>")]
}

// Issue 55, point 6: overlaps stay in sight. A log whose span overlaps
// other logs keeps a mark on its row on Today and Activity, read from the
// stored times whatever answer drew the row, with the move before them;
// its detail page names the logs it overlaps, with links; the mark goes
// when the times no longer overlap.
func TestOverlapMarksStayUntilTheTimesNoLongerOverlap(t *testing.T) {
	s := newServer(t) // the clock: Sunday 22 Nov 2026, 12:00 in Seoul
	timer := s.create(`{"kind":"activity_log","title":"deep work","status":"in_progress","started_at":"2026-11-22T09:00:00+09:00"}`)
	standup := s.create(`{"kind":"activity_log","title":"standup","started_at":"2026-11-22T10:00:00+09:00","ended_at":"2026-11-22T10:15:00+09:00"}`)
	reading := s.create(`{"kind":"activity_log","title":"reading","started_at":"2026-11-22T10:30:00+09:00","ended_at":"2026-11-22T11:00:00+09:00"}`)
	gym := s.create(`{"kind":"activity_log","title":"gym","started_at":"2026-11-22T07:00:00+09:00","ended_at":"2026-11-22T08:00:00+09:00"}`)
	gone := s.create(`{"kind":"activity_log","title":"cancelled one","started_at":"2026-11-22T10:00:00+09:00","ended_at":"2026-11-22T10:10:00+09:00"}`)
	s.op(gone.ID, "cancel", "")
	// the next action redraws the lists: a task added by the task line
	s.form("POST", "/api/events", url.Values{"kind": {"task"}, "text": {"buy milk"}}, "HX-Request", "true").html(t, http.StatusCreated)

	fix := regexp.MustCompile(`<form class="overlap-fix" hx-patch="(/api/events/\d+)" hx-target="([^"]+)" hx-swap="outerHTML"><input type="hidden" name="started_at" value="([^"]+)"><input type="hidden" name="ended_at" value="([^"]+)"><button type="submit">([^<]+)</button></form>`)
	for _, tab := range []string{"/events", "/events?tab=activity"} {
		page := string(s.get(tab).want(t, http.StatusOK).Body)
		r := rowOf(page, standup.ID)
		if !strings.Contains(r, `<p class="overlap">Overlaps “deep work” by 15 min.</p>`) {
			t.Errorf("%s: standup's row has no overlap mark: %s", tab, r)
		}
		if m := fix.FindStringSubmatch(r); m == nil || m[1] != "/api/events/"+itoa(standup.ID) || m[2] != "closest li" || m[5] != "Move it before: 08:45–09:00" {
			t.Errorf("%s: standup's row does not offer the move before deep work: %q", tab, m)
		}
		r = rowOf(page, timer.ID)
		if !strings.Contains(r, `<p class="overlap">Overlaps “standup” by 15 min, “reading” by 30 min.</p>`) || strings.Contains(r, "overlap-fix") {
			t.Errorf("%s: the running log's row does not name both (and has no length to move): %s", tab, r)
		}
		if r := rowOf(page, gym.ID); r == "" || strings.Contains(r, "overlap") {
			t.Errorf("%s: gym overlaps nothing, yet its row speaks of it: %q", tab, r)
		}
		if strings.Contains(page, "cancelled one") {
			t.Errorf("%s: a cancelled log is named", tab)
		}
	}
	ko := string(s.get("/events", "Accept-Language", "ko").want(t, http.StatusOK).Body)
	if r := rowOf(ko, standup.ID); !strings.Contains(r, `<p class="overlap">겹치는 기록: “deep work” 15분.</p>`) || !strings.Contains(r, "앞으로 옮기기: 08:45–09:00") {
		t.Errorf("the Korean row has no mark: %s", r)
	}

	// The detail page names the overlapped logs, with links, and offers the
	// same move, into the detail section.
	detail := string(s.get("/events/"+itoa(timer.ID)).want(t, http.StatusOK).Body)
	for _, o := range []struct {
		id          int64
		title, part string
	}{{standup.ID, "standup", "by 15 min"}, {reading.ID, "reading", "by 30 min"}} {
		if want := `<li><a href="/events/` + itoa(o.id) + `" dir="auto">` + o.title + `</a> ` + o.part + `</li>`; !strings.Contains(detail, want) {
			t.Errorf("the running log's detail does not name %s: want %s in\n%s", o.title, want, detail)
		}
	}
	detail = string(s.get("/events/"+itoa(standup.ID)).want(t, http.StatusOK).Body)
	if !strings.Contains(detail, `<h3 id="overlaps-title">Overlaps other logs</h3>`) || !strings.Contains(detail, `<a href="/events/`+itoa(timer.ID)+`" dir="auto">deep work</a> by 15 min`) {
		t.Fatalf("standup's detail does not name deep work: %s", detail)
	}
	m := fix.FindStringSubmatch(detail)
	if m == nil || m[2] != "#detail" {
		t.Fatalf("standup's detail offers no move into the detail: %q", m)
	}
	if gymPage := string(s.get("/events/" + itoa(gym.ID)).Body); strings.Contains(gymPage, `id="overlaps"`) {
		t.Errorf("gym's detail names overlaps")
	}

	// The move, from the detail page: the answer no longer names any, and
	// the mark is gone from the lists; the running log now names reading
	// only.
	moved := s.form("PATCH", m[1], url.Values{"started_at": {m[3]}, "ended_at": {m[4]}}, toDetail...).html(t, http.StatusOK)
	if strings.Contains(moved, `id="overlaps"`) || strings.Contains(moved, "overlap-fix") {
		t.Errorf("the moved log's detail still names overlaps: %s", moved)
	}
	page := string(s.get("/events").want(t, http.StatusOK).Body)
	if r := rowOf(page, standup.ID); r == "" || strings.Contains(r, "overlap") {
		t.Errorf("the moved row is still marked: %q", r)
	}
	if r := rowOf(page, timer.ID); !strings.Contains(r, `<p class="overlap">Overlaps “reading” by 30 min.</p>`) {
		t.Errorf("the running log's mark does not follow the move: %s", r)
	}
	// Any change of times counts, not only the move: the row a PATCH
	// answers is marked when the new times overlap.
	row := s.form("PATCH", path(gym.ID), url.Values{"started_at": {"2026-11-22T10:45"}, "ended_at": {"2026-11-22T11:15"}}, "HX-Request", "true").html(t, http.StatusOK)
	if !strings.Contains(row, `<p class="overlap">Overlaps “deep work” by 30 min, “reading” by 15 min.</p>`) {
		t.Errorf("a PATCH into an overlap answers no mark: %s", row)
	}
	// and draws again the rows it now overlaps, so theirs name it too
	oob := `<li hx-swap-oob="true" class="event-row" id="event-` + itoa(reading.ID) + `"`
	if i := strings.Index(row, oob); i < 0 || !strings.Contains(row[i:i+strings.Index(row[i:], "</li>")], "“gym” by 15 min") {
		t.Errorf("the answer does not draw reading's row again with gym named: %s", row)
	}
	// Moved away again: reading's row is drawn again without gym.
	row = s.form("PATCH", path(gym.ID), url.Values{"started_at": {"2026-11-22T07:00"}, "ended_at": {"2026-11-22T08:00"}}, "HX-Request", "true").html(t, http.StatusOK)
	if i := strings.Index(row, oob); i < 0 || strings.Contains(row[i:i+strings.Index(row[i:], "</li>")], "gym") {
		t.Errorf("the move away does not clear gym from reading's row: %s", row)
	}
}

// The answer to a record typed over a running timer draws the timer's row
// again (out of band) with its new mark, so the mark shows at once, not
// only after the next redraw.
func TestARecordOverATimerMarksTheTimerAtOnce(t *testing.T) {
	s := newServer(t) // 12:00 in Seoul
	timer := s.create(`{"kind":"activity_log","title":"deep work","status":"in_progress","started_at":"2026-11-22T09:00:00+09:00"}`)
	body := s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {"standup 15m"}, "stop_running": {"true"}},
		"HX-Request", "true").html(t, http.StatusCreated)
	if !strings.Contains(body, `<p class="overlap" role="status">Added: it overlaps “deep work” by 15 min.</p>`) {
		t.Errorf("the new row has no mark: %s", body)
	}
	oob := `<li hx-swap-oob="true" class="event-row" id="event-` + itoa(timer.ID) + `" data-kind="activity_log" data-status="in_progress"`
	i := strings.Index(body, oob)
	if i < 0 {
		t.Fatalf("the answer does not draw the timer's row again: %s", body)
	}
	if row := body[i : i+strings.Index(body[i:], "</li>")]; !strings.Contains(row, `<p class="overlap">Overlaps “standup” by 15 min.</p>`) {
		t.Errorf("the timer's row has no mark: %s", row)
	}
}
