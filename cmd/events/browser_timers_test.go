// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// Timers and overlaps in a real browser (DESIGN.md, "Running logs and
// overlaps"): Start beside Record and Shift+Enter in the record line run a
// log, the running one stopping first; Stop on a running log's row in Now
// and on its detail page ends it; a record that overlaps the one before it
// says so and moves before it in one click. Run them alone with
//
//	go test -run TestBrowserTimers ./cmd/events

import (
	"context"
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

func TestBrowserTimers(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"StartAndStop", testStartAndStop},
		{"StopOnDetail", testStopOnDetail},
		{"OverlapMovedBefore", testOverlapMovedBefore},
	})
}

// shiftEnter presses Shift+Enter as a keyboard does: one keyDown that
// carries the text and the modifier, then keyUp, so that the page's
// preventDefault on keydown holds back the form's own submit.
func (p *tab) shiftEnter() {
	p.t.Helper()
	p.do("press Shift+Enter", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		var down, up *input.DispatchKeyEventParams
		text := ""
		for _, e := range kb.Encode('\r') {
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
			e.Modifiers |= int64(chromedp.ModifierShift)
			if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, *e); err != nil {
				return err
			}
		}
		return nil
	}))
}

// section is the titles of the rows of one of Today's sections, in order.
func (p *tab) section(key string) []string {
	return eval[[]string](p, `[...document.querySelectorAll('[data-section="`+key+`"] li.event-row a.title')].map(a => a.textContent.trim())`)
}

// stopOf is the JavaScript of the Stop button in the row titled title.
func stopOf(title string) string {
	return `[...document.querySelectorAll('li.event-row')].find(li => li.querySelector('a.title')?.textContent.trim() === ` + jsString(title) + `)?.querySelector('button.op-stop')`
}

// byTitle is the stored event titled title.
func byTitle(t *testing.T, base, title string) apiEvent {
	t.Helper()
	for _, e := range listAll(t, base) {
		if e.Title == title {
			return e
		}
	}
	t.Fatalf("no event titled %q is stored", title)
	return apiEvent{}
}

// Start runs the line as a log in Now with its Stop; Shift+Enter starts the
// next, which stops the first (one complete row) and moves it to Done &
// logged; Stop in Now ends the second. Finished logs offer no button.
func testStartAndStop(t *testing.T, b *browser) {
	s := startWeb(t)
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "text": "standup 15m #work"})
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the Today tab", tabShown("today"))
	if name := eval[string](p, `document.querySelector('#quick-record button[data-start]')?.textContent.trim() ?? ''`); name != "Start" {
		t.Fatalf("the record line's Start button reads %q", name)
	}

	p.click("#quick-title")
	p.keys("deep work #work")
	p.click("#quick-record button[data-start]")
	p.waitFor("deep work running in Now", stopOf("deep work")+` && document.querySelector('[data-section="now"]').contains(`+stopOf("deep work")+`)`)
	if got := eval[string](p, stopOf("deep work")+`.textContent.trim()`); got != "Stop" {
		t.Errorf("the Stop button's name is %q", got)
	}
	p.waitFor("the line cleared and focused", `document.activeElement?.id === 'quick-title' && document.querySelector('#quick-title').value === ''`)
	deep := byTitle(t, s.base, "deep work")
	if deep.Status != "in_progress" || deep.EndedAt != nil || deep.ProjectTag == nil || *deep.ProjectTag != "work" {
		t.Fatalf("deep work stored as %s, ended %v, tag %v; want in_progress, running, #work", deep.Status, deep.EndedAt, deep.ProjectTag)
	}
	p.screenshot("timers-running-1280.png", 1280, false)
	p.phoneViewport(390, 844)
	p.open("/events")
	p.waitFor("the running row", stopOf("deep work"))
	if wide := p.overflow(); len(wide) > 0 {
		t.Errorf("Today with a timer at 390 px scrolls sideways: %s px wide; widest %q", wide[0], wide[1:])
	}
	p.screenshot("timers-running-390.png", 390, true)
	p.do("desktop", chromedp.EmulateViewport(1280, 900))
	p.open("/events")
	p.waitFor("the running row", stopOf("deep work"))

	// Shift+Enter is Start: the running log stops first.
	p.click("#quick-title")
	p.keys("email since 0:00")
	p.markWindow()
	p.shiftEnter()
	p.waitFor("email running in Now", stopOf("email"))
	p.waitFor("deep work moved to Done & logged", `document.querySelector('[data-section="done"] li.event-row[data-status="done"] a.title')?.textContent.trim() === 'deep work'`)
	if now := p.section("now"); !slices.Equal(now, []string{"email"}) {
		t.Errorf("Now holds %q, want email alone", now)
	}
	if done := p.section("done"); !slices.Equal(done, []string{"deep work", "standup"}) {
		t.Errorf("Done & logged holds %q, want deep work, standup", done)
	}
	p.assertNoReload("a start that stops the running log")
	deep = getEvent(t, s.base, deep.ID)
	if deep.Status != "done" || deep.EndedAt == nil {
		t.Errorf("deep work is %s ended %v after the next start, want done", deep.Status, deep.EndedAt)
	}
	if got := history(t, s.base, deep.ID); !slices.Equal(got, []string{"create", "complete"}) {
		t.Errorf("deep work's history = %v, want create, complete", got)
	}
	email := byTitle(t, s.base, "email")
	if email.Status != "in_progress" {
		t.Errorf("email is %s, want in_progress", email.Status)
	}
	if n := len(listAll(t, s.base)); n != 3 {
		t.Errorf("%d events stored, want 3 (Shift+Enter must not also record)", n)
	}

	// Stop in Now: the row moves to Done & logged, says when it stopped,
	// keeps the focus, and offers nothing more.
	p.do("click Stop", chromedp.Evaluate[chromedp.Void](stopOf("email")+`.click()`))
	p.waitFor("email stopped", `document.querySelector('[data-section="done"] li.event-row[data-status="done"] a.title')?.textContent.trim() === 'email'`)
	if msg := eval[string](p, `document.querySelector('[data-section="done"] li.event-row .message')?.textContent ?? ''`); !strings.HasPrefix(msg, "Stopped at ") {
		t.Errorf("the stopped row says %q, want when it stopped", msg)
	}
	if focus := eval[string](p, `document.activeElement?.id ?? ''`); focus != fmt.Sprintf("event-%d", email.ID) {
		t.Errorf("after Stop the focus is on %q, want the row", focus)
	}
	if got := history(t, s.base, email.ID); !slices.Equal(got, []string{"create", "complete"}) {
		t.Errorf("email's history = %v, want create, complete", got)
	}
	// (an overlap mark's move is no lifecycle control: DESIGN.md, "Running logs and overlaps")
	if n := eval[int](p, `document.querySelectorAll('li.event-row[data-kind="activity_log"] .ops button, li.event-row[data-kind="activity_log"] details').length`); n != 0 {
		t.Errorf("finished logs offer %d lifecycle controls, want none", n)
	}
	p.open("/events")
	p.waitFor("Today", `document.querySelector('#list li.event-row')`)
	if n := eval[int](p, `document.querySelectorAll('button.op-stop').length`); n != 0 {
		t.Errorf("after a reload %d Stop buttons, want none", n)
	}
	p.audit("Today after the timers")
}

// The detail page of a running log offers Stop; after it the log is done,
// with one complete row, and the page offers no control.
func testStopOnDetail(t *testing.T, b *browser) {
	s := startWeb(t)
	run := createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "deep work", "status": "in_progress",
		"started_at": rfc(time.Now().Add(-40 * time.Minute))})
	p := b.newTab(t, s.base)
	p.open(fmt.Sprintf("/events/%d", run.ID))
	p.waitFor("the detail's Stop", `document.querySelector('#detail button.op-stop')?.textContent.trim() === 'Stop'`)
	if hint := eval[string](p, `document.querySelector('#f-ended_at-hint')?.textContent ?? ''`); !strings.Contains(hint, "Stop") {
		t.Errorf("the Ended field's hint %q does not point at Stop", hint)
	}
	if strings.Contains(eval[string](p, `document.querySelector('#detail').textContent`), "complete it instead") {
		t.Errorf("the detail page tells the person to complete it instead")
	}
	p.screenshot("timers-detail-running-1280.png", 1280, false)
	p.phoneViewport(390, 844)
	p.open(fmt.Sprintf("/events/%d", run.ID))
	p.waitFor("the detail's Stop", `document.querySelector('#detail button.op-stop')`)
	p.screenshot("timers-detail-running-390.png", 390, true)
	p.do("desktop", chromedp.EmulateViewport(1280, 900))
	p.open(fmt.Sprintf("/events/%d", run.ID))
	p.waitFor("the detail's Stop", `document.querySelector('#detail button.op-stop')`)
	p.click("#detail button.op-stop")
	p.waitFor("the log stopped", `document.querySelector('#detail')?.dataset.status === 'done'`)
	if msg := eval[string](p, `document.querySelector('#detail .message')?.textContent ?? ''`); !strings.HasPrefix(msg, "Stopped at ") || !strings.Contains(msg, "40 min") {
		t.Errorf("the detail says %q, want when it stopped after 40 min", msg)
	}
	if n := eval[int](p, `document.querySelectorAll('#detail .ops button, #detail .undo-note').length`); n != 0 {
		t.Errorf("the finished log's detail offers %d controls, want none", n)
	}
	p.waitFor("the history's complete row", `[...document.querySelectorAll('#history li')].some(li => /complete/i.test(li.textContent))`)
	if got := history(t, s.base, run.ID); !slices.Equal(got, []string{"create", "complete"}) {
		t.Errorf("history = %v, want create, complete", got)
	}
}

// "회의 30분", then "code review 45m": the new row says it overlaps 회의 by
// 30 min and offers to move it before; one click does (one reschedule row).
func testOverlapMovedBefore(t *testing.T, b *browser) {
	s := startWeb(t)
	meeting := createEvent(t, s.base, map[string]any{"kind": "activity_log", "text": "회의 30분"})
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the Today tab", tabShown("today"))
	p.click("#quick-title")
	p.keys("code review 45m\r")
	p.waitFor("the overlap sentence", `document.querySelector('li.event-row .overlap')?.textContent.includes('overlaps')`)
	if note := eval[string](p, `document.querySelector('li.event-row .overlap').textContent`); note != "Added: it overlaps “회의” by 30 min." {
		t.Errorf("the note = %q", note)
	}
	loc := seoul(t)
	end := meeting.StartedAt.In(loc)
	want := "Move it before: " + end.Add(-45*time.Minute).Format("15:04") + "–" + end.Format("15:04")
	if got := eval[string](p, `document.querySelector('li.event-row .overlap-fix button')?.textContent ?? ''`); got != want {
		t.Errorf("the move reads %q, want %q", got, want)
	}
	p.screenshot("timers-overlap-1280.png", 1280, false)
	p.phoneViewport(390, 844)
	if wide := p.overflow(); len(wide) > 0 {
		t.Errorf("the overlap sentence at 390 px scrolls sideways: %s px wide; widest %q", wide[0], wide[1:])
	}
	p.screenshot("timers-overlap-390.png", 390, true)
	p.do("desktop", chromedp.EmulateViewport(1280, 900))

	p.click("li.event-row .overlap-fix button")
	p.waitFor("the move done", `!document.querySelector('.overlap-fix') && !document.querySelector('li.event-row .overlap')`)
	review := byTitle(t, s.base, "code review")
	if review.EndedAt == nil || !review.EndedAt.Equal(*meeting.StartedAt) || review.EndedAt.Sub(*review.StartedAt) != 45*time.Minute {
		t.Errorf("code review is %v–%v, want the 45 minutes ending at %v", review.StartedAt, review.EndedAt, meeting.StartedAt)
	}
	if got := history(t, s.base, review.ID); !slices.Equal(got, []string{"create", "reschedule"}) {
		t.Errorf("history = %v, want create, reschedule", got)
	}
	p.audit("Today after the move")
}
