// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// Issue 15 in a real browser: Today in sections, the quick record at the top
// of Done & logged, the deferred row's "until", and the pages at phone width
// (no sideways scroll with the defer menu open, 44 px targets, the first row
// on the first screen, no stray scrollbar on the tab bar, tab labels that
// stay put). TestBrowserToday runs its own Chromium with the scrollbars
// visible, as people run it: the shared one of TestBrowser hides them.
//
//	go test -run TestBrowserToday ./cmd/events

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestBrowserToday(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"Sections", testTodaySections},
		{"RecordOnOtherTabs", testRecordOnOtherTabs},
		{"DeferredUntil", testDeferredUntil},
		{"Phone", testTodayPhone},
		{"TabBar", testTabBar},
		{"Screenshots", testTodayScreenshots},
	}, chromedp.Flag("hide-scrollbars", false))
}

// sectionTitles is the visible section headings of Today and the titles of
// the rows of each, top to bottom.
func (p *tab) sectionTitles() map[string][]string {
	return eval[map[string][]string](p, `Object.fromEntries([...document.querySelectorAll('#list section.today-section')]
		.filter(s => s.getClientRects().length > 0)
		.map(s => [s.querySelector('h2').textContent.trim(), [...s.querySelectorAll('li.event-row a.title')].map(a => a.textContent.trim())]))`)
}

func (p *tab) sectionHeadings() []string {
	return eval[[]string](p, `[...document.querySelectorAll('#list section.today-section')].filter(s => s.getClientRects().length > 0).map(s => s.querySelector('h2').textContent.trim())`)
}

func testTodaySections(t *testing.T, b *browser) {
	s := startWeb(t)
	seedVariety(t, s.base)
	// a task due some time today, with no clock time: To do
	endOfDay := day(time.Now(), seoul(t), 1).Add(-time.Microsecond)
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "Buy bread", "due_at": endOfDay.Format(time.RFC3339Nano)})
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("Today's sections", `document.querySelector('#list section.today-section li.event-row')`)

	if got, want := p.sectionHeadings(), []string{"Overdue", "Now", "Schedule", "To do", "Done & logged"}; !slices.Equal(got, want) {
		t.Errorf("visible sections %q, want %q", got, want)
	}
	got := p.sectionTitles()
	for heading, want := range map[string][]string{
		"Overdue":  {"Renew the passport"},
		"Now":      {"Writing the report"},
		"Schedule": {"Team offsite (a long title that has to wrap on a phone screen)", "Dentist", "Pay the rent"},
		"To do":    {"Buy bread"},
	} {
		if !slices.Equal(got[heading], want) {
			t.Errorf("section %s: %q, want %q", heading, got[heading], want)
		}
	}
	// Done & logged runs newest first: the record made last is on top.
	if done := got["Done & logged"]; len(done) != 2 || done[0] != "Fixed the bike" || done[1] != "Water the plants" {
		t.Errorf("Done & logged: %q, want the bike (recorded last) above the plants", done)
	}
	// The running log shows how long it has run.
	if text := eval[string](p, `document.querySelector('[data-section="now"] .elapsed')?.textContent ?? ''`); !strings.Contains(text, "min") && text != "just started" {
		t.Errorf("the running log's elapsed time reads %q", text)
	}
	// Nothing red on a done task.
	if red := eval[[]string](p, `[...document.querySelectorAll('[data-section="done"] li.event-row *')]
		.filter(el => el.getClientRects().length && getComputedStyle(el).color === 'rgb(163, 21, 27)').map(el => el.className || el.tagName)`); len(red) > 0 {
		t.Errorf("done rows show red: %q", red)
	}
	// No shouting: the kind is not in capitals.
	if tt := eval[string](p, `getComputedStyle(document.querySelector('#list .kind')).textTransform`); tt == "uppercase" {
		t.Errorf("the kind chip is uppercase")
	}

	// A quick record goes to the top of Done & logged, without a refetch,
	// marked as just recorded; after a reload it is still there.
	p.click("#quick-title")
	mark := p.requestCount()
	p.keys("Fed the cat\r")
	p.waitFor("the record at the top of Done & logged", `document.querySelector('[data-section="done"] li.event-row a.title')?.textContent.trim() === 'Fed the cat'`)
	if got := apiPaths(p.requestsSince(mark)); !slices.Equal(got, []string{"POST /api/events"}) {
		t.Errorf("requests while recording: %q, want only the POST (no refetch)", got)
	}
	if !eval[bool](p, `document.querySelector('[data-section="done"] li.event-row').classList.contains('just-recorded') && document.querySelector('[data-section="done"] li.event-row .recorded')?.textContent === 'just recorded'`) {
		t.Errorf("the record is not marked as just recorded")
	}
	before := p.sectionTitles()
	p.open("/events")
	p.waitFor("Today after a reload", `document.querySelector('#list section.today-section li.event-row')`)
	after := p.sectionTitles()
	if done := after["Done & logged"]; len(done) == 0 || done[0] != "Fed the cat" {
		t.Errorf("after a reload Done & logged is %q, want the record on top", done)
	}
	for _, h := range []string{"Overdue", "Now", "Schedule", "To do", "Done & logged"} {
		if !slices.Equal(before[h], after[h]) {
			t.Errorf("section %s changed across a reload: %q, then %q", h, before[h], after[h])
		}
	}
	p.audit("Today in sections")
}

// On a tab where logs do not belong, a record still lands at the top of
// the visible list, marked as just recorded.
func testRecordOnOtherTabs(t *testing.T, b *browser) {
	s := startWeb(t)
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "Sort photos"})
	p := b.newTab(t, s.base)
	for _, tab := range []string{"inbox", "upcoming"} {
		p.open("/events?tab=" + tab)
		p.waitFor("the "+tab+" tab", tabShown(tab))
		p.click("#quick-title")
		line := "Recorded on " + tab
		p.keys(line + "\r")
		p.waitFor("the record at the top of "+tab, `document.querySelector('#list li.event-row a.title')?.textContent.trim() === `+jsString(line))
		if !eval[bool](p, `(() => { const r = document.querySelector('#list li.event-row .recorded'); return !!r && r.getClientRects().length > 0 && r.closest('li').classList.contains('just-recorded') })()`) {
			t.Errorf("%s: the record is not visibly marked as just recorded", tab)
		}
	}
}

// A deferred row says until when, and Upcoming places it at that time.
func testDeferredUntil(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	today := day(time.Now(), loc, 0)
	createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "Two days on", "start_at": rfc(today.AddDate(0, 0, 2).Add(10 * time.Hour))})
	createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "Four days on", "start_at": rfc(today.AddDate(0, 0, 4).Add(10 * time.Hour))})
	task := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Taxes", "due_at": rfc(today.AddDate(0, 0, 1).Add(10 * time.Hour))})
	until := today.AddDate(0, 0, 3).Add(9 * time.Hour)
	operate(t, s.base, task.ID, "defer", map[string]any{"defer_until": rfc(until)})

	p := b.newTab(t, s.base)
	p.open("/events?tab=upcoming")
	p.waitFor("the upcoming rows", `document.querySelectorAll('#list li.event-row').length === 3`)
	if got, want := p.rowTitles(), []string{"Two days on", "Taxes", "Four days on"}; !slices.Equal(got, want) {
		t.Errorf("upcoming %q, want the deferred task at its defer_until %q", got, want)
	}
	want := "until " + until.In(loc).Format("Mon") + " 09:00"
	if got := eval[string](p, `document.querySelector(`+jsString(row(task.ID)+" .until")+`)?.textContent ?? ''`); got != want {
		t.Errorf("the deferred row says %q, want %q", got, want)
	}
	// Deferring from the page says it too.
	other := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Call the bank", "due_at": rfc(today.AddDate(0, 0, 1).Add(11 * time.Hour))})
	p.open("/events?tab=upcoming")
	p.waitFor("the new row", `document.querySelector(`+jsString(row(other.ID))+`)`)
	p.click(row(other.ID) + " details.defer summary")
	p.click(row(other.ID) + ` .defer-preset[data-preset="tomorrow"]`)
	p.waitFor("the deferred row's until", `document.querySelector(`+jsString(row(other.ID)+" .until")+`)?.textContent === 'until tomorrow 09:00'`)
}

// phoneViewport emulates a phone of width × height.
func (p *tab) phoneViewport(width, height int64) {
	p.t.Helper()
	p.do(fmt.Sprintf("a %d × %d phone", width, height), chromedp.EmulateViewport(width, height, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
}

// overflow lists what reaches beyond the viewport's right edge, if the page
// scrolls sideways.
func (p *tab) overflow() []string {
	return eval[[]string](p, `document.documentElement.scrollWidth > document.documentElement.clientWidth
		? [String(document.documentElement.scrollWidth), ...[...document.querySelectorAll('body *')]
			.filter(el => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
			.slice(0, 5).map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : ''))]
		: []`)
}

func testTodayPhone(t *testing.T, b *browser) {
	s := startWeb(t)
	seedVariety(t, s.base)
	p := b.newTab(t, s.base)

	// The first row on the first screen of a 390 × 844 phone.
	p.phoneViewport(390, 844)
	p.open("/events")
	p.waitFor("Today", `document.querySelector('#list li.event-row')`)
	if top := eval[float64](p, `document.querySelector('#list li.event-row').getBoundingClientRect().top`); top >= 844-40 {
		t.Errorf("the first row starts at %.0f px: not on the first screen of an 844 px phone", top)
	}

	// Touch targets: 44 × 44 at least, at phone width.
	small := eval[[]string](p, `[...document.querySelectorAll('main button, main summary, main a.title, main [role="tab"], main .button, nav a, nav button')]
		.filter(el => el.getClientRects().length > 0)
		.map(el => [el, el.getBoundingClientRect()])
		.filter(([el, r]) => r.width < 44 || r.height < 44)
		.map(([el, r]) => (el.textContent.trim().slice(0, 30) || el.tagName) + ' ' + Math.round(r.width) + '×' + Math.round(r.height))`)
	if len(small) > 0 {
		t.Errorf("touch targets under 44 × 44 px at 390 px: %q", small)
	}

	// Each row's defer menu, opened, stays on screen and the page does not
	// scroll sideways, at 390 and at 360 px.
	for _, width := range []int64{390, 360} {
		p.phoneViewport(width, 780)
		p.open("/events")
		p.waitFor("Today", `document.querySelector('#list li.event-row details.defer')`)
		n := eval[int](p, `document.querySelectorAll('#list details.defer').length`)
		for i := 0; i < n; i++ {
			eval[bool](p, fmt.Sprintf(`(() => { document.querySelectorAll('#list details.defer').forEach((d, j) => d.open = j === %d); return true })()`, i))
			p.waitFor("the defer menu open", `document.querySelector('#list details.defer[open] .defer-menu')?.getClientRects().length > 0`)
			if wide := p.overflow(); len(wide) > 0 {
				t.Errorf("at %d px with defer menu %d open the page scrolls sideways: %s px wide; widest %q", width, i, wide[0], wide[1:])
			}
			r := eval[[]float64](p, `(() => { const r = document.querySelector('#list details.defer[open] .defer-menu').getBoundingClientRect(); return [r.left, r.right] })()`)
			if r[0] < 0 || r[1] > float64(width) {
				t.Errorf("at %d px defer menu %d runs off the screen: %.0f to %.0f px", width, i, r[0], r[1])
			}
		}
		if width == 360 {
			p.screenshot("today15-defer-open-360.png", 360, true)
		}
	}
}

// The tab bar shows no scrollbar (in a browser that draws them) and its
// labels do not move when another tab is selected.
func testTabBar(t *testing.T, b *browser) {
	s := startWeb(t)
	seedVariety(t, s.base)
	p := b.newTab(t, s.base)
	for _, width := range []int64{1280, 390, 360} {
		if width == 1280 {
			p.do("desktop", chromedp.EmulateViewport(1280, 900))
		} else {
			p.phoneViewport(width, 780)
		}
		p.open("/events")
		p.waitFor("the tabs", `document.querySelector('.tabs [role="tab"]')`)
		// A scrollbar takes room inside the element's border box.
		bars := eval[[]float64](p, `(() => { const el = document.querySelector('.tabs'), cs = getComputedStyle(el);
			const bt = parseFloat(cs.borderTopWidth) + parseFloat(cs.borderBottomWidth), bl = parseFloat(cs.borderLeftWidth) + parseFloat(cs.borderRightWidth);
			return [el.offsetHeight - el.clientHeight - bt, el.offsetWidth - el.clientWidth - bl, el.scrollWidth - el.clientWidth, el.scrollHeight - el.clientHeight] })()`)
		if bars[0] > 0 || bars[1] > 0 || bars[2] > 0 || bars[3] > 0 {
			t.Errorf("at %d px the tab bar has a scrollbar or overflows: horizontal bar %.0f px, vertical bar %.0f px, overflow %.0f × %.0f px", width, bars[0], bars[1], bars[2], bars[3])
		}
		rects := func() []string {
			return eval[[]string](p, `[...document.querySelectorAll('.tabs [role="tab"]')].map(a => { const r = a.getBoundingClientRect(); return a.textContent.trim() + '@' + r.left.toFixed(1) + '+' + r.width.toFixed(1) })`)
		}
		first := rects()
		for _, name := range []string{"inbox", "upcoming", "activity", "today"} {
			p.click(`#tab-` + name)
			p.waitFor("the "+name+" tab", tabShown(name))
			if now := rects(); !slices.Equal(now, first) {
				t.Errorf("at %d px selecting %s moved the tab labels: %q, before %q", width, name, now, first)
			}
		}
	}
}

// Screenshots of every page at 1280 and 390 px, with the scrollbars
// visible, each checked for sideways scrolling at 390.
func testTodayScreenshots(t *testing.T, b *browser) {
	s := startWeb(t)
	task := seedVariety(t, s.base)
	p := b.newTab(t, s.base)
	pages := []struct{ name, path, ready string }{
		{"today", "/events", `document.querySelector('#list li.event-row')`},
		{"inbox", "/events?tab=inbox", `document.querySelector('#list li.event-row')`},
		{"upcoming", "/events?tab=upcoming", `document.querySelector('#list li.event-row')`},
		{"activity", "/events?tab=activity", `document.querySelector('#list li.event-row')`},
		{"detail", fmt.Sprintf("/events/%d", task.ID), `document.querySelector('#history li')`},
		{"new", "/events/new", `document.querySelector('.kind-choice')`},
		{"new-task", "/events/new?kind=task", `document.querySelector('#new-form')`},
		{"new-calendar", "/events/new?kind=calendar_event", `document.querySelector('#new-form')`},
		{"new-log", "/events/new?kind=activity_log", `document.querySelector('#new-form')`},
		{"notes", "/notes", `document.querySelector('main h1')`},
	}
	dir := screenshotDir(t)
	for _, pg := range pages {
		for _, w := range []string{"1280", "390"} {
			os.Remove(filepath.Join(dir, "today15-"+pg.name+"-"+w+".png"))
		}
	}
	for _, pg := range pages {
		p.do("desktop", chromedp.EmulateViewport(1280, 900))
		p.open(pg.path)
		p.waitFor(pg.name, pg.ready)
		p.screenshot("today15-"+pg.name+"-1280.png", 1280, false)
		p.phoneViewport(390, 844)
		p.open(pg.path)
		p.waitFor(pg.name, pg.ready)
		if wide := p.overflow(); len(wide) > 0 {
			t.Errorf("%s at 390 px scrolls sideways: %s px wide; widest %q", pg.name, wide[0], wide[1:])
		}
		p.screenshot("today15-"+pg.name+"-390.png", 390, true)
	}
	// The new form's error in the words of its labels.
	p.do("desktop", chromedp.EmulateViewport(1280, 900))
	p.open("/events/new?kind=calendar_event")
	p.waitFor("the form", `document.querySelector('#new-form')`)
	p.allow(422)
	p.setValue("#f-title", "Backwards")
	p.setValue("#f-start_at", "2026-11-23T17:00")
	p.setValue("#f-end_at", "2026-11-23T16:00")
	p.click(`#new-form button[type="submit"]`)
	p.waitFor("the refusal", `document.querySelector('.field-error')`)
	if text := eval[string](p, `[...document.querySelectorAll('.field-error, .form-errors li')].map(e => e.textContent).join(' | ')`); strings.Contains(text, "_at") {
		t.Errorf("the form's error names API fields: %q", text)
	}
	p.screenshot("today15-new-error-1280.png", 1280, false)
	t.Logf("screenshots in %s (today15-*.png)", dir)
}
