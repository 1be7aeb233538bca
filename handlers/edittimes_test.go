// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Issue 55, point 7: the detail page's time fields show and take 24-hour
// times and the capture words; a save that makes a span longer than a day
// or moves it by more than 30 days answers with the new length or place
// and changes nothing until the confirming second click.
func TestDetailTimesAre24HourAndBigChangesAsk(t *testing.T) {
	s := newServer(t) // the clock: Sunday 22 Nov 2026, 12:00 in Seoul
	log := s.create(`{"kind":"activity_log","title":"reading","started_at":"2026-11-20T13:04:00+09:00","ended_at":"2026-11-20T14:14:00+09:00"}`)
	page := string(s.get("/events/"+itoa(log.ID)).want(t, http.StatusOK).Body)
	for _, f := range []struct{ name, value string }{{"started_at", "2026-11-20 13:04"}, {"ended_at", "2026-11-20 14:14"}} {
		want := `<input type="text" id="f-` + f.name + `" name="` + f.name + `" value="` + f.value + `" autocomplete="off" data-time24="true" spellcheck="false"`
		if !strings.Contains(page, want) {
			t.Errorf("the detail's %s is not a 24-hour field: want %s in\n%s", f.name, want, page)
		}
	}
	if form := page[strings.Index(page, `id="edit-form"`):]; strings.Contains(form[:strings.Index(form, "</form>")], `type="datetime-local"`) {
		t.Errorf("the detail still draws a datetime-local field")
	}
	save := func(started, ended string, extra ...string) string {
		t.Helper()
		form := url.Values{"title": {"reading"}, "desc": {""}, "started_at": {started}, "ended_at": {ended}, "priority": {"0"}, "project_tag": {""}}
		for i := 0; i+1 < len(extra); i += 2 {
			form.Set(extra[i], extra[i+1])
		}
		return s.form("PATCH", path(log.ID), form, toDetail...).html(t, http.StatusOK)
	}
	stored := func(field string) time.Time {
		t.Helper()
		e := s.get(path(log.ID)).event(t, http.StatusOK)
		if field == "started_at" {
			return at(t, field, e.StartedAt)
		}
		return at(t, field, e.EndedAt)
	}

	// Capture words, on the field's own day, and with a day of their own.
	out := save("오후 2시", "15:30")
	if !strings.Contains(out, "Saved.") || !stored("started_at").Equal(kst(11, 20, 14, 0)) || !stored("ended_at").Equal(kst(11, 20, 15, 30)) {
		t.Errorf("오후 2시 and 15:30 saved %v–%v: %s", stored("started_at"), stored("ended_at"), out)
	}
	if !strings.Contains(out, `value="2026-11-20 14:00"`) {
		t.Errorf("the saved detail does not show 24-hour times: %s", out)
	}
	save("tomorrow 9:00", "tomorrow 10:30")
	if !stored("started_at").Equal(kst(11, 23, 9, 0)) || !stored("ended_at").Equal(kst(11, 23, 10, 30)) {
		t.Errorf("tomorrow 9:00–10:30 saved %v–%v", stored("started_at"), stored("ended_at"))
	}

	// A slip into the month: 745 hours. Shown back with the new length,
	// nothing saved, and a second button that carries the confirmation.
	out = save("2026-11-23 09:00", "2026-12-24 10:00")
	if !strings.Contains(out, "Check the times: it would last 745 h 00 min (it was 1 h 30 min).") || !strings.Contains(out, "Save these times") {
		t.Fatalf("a 745-hour log is not asked about: %s", out)
	}
	if strings.Contains(out, "Saved.") || !stored("ended_at").Equal(kst(11, 23, 10, 30)) {
		t.Errorf("the unconfirmed save changed the log: ended %v", stored("ended_at"))
	}
	m := regexp.MustCompile(`<input type="hidden" name="confirm_times" value="([^"]+)">`).FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, `value="2026-12-24 10:00"`) {
		t.Fatalf("the confirmation keeps no token or not the typed times: %s", out)
	}
	// A confirmation of other times confirms nothing.
	if out := save("2026-11-23 09:00", "2026-12-25 10:00", "confirm_times", m[1]); strings.Contains(out, "Saved.") {
		t.Errorf("a confirmation of other times saved")
	}
	out = save("2026-11-23 09:00", "2026-12-24 10:00", "confirm_times", m[1])
	if !strings.Contains(out, "Saved.") || !stored("ended_at").Equal(kst(12, 24, 10, 0)) {
		t.Errorf("the confirmed save did not save: %s", out)
	}
	// Editing something else of that long log asks nothing again.
	if out := save("2026-11-23 09:00", "2026-12-24 10:00"); !strings.Contains(out, "Saved.") {
		t.Errorf("a save that leaves the long span as it is asks again: %s", out)
	}
	save("2026-11-23 09:00", "2026-11-23 10:00", "confirm_times", "")

	// A move by more than 30 days asks too, in Korean as in English.
	form := url.Values{"title": {"reading"}, "desc": {""}, "started_at": {"2027-01-05 09:00"}, "ended_at": {"2027-01-05 10:00"}, "priority": {"0"}, "project_tag": {""}}
	out = s.form("PATCH", path(log.ID), form, append(toDetail, "Accept-Language", "ko")...).html(t, http.StatusOK)
	if !strings.Contains(out, "시간을 확인하세요. 바꾸면 43일 옮겨집니다") || !strings.Contains(out, "이 시간으로 저장") {
		t.Errorf("a move by 43 days is not asked about in Korean: %s", out)
	}
	if !stored("started_at").Equal(kst(11, 23, 9, 0)) {
		t.Errorf("the unconfirmed move changed the log")
	}
	// Words that are no time are refused as before, naming the field.
	s.form("PATCH", path(log.ID), url.Values{"title": {"reading"}, "started_at": {"soonish"}, "ended_at": {"2026-11-23 10:00"}}, toDetail...).html(t, http.StatusUnprocessableEntity)
}

// The new-event page's time fields are the detail's: 24-hour text fields
// that take the capture words, a clock time alone on today's date; words
// that are not a time are refused by their field, nothing stored, and the
// typed words kept.
func TestNewFormTimesAre24HourAndTakeWords(t *testing.T) {
	s := newServer(t) // the clock: Sunday 22 Nov 2026, 12:00 in Seoul
	page := string(s.get("/events/new?kind=calendar_event").want(t, http.StatusOK).Body)
	for _, name := range []string{"start_at", "end_at"} {
		if want := `<input type="text" id="f-` + name + `" name="` + name + `" value="" autocomplete="off" data-time24="true"`; !strings.Contains(page, want) {
			t.Errorf("the new calendar form's %s is not a 24-hour field: want %s in\n%s", name, want, page)
		}
	}
	if form := page[strings.Index(page, `id="new-form"`):]; strings.Contains(form[:strings.Index(form, "</form>")], `type="datetime-local"`) {
		t.Errorf("the new-event form still draws a datetime-local field")
	}
	created := func(form url.Values) event {
		t.Helper()
		a := s.form("POST", "/api/events", form, toNewForm...).want(t, http.StatusCreated)
		id, err := strconv.ParseInt(strings.TrimPrefix(a.Header.Get("HX-Redirect"), "/events/"), 10, 64)
		if err != nil {
			t.Fatalf("HX-Redirect = %q", a.Header.Get("HX-Redirect"))
		}
		return s.get(path(id)).event(t, http.StatusOK)
	}
	cal := created(url.Values{"kind": {"calendar_event"}, "title": {"치과"}, "start_at": {"화요일 오후 3시"}, "end_at": {"화요일 16:00"}})
	if !at(t, "start_at", cal.StartAt).Equal(kst(11, 24, 15, 0)) || !at(t, "end_at", cal.EndAt).Equal(kst(11, 24, 16, 0)) {
		t.Errorf("화요일 오후 3시 – 화요일 16:00 made %v–%v", cal.StartAt, cal.EndAt)
	}
	task := created(url.Values{"kind": {"task"}, "title": {"Report"}, "due_at": {"17:30"}, "priority": {"0"}})
	if !at(t, "due_at", task.DueAt).Equal(kst(11, 22, 17, 30)) {
		t.Errorf("a due time of 17:30 made %v, want today 17:30", task.DueAt)
	}
	log := created(url.Values{"kind": {"activity_log"}, "title": {"reading"}, "started_at": {"2026-11-22 09:00"}, "ended_at": {"10:15"}, "priority": {"0"}})
	if !at(t, "started_at", log.StartedAt).Equal(kst(11, 22, 9, 0)) || !at(t, "ended_at", log.EndedAt).Equal(kst(11, 22, 10, 15)) {
		t.Errorf("09:00–10:15 made %v–%v", log.StartedAt, log.EndedAt)
	}

	events, rows := s.counts()
	out := s.form("POST", "/api/events", url.Values{"kind": {"task"}, "title": {"Report"}, "due_at": {"someday soon"}, "priority": {"0"}}, toNewForm...).html(t, http.StatusUnprocessableEntity)
	if !strings.Contains(out, `data-field="due_at"`) || !strings.Contains(out, `value="someday soon"`) || !strings.Contains(out, `data-time24="true"`) {
		t.Errorf("words that are not a time: want due_at's error, the typed words kept, a 24-hour field: %s", out)
	}
	if e2, r2 := s.counts(); e2 != events || r2 != rows {
		t.Errorf("a refused create wrote")
	}
}
