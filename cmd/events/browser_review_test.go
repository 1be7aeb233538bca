// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// testReview: the review page as a person opens it. Logs two days ago (in
// the service's zone), reached from /events; read that day's total; the
// next and previous links; screenshots at 1280 and 390 pixels.
func testReview(t *testing.T, b *browser) {
	s := startWeb(t)
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().In(loc)
	day := time.Date(now.Year(), now.Month(), now.Day()-2, 0, 0, 0, 0, loc)
	at := func(h, m int) string { return rfc(day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)) }
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Wrote the quarterly report", "started_at": at(9, 0), "ended_at": at(11, 0), "project_tag": "work"})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "주간 회의 준비", "started_at": at(13, 0), "ended_at": at(13, 40), "project_tag": "회의"})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Inbox zero", "started_at": at(16, 0), "ended_at": at(16, 30)})
	createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "Dentist", "start_at": at(18, 0), "end_at": at(18, 45)})
	done := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Renew the passport", "project_tag": "home"})
	operate(t, s.base, done.ID, "complete", nil)
	date := day.Format(time.DateOnly)
	from, to := day.AddDate(0, 0, -3).Format(time.DateOnly), day.AddDate(0, 0, 4).Format(time.DateOnly)

	p := b.newTab(t, s.base)
	dir := screenshotDir(t)
	for _, f := range []string{"review-desktop.png", "review-phone.png"} {
		os.Remove(filepath.Join(dir, f))
	}
	// From /events, the link in the tabs' row.
	p.open("/events")
	p.click(`.tabs-aside a[href="/events/review"]`)
	p.waitFor("the review page", `location.pathname === '/events/review' && !!document.querySelector('.review-days')`)
	if n := eval[int](p, `document.querySelectorAll('.review-days > li').length`); n != 7 {
		t.Errorf("this week shows %d days, want 7", n)
	}
	if got := eval[string](p, `document.querySelector('.sidebar a[aria-current="page"]').textContent`); got != "Review" {
		t.Errorf("the sidebar marks %q as the current page", got)
	}

	// The week around the day: its total as a person reads it.
	p.open("/events/review?from=" + from + "&to=" + to)
	sel := `li[data-date="` + date + `"]`
	p.waitFor("the day", `!!document.querySelector('`+sel+` .day-total')`)
	if got := eval[string](p, `document.querySelector('`+sel+` .day-total').innerText`); got != "3 h 10 min" {
		t.Errorf("the day's total reads %q, want 3 h 10 min", got)
	}
	text := eval[string](p, `document.querySelector('`+sel+`').innerText`)
	for _, want := range []string{"work 2 h", "회의 40 min", "no project 30 min", "Wrote the quarterly report", "주간 회의 준비", "Dentist", "3 logs · 1 calendar entry"} {
		if !strings.Contains(text, want) {
			t.Errorf("the day lacks %q:\n%s", want, text)
		}
	}
	if n := eval[int](p, `document.querySelectorAll('`+sel+` svg.bar rect:not(.bar-track)').length`); n != 3 {
		t.Errorf("the day's bar has %d parts, want 3", n)
	}
	// The bar's parts are drawn: each has a width on the screen, in order.
	widths := eval[[]float64](p, `[...document.querySelectorAll('`+sel+` svg.bar rect:not(.bar-track)')].map(r => r.getBoundingClientRect().width)`)
	if len(widths) != 3 || !(widths[0] > widths[1] && widths[1] > widths[2] && widths[2] > 0) {
		t.Errorf("the bar's parts are %v pixels wide, want 2 h > 40 min > 30 min > 0", widths)
	}
	if got := eval[string](p, `document.querySelector('.export a').getAttribute('href')`); !strings.HasPrefix(got, "/api/events/export?from=") || !strings.HasSuffix(got, "&format=csv") {
		t.Errorf("the export link is %q", got)
	}
	p.audit("/events/review")
	p.screenshot("review-desktop.png", 1280, false)
	p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	p.open("/events/review?from=" + from + "&to=" + to)
	p.waitFor("the day", `!!document.querySelector('`+sel+` .day-total')`)
	if wide := eval[bool](p, `document.documentElement.scrollWidth > document.documentElement.clientWidth`); wide {
		t.Errorf("the review page scrolls sideways at 390 pixels")
	}
	p.screenshot("review-phone.png", 390, true)

	// The next week and back.
	p.click(`a[rel="next"]`)
	next := "/events/review?from=" + to + "&to=" + day.AddDate(0, 0, 11).Format(time.DateOnly)
	p.waitFor("the next week", `location.pathname + location.search === `+jsString(next))
	if eval[bool](p, `!!document.querySelector('`+sel+`')`) {
		t.Errorf("the next week still shows %s", date)
	}
	p.click(`a[rel="prev"]`)
	p.waitFor("back to the week", `!!document.querySelector('`+sel+` .day-total')`)
	if got := p.path(); got != "/events/review?from="+from+"&to="+to {
		t.Errorf("previous of the next week is %s", got)
	}
}

// TestBrowserPlans: the review's numbers that add up, the review of a week
// ahead as a plan, Upcoming and Activity by day, and the task line placing
// a task by its due date (issue 47, points 3 and 6).
func TestBrowserPlans(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"ReviewAddsUp", testReviewAddsUp},
		{"ReviewAhead", testReviewAhead},
		{"DayHeadings", testDayHeadings},
		{"TaskLineByDue", testTaskLineByDue},
	})
}

// shootBoth writes name-desktop.png at 1280 pixels and name-phone.png at
// 390 of the page at path, waiting for ready after each load.
func shootBoth(t *testing.T, p *tab, name, path, ready string) {
	t.Helper()
	dir := screenshotDir(t)
	for _, f := range []string{name + "-desktop.png", name + "-phone.png"} {
		os.Remove(filepath.Join(dir, f))
	}
	p.screenshot(name+"-desktop.png", 1280, false)
	p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	p.open(path)
	p.waitFor("the page at 390 pixels", ready)
	if wide := eval[bool](p, `document.documentElement.scrollWidth > document.documentElement.clientWidth`); wide {
		t.Errorf("%s scrolls sideways at 390 pixels", path)
	}
	p.screenshot(name+"-phone.png", 390, true)
	p.open(path)
	p.waitFor("the page at 1280 pixels", ready)
}

// A past week's review: two logs of different projects overlapping an hour
// share it, so the day's projects add up to its total and its bar is as long
// as the total; the week's projects add up to the week's total.
func testReviewAddsUp(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	d := day(time.Now(), loc, -7)
	at := func(h, m int) string { return rfc(d.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)) }
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Quarterly report", "started_at": at(9, 0), "ended_at": at(11, 0), "project_tag": "work"})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Review call", "started_at": at(10, 0), "ended_at": at(11, 30), "project_tag": "work"})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "회의 준비", "started_at": at(10, 30), "ended_at": at(12, 0), "project_tag": "회의"})
	// logged for that day, cancelled today: listed on that day
	x := createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Mistaken entry", "started_at": at(15, 0), "ended_at": at(15, 30)})
	operate(t, s.base, x.ID, "cancel", nil)
	date := d.Format(time.DateOnly)
	week := weekOf(d, loc)
	path := "/events/review?from=" + week.Format(time.DateOnly) + "&to=" + week.AddDate(0, 0, 7).Format(time.DateOnly)

	p := b.newTab(t, s.base)
	p.open(path)
	sel := `li[data-date="` + date + `"]`
	ready := `!!document.querySelector('` + sel + ` .day-total')`
	p.waitFor("the day", ready)
	// 09:00-12:00 is 3 h: #work alone 9-10:30, with 회의 10:30-11:30 (half
	// each), 회의 alone 11:30-12: work 2 h, 회의 1 h
	if got := eval[string](p, `document.querySelector('`+sel+` .day-total').innerText`); got != "3 h" {
		t.Errorf("the day's total reads %q, want 3 h", got)
	}
	parts := eval[[]string](p, `[...document.querySelectorAll('`+sel+` .day-projects li')].map(li => li.innerText.trim())`)
	if strings.Join(parts, " | ") != "work 2 h | 회의 1 h" {
		t.Errorf("the day's projects read %q, want work 2 h, 회의 1 h", parts)
	}
	sums := eval[[]float64](p, `(() => { const d = document.querySelector('`+sel+`');
		const total = +d.querySelector('.day-total').dataset.seconds;
		const parts = [...d.querySelectorAll('.day-projects li')].reduce((s, li) => s + +li.dataset.seconds, 0);
		const rects = [...d.querySelectorAll('svg.bar rect:not(.bar-track)')];
		const bar = rects.reduce((s, r) => s + +r.getAttribute('width'), 0);
		const end = Math.max(...rects.map(r => +r.getAttribute('x') + +r.getAttribute('width')));
		return [total, parts, bar, end]; })()`)
	if len(sums) != 4 || sums[0] != 10800 || sums[1] != sums[0] || sums[2] != sums[0] || sums[3] != sums[0] {
		t.Errorf("total, projects, bar and bar end are %v seconds, want all 10800", sums)
	}
	legend := eval[float64](p, `[...document.querySelectorAll('.legend li')].length`)
	if legend != 2 || eval[string](p, `document.querySelector('#review-logged').innerText`) != "3 h" {
		t.Errorf("the week's legend has %v projects and total %q", legend, eval[string](p, `document.querySelector('#review-logged').innerText`))
	}
	cancelled := eval[string](p, `[...document.querySelectorAll('`+sel+` .entry-cancelled')].map(e => e.innerText).join('|')`)
	if !strings.Contains(cancelled, "Mistaken entry") || !strings.Contains(cancelled, "15:00–15:30") {
		t.Errorf("the cancelled log is not listed on its day: %q", cancelled)
	}
	p.audit("/events/review (past week)")
	shootBoth(t, p, "review-past", path, ready)
}

// weekOf is the local Monday of tm's week.
func weekOf(tm time.Time, loc *time.Location) time.Time {
	back := (int(tm.In(loc).Weekday()) + 6) % 7
	return day(tm, loc, -back)
}

// The review of next week is its plan: the tasks due and the calendar
// entries of each day, and the plan beside the logged time.
func testReviewAhead(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	next := weekOf(time.Now(), loc).AddDate(0, 0, 7)
	tue, wed := next.AddDate(0, 0, 1), next.AddDate(0, 0, 2)
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "Send the invoice", "due_at": rfc(tue.Add(10 * time.Hour)), "project_tag": "work"})
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "장보기", "due_at": rfc(tue.Add(18 * time.Hour))})
	createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "치과", "start_at": rfc(wed.Add(15 * time.Hour)), "end_at": rfc(wed.Add(16 * time.Hour))})
	createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "Offsite", "start_at": rfc(next.AddDate(0, 0, 4)), "end_at": rfc(next.AddDate(0, 0, 5)), "all_day": true})

	p := b.newTab(t, s.base)
	p.open("/events/review")
	p.click(`a[rel="next"]`)
	path := "/events/review?from=" + next.Format(time.DateOnly) + "&to=" + next.AddDate(0, 0, 7).Format(time.DateOnly)
	p.waitFor("next week", `location.pathname + location.search === `+jsString(path))
	ready := `!!document.querySelector('#review-plan')`
	p.waitFor("the plan", ready)
	if got := eval[string](p, `document.querySelector('.review-plan').innerText`); got != "Plan 2 tasks due · 2 calendar entries" {
		t.Errorf("the week's plan reads %q", got)
	}
	if got := eval[string](p, `document.querySelector('#review-total-title').innerText`); got != "Logged 0 min" {
		t.Errorf("beside it: %q", got)
	}
	tueText := eval[string](p, `document.querySelector('li[data-date="`+tue.Format(time.DateOnly)+`"] .day-plan').innerText`)
	for _, want := range []string{"Plan 2 tasks due", "Due\n10:00 Send the invoice", "장보기"} {
		if !strings.Contains(strings.ReplaceAll(tueText, "\t", " "), strings.ReplaceAll(want, "\n", " ")) && !strings.Contains(tueText, want) {
			t.Errorf("Tuesday's plan lacks %q:\n%s", want, tueText)
		}
	}
	if got := eval[string](p, `document.querySelector('li[data-date="`+wed.Format(time.DateOnly)+`"] .day-plan').innerText`); !strings.Contains(got, "15:00–16:00") || !strings.Contains(got, "치과") {
		t.Errorf("Wednesday's plan: %q", got)
	}
	if got := eval[string](p, `document.querySelector('li[data-date="`+next.AddDate(0, 0, 6).Format(time.DateOnly)+`"]').innerText`); !strings.Contains(got, "Nothing planned") {
		t.Errorf("an empty Sunday ahead reads %q", got)
	}
	p.audit("/events/review (next week)")
	shootBoth(t, p, "review-ahead", path, ready)
}

// Upcoming and Activity are grouped under day headings; Activity's carry
// the day's logged time.
func testDayHeadings(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	today := day(time.Now(), loc, 0)
	in := func(days, h int) string { return rfc(today.AddDate(0, 0, days).Add(time.Duration(h) * time.Hour)) }
	createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "Standup", "start_at": in(1, 9), "end_at": in(1, 10)})
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "Pay rent", "due_at": in(3, 9), "project_tag": "home"})
	createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "치과", "start_at": in(3, 15), "end_at": in(3, 16)})
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "File taxes", "due_at": in(8, 12)})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Deep work", "started_at": in(-1, 9), "ended_at": in(-1, 11), "project_tag": "work"})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Email", "started_at": in(-1, 10), "ended_at": in(-1, 12)})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Gym", "started_at": in(-3, 18), "ended_at": in(-3, 19)})

	label := func(days int) string { return today.AddDate(0, 0, days).Format("Mon 2 Jan") }
	p := b.newTab(t, s.base)
	p.open("/events?tab=upcoming")
	ready := `!!document.querySelector('.day-group[data-day] h2')`
	p.waitFor("Upcoming by day", ready)
	heads := `[...document.querySelectorAll('#list .day-group')].filter(g => g.offsetParent !== null).map(g => g.querySelector('.day-heading').innerText.replace(/\s+/g, ' ').trim() + ': ' + [...g.querySelectorAll('li.event-row a.title')].map(a => a.textContent.trim()).join(', '))`
	want := []string{"Tomorrow: Standup", label(3) + ": Pay rent, 치과", label(8) + ": File taxes"}
	if got := eval[[]string](p, heads); strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("Upcoming reads %q,\nwant %q", got, want)
	}
	p.audit("/events?tab=upcoming")
	shootBoth(t, p, "upcoming-days", "/events?tab=upcoming", ready)

	p.click("#tab-activity")
	p.waitFor("Activity by day", tabShown("activity")+` && !!document.querySelector('.day-group h2')`)
	want = []string{"Yesterday 3 h logged: Email, Deep work", label(-3) + " 1 h logged: Gym"}
	if got := eval[[]string](p, heads); strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("Activity reads %q,\nwant %q", got, want)
	}
	// a quick record lands under Today
	p.click("#quick-title")
	p.keys("coffee 5m\r")
	p.waitFor("the record under Today", `[...document.querySelectorAll('.day-group[data-day="`+today.Format(time.DateOnly)+`"] li.event-row a.title')].some(a => a.textContent.trim() === 'coffee')`)
	p.audit("/events?tab=activity")
	shootBoth(t, p, "activity-days", "/events?tab=activity", `!!document.querySelector('.day-group h2')`)
}

// On Today, the task line places a task due next week in Upcoming, not in
// To do, and says so with a link; a task due today at a time goes to
// Schedule.
func testTaskLineByDue(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	due := day(time.Now(), loc, 7)
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the task line", `document.querySelector('#task-text')`)
	p.click("#task-text")
	p.keys("Pay rent " + due.Format("2006-01-02") + " #home\r")
	p.waitFor("the sentence of where it went", `document.querySelector('.tab-notice')?.textContent.includes('Upcoming')`)
	p.waitFor("the task line cleared and focused", `document.activeElement?.id === 'task-text' && document.querySelector('#task-text').value === ''`)
	notice := eval[string](p, `document.querySelector('.tab-notice').innerText`)
	if want := "It is in Upcoming, under " + due.Format("Mon 2 Jan") + "."; !strings.Contains(notice, want) || !strings.Contains(notice, "Added “Pay rent”") {
		t.Errorf("the sentence reads %q, want it to hold %q", notice, want)
	}
	if n := eval[int](p, `document.querySelectorAll('#section-todo ~ ul li.event-row, [data-section="todo"] li.event-row').length`); n != 0 {
		t.Errorf("To do holds %d rows, want none", n)
	}
	shoot(t, p, "task-line-next-week")
	p.click(".tab-notice a")
	p.waitFor("Upcoming", tabShown("upcoming"))
	if got := eval[string](p, `[...document.querySelectorAll('.day-group[data-day="`+due.Format(time.DateOnly)+`"] li.event-row a.title')].map(a => a.textContent.trim()).join()`); got != "Pay rent" {
		t.Errorf("Upcoming's %s holds %q", due.Format("Mon 2 Jan"), got)
	}
	// Back on Today, a task due tonight goes to Schedule, marked.
	p.open("/events")
	p.click("#task-text")
	p.keys("Call mum 23:58\r")
	p.waitFor("the task in Schedule", `[...document.querySelectorAll('[data-section="schedule"] li.event-row[data-captured] a.title')].some(a => a.textContent.trim() === 'Call mum')`)
}
