// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserOneRuleForDays: issue 55's numbers as a person reads them. A
// log from 23:10 to 00:50 shows each day its 50 minutes beside the whole
// on Activity and in the review's logbook, Activity's day heading is the
// sum of its rows, the review's projects add up to the day's total, and a
// task completed today without a due day is in Today's Done & logged.
func TestBrowserOneRuleForDays(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"DaysAgree", testDaysAgree},
		{"EndedEntryOnAPhone", testEndedEntryOnAPhone},
		{"StartEmpty", testStartEmpty},
	})
}

func testDaysAgree(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	today := day(time.Now(), loc, 0)
	in := func(days, h, m, sec int) string {
		return rfc(today.AddDate(0, 0, days).Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second))
	}
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "야간 배포", "started_at": in(-3, 23, 10, 0), "ended_at": in(-2, 0, 50, 0), "project_tag": "ops"})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Standup", "started_at": in(-3, 9, 0, 0), "ended_at": in(-3, 9, 30, 0), "project_tag": "work"})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Sketch", "started_at": in(-4, 10, 0, 0), "ended_at": in(-4, 10, 1, 30), "project_tag": "art"})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Call mum", "started_at": in(-4, 11, 0, 0), "ended_at": in(-4, 11, 1, 30), "project_tag": "home"})
	done := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Reply to Jin"})
	operate(t, s.base, done.ID, "complete", nil)
	label := func(days int) string { return today.AddDate(0, 0, days).Format("Mon 2 Jan") }
	date := func(days int) string { return today.AddDate(0, 0, days).Format(time.DateOnly) }

	p := b.newTab(t, s.base)
	// Today: the task done today is in Done & logged
	p.open("/events?tab=today")
	p.waitFor("Today", `!!document.querySelector('[data-section="done"]')`)
	if got := eval[string](p, `document.querySelector('[data-section="done"]').innerText`); !strings.Contains(got, "Reply to Jin") {
		t.Errorf("Done & logged lacks the task done today:\n%s", got)
	}

	// Activity: the log under both days, each its piece; headings add up
	p.open("/events?tab=activity")
	p.waitFor("Activity by day", `!!document.querySelector('.day-group h2')`)
	group := func(days int) string {
		return eval[string](p, `(document.querySelector('.day-group[data-day="`+date(days)+`"]')?.innerText || '').replace(/\s+/g, ' ')`)
	}
	for _, c := range []struct {
		days int
		want []string
	}{
		{-2, []string{label(-2), "50 min logged", "야간 배포", "50 min of 1 h 40 min"}},
		{-3, []string{label(-3), "1 h 20 min logged", "야간 배포", "50 min of 1 h 40 min", "Standup", "30 min"}},
	} {
		got := group(c.days)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("Activity's %s lacks %q:\n%s", label(c.days), w, got)
			}
		}
	}
	p.audit("/events?tab=activity")

	// the review: the pieces, and parts that add up
	p.open("/events/review?from=" + date(-6) + "&to=" + date(1))
	p.waitFor("the review", `!!document.querySelector('.review-days')`)
	day := func(days int) string {
		return eval[string](p, `(document.querySelector('li[data-date="`+date(days)+`"]')?.innerText || '').replace(/\s+/g, ' ')`)
	}
	for _, days := range []int{-2, -3} {
		if got := day(days); !strings.Contains(got, "50 min of 1 h 40 min") {
			t.Errorf("the review's %s does not show the piece:\n%s", label(days), got)
		}
	}
	if got := day(-4); !strings.Contains(got, "3 min") || !strings.Contains(got, "art 2 min") || !strings.Contains(got, "home 1 min") {
		t.Errorf("the review's %s does not add up to 3 min (art 2 min, home 1 min: equal remainders in tag order):\n%s", label(-4), got)
	}
	p.audit("/events/review")
	shootBoth(t, p, "days-agree", "/events?tab=activity", `!!document.querySelector('.day-group h2')`)
}

// A calendar entry that has ended offers no Defer (nor Complete), and on a
// 390-pixel phone its buttons start at the row's edge, with no empty slot
// where Complete would be; an entry still ahead keeps Complete and Defer.
func testEndedEntryOnAPhone(t *testing.T, b *browser) {
	s := startWeb(t)
	now := time.Now()
	ended := createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "Standup", "start_at": rfc(now.Add(-2 * time.Hour)), "end_at": rfc(now.Add(-time.Hour))})
	ahead := createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "Dentist", "start_at": rfc(now.Add(2 * time.Hour)), "end_at": rfc(now.Add(3 * time.Hour))})
	p := b.newTab(t, s.base)
	p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	p.open("/events?tab=today")
	row := func(id int64) string { return `document.getElementById('event-` + strconv.FormatInt(id, 10) + `')` }
	p.waitFor("the rows", `!!`+row(ended.ID)+` && !!`+row(ahead.ID))
	ops := func(id int64) string {
		return eval[string](p, `[...`+row(id)+`.querySelectorAll('.ops > .op, .ops > .defer')].map(e => e.innerText.trim()).join(',')`)
	}
	if got := ops(ended.ID); strings.Contains(got, "Defer") || strings.Contains(got, "Complete") || got == "" {
		t.Errorf("the ended entry offers %q, want neither Complete nor Defer", got)
	}
	if got := ops(ahead.ID); !strings.Contains(got, "Defer") || !strings.Contains(got, "Complete") {
		t.Errorf("the entry ahead offers %q, want Complete and Defer", got)
	}
	gap := eval[float64](p, `(() => { const o = `+row(ended.ID)+`.querySelector('.ops'); const f = o.querySelector('.op, .defer'); return f.getBoundingClientRect().left - o.getBoundingClientRect().left })()`)
	if gap > 1 {
		t.Errorf("the ended entry's first button starts %.0f pixels into its row's buttons, want at their edge", gap)
	}
	p.audit("/events?tab=today")
}

// Start with an empty line says what to type (nothing happened) and starts
// nothing; with text it starts the timer and the note goes.
func testStartEmpty(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.open("/events?tab=today")
	p.waitFor("the record line", `!!document.querySelector('#quick-record button[data-start]')`)
	p.click(`#quick-record button[data-start]`)
	p.waitFor("the note", `(document.getElementById('quick-error')?.innerText || '').includes('Type what you are starting')`)
	if got := eval[string](p, `document.activeElement.id`); got != "quick-title" {
		t.Errorf("after Start on an empty line the focus is on %q, want the line", got)
	}
	time.Sleep(300 * time.Millisecond)
	if n := eval[int](p, `document.querySelectorAll('[data-section="now"] li.event-row').length`); n != 0 {
		t.Errorf("an empty Start started %d timers", n)
	}
	p.audit("/events?tab=today")
}
