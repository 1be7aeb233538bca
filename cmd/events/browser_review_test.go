package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// testReview: the review page as a person opens it. Logs two days ago (in
// the service's zone), reached from /events; read that day's total; the
// next and previous links; screenshots at 1280 and 390 pixels.
func testReview(t *testing.T, b *browser) {
	s := startWeb(t)
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().In(loc)
	day := time.Date(now.Year(), now.Month(), now.Day()-2, 0, 0, 0, 0, loc)
	at := func(h, m int) string { return rfc(day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)) }
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Wrote the quarterly report", "started_at": at(9, 0), "ended_at": at(11, 0), "project_tag": "work"})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "주간 회의 준비", "started_at": at(13, 0), "ended_at": at(13, 40), "project_tag": "회의"})
	createEvent(t, s.base, map[string]any{"kind": "activity_log", "title": "Inbox zero", "started_at": at(16, 0), "ended_at": at(16, 30)})
	createEvent(t, s.base, map[string]any{"kind": "calendar_event", "title": "Dentist", "start_at": at(18, 0), "end_at": at(18, 45)})
	done := createEvent(t, s.base, map[string]any{"kind": "task", "title": "Renew the passport", "project_tag": "home"})
	operate(t, s.base, done.ID, "complete", nil)
	date := day.Format(time.DateOnly)
	from, to := day.AddDate(0, 0, -3).Format(time.DateOnly), day.AddDate(0, 0, 4).Format(time.DateOnly)

	p := b.newTab(t, s.base)
	dir := screenshotDir(t)
	for _, f := range []string{"review-desktop.png", "review-phone.png"} {
		os.Remove(filepath.Join(dir, f))
	}
	// From /events, the link in the tabs' row.
	p.open("/events")
	p.click(`.tabs-aside a[href="/events/review"]`)
	p.waitFor("the review page", `location.pathname === '/events/review' && !!document.querySelector('.review-days')`)
	if n := eval[int](p, `document.querySelectorAll('.review-days > li').length`); n != 7 {
		t.Errorf("this week shows %d days, want 7", n)
	}
	if got := eval[string](p, `document.querySelector('.sidebar a[aria-current="page"]').textContent`); got != "Review" {
		t.Errorf("the sidebar marks %q as the current page", got)
	}

	// The week around the day: its total as a person reads it.
	p.open("/events/review?from=" + from + "&to=" + to)
	sel := `li[data-date="` + date + `"]`
	p.waitFor("the day", `!!document.querySelector('`+sel+` .day-total')`)
	if got := eval[string](p, `document.querySelector('`+sel+` .day-total').innerText`); got != "3 h 10 min" {
		t.Errorf("the day's total reads %q, want 3 h 10 min", got)
	}
	text := eval[string](p, `document.querySelector('`+sel+`').innerText`)
	for _, want := range []string{"work 2 h", "회의 40 min", "no project 30 min", "Wrote the quarterly report", "주간 회의 준비", "Dentist", "3 logs · 1 calendar entry"} {
		if !strings.Contains(text, want) {
			t.Errorf("the day lacks %q:\n%s", want, text)
		}
	}
	if n := eval[int](p, `document.querySelectorAll('`+sel+` svg.bar rect:not(.bar-track)').length`); n != 3 {
		t.Errorf("the day's bar has %d parts, want 3", n)
	}
	// The bar's parts are drawn: each has a width on the screen, in order.
	widths := eval[[]float64](p, `[...document.querySelectorAll('`+sel+` svg.bar rect:not(.bar-track)')].map(r => r.getBoundingClientRect().width)`)
	if len(widths) != 3 || !(widths[0] > widths[1] && widths[1] > widths[2] && widths[2] > 0) {
		t.Errorf("the bar's parts are %v pixels wide, want 2 h > 40 min > 30 min > 0", widths)
	}
	if got := eval[string](p, `document.querySelector('.export a').getAttribute('href')`); !strings.HasPrefix(got, "/api/events/export?from=") || !strings.HasSuffix(got, "&format=csv") {
		t.Errorf("the export link is %q", got)
	}
	p.audit("/events/review")
	p.screenshot("review-desktop.png", 1280, false)
	p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	p.open("/events/review?from=" + from + "&to=" + to)
	p.waitFor("the day", `!!document.querySelector('`+sel+` .day-total')`)
	if wide := eval[bool](p, `document.documentElement.scrollWidth > document.documentElement.clientWidth`); wide {
		t.Errorf("the review page scrolls sideways at 390 pixels")
	}
	p.screenshot("review-phone.png", 390, true)

	// The next week and back.
	p.click(`a[rel="next"]`)
	next := "/events/review?from=" + to + "&to=" + day.AddDate(0, 0, 11).Format(time.DateOnly)
	p.waitFor("the next week", `location.pathname + location.search === `+jsString(next))
	if eval[bool](p, `!!document.querySelector('`+sel+`')`) {
		t.Errorf("the next week still shows %s", date)
	}
	p.click(`a[rel="prev"]`)
	p.waitFor("back to the week", `!!document.querySelector('`+sel+` .day-total')`)
	if got := p.path(); got != "/events/review?from="+from+"&to="+to {
		t.Errorf("previous of the next week is %s", got)
	}
}
