// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// Capture text in a real browser (DESIGN.md, "Capture text"): the
// quick-record line and the task line of /events send their line as text,
// the new row shows what was understood, and a tag opens its listing. Run
// them alone with
//
//	go test -run TestBrowserCapture ./cmd/events

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

func TestBrowserCapture(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"QuickRecordText", testQuickRecordText},
		{"TaskCapture", testTaskCapture},
		{"TagLinks", testTagLinks},
		{"CalendarLine", testCalendarLine},
	})
}

// topRow is the text of the first row of #list, white space folded.
func (p *tab) topRow() string {
	return eval[string](p, `(document.querySelector('#list li.event-row')?.textContent ?? '').replace(/\s+/g, ' ').trim()`)
}

// The quick-record line reads a duration and a tag, in English and Korean,
// and stays the first text input, clearing and keeping the focus.
func testQuickRecordText(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the Today tab", tabShown("today"))
	if first := eval[string](p, `document.querySelector('input[type=text], input:not([type]), textarea')?.id ?? ''`); first != "quick-title" {
		t.Errorf("the first text input of /events is %q, want quick-title", first)
	}
	p.click("#quick-title")
	p.markWindow()
	mark := p.requestCount()
	p.keys("standup 15m #work\r")
	p.waitFor("the standup row at the top", `document.querySelector('#list li.event-row a.title')?.textContent.trim() === 'standup'`)
	p.waitFor("the input cleared and focused", `document.activeElement?.id === 'quick-title' && document.querySelector('#quick-title').value === ''`)
	top := p.topRow()
	for _, want := range []string{"15 min", "#work", "–"} {
		if !strings.Contains(top, want) {
			t.Errorf("the new row %q lacks %q", top, want)
		}
	}
	if href := eval[string](p, `document.querySelector('#list li.event-row a.tag')?.getAttribute('href') ?? ''`); href != "/events?project_tag=work" {
		t.Errorf("the new row's tag links to %q, want /events?project_tag=work", href)
	}
	// Korean, typed as a person's input method would leave it in the field.
	p.setValue("#quick-title", "회의 1시간")
	p.keys("\r")
	p.waitFor("the 회의 row at the top", `document.querySelector('#list li.event-row a.title')?.textContent.trim() === '회의'`)
	if top := p.topRow(); !strings.Contains(top, "1 h") || strings.Contains(top, "1시간") {
		t.Errorf("the 회의 row %q does not show its hour as understood", top)
	}
	if got := apiPaths(p.requestsSince(mark)); !slices.Equal(got, []string{"POST /api/events", "POST /api/events"}) {
		t.Errorf("requests for two records: %q, want only the two POSTs", got)
	}
	p.assertNoReload("a quick record with text")
	stored := listAll(t, s.base)
	if len(stored) != 2 {
		t.Fatalf("%d events stored, want 2", len(stored))
	}
	for _, e := range stored {
		if e.StartedAt == nil || e.EndedAt == nil {
			t.Errorf("%q has no span: started %v ended %v", e.Title, e.StartedAt, e.EndedAt)
			continue
		}
		want := map[string]time.Duration{"standup": 15 * time.Minute, "회의": time.Hour}[e.Title]
		if got := e.EndedAt.Sub(*e.StartedAt); got != want {
			t.Errorf("%q lasts %s, want %s", e.Title, got, want)
		}
	}
	// A line the grammar refuses: the error next to the line, the text kept.
	p.allow(422)
	p.setValue("#quick-title", "x #a #b")
	p.keys("\r")
	p.waitFor("the refusal in #quick-error", `document.querySelector('#quick-error')?.textContent.includes('text')`)
	if v := eval[string](p, `document.querySelector('#quick-title').value`); v != "x #a #b" {
		t.Errorf("after a refusal the line holds %q", v)
	}
	// A word the grammar nearly read is named under the line, the line kept.
	p.setValue("#quick-title", "standup 30 mns")
	p.keys("\r")
	p.waitFor("the refusal naming 30 mns", `document.querySelector('#quick-error')?.textContent.includes('“30 mns”')`)
	if v := eval[string](p, `document.querySelector('#quick-title').value`); v != "standup 30 mns" {
		t.Errorf("after a refusal the line holds %q", v)
	}
	// A range of bare hours is read as the nearest sensible span, and the
	// new row says so (a range still running is refused, so not the
	// range of the hour it is now in Seoul).
	line, read := "lunch 12-1", "Read “12-1” as 12:00–13:00."
	if seoul, _ := time.LoadLocation(zone); time.Now().In(seoul).Hour() == 12 {
		line, read = "lunch 9-10", "Read “9-10” as 09:00–10:00."
	}
	p.setValue("#quick-title", line)
	p.keys("\r")
	p.waitFor("the lunch row at the top", `document.querySelector('#list li.event-row a.title')?.textContent.trim() === 'lunch'`)
	if top := p.topRow(); !strings.Contains(top, read) {
		t.Errorf("the lunch row %q does not say %q", top, read)
	}
}

// The task line posts kind=task with text; the new task shows its due
// time and a sentence of what was understood; a day without a time shows
// no clock time. Typed on Upcoming, a task due tomorrow lands there, under
// Tomorrow (on Today it would not be shown: testTaskLineByDue).
func testTaskCapture(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.open("/events?tab=upcoming")
	p.waitFor("the task line", `document.querySelector('#task-text')`)
	p.click("#task-text")
	p.keys("Pay rent tomorrow 9:00 #home !high\r")
	p.waitFor("the task at the top", `document.querySelector('#list li.event-row a.title')?.textContent.trim() === 'Pay rent'`)
	p.waitFor("the task line cleared and focused", `document.activeElement?.id === 'task-text' && document.querySelector('#task-text').value === ''`)
	top := p.topRow()
	for _, want := range []string{"due tomorrow 09:00", "High priority", "#home", "Added: due tomorrow 09:00 · high priority · #home."} {
		if !strings.Contains(top, want) {
			t.Errorf("the new task row %q lacks %q", top, want)
		}
	}
	// due before the rent, so that Upcoming shows it first, under Tomorrow
	p.setValue("#task-text", "Call the bank tomorrow 8:00 p1")
	p.keys("\r")
	// the line cleared too: the tab drawn again is in the page a moment
	// before the line is cleared and its Idempotency-Key dropped, and the
	// next line typed then would be cleared or sent with this one's key
	p.waitFor("the p1 task at the top, the line cleared", `document.querySelector('#list li.event-row a.title')?.textContent.trim() === 'Call the bank' && document.querySelector('#task-text').value === ''`)
	if top := p.topRow(); !strings.Contains(top, "high priority") {
		t.Errorf("the p1 task row %q is not of high priority", top)
	}
	if kind := eval[string](p, `document.querySelector('#list li.event-row').dataset.kind`); kind != "task" {
		t.Errorf("the new row is a %s, want a task", kind)
	}
	p.setValue("#task-text", "장보기 내일")
	p.keys("\r")
	p.waitFor("the Korean task", `[...document.querySelectorAll('#list li.event-row a.title')].some(a => a.textContent.trim() === '장보기')`)
	when := eval[string](p, `[...document.querySelectorAll('#list li.event-row')].find(li => li.querySelector('a.title').textContent.trim() === '장보기').querySelector('time').textContent.trim()`)
	if when != "due tomorrow" {
		t.Errorf("a task due tomorrow without a time shows %q, want %q", when, "due tomorrow")
	}
	shoot(t, p, "capture")
	// The Upcoming tab drawn anew lists it the same way: a day, no clock time.
	p.open("/events?tab=upcoming")
	p.waitFor("the Upcoming tab", tabShown("upcoming"))
	if texts := eval[[]string](p, `[...document.querySelectorAll('#list li.event-row time')].map(e => e.textContent.trim())`); !slices.Contains(texts, "due tomorrow") {
		t.Errorf("Upcoming shows the times %q, want one %q", texts, "due tomorrow")
	}
	// An empty task line sends nothing; a task with no title is refused by name.
	p.allow(422)
	p.click("#task-text")
	p.setValue("#task-text", "tomorrow #home")
	p.keys("\r")
	p.waitFor("the refusal in #task-error", `document.querySelector('#task-error')?.textContent.toLowerCase().includes('title')`)
	if n := len(listAll(t, s.base)); n != 3 {
		t.Errorf("%d events stored, want 3", n)
	}
}

// A tag on a row and on the detail page opens the tag's listing.
func testTagLinks(t *testing.T, b *browser) {
	s := startWeb(t)
	work := createEvent(t, s.base, map[string]any{"kind": "activity_log", "text": "standup 15m #work"})
	createEvent(t, s.base, map[string]any{"kind": "task", "text": "ship it tomorrow #work !high"})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "text": "gym 30m #health"})
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the standup row", fmt.Sprintf(`document.querySelector(%s)`, jsString(row(work.ID)+" a.tag")))
	p.click(row(work.ID) + " a.tag")
	p.waitFor("the tag listing", `location.search === '?project_tag=work' && document.querySelector('#tab-tag')`)
	titles := p.rowTitles()
	slices.Sort(titles)
	if !slices.Equal(titles, []string{"ship it", "standup"}) {
		t.Errorf("the #work listing holds %q, want ship it and standup", titles)
	}
	shoot(t, p, "tag")
	// From the detail page too.
	p.open(fmt.Sprintf("/events/%d", work.ID))
	p.click(".state a.tag")
	p.waitFor("the tag listing from the detail page", `location.search === '?project_tag=work' && document.querySelectorAll('#list li.event-row').length === 2`)
	// A tab leaves the listing.
	p.click("#tab-activity")
	p.waitFor("the Activity tab", tabShown("activity")+` && !document.querySelector('#tab-tag')`)
	if n := len(p.rowIDs()); n != 2 {
		t.Errorf("the Activity tab after the tag listing shows %d rows, want the 2 logs", n)
	}
}

// shoot writes the page at 1280 and 390 pixels (capture-desktop.png,
// capture-phone.png) and fails when the phone width scrolls sideways.
func shoot(t *testing.T, p *tab, name string) {
	t.Helper()
	dir := screenshotDir(t)
	for _, f := range []string{name + "-desktop.png", name + "-phone.png"} {
		os.Remove(filepath.Join(dir, f))
	}
	here := p.path()
	p.screenshot(name+"-desktop.png", 1280, false)
	p.do("phone viewport", chromedp.EmulateViewport(390, 780, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	if wide := eval[bool](p, `document.documentElement.scrollWidth > document.documentElement.clientWidth`); wide {
		t.Errorf("%s at 390 pixels scrolls sideways", here)
	}
	p.screenshot(name+"-phone.png", 390, true)
}

// One line, any kind (issue 55): a day and a clock range typed in the
// record line or the task line make a calendar entry, and the page says
// so in words, with where it went.
func testCalendarLine(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.open("/events")
	for _, line := range []string{"#quick-title", "#task-text"} {
		p.waitFor("the line", `document.querySelector('`+line+`')`)
		p.click(line)
		p.setValue(line, "Dentist 2030-12-03 15:00-16:00 #health")
		p.keys("\r")
		p.waitFor("the sentence of the calendar entry", `document.querySelector('.tab-notice')?.textContent.includes('Added to your calendar: Tue 3 Dec 15:00–16:00.')`)
		p.open("/events")
	}
	n := 0
	for _, e := range listAll(t, s.base) {
		if e.Kind != "calendar_event" {
			t.Errorf("a line made a %s", e.Kind)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d events stored, want 2 calendar entries", n)
	}
}
