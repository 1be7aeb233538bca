package main

// Issue 47, point 10, measured in a real browser: the review page's
// links are targets of at least 24 x 24 px on a phone, and /notes marks
// Notes in the sidebar. The screenshots of the review page are written
// at 1280 and 390 px.
//
//	go test -run TestBrowserScreen ./cmd/events

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestBrowserScreen(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"ReviewLinkTargets", testReviewLinkTargets},
		{"NotesInTheSidebar", testNotesInTheSidebar},
	})
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
func testNotesInTheSidebar(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	current := func() []string {
		return eval[[]string](p, `[...document.querySelectorAll('.sidebar [aria-current]')].map(a => a.textContent.trim() + '=' + a.getAttribute('aria-current'))`)
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
