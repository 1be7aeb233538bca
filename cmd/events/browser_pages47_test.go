// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// Issue 47, points 5, 7 and 8, in a real browser: forms that respect the
// person's time, a defer that moves the plan, the keyboard complete. Run
// them alone with
//
//	go test -run TestBrowserPages47 ./cmd/events

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func TestBrowserPages47(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"FirstFieldAndTag", testFirstFieldAndTag},
		{"CalendarEnd", testCalendarEnd},
		{"AllDayDates", testAllDayDates},
		{"DueDayOnly", testDueDayOnly},
		{"FormScreenshots", testFormScreenshots},
		{"DeferMovesDue", testDeferMovesDue},
		{"UntilFieldWhole", testUntilFieldWhole},
		{"EscLeavesField", testEscLeavesField},
		{"KeysTypeInFields", testKeysTypeInFields},
		{"SearchKey", testSearchKey},
		{"DeferMenuArrows", testDeferMenuArrows},
		{"TabSwitchResetsRow", testTabSwitchResetsRow},
		{"FootHint", testFootHint},
		{"OneUndo", testOneUndo},
		{"CompleteAheadEntry", testCompleteAheadEntry},
	})
}

// newFormOf opens /events/new?kind=kind and waits for its form.
func (p *tab) newFormOf(kind string) {
	p.t.Helper()
	p.open("/events/new?kind=" + kind)
	p.waitFor(kind+"'s form", `document.querySelector('#new-form')?.dataset.kind === `+jsString(kind))
}

// createdID waits for the page a create sends the browser to and returns
// the new event's id.
func (p *tab) createdID() int64 {
	p.t.Helper()
	p.waitFor("the new event's page", `/^\/events\/\d+$/.test(location.pathname) && document.querySelector('#detail')`)
	var id int64
	if _, err := fmt.Sscanf(p.path(), "/events/%d", &id); err != nil {
		p.t.Fatalf("the page after a create is %q", p.path())
	}
	return id
}

func (p *tab) value(sel string) string {
	return eval[string](p, `document.querySelector(`+jsString(sel)+`)?.value ?? '(none)'`)
}

// ---- point 5: forms ----

// The form starts at its first field; "#집" typed as the tag is stored as
// 집; the new event's page offers "New event", which opens a form of the
// same kind, its title focused.
func testFirstFieldAndTag(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	for _, kind := range []string{"task", "calendar_event", "activity_log"} {
		p.newFormOf(kind)
		p.waitFor(kind+": the title focused", `document.activeElement?.id === 'f-title'`)
	}
	p.newFormOf("task")
	p.waitFor("the title focused", `document.activeElement?.id === 'f-title'`)
	p.keys("장보기")
	p.click("#f-project_tag")
	p.keys("#집")
	p.click(`#new-form [type="submit"]`)
	id := p.createdID()
	e := getEvent(t, s.base, id)
	if e.ProjectTag == nil || *e.ProjectTag != "집" {
		t.Errorf("the tag typed #집 is stored as %v; want 집", e.ProjectTag)
	}
	if got := eval[string](p, `document.querySelector('#detail a.tag')?.textContent ?? ''`); got != "#집" {
		t.Errorf("the detail shows the tag as %q; want #집", got)
	}
	p.click("#detail a.new-event")
	p.waitFor("a new task's form, its title focused", `document.querySelector('#new-form')?.dataset.kind === 'task' && document.activeElement?.id === 'f-title'`)
	if got := eval[string](p, `document.querySelector('.kind-choice a[aria-current="true"]')?.dataset.kind ?? ''`); got != "task" {
		t.Errorf("the kind chooser marks %q; want task, the kind last created", got)
	}
}

// A calendar entry's end starts an hour after its start and moves with
// it, until the person edits the end.
func testCalendarEnd(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.newFormOf("calendar_event")
	p.setValue("#f-start_at", "2026-12-03 14:00")
	if got := p.value("#f-end_at"); got != "2026-12-03 15:00" {
		t.Errorf("after a start of 14:00 the end is %q; want 2026-12-03 15:00", got)
	}
	p.setValue("#f-start_at", "2026-12-03 23:30")
	if got := p.value("#f-end_at"); got != "2026-12-04 00:30" {
		t.Errorf("after the start moved to 23:30 the end is %q; want 2026-12-04 00:30", got)
	}
	if got := eval[string](p, `document.querySelector('#f-end_at').parentNode.querySelector('.as-read')?.textContent ?? ''`); got != "Fri 4 Dec, 00:30" {
		t.Errorf("the end reads %q under its field; want Fri 4 Dec, 00:30", got)
	}
	// The person types an end of their own: it stays put.
	p.click("#f-end_at")
	p.do("select the end", chromedp.Evaluate[chromedp.Void](`document.querySelector('#f-end_at').select()`))
	p.keys("2026-12-04 01:00")
	edited := p.value("#f-end_at")
	if edited != "2026-12-04 01:00" {
		t.Fatalf("the end typed reads %q", edited)
	}
	p.setValue("#f-start_at", "2026-12-03 09:00")
	if got := p.value("#f-end_at"); got != edited {
		t.Errorf("after the person edited the end, a new start moved it to %q; want %q", got, edited)
	}
}

// All day turns both times into dates; the end typed is the last day,
// stored as the midnight after it and shown again as that day.
func testAllDayDates(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.newFormOf("calendar_event")
	p.keys("Offsite")
	p.setValue("#f-start_at", "2026-11-27T10:00")
	p.click("#f-all_day")
	if got := eval[[]string](p, `['#f-start_at', '#f-end_at'].map(s => document.querySelector(s).type + ' ' + document.querySelector(s).value)`); !slices.Equal(got, []string{"date 2026-11-27", "date 2026-11-27"}) {
		t.Errorf("after All day the fields are %q; want two dates, 2026-11-27", got)
	}
	p.setValue("#f-start_at", "2026-11-28")
	if got := p.value("#f-end_at"); got != "2026-11-28" {
		t.Errorf("an all-day end after the start moved is %q; want 2026-11-28 (it keeps its length)", got)
	}
	p.setValue("#f-start_at", "2026-11-27")
	p.setValue("#f-end_at", "2026-11-29")
	p.click(`#new-form [type="submit"]`)
	id := p.createdID()
	e := getEvent(t, s.base, id)
	loc := seoul(t)
	if !e.AllDay || !e.StartAt.Equal(time.Date(2026, 11, 27, 0, 0, 0, 0, loc)) || !e.EndAt.Equal(time.Date(2026, 11, 30, 0, 0, 0, 0, loc)) {
		t.Errorf("stored %v..%v all_day %v; want 27 Nov 00:00 to 30 Nov 00:00 in Seoul, all day", e.StartAt, e.EndAt, e.AllDay)
	}
	if got := p.value("#f-end_at"); got != "2026-11-29" {
		t.Errorf("the detail's end is %q; want 2026-11-29, the last day", got)
	}
	if got := eval[string](p, `document.querySelector('#f-end_at').parentNode.querySelector('.as-read')?.textContent ?? ''`); got != "Sun 29 Nov" {
		t.Errorf("the detail's end reads %q; want Sun 29 Nov", got)
	}
	if text := eval[string](p, `document.querySelector('#detail').innerText`); strings.Contains(text, "30 Nov") || strings.Contains(text, "00:00") {
		t.Errorf("the detail shows the exclusive end:\n%s", text)
	}
	p.screenshot("detail-allday-desktop.png", 1280, false)
	p.screenshot("detail-allday-phone.png", 390, true)
	// Saving it unchanged writes no reschedule.
	p.click("#save")
	p.waitFor("saved", `document.querySelector('#detail .form-message')`)
	if h := history(t, s.base, id); len(h) != 1 {
		t.Errorf("an unchanged save of the all-day entry wrote %q", h)
	}
}

// A task can be due on a day without a clock time.
func testDueDayOnly(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.newFormOf("task")
	p.keys("Pay rent")
	p.setValue("#f-due_at", "2026-12-04T10:00")
	p.click("#f-due_at-day")
	if got := eval[string](p, `document.querySelector('#f-due_at').type + ' ' + document.querySelector('#f-due_at').value`); got != "date 2026-12-04" {
		t.Errorf("after No clock time the due field is %q; want date 2026-12-04", got)
	}
	p.click(`#new-form [type="submit"]`)
	id := p.createdID()
	e := getEvent(t, s.base, id)
	if want := time.Date(2026, 12, 4, 23, 59, 59, 999999000, seoul(t)); e.DueAt == nil || !e.DueAt.Equal(want) {
		t.Errorf("a day-only due is stored as %v; want %v (the day's last microsecond)", e.DueAt, want)
	}
	if got := eval[string](p, `document.querySelector('#f-due_at').type + ' ' + document.querySelector('#f-due_at').value + ' ' + document.querySelector('#f-due_at-day').checked`); got != "date 2026-12-04 true" {
		t.Errorf("the detail's due field is %q; want a date, No clock time ticked", got)
	}
	// Back to a clock time.
	p.click("#f-due_at-day")
	if got := eval[string](p, `document.querySelector('#f-due_at').type + ' ' + document.querySelector('#f-due_at').value`); got != "text 2026-12-04 09:00" {
		t.Errorf("No clock time unticked gives %q; want the 24-hour field, 2026-12-04 09:00", got)
	}
}

// The new-event form of each kind, at desktop and phone width.
func testFormScreenshots(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	shoot := func(name string) {
		p.screenshot("new-"+name+"-desktop.png", 1280, false)
		p.screenshot("new-"+name+"-phone.png", 390, true)
		if w := eval[int](p, `document.documentElement.scrollWidth`); w > 1280 {
			t.Errorf("%s: the page is %d px wide", name, w)
		}
	}
	p.newFormOf("task")
	shoot("task")
	p.newFormOf("calendar_event")
	p.setValue("#f-start_at", "2026-12-03 14:00")
	shoot("calendar")
	p.click("#f-all_day")
	shoot("calendar-allday")
	p.newFormOf("activity_log")
	shoot("log")
}

// ---- point 7: defer that moves the plan ----

// A task overdue since yesterday 17:00, deferred to tomorrow 09:00 with
// "and move the due date": due tomorrow 17:00, two history rows, one Undo
// at a time (the move's, then the defer's).
func testDeferMovesDue(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	now := time.Now()
	due := day(now, loc, -1).Add(17 * time.Hour)
	e := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Send the invoice", "due_at": rfc(due)})
	dayOnly := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Water the plants", "due_at": day(now, loc, 1).Add(-time.Microsecond).Format(time.RFC3339Nano)})
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the overdue row", `document.querySelector(`+jsString(row(e.ID))+`)`)
	p.markWindow()
	p.click(row(e.ID) + " details.defer > summary")
	move := row(e.ID) + " .defer-move"
	p.waitFor("the move offered", `(() => { const m = document.querySelector(`+jsString(move)+`); return m && !m.hidden && m.getClientRects().length })()`)
	if got := eval[string](p, `document.querySelector(`+jsString(move)+`).textContent.replace(/\s+/g, ' ').trim()`); !strings.HasPrefix(got, "and move the due date currently due ") {
		t.Errorf("the offer reads %q", got)
	}
	p.screenshot("defer-move-desktop.png", 1280, false)
	p.screenshot("defer-move-phone.png", 390, true)
	p.click(move + " input")
	p.click(row(e.ID) + ` .defer-preset[data-preset="tomorrow"]`)
	note := row(e.ID) + " .undo-note"
	p.waitFor("the note of the move", `document.querySelector(`+jsString(note)+`)?.textContent.includes('due moved to')`)
	tomorrow := day(now, loc, 1)
	got := getEvent(t, s.base, e.ID)
	if want := tomorrow.Add(17 * time.Hour); got.Status != "deferred" || got.DueAt == nil || !got.DueAt.Equal(want) {
		t.Errorf("after the defer and move: %s due %v; want deferred, due %v", got.Status, got.DueAt, want)
	}
	if h := history(t, s.base, e.ID); !slices.Equal(h, []string{"create", "defer", "reschedule"}) {
		t.Errorf("history = %q; want create, defer, reschedule", h)
	}
	undos := func() int {
		return eval[int](p, `[...document.querySelector(`+jsString(row(e.ID))+`).querySelectorAll('button')].filter(b => b.textContent.trim() === 'Undo' && b.getClientRects().length).length`)
	}
	if n := undos(); n != 1 {
		t.Errorf("the row shows %d Undo buttons; want 1", n)
	}
	p.screenshot("defer-moved-desktop.png", 1280, false)
	p.screenshot("defer-moved-phone.png", 390, true)
	p.waitFor("the focus on the move's Undo", `document.activeElement?.matches(`+jsString(note+" button[data-undo]")+`)`)
	// Undo the move: the due is back, still deferred; the next Undo is the defer's.
	p.keys("\r")
	p.waitFor("the move undone", `document.querySelector(`+jsString(note)+`)?.textContent.includes('Due moved back')`)
	if got := getEvent(t, s.base, e.ID); got.Status != "deferred" || !got.DueAt.Equal(due) {
		t.Errorf("after the move's Undo: %s due %v; want deferred, due %v", got.Status, got.DueAt, due)
	}
	if n := undos(); n != 1 {
		t.Errorf("after the move's Undo the row shows %d Undo buttons; want 1", n)
	}
	p.waitFor("the focus on the defer's Undo", `document.activeElement?.matches(`+jsString(note+" button[data-undo]")+`)`)
	p.keys("\r")
	p.waitFor("the defer undone", `document.querySelector(`+jsString(row(e.ID))+`)?.dataset.status === 'planned'`)
	if h := history(t, s.base, e.ID); !slices.Equal(h, []string{"create", "defer", "reschedule", "reschedule", "reactivate"}) {
		t.Errorf("history after both Undo = %q", h)
	}
	// A day without a clock time moves to the day it comes back, still
	// without one; unticked, the due stays.
	p.click(row(dayOnly.ID) + " details.defer > summary")
	p.click(row(dayOnly.ID) + " .defer-move input")
	p.click(row(dayOnly.ID) + ` .defer-preset[data-preset="tomorrow"]`)
	p.waitFor("the day moved", `document.querySelector(`+jsString(row(dayOnly.ID)+" .undo-note")+`)?.textContent.includes('due moved to')`)
	if got, want := getEvent(t, s.base, dayOnly.ID).DueAt, day(now, loc, 2).Add(-time.Microsecond); got == nil || !got.Equal(want) {
		t.Errorf("a day-only due moved to %v; want %v", got, want)
	}
	p.assertNoReload("defer and move")

	// On the detail page: the edit form shows the moved due, the history
	// the two rows, and the status box one Undo.
	late := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Renew the passport", "due_at": rfc(due)})
	p.open(fmt.Sprintf("/events/%d", late.ID))
	p.click("#detail details.defer > summary")
	p.click("#detail .defer-move input")
	p.click(`#detail .defer-preset[data-preset="tomorrow"]`)
	p.waitFor("the detail's note of the move", `document.querySelector('#detail .undo-note')?.textContent.includes('due moved to')`)
	if got, want := p.value("#f-due_at"), tomorrow.Add(17*time.Hour).Format("2006-01-02 15:04"); got != want { // the detail's 24-hour field
		t.Errorf("the detail's Due after the move reads %q; want %q", got, want)
	}
	if n := undoCount(p, "#detail"); n != 1 {
		t.Errorf("the detail shows %d Undo buttons; want 1", n)
	}
	p.waitFor("the history's two rows", `document.querySelectorAll('#history li').length >= 3`)
}

// undoCount is the number of visible buttons reading Undo in sel.
func undoCount(p *tab, sel string) int {
	return eval[int](p, `[...document.querySelector(`+jsString(sel)+`).querySelectorAll('button')].filter(b => b.textContent.trim() === 'Undo' && b.getClientRects().length).length`)
}

// The custom "Until" field shows its whole date and time.
func testUntilFieldWhole(t *testing.T, b *browser) {
	s := startWeb(t)
	e := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Call the landlord"})
	p := b.newTab(t, s.base)
	p.open("/events?tab=inbox")
	for _, c := range []struct {
		width  int64
		mobile bool
	}{{1280, false}, {390, true}} {
		opts := []chromedp.EmulateViewportOption{}
		if c.mobile {
			opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		p.do("viewport", chromedp.EmulateViewport(c.width, 844, opts...))
		p.open("/events?tab=inbox")
		p.waitFor("the row", `document.querySelector(`+jsString(row(e.ID))+`)`)
		p.click(row(e.ID) + " details.defer > summary")
		input := row(e.ID) + " .defer-custom input"
		p.setValue(input, "2026-12-30T23:45")
		// scrollWidth and clientWidth, and (since Chromium reports a
		// datetime-local input's scrollWidth as its clientWidth even when
		// its text is cut) the width the same input takes sized to its
		// content (field-sizing: content) against the width it has.
		sizes := eval[[]int](p, `(() => {
			const i = document.querySelector(`+jsString(input)+`), c = i.cloneNode();
			c.removeAttribute('id'); c.value = i.value;
			Object.assign(c.style, {fieldSizing: 'content', width: 'auto', minWidth: '0', maxWidth: 'none', flex: 'none', position: 'absolute', visibility: 'hidden'});
			i.parentNode.appendChild(c);
			const need = Math.ceil(c.getBoundingClientRect().width);
			c.remove();
			return [i.scrollWidth, i.clientWidth, need, Math.floor(i.getBoundingClientRect().width)];
		})()`)
		t.Logf("%d px: Until field scrollWidth %d, clientWidth %d; needs %d px, has %d", c.width, sizes[0], sizes[1], sizes[2], sizes[3])
		if sizes[0] > sizes[1] || sizes[2] > sizes[3] {
			t.Errorf("%d px: the Until field's text is cut off: scrollWidth %d > clientWidth %d, or it needs %d px and has %d", c.width, sizes[0], sizes[1], sizes[2], sizes[3])
		}
		r := p.boxOf(input)
		if r.X < 0 || r.X+r.W > float64(c.width) {
			t.Errorf("%d px: the Until field runs off the screen: %+v", c.width, r)
		}
		p.screenshot(fmt.Sprintf("defer-until-%d.png", c.width), c.width, c.mobile)
	}
}

// ---- point 8: the keyboard ----

// Esc leaves a text field, its text kept (a search field would clear it).
func testEscLeavesField(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.open("/events?tab=inbox")
	for _, sel := range []string{"#quick-title", "#site-search-q"} {
		p.click(sel)
		p.press("half a thought")
		p.press(kb.Escape)
		p.waitFor("Esc leaves "+sel, `document.activeElement !== document.querySelector(`+jsString(sel)+`)`)
		if got := p.value(sel); got != "half a thought" {
			t.Errorf("Esc in %s left %q; want the text kept", sel, got)
		}
		// Keys work again at once.
		p.press("?")
		p.waitFor("? after Esc", `document.querySelector('dialog#keys-help')?.open`)
		p.press(kb.Escape)
		p.waitFor("the help closed", `!document.querySelector('dialog#keys-help').open`)
	}
	p.newFormOf("task")
	p.click("#f-desc")
	p.press("first line")
	p.press(kb.Escape)
	p.waitFor("Esc leaves the description", `document.activeElement?.id !== 'f-desc'`)
	if got := p.value("#f-desc"); got != "first line" {
		t.Errorf("Esc in the description left %q", got)
	}
}

// Every shortcut key typed in a field goes into the field.
func testKeysTypeInFields(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.newFormOf("task")
	typed := "s/tjkxdcu?g"
	for _, sel := range []string{"#f-title", "#f-desc", "#f-project_tag", "#site-search-q"} {
		p.click(sel)
		p.press(typed)
		if got := p.value(sel); got != typed {
			t.Errorf("typing %q in %s left %q: a shortcut took a key", typed, sel, got)
		}
		if open := eval[bool](p, `!!document.querySelector('dialog#keys-help[open]')`); open {
			t.Errorf("typing in %s opened the help", sel)
		}
		if got := eval[string](p, `'#' + document.activeElement?.id`); got != sel {
			t.Errorf("typing in %s moved the focus to %s", sel, got)
		}
	}
}

// s focuses the search field, typing nothing.
func testSearchKey(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	for _, path := range []string{"/events?tab=inbox", "/events/new"} {
		p.open(path)
		p.waitFor("the page", `document.querySelector('#site-search-q')`)
		p.press("s")
		p.waitFor(path+": s focuses search", `document.activeElement?.id === 'site-search-q'`)
		if got := p.value("#site-search-q"); got != "" {
			t.Errorf("%s: s typed %q into search", path, got)
		}
	}
	p.press(kb.Escape)
	p.press("?")
	p.waitFor("the help", `document.querySelector('dialog#keys-help')?.open`)
	if listed := eval[string](p, `document.querySelector('#keys-help').textContent`); !strings.Contains(listed, "Focus search") {
		t.Errorf("the help does not list s")
	}
}

// Arrow keys move between the defer menu's choices.
func testDeferMenuArrows(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	e := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Send the invoice", "due_at": rfc(day(time.Now(), loc, -1).Add(17 * time.Hour))})
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the row", `document.querySelector(`+jsString(row(e.ID))+`)`)
	p.focusRowByID(fmt.Sprintf("event-%d", e.ID))
	p.press("d")
	focus := func() string {
		return eval[string](p, `(() => { const a = document.activeElement; return a?.dataset.preset || (a?.matches('[data-defer-move]') ? 'move' : a?.closest('.defer-custom') ? a.tagName.toLowerCase() : a?.tagName.toLowerCase() ?? '') })()`)
	}
	p.waitFor("d: the first preset", `document.activeElement?.matches('.defer-preset')`)
	presets := eval[[]string](p, `[...document.querySelectorAll(`+jsString(row(e.ID)+" .defer-preset")+`)].map(b => b.dataset.preset)`)
	if len(presets) < 2 {
		t.Fatalf("presets: %q", presets)
	}
	keys := map[string]string{kb.ArrowDown: "↓", kb.ArrowUp: "↑", kb.Home: "Home", kb.End: "End"}
	var pressed []string
	for _, c := range []struct{ key, want string }{
		{kb.ArrowDown, presets[1]}, {kb.ArrowUp, presets[0]}, {kb.ArrowUp, "move"},
		{kb.End, "button"}, {kb.Home, "move"}, {kb.ArrowDown, presets[0]}, {kb.End, "button"},
		// the date-and-time field keeps its own arrows
		{kb.ArrowUp, "input"}, {kb.ArrowUp, "input"},
	} {
		p.press(c.key)
		pressed = append(pressed, keys[c.key])
		if got := focus(); got != c.want {
			t.Errorf("after %s the focus is on %q; want %q", strings.Join(pressed, " "), got, c.want)
		}
	}
	p.press(kb.Escape)
	p.waitFor("Esc closes the menu", `!document.querySelector(`+jsString(row(e.ID)+" details.defer")+`).open`)
}

// A tab drawn anew starts with no current row: j goes to its first row.
func testTabSwitchResetsRow(t *testing.T, b *browser) {
	s := startWeb(t)
	now := time.Now()
	var ids []string
	for i, title := range []string{"Alpha", "Bravo", "Charlie"} {
		end := now.Add(time.Duration(i-3) * time.Minute)
		ev := createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": title, "started_at": rfc(end.Add(-30 * time.Second)), "ended_at": rfc(end)})
		ids = append([]string{fmt.Sprintf("event-%d", ev.ID)}, ids...) // newest first on both tabs
	}
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("three rows", `document.querySelectorAll('li.event-row').length === 3`)
	p.press("j")
	p.press("j")
	p.waitFor("j j: the second row", `document.activeElement?.id === `+jsString(ids[1]))
	p.press("ga")
	// the focus back on the new tab: the swap is over. The new rows are in
	// the page a moment before it is (htmx settles them first), and a j
	// then still goes on from the row current before.
	p.waitFor("g a: Activity", tabShown("activity")+` && document.querySelectorAll('li.event-row').length === 3 && document.activeElement?.id === 'tab-activity'`)
	if n := eval[int](p, `document.querySelectorAll('li.event-row[data-current]').length`); n != 0 {
		t.Errorf("after switching tabs %d rows are marked current", n)
	}
	p.press("j")
	p.waitFor("j: the first row of the new tab", `document.activeElement?.closest('li.event-row') !== null`)
	if got := eval[string](p, `document.activeElement.id`); got != ids[0] {
		t.Errorf("j after switching tabs went to %s; want the first row %s", got, ids[0])
	}
}

// The page's foot says "? for shortcuts", and a click on it opens them.
func testFootHint(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	for _, path := range []string{"/events", "/events/new"} {
		p.open(path)
		hint := eval[string](p, `(() => { const h = [...document.querySelectorAll('footer *')].find(e => e.textContent.trim() === '? for shortcuts'); return h && h.getClientRects().length ? h.textContent.trim() : '' })()`)
		if hint != "? for shortcuts" {
			t.Errorf("%s: no visible \"? for shortcuts\" in the page's foot", path)
		}
	}
	p.click("footer [data-keys-help]")
	p.waitFor("the help opened from the foot", `document.querySelector('dialog#keys-help')?.open`)
	p.keys(kb.Escape)
}

// A row, or the detail, shows one Undo after Complete, Cancel or Defer.
func testOneUndo(t *testing.T, b *browser) {
	s := startWeb(t)
	e := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Call the landlord"})
	p := b.newTab(t, s.base)
	undos := func(sel string) int {
		return eval[int](p, `[...document.querySelector(`+jsString(sel)+`).querySelectorAll('button')].filter(b => b.textContent.trim() === 'Undo' && b.getClientRects().length).length`)
	}
	p.open("/events?tab=inbox")
	p.waitFor("the row", `document.querySelector(`+jsString(row(e.ID))+`)`)
	for _, c := range []struct{ op, status string }{{"complete", "done"}, {"cancel", "cancelled"}} {
		p.click(row(e.ID) + ` button.op[data-op="` + c.op + `"]`)
		p.waitFor(c.op, `document.querySelector(`+jsString(row(e.ID)+" .undo-note")+`)`)
		if n := undos(row(e.ID)); n != 1 {
			t.Errorf("after %s the row shows %d Undo buttons; want 1", c.op, n)
		}
		p.keys("\r") // the focused Undo
		p.waitFor(c.op+" undone", `document.querySelector(`+jsString(row(e.ID))+`)?.dataset.status === 'planned'`)
	}
	p.click(row(e.ID) + " details.defer > summary")
	p.click(row(e.ID) + ` .defer-preset[data-preset="tomorrow"]`)
	p.waitFor("deferred", `document.querySelector(`+jsString(row(e.ID)+" .undo-note")+`)`)
	if n := undos(row(e.ID)); n != 1 {
		t.Errorf("after defer the row shows %d Undo buttons; want 1", n)
	}
	p.screenshot("one-undo-desktop.png", 1280, false)
	// A list drawn anew: the reactivate button is the one Undo.
	p.open("/events?tab=upcoming")
	p.waitFor("the deferred row", `document.querySelector(`+jsString(row(e.ID))+`)`)
	if n := undos(row(e.ID)); n != 1 {
		t.Errorf("a deferred row drawn anew shows %d Undo buttons; want 1", n)
	}
	p.open(fmt.Sprintf("/events/%d", e.ID))
	p.click(`#detail button.op[data-op="complete"]`)
	p.waitFor("the detail's undo note", `document.querySelector('#detail .undo-note')`)
	if n := undos("#detail"); n != 1 {
		t.Errorf("the detail shows %d Undo buttons; want 1", n)
	}
}

// x on a calendar entry still ahead completes it without a question, its
// Undo focused.
func testCompleteAheadEntry(t *testing.T, b *browser) {
	s := startWeb(t)
	start := time.Now().Add(26 * time.Hour).Truncate(time.Minute)
	e := createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "Dentist", "start_at": rfc(start), "end_at": rfc(start.Add(time.Hour))})
	p := b.newTab(t, s.base)
	p.open("/events?tab=upcoming")
	p.waitFor("the entry", `document.querySelector(`+jsString(row(e.ID))+`)`)
	p.markWindow()
	p.focusRowByID(fmt.Sprintf("event-%d", e.ID))
	p.press("x")
	p.waitFor("x: done, its Undo focused", `document.querySelector(`+jsString(row(e.ID))+`)?.dataset.status === 'done' && document.activeElement?.matches(`+jsString(row(e.ID)+" [data-undo]")+`)`)
	if open := eval[bool](p, `!!document.querySelector('dialog[open]')`); open {
		t.Errorf("x on an entry ahead opened a dialog")
	}
	p.assertNoReload("x on an entry ahead")
}
