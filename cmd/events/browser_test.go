// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// Tests in a real browser: Debian's Chromium, headless, driven by chromedp,
// against the real binary on a real PostgreSQL. One browser serves every
// subtest of TestBrowser; each subtest has its own tab, its own server and
// its own database, and fails on any console error of its tab. Run them
// alone with
//
//	go test -run TestBrowser ./cmd/events
//
// Screenshots go to $EVENTS_SCREENSHOTS (default: events-screenshots in the
// temporary directory).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"events/models"
)

func TestBrowser(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"QuickRecord", testQuickRecord},
		{"Lifecycle", testLifecycle},
		{"Defer", testDefer},
		{"EditForm", testEditForm},
		{"NewForms", testNewForms},
		{"Tabs", testTabs},
		{"Keyboard", testKeyboard},
		{"WithoutJavaScript", testWithoutJavaScript},
		{"MissingEvent", testMissingEvent},
		{"ServerUnreachable", testServerUnreachable},
		{"Accessibility", testAccessibility},
		{"Screenshots", testScreenshots},
		{"Review", testReview},
		{"WithAuthentication", testWithAuthentication},
	})
}

// day is the local midnight of tm's day in loc, plus days.
func day(tm time.Time, loc *time.Location, days int) time.Time {
	tm = tm.In(loc)
	return time.Date(tm.Year(), tm.Month(), tm.Day()+days, 0, 0, 0, 0, loc)
}

// local is the datetime-local value of tm in loc.
func local(tm time.Time, loc *time.Location) string { return tm.In(loc).Format("2006-01-02T15:04") }

// local24 is tm as the detail page's 24-hour time fields show it, in loc.
func local24(tm time.Time, loc *time.Location) string { return tm.In(loc).Format("2006-01-02 15:04") }

// rowTitles is the titles of the rows in #list, top to bottom.
func (p *tab) rowTitles() []string {
	return eval[[]string](p, `[...document.querySelectorAll('#list li.event-row')].map(li => li.querySelector('a.title')?.textContent.trim() ?? '(no a.title)')`)
}

func row(id int64) string { return fmt.Sprintf("#event-%d", id) }

// ---- quick record ----

func testQuickRecord(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the Today tab", tabShown("today"))

	// An empty tab says so in words.
	if text := eval[string](p, `(() => { const e = document.querySelector('#list .empty'); return e && e.getClientRects().length ? e.textContent.trim() : '' })()`); text == "" {
		t.Errorf("the empty Today tab shows no visible li.empty sentence in #list")
	}

	p.click("#quick-title")
	p.waitFor("the quick-record input to have the focus", `document.activeElement?.id === 'quick-title'`)
	p.markWindow()
	mark := p.requestCount()
	lines := []string{"Fed the cat", "Fixed the bike", `Read <b>"Dune"</b> & slept`}
	for i, line := range lines {
		// Keys go to whatever has the focus: the input must still have it.
		p.keys(line + "\r")
		p.waitFor(fmt.Sprintf("record %q at the top of #list", line), fmt.Sprintf(
			`document.querySelectorAll('#list li.event-row').length === %d && document.querySelector('#list li.event-row a.title')?.textContent.trim() === %s`,
			i+1, jsString(line)))
		p.waitFor("the input cleared and focused after a record",
			`document.activeElement?.id === 'quick-title' && document.querySelector('#quick-title').value === ''`)
	}
	want := []string{lines[2], lines[1], lines[0]}
	if got := p.rowTitles(); !slices.Equal(got, want) {
		t.Errorf("rows after three records: %q, want newest on top %q", got, want)
	}
	if kinds := eval[[]string](p, `[...document.querySelectorAll('#list li.event-row')].map(li => li.dataset.kind + '/' + li.dataset.status)`); !slices.Equal(kinds, []string{"activity_log/done", "activity_log/done", "activity_log/done"}) {
		t.Errorf("the records' data-kind/data-status: %q", kinds)
	}
	if n := eval[int](p, `document.querySelector('#list li.event-row a.title').querySelectorAll('b').length`); n != 0 {
		t.Errorf("the typed <b> became markup in the row title: the text is not escaped")
	}
	if visible := eval[bool](p, `(() => { const e = document.querySelector('#list .empty'); return !!e && e.getClientRects().length > 0 })()`); visible {
		t.Errorf("the empty-tab sentence is still visible after rows were inserted")
	}
	if got := apiPaths(p.requestsSince(mark)); !slices.Equal(got, []string{"POST /api/events", "POST /api/events", "POST /api/events"}) {
		t.Errorf("requests while recording three lines: %q, want only the three POSTs (no list refetch)", got)
	}
	p.assertNoReload("a quick record")

	// An empty line, and a line of spaces, send nothing. The record typed
	// after them is the marker: requests go out in order, so anything sent
	// for the empty lines would be listed before its POST.
	mark = p.requestCount()
	p.keys("\r")
	p.keys("   \r")
	p.setValue("#quick-title", "") // in case the spaces stayed
	p.keys("Walked home\r")
	p.waitFor("the record after the empty lines", `document.querySelector('#list li.event-row a.title')?.textContent.trim() === 'Walked home'`)
	if got := apiPaths(p.requestsSince(mark)); !slices.Equal(got, []string{"POST /api/events"}) {
		t.Errorf("requests for an empty line, a line of spaces and one record: %q, want one POST", got)
	}
	if n := len(p.rowIDs()); n != 4 {
		t.Errorf("%d rows after the empty lines and a fourth record, want 4", n)
	}

	// A title over the limit (500 characters): an error next to the input,
	// the text kept, no row.
	p.allow(422)
	long := strings.Repeat("x", 501)
	p.setValue("#quick-title", long)
	p.waitFor("the focus still in the input", `document.activeElement?.id === 'quick-title'`)
	p.keys("\r")
	p.waitFor("an error in #quick-error", `document.querySelector('#quick-error')?.textContent.trim() !== '' && document.querySelector('#quick-error').getClientRects().length > 0`)
	t.Logf("the error shown for a 501-character title: %q", eval[string](p, `document.querySelector('#quick-error').textContent.trim().replace(/\s+/g, ' ')`))
	if got := eval[string](p, `document.querySelector('#quick-title').value`); got != long {
		t.Errorf("after the error the input holds %d characters, want the typed 501", len(got))
	}
	if n := len(p.rowIDs()); n != 4 {
		t.Errorf("%d rows after a refused record, want still 4", n)
	}
	if n := len(listAll(t, s.base)); n != 4 {
		t.Errorf("%d events stored after a refused record, want 4", n)
	}

	// The next good record clears the error.
	p.setValue("#quick-title", "")
	p.keys("Made tea\r")
	p.waitFor("the record after the error", `document.querySelector('#list li.event-row a.title')?.textContent.trim() === 'Made tea'`)
	p.waitFor("the error cleared after a good record", `document.querySelector('#quick-error').textContent.trim() === ''`)
}

// apiPaths keeps the requests to the service's API and pages, leaving out
// the browser's own favicon request and the names a line suggests while
// a #project or @label is typed (browser_names_test.go).
func apiPaths(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		if strings.HasSuffix(r, "/favicon.ico") || strings.HasPrefix(r, "GET /api/events/names?") {
			continue
		}
		out = append(out, r)
	}
	return out
}

// ---- lifecycle buttons ----

func testLifecycle(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	today := day(time.Now(), loc, 0)
	alpha := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Alpha", "due_at": rfc(today.Add(20 * time.Hour))})
	bravo := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Bravo", "due_at": rfc(today.Add(21 * time.Hour)), "priority": 2, "project_tag": "home"})
	// Charlie runs past midnight, so it has not ended whatever the hour of
	// the run (an entry that has ended offers no Complete).
	charlie := createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "Charlie", "start_at": rfc(today.Add(22 * time.Hour)), "end_at": rfc(today.Add(26 * time.Hour))})
	logged := createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Logged"})

	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the four rows", fmt.Sprintf(`[%q, %q, %q, %q].every(s => document.querySelector(s))`, row(alpha.ID), row(bravo.ID), row(charlie.ID), row(logged.ID)))

	// Kinds, and the buttons each state allows.
	for _, c := range []struct {
		e        apiEvent
		kind     string
		ops      []string
		hasDefer bool
	}{
		{bravo, "task", []string{"cancel", "complete"}, true},
		{charlie, "calendar_event", []string{"cancel", "complete"}, true},
		{logged, "activity_log", nil, false},
	} {
		sel := row(c.e.ID)
		if got := eval[string](p, `document.querySelector(`+jsString(sel)+`).dataset.kind`); got != c.kind {
			t.Errorf("%s data-kind=%q, want %q", sel, got, c.kind)
		}
		ops := eval[[]string](p, `[...document.querySelectorAll(`+jsString(sel+" button.op")+`)].map(b => b.dataset.op).sort()`)
		if !slices.Equal(ops, c.ops) {
			t.Errorf("%s (%s, %s) has lifecycle buttons %q, want %q", sel, c.kind, c.e.Status, ops, c.ops)
		}
		if got := eval[bool](p, `!!document.querySelector(`+jsString(sel+" details.defer")+`)`); got != c.hasDefer {
			t.Errorf("%s (%s) has details.defer: %v, want %v", sel, c.kind, got, c.hasDefer)
		}
	}

	// A click swaps exactly its row, in place.
	before := p.rowIDs()
	eval[bool](p, `[...document.querySelectorAll('#list li.event-row')].forEach(li => li.__mark = li.id) || true`)
	p.markWindow()
	p.click(row(bravo.ID) + ` button.op[data-op="complete"]`)
	p.waitFor("Bravo's row to show done", `document.querySelector(`+jsString(row(bravo.ID))+`)?.dataset.status === 'done'`)
	if after := p.rowIDs(); !slices.Equal(after, before) {
		t.Errorf("rows after the click: %q, want the same order %q", after, before)
	}
	kept := eval[[]string](p, `[...document.querySelectorAll('#list li.event-row')].filter(li => li.__mark === li.id).map(li => li.id)`)
	var wantKept []string
	for _, id := range before {
		if id != strings.TrimPrefix(row(bravo.ID), "#") {
			wantKept = append(wantKept, id)
		}
	}
	if !slices.Equal(kept, wantKept) {
		t.Errorf("rows whose DOM node survived the click: %q, want every row but Bravo's: %q", kept, wantKept)
	}
	if text := eval[string](p, `document.querySelector(`+jsString(row(bravo.ID)+" .status")+`)?.textContent ?? ''`); !strings.Contains(text, "done") {
		t.Errorf("Bravo's .status reads %q after complete, want done", text)
	}
	// Its one Undo is the answer's note (issue 47): the reactivate slot is
	// empty beside it.
	if ops := eval[[]string](p, `[...document.querySelectorAll(`+jsString(row(bravo.ID)+" button.op, "+row(bravo.ID)+" button[data-undo]")+`)].map(b => b.dataset.op ?? 'undo').sort()`); !slices.Equal(ops, []string{"cancel", "undo"}) {
		t.Errorf("Bravo's buttons after complete: %q, want cancel and the note's Undo", ops)
	}
	p.assertNoReload("a lifecycle click")
	if e := getEvent(t, s.base, bravo.ID); e.Status != "done" {
		t.Errorf("Bravo through the API: %s, want done", e.Status)
	}

	// The event changed elsewhere: the row's If-Match is stale, so a click
	// answers 412 with the current row and a message (issue 12).
	operate(t, s.base, alpha.ID, "complete", nil)
	p.allow(412)
	p.click(row(alpha.ID) + ` button.op[data-op="complete"]`)
	p.waitFor("Alpha's row with a message after the 412", `document.querySelector(`+jsString(row(alpha.ID)+" .message")+`)?.textContent.includes('changed elsewhere')`)
	if st := eval[string](p, `document.querySelector(`+jsString(row(alpha.ID))+`).dataset.status`); st != "done" {
		t.Errorf("Alpha's row after the 412 shows %q, want the current status done", st)
	}
	if after := p.rowIDs(); !slices.Equal(after, before) {
		t.Errorf("rows after the 412: %q, want %q", after, before)
	}

	// The detail page's history shows the step; a click there adds the next
	// one without a reload.
	p.open(fmt.Sprintf("/events/%d", bravo.ID))
	p.waitFor("complete in the history", `document.querySelector('#history li[data-change="complete"]')`)
	if got := eval[string](p, `document.querySelector('dd#status')?.textContent.trim() ?? '(no dd#status)'`); !strings.Contains(got, "done") {
		t.Errorf("dd#status: %q, want done", got)
	}
	if got := eval[string](p, `document.querySelector('dd#completed_at')?.textContent.trim() ?? ''`); got == "" {
		t.Errorf("dd#completed_at is empty for a completed task")
	}
	p.markWindow()
	p.click(`button.op[data-op="reactivate"]`)
	p.waitFor("reactivate in the history", `document.querySelector('#history li[data-change="reactivate"]')`)
	p.waitFor("the status back to planned on the detail page", `document.querySelector('dd#status')?.textContent.includes('planned')`)
	p.assertNoReload("a lifecycle click on the detail page")
	if got := history(t, s.base, bravo.ID); !slices.Equal(got, []string{"create", "complete", "reactivate"}) {
		t.Errorf("Bravo's history through the API: %q", got)
	}
}

// ---- defer ----

// tomorrow9 is 09:00 of the next day in loc.
func tomorrow9(now time.Time, loc *time.Location) time.Time {
	return day(now, loc, 1).Add(9 * time.Hour)
}

// monday9 is 09:00 of the next Monday in loc, a week ahead on a Monday.
func monday9(now time.Time, loc *time.Location) time.Time {
	days := (int(time.Monday) - int(now.In(loc).Weekday()) + 7) % 7
	if days == 0 {
		days = 7
	}
	return day(now, loc, days).Add(9 * time.Hour)
}

func testDefer(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	due := rfc(day(time.Now(), loc, 0).Add(12 * time.Hour))
	ids := map[string]int64{}
	for _, name := range []string{"3h", "tomorrow", "monday", "custom"} {
		ids[name] = createEvent(t, s.base, map[string]any{"kind": "task", "title": "Defer " + name, "due_at": due}).ID
	}
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the rows", fmt.Sprintf(`document.querySelectorAll('#list li.event-row').length === %d`, len(ids)))
	order := p.rowIDs()

	deferRow := func(name string) (before, after time.Time, e apiEvent) {
		t.Helper()
		sel := row(ids[name])
		p.click(sel + " details.defer > summary")
		before = time.Now()
		p.click(sel + ` button.defer-preset[data-preset="` + name + `"]`)
		p.waitFor(name+": the row deferred", `document.querySelector(`+jsString(sel)+`)?.dataset.status === 'deferred'`)
		after = time.Now()
		e = getEvent(t, s.base, ids[name])
		if e.Status != "deferred" || e.DeferUntil == nil {
			t.Fatalf("%s: through the API %s, defer_until %v", name, e.Status, e.DeferUntil)
		}
		return before, after, e
	}

	// In 3 hours: between click and check, allowing a form's minute.
	before, after, e := deferRow("3h")
	lo, hi := before.Add(3*time.Hour-time.Minute), after.Add(3*time.Hour+time.Minute)
	if e.DeferUntil.Before(lo) || e.DeferUntil.After(hi) {
		t.Errorf("3h: defer_until %s, want between %s and %s", e.DeferUntil.In(loc), lo.In(loc), hi.In(loc))
	}
	// Tomorrow 09:00 and next Monday 09:00 in the page's zone (the browser
	// runs in another one); a midnight between click and check allows both days.
	before, after, e = deferRow("tomorrow")
	if w1, w2 := tomorrow9(before, loc), tomorrow9(after, loc); !e.DeferUntil.Equal(w1) && !e.DeferUntil.Equal(w2) {
		t.Errorf("tomorrow: defer_until %s, want %s", e.DeferUntil.In(loc), w1)
	}
	before, after, e = deferRow("monday")
	if w1, w2 := monday9(before, loc), monday9(after, loc); !e.DeferUntil.Equal(w1) && !e.DeferUntil.Equal(w2) {
		t.Errorf("monday: defer_until %s, want %s", e.DeferUntil.In(loc), w1)
	}

	// A custom date-time, read in the page's zone.
	sel := row(ids["custom"])
	p.click(sel + " details.defer > summary")
	p.setValue(sel+` form.defer-custom input[name="defer_until"][type="datetime-local"]`, "2030-01-05T09:00")
	p.click(sel + ` form.defer-custom button`)
	p.waitFor("custom: the row deferred", `document.querySelector(`+jsString(sel)+`)?.dataset.status === 'deferred'`)
	if e := getEvent(t, s.base, ids["custom"]); e.DeferUntil == nil || !e.DeferUntil.Equal(time.Date(2030, 1, 5, 9, 0, 0, 0, loc)) {
		t.Errorf("custom: defer_until %v, want 2030-01-05 09:00 %s", e.DeferUntil, zone)
	}

	if got := p.rowIDs(); !slices.Equal(got, order) {
		t.Errorf("rows after the defers: %q, want them in place: %q", got, order)
	}

	// Reactivate undoes the defer (the answer's note holds the row's one
	// Undo).
	sel = row(ids["3h"])
	p.click(sel + ` .undo-note button[data-undo]`)
	p.waitFor("3h: the row planned again", `document.querySelector(`+jsString(sel)+`)?.dataset.status === 'planned'`)
	if e := getEvent(t, s.base, ids["3h"]); e.Status != "planned" || e.DeferUntil != nil {
		t.Errorf("after reactivate: %s, defer_until %v; want planned and null", e.Status, e.DeferUntil)
	}
	if got := history(t, s.base, ids["3h"]); !slices.Equal(got, []string{"create", "defer", "reactivate"}) {
		t.Errorf("history after defer and reactivate: %q", got)
	}
}

// ---- the edit form ----

func testEditForm(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	tomorrow := day(time.Now(), loc, 1)
	cal := createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "Planning",
		"start_at": rfc(tomorrow.Add(10 * time.Hour)), "end_at": rfc(tomorrow.Add(11 * time.Hour))})
	task := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Report",
		"due_at": rfc(tomorrow.Add(18 * time.Hour)), "priority": 1, "project_tag": "work"})
	p := b.newTab(t, s.base)

	// A bad value (the end before the start): its error in place, every typed
	// value kept, nothing stored.
	p.open(fmt.Sprintf("/events/%d", cal.ID))
	p.waitFor("the edit form", `document.querySelector('#edit-form')`)
	if got := eval[string](p, `document.querySelector('#edit-form [name="start_at"]')?.value ?? ''`); got != local24(tomorrow.Add(10*time.Hour), loc) {
		t.Errorf("start_at shows %q, want %q (the page's zone, %s)", got, local24(tomorrow.Add(10*time.Hour), loc), zone)
	}
	p.markWindow()
	typedTitle := `Planning <i>v2</i>`
	typedEnd := local24(tomorrow.Add(9*time.Hour), loc)
	p.setValue(`#edit-form [name="title"]`, typedTitle)
	p.setValue(`#edit-form [name="end_at"]`, typedEnd)
	p.allow(422)
	p.click("button#save")
	p.waitFor("the end_at error", `document.querySelector('.field-error[data-field="end_at"]')?.textContent.trim()`)
	t.Logf("the error shown for an end before the start: %q", eval[string](p, `document.querySelector('.field-error[data-field="end_at"]').textContent.trim()`))
	if got := eval[string](p, `document.querySelector('#edit-form [name="title"]').value`); got != typedTitle {
		t.Errorf("title after the 422: %q, want the typed %q", got, typedTitle)
	}
	if got := eval[string](p, `document.querySelector('#edit-form [name="end_at"]').value`); got != typedEnd {
		t.Errorf("end_at after the 422: %q, want the typed %q", got, typedEnd)
	}
	if others := eval[[]string](p, `[...document.querySelectorAll('.field-error')].map(e => e.dataset.field).filter(f => f !== 'end_at')`); len(others) > 0 {
		t.Errorf("errors on fields that are fine: %q", others)
	}
	p.assertNoReload("a refused save")
	if e := getEvent(t, s.base, cal.ID); e.Title != "Planning" || !e.EndAt.Equal(tomorrow.Add(11*time.Hour)) {
		t.Errorf("after a refused save the event is %q ending %v", e.Title, e.EndAt)
	}
	if got := history(t, s.base, cal.ID); !slices.Equal(got, []string{"create"}) {
		t.Errorf("history after a refused save: %q", got)
	}

	// A time change saved: a reschedule in the history, without a reload.
	p.open(fmt.Sprintf("/events/%d", task.ID))
	p.waitFor("the edit form", `document.querySelector('#edit-form [name="due_at"]')`)
	if got := eval[string](p, `document.querySelector('#edit-form [name="due_at"]').value`); got != local24(tomorrow.Add(18*time.Hour), loc) {
		t.Errorf("due_at shows %q, want %q (the page's zone)", got, local24(tomorrow.Add(18*time.Hour), loc))
	}
	p.markWindow()
	newDue := tomorrow.Add(24*time.Hour + 18*time.Hour + 30*time.Minute)
	p.setValue(`#edit-form [name="due_at"]`, local24(newDue, loc))
	p.click("button#save")
	p.waitFor("the saved message", `document.querySelector('.form-message')?.textContent.trim()`)
	p.waitFor("reschedule in the history", `document.querySelectorAll('#history li[data-change="reschedule"]').length === 1`)
	p.assertNoReload("a save")
	if e := getEvent(t, s.base, task.ID); e.DueAt == nil || !e.DueAt.Equal(newDue) {
		t.Errorf("due_at after the save: %v, want %s", e.DueAt, newDue)
	}

	// Saving the unchanged form writes no reschedule.
	eval[bool](p, `document.querySelectorAll('.form-message').forEach(m => m.__seen = true) || true`)
	p.click("button#save")
	p.waitFor("a new saved message", `[...document.querySelectorAll('.form-message')].some(m => !m.__seen && m.textContent.trim())`)
	if got := history(t, s.base, task.ID); !slices.Equal(got, []string{"create", "reschedule"}) {
		t.Errorf("history after saving the unchanged form: %q, want create and one reschedule", got)
	}
	if n := eval[int](p, `document.querySelectorAll('#history li[data-change="reschedule"]').length`); n != 1 {
		t.Errorf("the page's history shows %d reschedules, want 1", n)
	}
	if e := getEvent(t, s.base, task.ID); e.Title != "Report" || e.Priority != 1 || e.ProjectTag == nil || *e.ProjectTag != "work" {
		t.Errorf("after two saves: %q, priority %d, tag %v", e.Title, e.Priority, e.ProjectTag)
	}
}

// ---- /events/new ----

type formField struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Labelled bool   `json:"labelled"`
}

func testNewForms(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	p := b.newTab(t, s.base)
	// each kind's form as the field table gives it: the inputs' names and
	// the type of each in the page
	want := map[string][]string{}
	wantType := map[string]string{}
	// the table's form type, where the page's differs: a time is a text
	// field of 24-hour times (handlers/edittimes.go)
	domType := map[string]string{"priority": "select-one", "datetime-local": "text"}
	for _, k := range models.Kinds {
		for _, f := range models.FormFields(k) {
			want[string(k)] = append(want[string(k)], f.Form())
			wantType[f.Form()] = f.FormType
			if dt, ok := domType[f.FormType]; ok {
				wantType[f.Form()] = dt
			}
		}
	}
	for _, k := range models.Kinds {
		kind := string(k)
		p.open("/events/new")
		link := `a[data-kind="` + kind + `"]`
		p.waitFor("the kind chooser", `document.querySelector(`+jsString(link)+`)`)
		if href := eval[string](p, `document.querySelector(`+jsString(link)+`).getAttribute('href')`); href != "/events/new?kind="+kind {
			t.Errorf("%s links to %q", link, href)
		}
		p.click(link)
		p.waitFor(kind+"'s form", `document.querySelector('#new-form')?.dataset.kind === `+jsString(kind))
		fields := eval[[]formField](p, `[...document.querySelector('#new-form').elements]
			.filter(el => el.name && el.type !== 'hidden' && el.type !== 'submit' && el.tagName !== 'BUTTON')
			.map(el => ({name: el.name, type: el.type, labelled: el.labels.length > 0 && [...el.labels].some(l => l.textContent.trim())}))`)
		var names []string
		for _, f := range fields {
			names = append(names, f.Name)
			if !f.Labelled {
				t.Errorf("%s form: %s has no label with text", kind, f.Name)
			}
			if f.Type != wantType[f.Name] {
				t.Errorf("%s form: %s is type %q, want %q", kind, f.Name, f.Type, wantType[f.Name])
			}
		}
		if !sameSet(names, want[kind]) {
			t.Errorf("%s form fields: %q, want %q", kind, names, want[kind])
		}
		if !eval[bool](p, `document.body.textContent.includes(`+jsString(zone)+`)`) {
			t.Errorf("%s form: the page does not state the zone its times are read in (%s)", kind, zone)
		}
	}

	// A calendar entry without a start is refused with a message.
	p.open("/events/new?kind=calendar_event")
	p.waitFor("the calendar form", `document.querySelector('#new-form')?.dataset.kind === 'calendar_event'`)
	p.markWindow()
	p.click(`#new-form [name="title"]`)
	p.keys("Meeting without a start")
	p.allow(422)
	p.click(`#new-form [type="submit"]`)
	p.waitFor("the start_at error", `document.querySelector('.field-error[data-field="start_at"]')?.textContent.trim()`)
	t.Logf("the error shown for a calendar entry without a start: %q", eval[string](p, `document.querySelector('.field-error[data-field="start_at"]').textContent.trim()`))
	if got := eval[string](p, `document.querySelector('#new-form [name="title"]')?.value ?? ''`); got != "Meeting without a start" {
		t.Errorf("title after the refusal: %q, want the typed text", got)
	}
	if n := len(listAll(t, s.base)); n != 0 {
		t.Errorf("%d events stored after a refused create", n)
	}

	// A valid task leads to its detail page.
	p.open("/events/new?kind=task")
	p.waitFor("the task form", `document.querySelector('#new-form')?.dataset.kind === 'task'`)
	due := day(time.Now(), loc, 1).Add(17 * time.Hour)
	p.click(`#new-form [name="title"]`)
	p.keys("Buy <milk> & bread")
	p.setValue(`#new-form [name="due_at"]`, local24(due, loc))
	p.setValue(`#new-form [name="priority"]`, "2")
	p.click(`#new-form [name="project_tag"]`)
	p.keys("home")
	p.click(`#new-form [type="submit"]`)
	p.waitFor("the new task's detail page", `/^\/events\/\d+$/.test(location.pathname) && document.querySelector('#detail')`)
	id, err := strconv.ParseInt(strings.TrimPrefix(p.path(), "/events/"), 10, 64)
	if err != nil {
		t.Fatalf("the detail page's address: %v", err)
	}
	e := getEvent(t, s.base, id)
	if e.Kind != "task" || e.Title != "Buy <milk> & bread" || e.DueAt == nil || !e.DueAt.Equal(due) || e.Priority != 2 || e.ProjectTag == nil || *e.ProjectTag != "home" {
		t.Errorf("the created task: %+v (due %v), want due %s", e, e.DueAt, due)
	}
	if got := eval[string](p, `document.querySelector('#edit-form [name="title"]')?.value ?? ''`); got != "Buy <milk> & bread" {
		t.Errorf("the detail page's title field: %q", got)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// ---- tabs ----

func testTabs(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	now := time.Now()
	today := day(now, loc, 0)
	// One event per tab, each in exactly one.
	overdue := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Overdue task", "due_at": rfc(today.Add(-15 * time.Hour))})
	undated := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Someday task"})
	nextWeek := day(now, loc, 7).Add(10 * time.Hour)
	meeting := createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "Meeting next week",
		"start_at": rfc(nextWeek), "end_at": rfc(nextWeek.Add(time.Hour)), "priority": 2, "project_tag": "work"})
	logged := createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Yesterday's run",
		"started_at": rfc(today.Add(-14 * time.Hour)), "ended_at": rfc(today.Add(-13 * time.Hour))})
	rows := map[string][]string{
		"today":    {"event-" + strconv.FormatInt(overdue.ID, 10)},
		"inbox":    {"event-" + strconv.FormatInt(undated.ID, 10)},
		"upcoming": {"event-" + strconv.FormatInt(meeting.ID, 10)},
		"activity": {"event-" + strconv.FormatInt(logged.ID, 10)},
	}
	tabs := []string{"today", "inbox", "upcoming", "activity"}
	p := b.newTab(t, s.base)
	check := func(tabName string) {
		t.Helper()
		p.waitFor("the "+tabName+" panel", tabShown(tabName))
		if got := p.rowIDs(); !slices.Equal(got, rows[tabName]) {
			t.Errorf("%s tab lists %q, want %q", tabName, got, rows[tabName])
		}
		for _, other := range tabs {
			want := "false"
			if other == tabName {
				want = "true"
			}
			if got := eval[string](p, `document.querySelector('#tab-`+other+`')?.getAttribute('aria-selected') ?? '(no #tab-`+other+`)'`); got != want {
				t.Errorf("on %s, #tab-%s aria-selected=%q, want %q", tabName, other, got, want)
			}
		}
	}

	p.open("/events")
	check("today")
	p.markWindow()
	for _, name := range tabs[1:] {
		p.click("#tab-" + name)
		p.waitFor("the address ?tab="+name, `location.pathname + location.search === '/events?tab=`+name+`'`)
		check(name)
		p.assertNoReload("a tab click")
		if name == "upcoming" {
			checkRowParts(t, p, meeting.ID)
		}
	}

	// Reload keeps the tab; back returns to the one before.
	p.do("reload", chromedp.Reload())
	check("activity")
	eval[bool](p, `history.back() || true`)
	p.waitFor("the address back at ?tab=upcoming", `location.pathname + location.search === '/events?tab=upcoming'`)
	check("upcoming")
	eval[bool](p, `history.back() || true`)
	p.waitFor("the address back at ?tab=inbox", `location.pathname + location.search === '/events?tab=inbox'`)
	check("inbox")
}

// ---- the keyboard alone ----

// tabTo presses Tab until the element matching sel has the focus, checking
// that the focus is visible there.
func (p *tab) tabTo(sel string) {
	p.t.Helper()
	for i := 0; i < 40; i++ {
		if eval[bool](p, `document.activeElement?.matches(`+jsString(sel)+`) ?? false`) {
			style := eval[string](p, `(() => { const s = getComputedStyle(document.activeElement); return s.outlineStyle + ' ' + s.outlineWidth + ' / ' + s.boxShadow })()`)
			if strings.HasPrefix(style, "none") && strings.HasSuffix(style, "/ none") {
				p.t.Errorf("%s has the keyboard focus but shows no outline or shadow (%s)", sel, style)
			}
			return
		}
		p.keys("\t")
	}
	p.t.Fatalf("40 presses of Tab never reached %s; the focus is on %s", sel,
		eval[string](p, `document.activeElement?.outerHTML.slice(0, 200) ?? 'nothing'`))
}

func testKeyboard(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	undated := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Call the landlord"})
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "Due today", "due_at": rfc(day(time.Now(), loc, 0).Add(20 * time.Hour))})
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the Today tab", tabShown("today"))
	p.markWindow()

	// Tab to the tab list (only its selected tab is in the Tab order, the
	// WAI-ARIA tabs pattern) and press the right arrow: the Inbox tab
	// loads, the focus stays on it.
	p.tabTo("#tab-today")
	p.keys(kb.ArrowRight)
	p.waitFor("the inbox tab after the right arrow", tabShown("inbox")+` && location.search === '?tab=inbox'`)
	p.assertNoReload("an arrow key on a tab")
	if got := eval[string](p, `document.activeElement?.id || document.activeElement?.tagName`); got != "tab-inbox" {
		t.Errorf("after the right arrow on the Today tab the focus is on %q, want it kept on #tab-inbox", got)
	}

	// On to the row's Complete button, and Enter.
	sel := row(undated.ID) + ` button.op[data-op="complete"]`
	p.tabTo(sel)
	p.keys("\r")
	p.waitFor("the row completed from the keyboard", `document.querySelector(`+jsString(row(undated.ID))+`)?.dataset.status === 'done'`)
	// The focus goes to the undo the row now offers, not to its title.
	p.waitFor("the focus on the row's Undo after Complete", `document.activeElement?.matches(`+jsString(row(undated.ID)+" .undo-note button[data-undo]")+`)`)
}

// ---- without JavaScript ----

func testWithoutJavaScript(t *testing.T, b *browser) {
	s := startWeb(t)
	undated := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Call the landlord"})
	p := b.newTab(t, s.base)
	p.do("turn JavaScript off", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	}))
	p.open("/events?tab=inbox")
	var href, tabHref string
	p.do("read the rendered page",
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			r, err := chromedp.AttributeValue(chromedp.CSS(row(undated.ID)+" a.title"), "href")(ctx, tg)
			href = r.Value
			if err != nil {
				return err
			}
			r, err = chromedp.AttributeValue(chromedp.CSS("#tab-upcoming"), "href")(ctx, tg)
			tabHref = r.Value
			return err
		}))
	if href != fmt.Sprintf("/events/%d", undated.ID) {
		t.Errorf("without JavaScript the inbox row links to %q", href)
	}
	if tabHref != "/events?tab=upcoming" {
		t.Errorf("without JavaScript the Upcoming tab links to %q", tabHref)
	}
	p.click("#tab-upcoming")
	p.do("the upcoming page", chromedp.WaitReady(chromedp.CSS(`#panel[data-tab="upcoming"]`)))
}

// ---- the server gone ----

// A click while the server cannot be reached says so in #flash instead of
// doing nothing, and a quick record keeps its text.
func testServerUnreachable(t *testing.T, b *browser) {
	s := startWeb(t)
	e := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Call the landlord"})
	p := b.newTab(t, s.base)
	p.open("/events?tab=inbox")
	p.waitFor("the row", `document.querySelector(`+jsString(row(e.ID))+`)`)
	p.mu.Lock()
	p.offline = true
	p.mu.Unlock()
	if err := s.stop(t, syscall.SIGTERM); err != nil {
		t.Fatalf("stopping the server: %v", err)
	}
	p.click(row(e.ID) + ` button.op[data-op="cancel"]`)
	p.waitFor("a message in #flash", `document.querySelector('#flash')?.textContent.trim()`)
	t.Logf("#flash with the server gone: %q", eval[string](p, `document.querySelector('#flash').textContent.trim()`))
	if st := eval[string](p, `document.querySelector(`+jsString(row(e.ID))+`)?.dataset.status ?? ''`); st != "planned" {
		t.Errorf("the row shows %q after a failed click, want it unchanged (planned)", st)
	}
	// #flash already holds the message of the click: the record's must be
	// a new one, else the wait below ends before the record has failed.
	eval[bool](p, `[...document.querySelector('#flash').children].forEach(e => e.__before = true) || true`)
	p.click("#quick-title")
	p.keys("Typed while offline\r")
	// kept: in the line with a message, or waiting to send (offline.js)
	p.waitFor("the typed line kept after a failed record", `document.querySelector('#quick-title').value === 'Typed while offline' && ([...document.querySelector('#flash').children].some(e => !e.__before && e.textContent.trim()) || document.querySelector('#quick-error').textContent.trim()) ||
		Array.from(document.querySelectorAll('li.queued .row-title')).some(e => e.textContent === 'Typed while offline')`)
}

// ---- 404 ----

func testMissingEvent(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.allow(404)
	ctxPath := "/events/987654"
	var status int64
	p.do("open "+ctxPath, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		resp, err := chromedp.NavigateResponse(p.base+ctxPath)(ctx, tg)
		if err != nil {
			return err
		}
		status = resp.Status
		return nil
	}))
	if status != 404 {
		t.Errorf("GET %s: status %d, want 404", ctxPath, status)
	}
	if !eval[bool](p, `!!document.querySelector('main#main') && !!document.querySelector('nav.sidebar a[href="/events"]')`) {
		t.Errorf("the 404 page lacks the site's frame (main#main, the sidebar)\n%s", p.snapshot())
	}
}

// ---- accessibility ----

// seedVariety stores events of every kind and several states, for the audit
// and the screenshots.
func seedVariety(t *testing.T, base string) (task apiEvent) {
	t.Helper()
	loc := seoul(t)
	now := time.Now()
	today := day(now, loc, 0)
	task = createEvent(t, base, map[string]any{"kind": "task", "title": "Pay the rent", "description": "Transfer before noon.\nKeep the receipt.",
		"due_at": rfc(today.Add(23 * time.Hour)), "priority": 3, "project_tag": "home"})
	createEvent(t, base, map[string]any{"kind": "task", "title": "Renew the passport", "due_at": rfc(today.Add(-24 * time.Hour)), "priority": 2, "project_tag": "admin"})
	createEvent(t, base, map[string]any{"kind": "calendar_event", "title": "Dentist", "start_at": rfc(today.Add(15 * time.Hour)), "end_at": rfc(today.Add(16 * time.Hour)), "project_tag": "health"})
	createEvent(t, base, map[string]any{"kind": "calendar_event", "title": "Team offsite (a long title that has to wrap on a phone screen)", "start_at": rfc(today), "all_day": true, "priority": 1})
	running := createEvent(t, base, map[string]any{"kind": "activity_log", "title": "Writing the report", "status": "in_progress", "project_tag": "work"})
	_ = running
	done := createEvent(t, base, map[string]any{"kind": "task", "title": "Water the plants", "due_at": rfc(today.Add(9 * time.Hour))})
	operate(t, base, done.ID, "complete", nil)
	createEvent(t, base, map[string]any{"kind": "activity_log", "title": "Fixed the bike"})
	createEvent(t, base, map[string]any{"kind": "task", "title": "Learn to juggle"})
	// Give the detail page a history.
	operate(t, base, task.ID, "defer", map[string]any{"defer_until": rfc(now.Add(2 * time.Hour))})
	operate(t, base, task.ID, "reactivate", nil)
	apiCall(t, "PATCH", fmt.Sprintf("%s/api/events/%d", base, task.ID), map[string]any{"due_at": rfc(today.Add(22 * time.Hour))}, 200, nil)
	return task
}

func testAccessibility(t *testing.T, b *browser) {
	s := startWeb(t)
	task := seedVariety(t, s.base)
	p := b.newTab(t, s.base)
	for _, path := range []string{"/events", "/events?tab=inbox", fmt.Sprintf("/events/%d", task.ID), "/events/new", "/events/new?kind=calendar_event"} {
		p.open(path)
		p.waitFor(path+" loaded", `document.readyState === 'complete' && document.querySelector('main#main')`)
		p.audit(path)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.favicon404 {
		t.Errorf("the browser's request for /favicon.ico answered 404, a console error on every page load: the pages should declare an icon")
	}
}

// ---- screenshots ----

func testScreenshots(t *testing.T, b *browser) {
	s := startWeb(t)
	task := seedVariety(t, s.base)
	p := b.newTab(t, s.base)
	dir := screenshotDir(t)
	for _, name := range []string{"events", "detail", "new"} {
		for _, size := range []string{"desktop", "phone"} {
			os.Remove(filepath.Join(dir, name+"-"+size+".png")) // no stale picture if this run fails
		}
	}
	for _, pg := range []struct{ name, path, ready string }{
		{"events", "/events", `document.querySelector('#list li.event-row')`},
		{"detail", fmt.Sprintf("/events/%d", task.ID), `document.querySelector('#history li')`},
		{"new", "/events/new?kind=task", `document.querySelector('#new-form')`},
	} {
		p.open(pg.path)
		p.waitFor(pg.name+" page content", pg.ready)
		p.screenshot(pg.name+"-desktop.png", 1280, false)
		// A fresh load at phone width.
		p.do("phone viewport", chromedp.EmulateViewport(360, 780, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
		p.open(pg.path)
		p.waitFor(pg.name+" page content", pg.ready)
		if wide := eval[[]string](p, `document.documentElement.scrollWidth > document.documentElement.clientWidth
			? [String(document.documentElement.scrollWidth), ...[...document.querySelectorAll('body *')]
				.filter(el => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
				.slice(0, 5).map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''))]
			: []`); len(wide) > 0 {
			t.Errorf("%s at 360 pixels scrolls sideways: content %s pixels wide; widest: %q", pg.name, wide[0], wide[1:])
		}
		p.screenshot(pg.name+"-phone.png", 360, true)
	}
	t.Logf("screenshots in %s", screenshotDir(t))
}

// checkRowParts: a row shows its kind, title (a link), time in the page's
// zone, status, priority and tag.
func checkRowParts(t *testing.T, p *tab, id int64) {
	t.Helper()
	sel := row(id)
	for _, part := range []string{".kind", `a.title[href="/events/` + strconv.FormatInt(id, 10) + `"]`, "time[datetime]", ".status", ".priority", ".tag"} {
		if !eval[bool](p, `!!document.querySelector(`+jsString(sel+" "+part)+`)`) {
			t.Errorf("the upcoming row has no %s", part)
		}
	}
	if text := eval[string](p, `document.querySelector(`+jsString(sel+" time")+`)?.textContent ?? ''`); !strings.Contains(text, "10:00") {
		t.Errorf("the row's time reads %q, want 10:00 (the page's zone, %s)", text, zone)
	}
}
