// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// Issue 47, point 10, measured in a real browser: the "just recorded"
// tint stays inside the list column, a cancelled Korean title's strike is
// a line its strokes cannot hide, the review page's links are targets of
// at least 24 x 24 px on a phone, and /notes marks Notes in the sidebar.
// The screenshots (Today with a just-recorded row and a cancelled Korean
// title; the review page) are written at 1280 and 390 px.
//
//	go test -run TestBrowserScreen ./cmd/events

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestBrowserScreen(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"TodayTintAndStrike", testTintAndStrike},
		{"ReviewLinkTargets", testReviewLinkTargets},
		{"NotesInTheSidebar", testNotesInTheSidebar},
	})
}

// edges is a rectangle on the screen, in CSS pixels.
type edges struct{ Left, Top, Right, Bottom float64 }

// paintedBox is what the element at sel paints: its border box grown by
// each outset box-shadow (offset, blur and spread) and its outline.
const paintedBox = `((sel) => {
	const el = document.querySelector(sel);
	const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
	const b = {Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom};
	if (cs.boxShadow !== 'none') {
		for (const part of cs.boxShadow.split(/,(?![^(]*\))/)) {
			if (/\binset\b/.test(part)) continue;
			const [x = 0, y = 0, blur = 0, spread = 0] = (part.replace(/rgba?\([^)]*\)/g, '').match(/-?[\d.]+px/g) || []).map(parseFloat);
			b.Left = Math.min(b.Left, r.left + x - blur - spread);
			b.Right = Math.max(b.Right, r.right + x + blur + spread);
			b.Top = Math.min(b.Top, r.top + y - blur - spread);
			b.Bottom = Math.max(b.Bottom, r.bottom + y + blur + spread);
		}
	}
	if (cs.outlineStyle !== 'none') {
		const o = parseFloat(cs.outlineWidth) + parseFloat(cs.outlineOffset);
		if (o > 0) { b.Left -= o; b.Top -= o; b.Right += o; b.Bottom += o; }
	}
	return b;
})`

// rectOf is the border box of the element at sel.
func rectOf(p *tab, sel string) edges {
	return eval[edges](p, `(() => { const r = document.querySelector(`+jsString(sel)+`).getBoundingClientRect(); return {Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom} })()`)
}

// testTintAndStrike: on Today, at 1280 and at 390 px, a quick record's
// tint is painted inside the list column (it overflowed it by 8 px on each
// side), and a cancelled Korean title is struck through with a line 2 px
// thick in the text colour, not the muted grey of the title itself (a
// 1 px grey strike vanished among Hangul's horizontal strokes), with the
// row's "Cancelled" label beside it.
func testTintAndStrike(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	today := day(time.Now(), loc, 0)
	// one task to cancel on the page at each width (Today lists no
	// cancelled event: the row stays struck where it was cancelled)
	var tasks []apiEvent
	for _, title := range []string{"주간 회의 자료 정리", "월세 이체하기"} {
		tasks = append(tasks, createEvent(t, s.base, map[string]any{"kind": "task", "title": title, "due_at": rfc(today.Add(23 * time.Hour))}))
	}
	createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "치과 예약", "start_at": rfc(today.Add(15 * time.Hour)), "end_at": rfc(today.Add(16 * time.Hour))})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Morning run", "started_at": rfc(today.Add(7 * time.Hour)), "ended_at": rfc(today.Add(7*time.Hour + 40*time.Minute))})
	dir := screenshotDir(t)
	for _, f := range []string{"screen-today-desktop.png", "screen-today-phone.png"} {
		os.Remove(filepath.Join(dir, f))
	}
	p := b.newTab(t, s.base)
	for i, w := range []struct {
		width int64
		name  string
	}{{1280, "desktop"}, {390, "phone"}} {
		if w.width == 390 {
			p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
		}
		row := "#event-" + strconv.FormatInt(tasks[i].ID, 10)
		p.open("/events")
		p.waitFor("the task's row", `!!document.querySelector('`+row+` button.op-cancel')`)
		p.click(row + " button.op-cancel")
		p.waitFor("the row cancelled", `document.querySelector('`+row+`')?.dataset.status === 'cancelled'`)
		p.click("#quick-title")
		p.keys("코드 리뷰 30분\r")
		p.waitFor("the record, marked just recorded", `document.querySelector('li.event-row.just-recorded a.title')?.textContent.trim() === '코드 리뷰'`)

		// The tint: a colour of its own, painted inside the list column.
		if bg := eval[string](p, `getComputedStyle(document.querySelector('li.event-row.just-recorded')).backgroundColor`); bg == "rgba(0, 0, 0, 0)" || bg == "" {
			t.Errorf("%d px: the just-recorded row has no tint (background %q)", w.width, bg)
		}
		tint := eval[edges](p, paintedBox+`('li.event-row.just-recorded')`)
		column := rectOf(p, "#list")
		if tint.Left < column.Left-0.5 || tint.Right > column.Right+0.5 {
			t.Errorf("%d px: the tint spans x %.1f to %.1f, the list column %.1f to %.1f: it overflows by %.1f px", w.width,
				tint.Left, tint.Right, column.Left, column.Right, max(column.Left-tint.Left, tint.Right-column.Right))
		}
		// Its text does not touch the tint's edge.
		if title := rectOf(p, "li.event-row.just-recorded a.title"); title.Left-tint.Left < 6 {
			t.Errorf("%d px: the title starts %.1f px inside the tint, want at least 6", w.width, title.Left-tint.Left)
		}

		// The strike: line-through, 2 px, in the text colour.
		type decoration struct{ Line, Thickness, Color, TextColor, BodyColor, Label string }
		d := eval[decoration](p, `(() => {
			const cs = getComputedStyle(document.querySelector('`+row+` a.title'));
			const label = document.querySelector('`+row+` .status');
			return {Line: cs.textDecorationLine, Thickness: cs.textDecorationThickness, Color: cs.textDecorationColor,
				TextColor: cs.color, BodyColor: getComputedStyle(document.body).color,
				Label: label && label.getClientRects().length > 0 ? label.innerText.trim() : ''};
		})()`)
		if !strings.Contains(d.Line, "line-through") {
			t.Errorf("%d px: the cancelled title's decoration is %q, want line-through", w.width, d.Line)
		}
		if px, err := strconv.ParseFloat(strings.TrimSuffix(d.Thickness, "px"), 64); err != nil || px < 2 {
			t.Errorf("%d px: the strike is %q thick, want at least 2px (thicker than the strokes)", w.width, d.Thickness)
		}
		if d.Color == d.TextColor || d.Color != d.BodyColor {
			t.Errorf("%d px: the strike is %s on a title in %s, want the text colour %s, apart from the title's", w.width, d.Color, d.TextColor, d.BodyColor)
		}
		if !strings.EqualFold(d.Label, "cancelled") {
			t.Errorf("%d px: the cancelled row's visible label is %q, want Cancelled", w.width, d.Label)
		}
		p.screenshot("screen-today-"+w.name+".png", w.width, w.width == 390)
		if w.width == 390 {
			p.do("phone viewport again", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
		}
	}
}

// testReviewLinkTargets: at 390 px every link of the review page's head
// and totals (the weeks, the exports, the projects) is at least 24 x 24
// px (they were 16 to 23 px tall), and the page links the window's
// export as CSV and as NDJSON.
func testReviewLinkTargets(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	d := day(time.Now(), loc, -2)
	at := func(h, m int) string { return rfc(d.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)) }
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "주간 보고서 작성", "started_at": at(9, 0), "ended_at": at(11, 0), "project_tag": "work"})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Inbox zero", "started_at": at(16, 0), "ended_at": at(16, 30), "project_tag": "집"})
	gone := createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "취소된 회의", "started_at": at(13, 0), "ended_at": at(13, 30)})
	operate(t, s.base, gone.ID, "cancel", nil)
	from, to := d.AddDate(0, 0, -3).Format(time.DateOnly), d.AddDate(0, 0, 4).Format(time.DateOnly)
	target := "/events/review?from=" + from + "&to=" + to
	dir := screenshotDir(t)
	for _, f := range []string{"screen-review-desktop.png", "screen-review-phone.png"} {
		os.Remove(filepath.Join(dir, f))
	}

	p := b.newTab(t, s.base)
	p.open(target)
	p.waitFor("the review", `!!document.querySelector('.review-days')`)
	exports := eval[[]string](p, `[...document.querySelectorAll('.export a')].map(a => a.getAttribute('href') + ' ' + a.hasAttribute('download'))`)
	if len(exports) != 2 || !strings.HasSuffix(exports[0], "&format=csv true") || !strings.HasSuffix(exports[1], "&format=ndjson true") ||
		strings.TrimSuffix(exports[0], "csv true") != strings.TrimSuffix(exports[1], "ndjson true") {
		t.Errorf("the export links are %q, want the same window as CSV and as NDJSON, each a download", exports)
	}
	// Each link gives the file of the window, named after its days.
	for _, l := range exports {
		href := strings.Fields(l)[0]
		res, err := http.Get(s.base + href)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		last := d.AddDate(0, 0, 3).Format(time.DateOnly)
		ext := href[strings.LastIndex(href, "=")+1:]
		if cd := res.Header.Get("Content-Disposition"); res.StatusCode != 200 || cd != fmt.Sprintf(`attachment; filename="events-%s--%s.%s"`, from, last, ext) {
			t.Errorf("%s: %d, %q", href, res.StatusCode, cd)
		}
	}
	p.audit("the review page")
	p.screenshot("screen-review-desktop.png", 1280, false)

	p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	p.open(target)
	p.waitFor("the review", `!!document.querySelector('.review-days')`)
	type linkBox struct {
		Text          string
		Width, Height float64
	}
	const boxes = `[...document.querySelectorAll(%s)].map(a => {
		const r = a.getBoundingClientRect();
		return {Text: a.textContent.trim(), Width: r.width, Height: r.height};
	})`
	targets := eval[[]linkBox](p, fmt.Sprintf(boxes, jsString("main a")))
	// previous, (this week,) next, the legend's two projects, CSV, NDJSON,
	// the logbook's three titles and two tags
	if len(targets) < 11 {
		t.Fatalf("%d links on the review page: %v", len(targets), targets)
	}
	for _, tg := range targets {
		if tg.Width < 24 || tg.Height < 24 {
			t.Errorf("at 390 px the review's link %q is %.1f x %.1f px, want at least 24 x 24", tg.Text, tg.Width, tg.Height)
		}
	}
	// A cancelled log in the logbook: the same strike as on Today.
	if th := eval[string](p, `getComputedStyle(document.querySelector('.entry-cancelled a:not(.tag)')).textDecorationThickness`); th != "2px" {
		t.Errorf("the logbook's cancelled title is struck %q thick, want 2px", th)
	}
	if wide := eval[bool](p, `document.documentElement.scrollWidth > document.documentElement.clientWidth`); wide {
		t.Errorf("the review page scrolls sideways at 390 px")
	}
	p.screenshot("screen-review-phone.png", 390, true)

	// Today's link to the review, at 390 px too.
	p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	p.open("/events")
	p.waitFor("Today", `!!document.querySelector('.tabs-aside a')`)
	for _, tg := range eval[[]linkBox](p, fmt.Sprintf(boxes, jsString(".tabs-aside a"))) {
		if tg.Width < 24 || tg.Height < 24 {
			t.Errorf("at 390 px Today's link %q is %.1f x %.1f px, want at least 24 x 24", tg.Text, tg.Width, tg.Height)
		}
	}
}

// testNotesInTheSidebar: /notes marks Notes as the current page in the
// sidebar, and nothing else (it marked Events); /events still marks Events.
// The language list marks the page's language apart from the pages.
func testNotesInTheSidebar(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	current := func() []string {
		return eval[[]string](p, `[...document.querySelectorAll('.sidebar [aria-current]:not(.langs a)')].map(a => a.textContent.trim() + '=' + a.getAttribute('aria-current'))`)
	}
	p.open("/notes")
	p.waitFor("the notes page", `document.querySelector('h1')?.textContent === 'Notes'`)
	if got := current(); len(got) != 1 || got[0] != "Notes=page" {
		t.Errorf("/notes: the sidebar marks %q, want only Notes=page", got)
	}
	p.open("/events")
	p.waitFor("the events page", `!!document.querySelector('#list')`)
	if got := current(); len(got) != 1 || got[0] != "Events=page" {
		t.Errorf("/events: the sidebar marks %q, want only Events=page", got)
	}
}
