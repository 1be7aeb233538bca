// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// Concurrent edits and retries in a real browser (DESIGN.md): two tabs on
// one event cannot overwrite each other, a stale lifecycle click is refused,
// and a quick record whose answer was lost is recorded once when Enter is
// pressed again. Run them alone with
//
//	go test -run TestBrowserWrites ./cmd/events

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

func TestBrowserWrites(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"TwoTabsEditForm", testTwoTabsEditForm},
		{"StaleLifecycleClicks", testStaleLifecycleClicks},
		{"QuickRecordResent", testQuickRecordResent},
	})
}

// staleSentence is the start of what a refused stale request says.
const staleSentence = "changed elsewhere"

// patchTitle changes an event's title through the API, as another tab or
// client would.
func patchTitle(t *testing.T, base string, id int64, title string) {
	t.Helper()
	apiCall(t, "PATCH", fmt.Sprintf("%s/api/events/%d", base, id), map[string]any{"title": title}, 200, nil)
}

// Tab A saves a title; tab B, drawn before, saves a due time: B is refused
// with a sentence, keeps what it typed, and A's title survives.
func testTwoTabsEditForm(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	due := day(time.Now(), loc, 2).Add(18 * time.Hour)
	task := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Report", "due_at": rfc(due)})
	a, bb := b.newTab(t, s.base), b.newTab(t, s.base)
	for _, p := range []*tab{a, bb} {
		p.open(fmt.Sprintf("/events/%d", task.ID))
		p.waitFor("the edit form", `document.querySelector('#edit-form [name="title"]')`)
	}

	a.setValue(`#edit-form [name="title"]`, "Report for Kim")
	a.click("button#save")
	a.waitFor("A's save", `document.querySelector('.form-message')?.textContent.trim() === 'Saved.'`)

	newDue := due.Add(24 * time.Hour)
	bb.markWindow()
	bb.setValue(`#edit-form [name="due_at"]`, local24(newDue, loc))
	bb.allow(412)
	bb.click("button#save")
	bb.waitFor("B told that the event changed elsewhere", `document.querySelector('.form-message')?.textContent.includes(`+jsString(staleSentence)+`)`)
	bb.assertNoReload("a stale save")
	t.Logf("the stale save says: %q", eval[string](bb, `document.querySelector('.form-message').textContent.trim()`))
	if got := eval[string](bb, `document.querySelector('#edit-form [name="due_at"]').value`); got != local24(newDue, loc) {
		t.Errorf("B's typed due time after the refusal: %q, want the typed %q", got, local24(newDue, loc))
	}
	if got := eval[string](bb, `document.querySelector('#detail-title').textContent.trim()`); got != "Report for Kim" {
		t.Errorf("B's heading after the refusal: %q, want the event as it now is (A's title)", got)
	}
	e := getEvent(t, s.base, task.ID)
	if e.Title != "Report for Kim" || e.DueAt == nil || !e.DueAt.Equal(due) {
		t.Errorf("after the stale save: title %q, due %v; want A's title and the old due %s", e.Title, e.DueAt, due)
	}
	if got := history(t, s.base, task.ID); !slices.Equal(got, []string{"create"}) {
		t.Errorf("history after A's title and B's refused save: %q, want create only", got)
	}

	// B takes A's title over and saves again: now both changes are kept.
	bb.setValue(`#edit-form [name="title"]`, "Report for Kim")
	eval[bool](bb, `document.querySelectorAll('.form-message').forEach(m => m.__seen = true) || true`)
	bb.click("button#save")
	bb.waitFor("B's second save", `[...document.querySelectorAll('.form-message')].some(m => !m.__seen && m.textContent.trim() === 'Saved.')`)
	e = getEvent(t, s.base, task.ID)
	if e.Title != "Report for Kim" || e.DueAt == nil || !e.DueAt.Equal(newDue) {
		t.Errorf("after B's second save: title %q, due %v; want A's title and B's due %s", e.Title, e.DueAt, newDue)
	}
}

// Every lifecycle control of a stale row, and of a stale detail, is
// refused: the row is drawn as it now is, with the sentence.
func testStaleLifecycleClicks(t *testing.T, b *browser) {
	s := startWeb(t)
	task := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Undated"})
	p := b.newTab(t, s.base)
	p.allow(412)
	p.open("/events?tab=inbox")
	sel := row(task.ID)
	p.waitFor("the row", `document.querySelector(`+jsString(sel)+`)`)
	p.markWindow()

	n := 0
	stale := func(what string, act func()) {
		t.Helper()
		n++
		title := fmt.Sprintf("Renamed elsewhere %d", n)
		patchTitle(t, s.base, task.ID, title) // the row on the page is stale now
		act()
		p.waitFor(what+": the row drawn again with the sentence", fmt.Sprintf(
			`(() => { const r = document.querySelector(%s); return !!r && r.querySelector('a.title')?.textContent.trim() === %s && r.querySelector('.message')?.textContent.includes(%s) })()`,
			jsString(sel), jsString(title), jsString(staleSentence)))
		if e := getEvent(t, s.base, task.ID); e.Status != "planned" || e.DeferUntil != nil {
			t.Errorf("%s: the stale click changed the event: %s, defer_until %v", what, e.Status, e.DeferUntil)
		}
		if got := history(t, s.base, task.ID); !slices.Equal(got, []string{"create"}) {
			t.Errorf("%s: history %q, want create only", what, got)
		}
	}
	stale("complete", func() { p.click(sel + ` button.op[data-op="complete"]`) })
	stale("cancel", func() { p.click(sel + ` button.op[data-op="cancel"]`) })
	stale("a defer preset", func() {
		p.click(sel + " details.defer > summary")
		p.click(sel + ` button.defer-preset[data-preset="tomorrow"]`)
	})
	stale("the custom defer", func() {
		p.click(sel + " details.defer > summary")
		p.setValue(sel+` form.defer-custom input[name="defer_until"]`, "2030-01-05T09:00")
		p.click(sel + ` form.defer-custom button`)
	})
	p.assertNoReload("stale clicks")

	// The row drawn again carries the new validator: a click now works.
	p.click(sel + ` button.op[data-op="complete"]`)
	p.waitFor("the row done", `document.querySelector(`+jsString(sel)+`)?.dataset.status === 'done'`)

	// The detail's buttons too.
	p.open(fmt.Sprintf("/events/%d", task.ID))
	p.waitFor("the detail", `document.querySelector('#detail button.op[data-op="reactivate"]')`)
	patchTitle(t, s.base, task.ID, "Renamed on the detail")
	p.click(`#detail button.op[data-op="reactivate"]`)
	p.waitFor("the detail drawn again with the sentence", `document.querySelector('#detail-title')?.textContent.trim() === 'Renamed on the detail' && document.querySelector('#detail .message')?.textContent.includes(`+jsString(staleSentence)+`)`)
	if e := getEvent(t, s.base, task.ID); e.Status != "done" {
		t.Errorf("the stale reactivate on the detail changed the status to %s", e.Status)
	}
}

// A quick record whose answer is lost on the way back (the server stored
// it): Enter again sends the same Idempotency-Key and the line is recorded
// once. The next line has a key of its own.
func testQuickRecordResent(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the quick-record line", `document.querySelector('#quick-title')`)

	// The keys the page sends, and the first answer of a create cut off.
	var mu sync.Mutex
	var keys []string
	paused := make(chan *fetch.EventRequestPaused, 8)
	if err := chromedp.Listen(p.ctx, func(ev any) {
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			if e.Request.Method == "POST" && strings.HasSuffix(e.Request.URL, "/api/events") {
				mu.Lock()
				keys = append(keys, fmt.Sprint(e.Request.Headers["Idempotency-Key"]))
				mu.Unlock()
			}
		case *fetch.EventRequestPaused:
			select {
			case paused <- e:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	p.do("intercept the answers of creates", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{
			{URLPattern: "*/api/events", RequestStage: fetch.RequestStageResponse}}})
		return err
	}))
	cut := true
	go func() {
		for {
			var e *fetch.EventRequestPaused
			select {
			case e = <-paused:
			case <-p.ctx.Done():
				return
			}
			lose := cut && e.Request.Method == "POST"
			cut = cut && !lose
			_ = chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				if lose { // the server has answered 201; the browser never sees it
					_, err := cdp.Call(ctx, tg, fetch.FailRequest, fetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonConnectionReset})
					return err
				}
				_, err := cdp.Call(ctx, tg, fetch.ContinueResponse, fetch.ContinueResponseParams{RequestID: e.RequestID})
				return err
			}))
		}
	}()

	p.click("#quick-title")
	p.mu.Lock()
	p.offline = true // the cut answer is a failed load on purpose
	p.mu.Unlock()
	p.keys("Watered the plants\r")
	// The line whose answer was lost waits to be sent again (offline.js).
	p.waitFor("the line waiting to send", `Array.from(document.querySelectorAll('li.queued .row-title')).some(e => e.textContent === 'Watered the plants')`)
	if n := len(listAll(t, s.base)); n != 1 {
		t.Fatalf("%d events stored after the lost answer, want 1 (the server stored it)", n)
	}
	p.mu.Lock()
	p.offline = false
	p.mu.Unlock()

	// Sent again by itself: the same key and body, the stored record
	// answered, no second one.
	p.waitFor("the record in the list, nothing waiting", `document.querySelector('#list li.event-row a.title')?.textContent.trim() === 'Watered the plants' && !document.querySelector('li.queued') && document.querySelector('#quick-title').value === ''`)
	if n := len(listAll(t, s.base)); n != 1 {
		t.Errorf("%d events stored after the line was sent again, want 1", n)
	}
	if n := len(p.rowIDs()); n != 1 {
		t.Errorf("%d rows in the list, want 1", n)
	}

	// The next line is another record with another key.
	p.click("#quick-title")
	p.keys("Fed the fish\r")
	p.waitFor("the second record", `document.querySelector('#list li.event-row a.title')?.textContent.trim() === 'Fed the fish'`)
	if n := len(listAll(t, s.base)); n != 2 {
		t.Errorf("%d events stored after a second line, want 2", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(keys) != 3 || keys[0] != keys[1] || keys[1] == keys[2] || len(keys[0]) != 32 {
		t.Errorf("Idempotency-Keys sent: %q; want the first line's key twice, then another (32 hex digits each)", keys)
	}
}
