// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserRecordsStayRight: issue 55, points 6, 7 and 5's Undo, as a
// person sees them in Chromium: overlaps stay in sight until the times no
// longer overlap, editing times cannot silently break a record, and a line
// that became a calendar entry can be undone.
func TestBrowserRecordsStayRight(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"OverlapsStay", testOverlapsStay},
		{"EditTimes", testEditTimes},
		{"UndoCalendarLine", testUndoCalendarLine},
	})
}

// A timer runs; "standup 15m" is typed over it; a task is added next. The
// overlap does not vanish: after the next action and a reload, both rows
// carry a mark on Today and Activity, the detail pages name each other
// with links, and the move on the detail page clears every mark.
func testOverlapsStay(t *testing.T, b *browser) {
	s := startWeb(t)
	run := createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "deep work", "status": "in_progress",
		"started_at": rfc(time.Now().Add(-2 * time.Hour))})
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the Today tab", tabShown("today"))
	p.click("#quick-title")
	p.keys("standup 15m\r")
	p.waitFor("the new row's mark", `[...document.querySelectorAll('li.event-row .overlap')].some(p => p.textContent.includes('overlaps “deep work”'))`)
	standup := byTitle(t, s.base, "standup")
	// the timer's row shows it at once: the answer draws it again
	p.waitFor("the timer's mark", fmt.Sprintf(`document.querySelector('#event-%d .overlap')?.textContent === 'Overlaps “standup” by 15 min.'`, run.ID))
	if n := eval[int](p, fmt.Sprintf(`document.querySelectorAll('#event-%d').length`, run.ID)); n != 1 {
		t.Errorf("the timer's row is on Today %d times", n)
	}

	// the next action: a task from the task line
	p.click("#task-text")
	p.keys("buy milk today\r")
	p.waitFor("the task added", `[...document.querySelectorAll('li.event-row .title')].some(a => a.textContent === 'buy milk')`)
	mark := func(id int64) string {
		return eval[string](p, fmt.Sprintf(`document.querySelector('#event-%d .overlap')?.textContent ?? ''`, id))
	}
	// (the task line redraws Today: the mark is read again, not lost)
	if got := mark(standup.ID); !strings.Contains(got, "overlaps “deep work”") && !strings.HasPrefix(got, "Overlaps “deep work”") {
		t.Errorf("after adding a task, standup's mark reads %q", got)
	}
	for _, where := range []string{"/events", "/events?tab=activity"} {
		p.open(where)
		p.waitFor("the marks on "+where, fmt.Sprintf(`document.querySelector('#event-%d .overlap') && document.querySelector('#event-%d .overlap')`, standup.ID, run.ID))
		if got := mark(standup.ID); !strings.HasPrefix(got, "Overlaps “deep work” by ") {
			t.Errorf("%s: standup's mark reads %q", where, got)
		}
		if got := mark(run.ID); !strings.HasPrefix(got, "Overlaps “standup” by ") {
			t.Errorf("%s: the running log's mark reads %q", where, got)
		}
		if n := eval[int](p, fmt.Sprintf(`document.querySelectorAll('#event-%d .overlap-fix button').length`, standup.ID)); n != 1 {
			t.Errorf("%s: standup's row offers %d moves, want 1", where, n)
		}
		if visible := eval[bool](p, fmt.Sprintf(`(() => { const r = document.querySelector('#event-%d .overlap').getBoundingClientRect(); return r.width > 0 && r.height > 0 })()`, standup.ID)); !visible {
			t.Errorf("%s: the mark is not visible", where)
		}
	}
	p.screenshot("overlaps-today-1280.png", 1280, false)

	// the running log's detail names standup, with a link to it
	p.open(fmt.Sprintf("/events/%d", run.ID))
	p.waitFor("the overlapped logs named", `document.querySelector('#overlaps a')`)
	if href := eval[string](p, `document.querySelector('#overlaps a').getAttribute('href') + ' ' + document.querySelector('#overlaps a').textContent`); href != fmt.Sprintf("/events/%d standup", standup.ID) {
		t.Errorf("the detail's link = %q", href)
	}
	p.audit("a detail naming overlaps")
	p.click("#overlaps a")
	p.waitFor("standup's detail", fmt.Sprintf(`location.pathname === '/events/%d' && document.querySelector('#overlaps .overlap-fix button')`, standup.ID))
	p.click("#overlaps .overlap-fix button")
	p.waitFor("the move done", `document.querySelector('#detail') && !document.querySelector('#overlaps')`)
	moved := byTitle(t, s.base, "standup")
	if moved.EndedAt == nil || !moved.EndedAt.Equal(*run.StartedAt) {
		t.Errorf("standup was moved to %v–%v, want to end at %v", moved.StartedAt, moved.EndedAt, run.StartedAt)
	}
	p.open("/events")
	p.waitFor("Today", tabShown("today"))
	if n := eval[int](p, `document.querySelectorAll('.overlap, .overlap-fix').length`); n != 0 {
		t.Errorf("after the move, %d overlap marks remain on Today", n)
	}
}

// The detail page of a log from yesterday 13:04 to 14:14: its times read
// as 24-hour times, "오후 2시" and "15:30" typed in save 14:00–15:30 of
// that day, and a slip of the month asks first: the new length in words,
// nothing saved, then the second click saves.
func testEditTimes(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	yesterday := day(time.Now(), loc, -1)
	at := func(days, h, m int) time.Time {
		return yesterday.AddDate(0, 0, days).Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
	}
	log := createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "reading", "started_at": rfc(at(0, 13, 4)), "ended_at": rfc(at(0, 14, 14))})
	p := b.newTab(t, s.base)
	p.open(fmt.Sprintf("/events/%d", log.ID))
	p.waitFor("the edit form", `document.querySelector('#f-started_at')`)
	if got := eval[string](p, `['#f-started_at', '#f-ended_at'].map(s => document.querySelector(s).type + ' ' + document.querySelector(s).value).join(', ')`); got != "text "+at(0, 13, 4).Format("2006-01-02 15:04")+", text "+at(0, 14, 14).Format("2006-01-02 15:04") {
		t.Errorf("the time fields read %q, want 24-hour text fields", got)
	}
	p.setValue("#f-started_at", "오후 2시")
	p.click("#f-ended_at")
	p.do("clear the end", chromedp.Evaluate[chromedp.Void](`document.querySelector('#f-ended_at').select()`))
	p.keys("15:30")
	p.click("#save")
	p.waitFor("saved", `document.querySelector('#detail .form-message')?.textContent === 'Saved.'`)
	got := byTitle(t, s.base, "reading")
	if !got.StartedAt.Equal(at(0, 14, 0)) || !got.EndedAt.Equal(at(0, 15, 30)) {
		t.Errorf("saved %v–%v, want 14:00–15:30 of %v", got.StartedAt, got.EndedAt, yesterday)
	}
	if v := p.value("#f-started_at"); v != at(0, 14, 0).Format("2006-01-02 15:04") {
		t.Errorf("after the save the start reads %q", v)
	}

	// one slip into the month segment: a month later
	p.setValue("#f-ended_at", at(0, 15, 30).AddDate(0, 1, 0).Format("2006-01-02 15:04"))
	p.click("#save")
	p.waitFor("the question", `document.querySelector('#confirm-times')?.textContent.includes('it would last')`)
	if msg := eval[string](p, `document.querySelector('#confirm-times').textContent`); !strings.Contains(msg, "(it was 1 h 30 min)") {
		t.Errorf("the question reads %q", msg)
	}
	if label := eval[string](p, `document.querySelector('#save').textContent`); label != "Save these times" {
		t.Errorf("the button reads %q", label)
	}
	if still := byTitle(t, s.base, "reading"); !still.EndedAt.Equal(at(0, 15, 30)) {
		t.Errorf("the first click saved: ended %v", still.EndedAt)
	}
	p.screenshot("edit-times-confirm-1280.png", 1280, false)
	p.audit("the times' confirmation")
	p.click("#save")
	p.waitFor("saved", `document.querySelector('#detail .form-message')?.textContent === 'Saved.'`)
	if done := byTitle(t, s.base, "reading"); !done.EndedAt.Equal(at(0, 15, 30).AddDate(0, 1, 0)) {
		t.Errorf("the confirming click saved ended %v", done.EndedAt)
	}
}

// A line with a day and a clock range, typed in the record line on Today,
// becomes a calendar entry ten days ahead; the sentence above the tab
// offers Undo, which cancels the entry and says so.
func testUndoCalendarLine(t *testing.T, b *browser) {
	s := startWeb(t)
	ahead := day(time.Now(), seoul(t), 10)
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the Today tab", tabShown("today"))
	p.click("#quick-title")
	p.keys(fmt.Sprintf("Dentist %d/%d 15:00-16:00\r", int(ahead.Month()), ahead.Day()))
	p.waitFor("the sentence with its Undo", `document.querySelector('#tab-notice .undo-create')`)
	if got := eval[string](p, `document.querySelector('#tab-notice').textContent`); !strings.Contains(got, "Added to your calendar: ") || !strings.HasSuffix(got, "Undo: cancel this entry") {
		t.Errorf("the sentence reads %q", got)
	}
	p.click("#tab-notice .undo-create")
	p.waitFor("the entry cancelled", `document.querySelector('#tab-notice')?.textContent === 'Cancelled “Dentist”: it is no longer on your calendar.'`)
	if e := byTitle(t, s.base, "Dentist"); e.Kind != "calendar_event" || e.Status != "cancelled" {
		t.Errorf("the entry is a %s, %s; want a cancelled calendar_event", e.Kind, e.Status)
	}
	p.audit("Today after the undo of a calendar line")
}
