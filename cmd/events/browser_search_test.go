// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserSearch: a person types a Korean word into the sidebar's
// search box, reads the events that hold it, opens one; an English part
// of a word finds in any case; a word nothing holds says so. The results
// page is an address (a GET form), looked at 1280 and 390 pixels wide.
func TestBrowserSearch(t *testing.T) {
	exe := needBrowser(t)
	needPostgres(t)
	t.Parallel()
	b := startBrowser(t, exe)
	s := startWeb(t)
	loc := seoul(t)
	meeting := createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "주간 회의 준비", "description": "안건 세 가지",
		"start_at": day(time.Now(), loc, 1).Add(10 * time.Hour).Format(time.RFC3339), "project_tag": "work"})
	minutes := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Weekly sync notes", "description": "회의록 정리해서 공유"})
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "Groceries", "description": "milk, 두부"})

	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the Today tab", tabShown("today"))
	p.click("#site-search-q")
	p.keys("회의\r")
	p.waitFor("the results of 회의", `location.pathname === '/events/search' && document.querySelectorAll('#search-results > li.event-row').length === 2`)
	if got := p.path(); got != "/events/search?q=%ED%9A%8C%EC%9D%98" {
		t.Errorf("the search's address is %q, want /events/search?q=회의 (a GET form)", got)
	}
	titles := eval[[]string](p, `[...document.querySelectorAll('#search-results > li.event-row a.title')].map(a => a.textContent.trim())`)
	if !slices.Equal(titles, []string{"주간 회의 준비", "Weekly sync notes"}) {
		t.Errorf("results for 회의: %q, want the timed event first, then the task with 회의록 in its description", titles)
	}
	if v := eval[string](p, `document.querySelector('#site-search-q').value`); v != "회의" {
		t.Errorf("the search box holds %q after the search, want 회의", v)
	}
	if visible := eval[bool](p, `(() => { const e = document.querySelector('#search-results > li.empty'); return !!e && e.getClientRects().length > 0 })()`); visible {
		t.Errorf("the nothing-found sentence shows beside results")
	}
	p.audit("search results")
	dir := screenshotDir(t)
	p.screenshot("search-desktop.png", 1280, false)
	p.do("phone viewport", chromedp.EmulateViewport(390, 780, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	p.open("/events/search?q=%ED%9A%8C%EC%9D%98")
	p.waitFor("the results at phone width", `document.querySelectorAll('#search-results > li.event-row').length === 2`)
	if wide := eval[int](p, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); wide > 0 {
		t.Errorf("the results page at 390 pixels scrolls sideways by %d pixels", wide)
	}
	p.screenshot("search-phone.png", 390, true)
	if _, err := os.Stat(filepath.Join(dir, "search-phone.png")); err != nil {
		t.Error(err)
	}
	p.do("desktop viewport", chromedp.EmulateViewport(1280, 900))

	// open a result
	p.click(fmt.Sprintf("#search-results #event-%d a.title", meeting.ID))
	p.waitFor("the event's page", fmt.Sprintf(`location.pathname === '/events/%d' && document.querySelector('h1')?.textContent.includes('주간 회의 준비')`, meeting.ID))

	// an English part of a word, in another case, from the event's page
	p.click("#site-search-q")
	p.keys("EEKL\r")
	p.waitFor("the results of EEKL", fmt.Sprintf(`location.pathname === '/events/search' && [...document.querySelectorAll('#search-results > li.event-row')].map(li => li.id).join() === 'event-%d'`, minutes.ID))

	// a word no event holds
	p.open("/events/search?q=" + "%EC%97%86%EB%8A%94%EB%8B%A8%EC%96%B4") // 없는단어
	p.waitFor("the nothing-found sentence", `(() => { const e = document.querySelector('#search-results > li.empty'); return !!e && e.getClientRects().length > 0 && e.textContent.includes('없는단어') })()`)
	if n := eval[int](p, `document.querySelectorAll('#search-results > li.event-row').length`); n != 0 {
		t.Errorf("%d rows for a word no event holds", n)
	}
}
