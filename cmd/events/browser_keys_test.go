// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// Issue 15, "Safe, close undo" and "Keyboard shortcuts", in a real
// browser: the lifecycle buttons keep their slots, the undo message and its
// focus after Complete, Cancel and Defer, every shortcut of app.js (and none
// while typing or with a modifier), the tabs' arrow keys, the skip link to
// the quick-record line. Run them alone with
//
//	go test -run TestBrowserKeys ./cmd/events

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func TestBrowserKeys(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"FixedSlots", testFixedSlots},
		{"UndoMessage", testUndoMessage},
		{"Shortcuts", testShortcuts},
		{"NotWhileTyping", testShortcutsNotWhileTyping},
		{"TabArrows", testTabArrows},
		{"SkipToQuickLine", testSkipToQuickLine},
		{"UndoScreenshots", testUndoScreenshots},
	})
}

// press types keys as a keyboard does: one keyDown that carries the text,
// then keyUp. (chromedp's KeyEvent sends the text as a separate char
// event, which a page's preventDefault on keydown cannot stop, unlike a
// real key press.)
func (p *tab) press(keys string) {
	p.t.Helper()
	p.do(fmt.Sprintf("press %q", keys), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, r := range keys {
			var down, up *input.DispatchKeyEventParams
			text := ""
			for _, e := range kb.Encode(r) {
				switch e.Type {
				case kb.KeyDown:
					down = e
				case kb.KeyUp:
					up = e
				case kb.KeyChar:
					text = e.Text
				}
			}
			down.Text, down.UnmodifiedText = text, text
			for _, e := range []*input.DispatchKeyEventParams{down, up} {
				if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, *e); err != nil {
					return err
				}
			}
		}
		return nil
	}))
}

// box is an element's place on the page, in CSS pixels.
type box struct{ X, Y, W, H float64 }

func (b box) center() (float64, float64) { return b.X + b.W/2, b.Y + b.H/2 }

// boxOf is the bounding box of the element sel.
func (p *tab) boxOf(sel string) box {
	p.t.Helper()
	raw := eval[string](p, `(() => { const r = document.querySelector(`+jsString(sel)+`)?.getBoundingClientRect(); return JSON.stringify(r ? {X: r.x, Y: r.y, W: r.width, H: r.height} : null) })()`)
	var b *box
	if err := json.Unmarshal([]byte(raw), &b); err != nil || b == nil {
		p.t.Fatalf("no box for %s (%s)\n%s", sel, raw, p.snapshot())
	}
	return *b
}

// opAt names the lifecycle control under the point: its data-op, "defer"
// for the defer menu, "slot" for an empty slot, or what else is there.
func (p *tab) opAt(x, y float64) string {
	return eval[string](p, fmt.Sprintf(`(() => {
		const el = document.elementFromPoint(%f, %f);
		if (!el) return 'nothing';
		const op = el.closest('[data-op]'); if (op) return op.dataset.op;
		if (el.closest('details.defer')) return 'defer';
		if (el.closest('.op-slot')) return 'slot';
		return el.tagName.toLowerCase() + (el.className ? '.' + el.className : '');
	})()`, x, y))
}

// clickAt clicks the mouse at a point, as a person does.
func (p *tab) clickAt(x, y float64) {
	p.t.Helper()
	p.do(fmt.Sprintf("click at %.0f,%.0f", x, y), chromedp.MouseClickXY(x, y))
}

// ---- fixed slots ----

// After Complete and after Reactivate (read "Undo"), the slot just clicked
// holds the same button or none, never Cancel, and every other button stays
// where it was: a second click at the same point cancels nothing.
func testFixedSlots(t *testing.T, b *browser) {
	s := startWeb(t)
	e := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Call the landlord"})
	p := b.newTab(t, s.base)
	p.open("/events?tab=inbox")
	p.waitFor("the row", `document.querySelector(`+jsString(row(e.ID))+`)`)

	for _, width := range []int64{1280, 390} {
		p.do("viewport", chromedp.EmulateViewport(width, 844))
		sel := func(op string) string { return row(e.ID) + ` button.op[data-op="` + op + `"]` }
		cancelBefore := p.boxOf(sel("cancel"))
		complete := p.boxOf(sel("complete"))
		p.clickAt(complete.center())
		p.waitFor("the row completed", `document.querySelector(`+jsString(row(e.ID))+`)?.dataset.status === 'done'`)
		if got := p.opAt(complete.center()); got == "cancel" || got == "reactivate" {
			t.Errorf("%d px: after Complete the Complete slot holds %q; want it empty", width, got)
		}
		if got := p.boxOf(sel("cancel")); got != cancelBefore {
			t.Errorf("%d px: Cancel moved after Complete: %+v, was %+v", width, got, cancelBefore)
		}

		// The row's one Undo is its note's (issue 47: never two side by
		// side); the reactivate slot stays empty meanwhile.
		noteUndo := row(e.ID) + " .undo-note button[data-undo]"
		undo := p.boxOf(noteUndo)
		if text := eval[string](p, `document.querySelector(`+jsString(noteUndo)+`).textContent.trim()`); text != "Undo" {
			t.Errorf("%d px: the note's undo button reads %q, want Undo", width, text)
		}
		if n := eval[int](p, `document.querySelectorAll(`+jsString(sel("reactivate"))+`).length`); n != 0 {
			t.Errorf("%d px: beside the note's Undo the row draws the reactivate button too", width)
		}
		p.clickAt(undo.center())
		p.waitFor("the row reactivated", `document.querySelector(`+jsString(row(e.ID))+`)?.dataset.status === 'planned'`)
		x, y := undo.center()
		if got := p.opAt(x, y); got == "cancel" || got == "complete" || got == "defer" {
			t.Errorf("%d px: after Undo the point just clicked holds %q; want no lifecycle button there", width, got)
		}
		if got := p.boxOf(sel("cancel")); got != cancelBefore {
			t.Errorf("%d px: Cancel moved after Undo: %+v, was %+v", width, got, cancelBefore)
		}
		// The second click of a double click lands on the same point.
		p.clickAt(x, y)
		time.Sleep(300 * time.Millisecond) // a request it sent would be answered by now
		if got := getEvent(t, s.base, e.ID).Status; got != "planned" {
			t.Errorf("%d px: a second click where Undo was left the task %s; want planned", width, got)
		}
	}
}

// ---- the undo message ----

// After Complete, Cancel and Defer the row says what happened and offers
// Undo, the focus is on that Undo, and Undo is reactivate.
func testUndoMessage(t *testing.T, b *browser) {
	s := startWeb(t)
	e := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Call the landlord"})
	p := b.newTab(t, s.base)
	p.open("/events?tab=inbox")
	p.waitFor("the row", `document.querySelector(`+jsString(row(e.ID))+`)`)
	p.markWindow()
	note := row(e.ID) + " .undo-note"
	for _, c := range []struct {
		op, status, text string
		act              func()
	}{
		{"complete", "done", "Completed · Undo", func() { p.click(row(e.ID) + ` button.op[data-op="complete"]`) }},
		{"cancel", "cancelled", "Cancelled · Undo", func() { p.click(row(e.ID) + ` button.op[data-op="cancel"]`) }},
		{"defer", "deferred", "Deferred until tomorrow 09:00 · Undo", func() {
			p.click(row(e.ID) + " details.defer > summary")
			p.click(row(e.ID) + ` .defer-preset[data-preset="tomorrow"]`)
		}},
	} {
		c.act()
		p.waitFor(c.op+": the row "+c.status, `document.querySelector(`+jsString(row(e.ID))+`)?.dataset.status === `+jsString(c.status))
		p.waitFor(c.op+": the undo message", `document.querySelector(`+jsString(note)+`)`)
		if got := eval[string](p, `document.querySelector(`+jsString(note)+`).textContent.replace(/\s+/g, ' ').trim()`); got != c.text {
			t.Errorf("after %s the message reads %q, want %q", c.op, got, c.text)
		}
		if role := eval[string](p, `document.querySelector(`+jsString(note)+`).getAttribute('role')`); role != "status" {
			t.Errorf("after %s the message has role %q, want status (read out)", c.op, role)
		}
		p.waitFor(c.op+": the focus on Undo", `document.activeElement?.matches(`+jsString(note+" button[data-undo]")+`)`)
		// Enter on the focused Undo reactivates.
		p.keys("\r")
		p.waitFor(c.op+" undone", `document.querySelector(`+jsString(row(e.ID))+`)?.dataset.status === 'planned'`)
		if n := eval[int](p, `document.querySelectorAll(`+jsString(note)+`).length`); n != 0 {
			t.Errorf("after undoing %s the row still shows an undo message", c.op)
		}
		if got := eval[string](p, `document.activeElement?.closest('li')?.id ?? document.activeElement?.tagName`); got != fmt.Sprintf("event-%d", e.ID) {
			t.Errorf("after undoing %s the focus left the row: it is on %s", c.op, got)
		}
		h := history(t, s.base, e.ID)
		if len(h) == 0 || h[0] != "reactivate" && h[len(h)-1] != "reactivate" {
			t.Errorf("after Undo of %s the history is %q; want a reactivate step", c.op, h)
		}
	}
	p.assertNoReload("Complete, Cancel, Defer and their Undo")
	// A reload draws no message: it belongs to the answer of the click.
	p.click(row(e.ID) + ` button.op[data-op="complete"]`)
	p.waitFor("the undo message", `document.querySelector(`+jsString(note)+`)`)
	p.open("/events?tab=upcoming")
	p.open("/events?tab=inbox")
	if n := eval[int](p, `document.querySelectorAll('.undo-note').length`); n != 0 {
		t.Errorf("a list drawn anew shows %d undo message(s); want none", n)
	}
	p.audit("a row with its undo message")

	// The detail page: the message in the status box, the focus on its Undo.
	p.open(fmt.Sprintf("/events/%d", e.ID))
	p.waitFor("the detail", `document.querySelector('#detail')`)
	if eval[string](p, `document.querySelector('#detail').dataset.status`) != "planned" {
		p.click(`#detail [data-op="reactivate"]`)
		p.waitFor("reactivated", `document.querySelector('#detail')?.dataset.status === 'planned'`)
	}
	p.click(`#detail button.op[data-op="cancel"]`)
	p.waitFor("the detail's undo message and its focus", `document.querySelector('#detail')?.dataset.status === 'cancelled' && document.activeElement?.matches('#detail .undo-note button[data-undo]')`)
	p.keys("\r")
	p.waitFor("the detail reactivated", `document.querySelector('#detail')?.dataset.status === 'planned' && !document.querySelector('#detail .undo-note')`)
	p.waitFor("the focus on the detail's first button", `document.activeElement?.matches('#detail button.op')`)
}

// ---- the shortcuts ----

func testShortcuts(t *testing.T, b *browser) {
	s := startWeb(t)
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "Alpha"})
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "Bravo"})
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "Charlie"})
	p := b.newTab(t, s.base)
	p.open("/events?tab=inbox")
	p.waitFor("three rows", `document.querySelectorAll('li.event-row').length === 3`)
	p.markWindow()
	ids := p.rowIDs()

	focused := func() string {
		return eval[string](p, `(() => { const a = document.activeElement; return a?.id || (a?.tagName ?? 'none').toLowerCase() })()`)
	}
	current := func() string {
		return eval[string](p, `[...document.querySelectorAll('li.event-row[data-current]')].map(r => r.id).join(',')`)
	}

	// "/" focuses the quick-record line and types nothing.
	p.press("/")
	p.waitFor("/ focuses the quick line", `document.activeElement?.id === 'quick-title'`)
	if v := eval[string](p, `document.querySelector('#quick-title').value`); v != "" {
		t.Errorf("/ left %q in the quick line", v)
	}
	eval[bool](p, `(document.activeElement.blur(), true)`)

	// j, j, k: down, down, up; the row has the focus and the marker.
	p.press("j")
	p.waitFor("j: the first row", `document.activeElement?.id === `+jsString(ids[0]))
	p.press("j")
	p.waitFor("j: the second row", `document.activeElement?.id === `+jsString(ids[1]))
	p.press("k")
	p.waitFor("k: back to the first row", `document.activeElement?.id === `+jsString(ids[0]))
	if got := current(); got != ids[0] {
		t.Errorf("the current-row marker is on %q, want only %s", got, ids[0])
	}
	if bg := eval[string](p, `getComputedStyle(document.querySelector('li.event-row[data-current]')).boxShadow`); bg == "none" {
		t.Errorf("the current row has no visible marker (box-shadow none)")
	}
	p.press("j") // on to the second row for the lifecycle keys
	p.waitFor("j: the second row", `document.activeElement?.id === `+jsString(ids[1]))
	var id int64
	if _, err := fmt.Sscanf(ids[1], "event-%d", &id); err != nil {
		t.Fatalf("row id %q: %v", ids[1], err)
	}

	// x completes the current row; the focus goes to its Undo; u undoes.
	p.press("x")
	p.waitFor("x: the row done", `document.querySelector(`+jsString(row(id))+`)?.dataset.status === 'done'`)
	p.waitFor("x: the focus on Undo", `document.activeElement?.matches(`+jsString(row(id)+" [data-undo]")+`)`)
	p.press("u")
	p.waitFor("u: the row reactivated", `document.querySelector(`+jsString(row(id))+`)?.dataset.status === 'planned'`)
	if got := current(); got != ids[1] {
		t.Errorf("after x and u the current row is %q, want %s", got, ids[1])
	}
	// c cancels; u undoes again.
	p.press("c")
	p.waitFor("c: the row cancelled", `document.querySelector(`+jsString(row(id))+`)?.dataset.status === 'cancelled'`)
	p.press("u")
	p.waitFor("u: the row reactivated", `document.querySelector(`+jsString(row(id))+`)?.dataset.status === 'planned'`)
	// d opens the defer menu, its first choice focused; Escape closes it.
	p.press("d")
	p.waitFor("d: the defer menu open", `document.querySelector(`+jsString(row(id)+" details.defer")+`)?.open && document.activeElement?.matches('.defer-preset')`)
	p.keys(kb.Escape)
	p.waitFor("Escape: the defer menu closed", `!document.querySelector(`+jsString(row(id)+" details.defer")+`).open`)
	if got := history(t, s.base, id); !slices.Equal(got, []string{"create", "complete", "reactivate", "cancel", "reactivate"}) && !slices.Equal(got, []string{"reactivate", "cancel", "reactivate", "complete", "create"}) {
		t.Errorf("the history after x u c u: %q", got)
	}

	// t: the task capture line, named by the page contract; where a page
	// has none, nothing happens.
	taskText := eval[string](p, `JSON.parse(document.querySelector('meta[name="page-contract"]').content).taskText ?? ''`)
	if taskText != "" && eval[bool](p, `!!document.getElementById(`+jsString(taskText)+`)`) {
		p.press("t")
		p.waitFor("t focuses the task capture line", `document.activeElement?.id === `+jsString(taskText))
		if v := eval[string](p, `document.getElementById(`+jsString(taskText)+`).value`); v != "" {
			t.Errorf("t left %q in the task capture line", v)
		}
		p.focusRowByID(ids[1])
	} else {
		before := focused()
		p.press("t")
		if got := focused(); got != before {
			t.Errorf("t without a task capture line moved the focus from %s to %s", before, got)
		}
	}

	// ? opens the help: a modal dialog with a name that lists every key.
	p.press("?")
	p.waitFor("? opens the help", `document.querySelector('dialog#keys-help')?.open`)
	listed := eval[string](p, `[...document.querySelectorAll('#keys-help kbd')].map(k => k.textContent).join(' ')`)
	for _, k := range []string{"/", "t", "g", "i", "u", "a", "r", "j", "k", "x", "d", "c", "?", "Esc", "←", "→"} {
		if !slices.Contains(strings.Fields(listed), k) {
			t.Errorf("the help lists no %q (it lists %q)", k, listed)
		}
	}
	if name := eval[string](p, `document.getElementById(document.querySelector('#keys-help').getAttribute('aria-labelledby'))?.textContent ?? ''`); name != "Keyboard shortcuts" {
		t.Errorf("the help dialog's name is %q", name)
	}
	if !eval[bool](p, `document.querySelector('#keys-help').contains(document.activeElement)`) {
		t.Errorf("the focus is not in the open help dialog")
	}
	// Keys do nothing behind the open help.
	p.press("j")
	if got := current(); got != ids[1] {
		t.Errorf("j behind the open help moved the current row to %q", got)
	}
	p.audit("the shortcuts' help")
	p.keys(kb.Escape)
	p.waitFor("Escape closes the help", `!document.querySelector('dialog#keys-help').open`)
	p.waitFor("the focus back where it was", `document.activeElement?.closest('li')?.id === `+jsString(ids[1]))

	// g then t, u, a, i: the tabs, without a page load.
	for _, c := range []struct{ key, tab string }{{"t", "today"}, {"u", "upcoming"}, {"a", "activity"}, {"i", "inbox"}} {
		p.press("g" + c.key)
		p.waitFor("g "+c.key+": the "+c.tab+" tab", tabShown(c.tab)+` && location.search === `+jsString("?tab="+c.tab))
		p.waitFor("g "+c.key+": the focus on its tab", `document.activeElement?.id === `+jsString("tab-"+c.tab))
	}
	p.assertNoReload("g t, g u, g a, g i")
	// g r: the review page.
	p.allow(404) // the review page is another branch's; the address is what counts here
	p.press("gr")
	p.waitFor("g r: the review page", `location.pathname === '/events/review'`)
}

// No shortcut fires while typing in the quick line or with a modifier.
func testShortcutsNotWhileTyping(t *testing.T, b *browser) {
	s := startWeb(t)
	e := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Alpha"})
	p := b.newTab(t, s.base)
	p.open("/events?tab=inbox")
	p.waitFor("the row", `document.querySelector(`+jsString(row(e.ID))+`)`)
	p.markWindow()
	p.press("j") // the row is current
	p.waitFor("j: the row", `document.activeElement?.id === `+jsString(fmt.Sprintf("event-%d", e.ID)))
	// Ctrl, Alt, Meta with x: nothing.
	for _, m := range []chromedp.Modifier{chromedp.ModifierCtrl, chromedp.ModifierAlt, chromedp.ModifierMeta} {
		p.do("x with a modifier", chromedp.KeyEvent("x", chromedp.KeyModifiers(m)))
	}
	p.click("#quick-title")
	mark := p.requestCount()
	typed := "/tjkxdcu?gtgi"
	p.press(typed)
	time.Sleep(300 * time.Millisecond)
	if v := eval[string](p, `document.querySelector('#quick-title').value`); v != typed {
		t.Errorf("typing %q in the quick line left %q: a shortcut took a key", typed, v)
	}
	if got := p.focusedID(); got != "quick-title" {
		t.Errorf("typing in the quick line moved the focus to %q", got)
	}
	if got := apiPaths(p.requestsSince(mark)); len(got) != 0 {
		t.Errorf("typing in the quick line sent %q", got)
	}
	if open := eval[bool](p, `!!document.querySelector('dialog#keys-help[open], details.defer[open]')`); open {
		t.Errorf("typing in the quick line opened the help or a defer menu")
	}
	if st := getEvent(t, s.base, e.ID).Status; st != "planned" {
		t.Errorf("the row is %s after x with modifiers and typing; want planned", st)
	}
	if got := eval[string](p, `document.querySelector('#panel').dataset.tab`); got != "inbox" {
		t.Errorf("typing g t g i in the quick line changed the tab to %s", got)
	}
	// A g followed by typing in a field is spent: the next key outside the
	// field is a key of its own, not the end of "g".
	eval[bool](p, `(document.activeElement.blur(), true)`)
	p.press("g")
	p.click("#quick-title")
	p.press("t")
	eval[bool](p, `(document.activeElement.blur(), true)`)
	p.press("a")
	time.Sleep(300 * time.Millisecond)
	if got := eval[string](p, `document.querySelector('#panel').dataset.tab`); got != "inbox" {
		t.Errorf("g, then t typed in the quick line, then a outside it went to %s; want the g spent by the typing", got)
	}
	p.assertNoReload("typing in the quick line")
}

// focusRowByID puts the focus back on a row, as a click on it would.
func (p *tab) focusRowByID(id string) {
	p.t.Helper()
	eval[bool](p, `(() => { const r = document.getElementById(`+jsString(id)+`); r.tabIndex = -1; r.focus(); return true })()`)
}

func (p *tab) focusedID() string {
	return eval[string](p, `document.activeElement?.id ?? ''`)
}

// ---- the tabs' arrow keys ----

// The WAI-ARIA tabs pattern: one tab in the Tab order, arrows move and
// activate, Home and End go to the ends, the ends wrap around.
func testTabArrows(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the Today tab", tabShown("today"))
	p.markWindow()
	if got := eval[[]string](p, `[...document.querySelectorAll('[role=tab]')].map(t => t.id + ':' + t.tabIndex)`); !slices.Equal(got, []string{"tab-today:0", "tab-inbox:-1", "tab-upcoming:-1", "tab-activity:-1"}) {
		t.Errorf("the tabs' tabindex: %q; want only the selected tab in the Tab order", got)
	}
	p.tabTo("#tab-today")
	for _, c := range []struct{ key, tab string }{
		{kb.ArrowRight, "inbox"}, {kb.ArrowRight, "upcoming"}, {kb.ArrowLeft, "inbox"},
		{kb.End, "activity"}, {kb.ArrowRight, "today"}, {kb.ArrowLeft, "activity"}, {kb.Home, "today"},
	} {
		p.press(c.key)
		p.waitFor(c.tab+" after an arrow key", tabShown(c.tab)+` && location.search === `+jsString("?tab="+c.tab))
		p.waitFor("the focus on "+c.tab, `document.activeElement?.id === `+jsString("tab-"+c.tab))
		if n := eval[int](p, `document.querySelectorAll('[role=tab][tabindex="0"]').length`); n != 1 {
			t.Errorf("after moving to %s, %d tabs are in the Tab order; want 1", c.tab, n)
		}
	}
	p.assertNoReload("the tabs' arrow keys")
}

// ---- fewer Tabs to the quick line ----

func testSkipToQuickLine(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the page", `document.querySelector('#quick-title')`)
	presses := 0
	for !eval[bool](p, `document.activeElement?.matches('a.skip') ?? false`) {
		p.keys("\t")
		if presses++; presses > 3 {
			t.Fatalf("3 Tabs never reached the skip link")
		}
	}
	if text := eval[string](p, `document.activeElement.textContent.trim()`); text != "Skip to the quick record" {
		t.Errorf("the skip link reads %q", text)
	}
	p.keys("\r")
	p.waitFor("Enter on the skip link focuses the quick line", `document.activeElement?.id === 'quick-title'`)
	t.Logf("keys from the page load to the quick line: %d Tab + Enter (was 6 Tabs); / alone also does it", presses)
	// Elsewhere it still skips to the content.
	p.open("/events/new")
	if href := eval[string](p, `document.querySelector('a.skip').getAttribute('href')`); href != "#main" {
		t.Errorf("the skip link of /events/new leads to %q, want #main", href)
	}
}

// ---- screenshots ----

func testUndoScreenshots(t *testing.T, b *browser) {
	s := startWeb(t)
	e := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Call the landlord"})
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "집주인에게 전화하기"})
	p := b.newTab(t, s.base)
	p.open("/events?tab=inbox")
	p.waitFor("the row", `document.querySelector(`+jsString(row(e.ID))+`)`)
	p.click(row(e.ID) + " details.defer > summary")
	p.click(row(e.ID) + ` .defer-preset[data-preset="tomorrow"]`)
	p.waitFor("the undo message", `document.querySelector(`+jsString(row(e.ID)+" .undo-note")+`)`)
	p.screenshot("keys-undo-desktop.png", 1280, false)
	p.screenshot("keys-undo-phone.png", 390, true)
	p.press("?")
	p.waitFor("the help", `document.querySelector('dialog#keys-help')?.open`)
	p.screenshot("keys-help-desktop.png", 1280, false)
	p.screenshot("keys-help-phone.png", 390, true)
}
