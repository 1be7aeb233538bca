// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// summaryAnswer is GET /api/events/summary's answer.
type summaryAnswer struct {
	From, To, TZ string
	Days         []summaryDay
	Total        summaryCounts
}

type summaryCounts struct {
	LoggedSeconds int64 `json:"logged_seconds"`
	Projects      []struct {
		ProjectTag *string `json:"project_tag"`
		Seconds    int64   `json:"seconds"`
	} `json:"projects"`
	Logs           int64 `json:"logs"`
	TasksCompleted int64 `json:"tasks_completed"`
	CalendarEvents int64 `json:"calendar_events"`
	Cancelled      int64 `json:"cancelled"`
	TasksDue       int64 `json:"tasks_due"`
}

// projectsSum is the sum of the projects' seconds.
func (c summaryCounts) projectsSum() int64 {
	var n int64
	for _, p := range c.Projects {
		n += p.Seconds
	}
	return n
}

type summaryDay struct {
	Date string `json:"date"`
	summaryCounts
}

func (s *server) summary(query string) summaryAnswer {
	s.t.Helper()
	var out summaryAnswer
	s.get("/api/events/summary?"+query).wantJSON(s.t, http.StatusOK, &out)
	return out
}

// week records, in Seoul, a week's days (now is Sunday 22 Nov 12:00):
// Fri 20 Nov 09:00-11:00 #work and 10:00-11:10 without a project (the union
// is 2 h 10 min, the hour they overlap shared: #work 1 h 30 min, no
// project 40 min), a log across midnight into Sat 21 Nov, a task completed
// on Sat, a calendar entry on Thu 19 Nov, a task cancelled on Sun.
func (s *server) week() map[string]int64 {
	ids := map[string]int64{}
	ids["work"] = s.create(`{"kind":"activity_log","title":"Write the report","started_at":"2026-11-20T09:00:00+09:00","ended_at":"2026-11-20T11:00:00+09:00","project_tag":"work"}`).ID
	ids["plain"] = s.create(`{"kind":"activity_log","title":"Emails","started_at":"2026-11-20T10:00:00+09:00","ended_at":"2026-11-20T11:10:00+09:00"}`).ID
	ids["night"] = s.create(`{"kind":"activity_log","title":"야간 배포","started_at":"2026-11-20T23:30:00+09:00","ended_at":"2026-11-21T00:30:00+09:00","project_tag":"ops"}`).ID
	ids["meeting"] = s.create(`{"kind":"calendar_event","title":"주간 회의","start_at":"2026-11-19T14:00:00+09:00","end_at":"2026-11-19T15:00:00+09:00"}`).ID
	s.clock.Set(t0.Add(-24 * 3600 * 1e9)) // Sat 21 Nov 12:00
	ids["done"] = s.create(`{"kind":"task","title":"Pay rent","due_at":"2026-11-21T09:00:00+09:00","project_tag":"home"}`).ID
	s.op(ids["done"], "complete", "")
	s.clock.Set(t0)
	ids["dropped"] = s.create(`{"kind":"task","title":"Old idea"}`).ID
	s.op(ids["dropped"], "cancel", "")
	return ids
}

func TestSummaryAPICountsTheDaysOfAWindow(t *testing.T) {
	s := newServer(t)
	s.week()
	sum := s.summary("from=2026-11-16T00:00:00%2B09:00&to=2026-11-23T00:00:00%2B09:00")
	if sum.From != "2026-11-15T15:00:00.000000Z" || sum.To != "2026-11-22T15:00:00.000000Z" || sum.TZ != "Asia/Seoul" {
		t.Errorf("window = %s .. %s in %s", sum.From, sum.To, sum.TZ)
	}
	if len(sum.Days) != 7 || sum.Days[0].Date != "2026-11-16" || sum.Days[6].Date != "2026-11-22" {
		t.Fatalf("days = %+v", sum.Days)
	}
	fri, sat, thu, sun := sum.Days[4], sum.Days[5], sum.Days[3], sum.Days[6]
	if fri.LoggedSeconds != 7800+1800 || fri.Logs != 3 {
		t.Errorf("Friday = %+v, want 2 h 40 min over 3 logs", fri)
	}
	if len(fri.Projects) != 3 || *fri.Projects[0].ProjectTag != "work" || fri.Projects[0].Seconds != 5400 ||
		fri.Projects[1].ProjectTag != nil || fri.Projects[1].Seconds != 2400 || *fri.Projects[2].ProjectTag != "ops" || fri.Projects[2].Seconds != 1800 {
		t.Errorf("Friday's projects = %+v", fri.Projects)
	}
	if sat.LoggedSeconds != 1800 || sat.TasksCompleted != 1 || thu.CalendarEvents != 1 || sun.Cancelled != 1 {
		t.Errorf("Sat %+v, Thu %+v, Sun %+v", sat, thu, sun)
	}
	if d := sum.Days[0]; d.LoggedSeconds != 0 || d.Projects == nil || len(d.Projects) != 0 || d.Logs != 0 {
		t.Errorf("an empty Monday = %+v, want zeros and projects []", d)
	}
	if sum.Total.LoggedSeconds != 7800+3600 || sum.Total.Logs != 3 || sum.Total.TasksCompleted != 1 || sum.Total.CalendarEvents != 1 || sum.Total.Cancelled != 1 {
		t.Errorf("total = %+v", sum.Total)
	}
	// Each day's projects add up to its logged time, the week's to its total.
	for _, d := range sum.Days {
		if d.projectsSum() != d.LoggedSeconds {
			t.Errorf("%s: projects add up to %d s, logged %d s", d.Date, d.projectsSum(), d.LoggedSeconds)
		}
	}
	if sum.Total.projectsSum() != sum.Total.LoggedSeconds {
		t.Errorf("the week's projects add up to %d s, logged %d s", sum.Total.projectsSum(), sum.Total.LoggedSeconds)
	}
	// The default window: the last seven days up to today.
	def := s.summary("")
	if def.From != "2026-11-15T15:00:00.000000Z" || len(def.Days) != 7 {
		t.Errorf("default window from %s, %d days", def.From, len(def.Days))
	}
}

func TestSummaryAPITimeZoneMovesTheDayBoundary(t *testing.T) {
	s := newServer(t)
	s.week()
	// 23:30-00:30 in Seoul is 14:30-15:30 UTC: one day in UTC, two in Seoul.
	seoul := s.summary("from=2026-11-20T00:00:00%2B09:00&to=2026-11-22T00:00:00%2B09:00")
	if len(seoul.Days) != 2 || seoul.Days[1].LoggedSeconds != 1800 || seoul.Days[1].Logs != 1 {
		t.Errorf("Seoul: %+v", seoul.Days)
	}
	utc := s.summary("from=2026-11-20T00:00:00Z&to=2026-11-22T00:00:00Z&tz=UTC")
	if utc.TZ != "UTC" || len(utc.Days) != 2 || utc.Days[0].Date != "2026-11-20" {
		t.Fatalf("UTC: %+v", utc)
	}
	// 00:00-02:10 UTC of the 20th is Friday morning in Seoul; the night log
	// lies wholly in the 20th in UTC.
	if got := utc.Days[0].LoggedSeconds; got != 7800+3600 {
		t.Errorf("UTC 20 Nov logged %d, want %d", got, 7800+3600)
	}
	if utc.Days[1].LoggedSeconds != 0 || utc.Days[1].TasksCompleted != 1 {
		t.Errorf("UTC 21 Nov = %+v", utc.Days[1])
	}
}

func TestSummaryAPILimits(t *testing.T) {
	s := newServer(t)
	if n := len(s.summary("from=2025-11-23T00:00:00%2B09:00&to=2026-11-24T00:00:00%2B09:00").Days); n != 366 {
		t.Errorf("366 days: %d days", n)
	}
	for _, c := range []struct{ query, field string }{
		{"from=2025-11-23T00:00:00%2B09:00&to=2026-11-25T00:00:00%2B09:00", "to"}, // 367 days
		{"from=2026-11-20T00:00:00Z&to=2026-11-20T00:00:00Z", "from"},
		{"from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z", "from"},
		{"tz=Mars/Olympus", "tz"},
		{"tz=", "tz"},
		{"from=yesterday", "from"},
		{"from=2026-11-20", "from"}, // the API takes RFC 3339
		{"from=2026-11-20T00:00:00Z&from=2026-11-21T00:00:00Z", "from"},
		{"kind=task", "kind"},
	} {
		s.get("/api/events/summary?"+c.query).problem(t, http.StatusBadRequest, c.field)
	}
	s.do("POST", "/api/events/summary", "", "").want(t, http.StatusMethodNotAllowed)
}

func TestSummaryAndReviewNeedTheOwner(t *testing.T) {
	t.Parallel()
	s, _ := authServer(t, true)
	s.get("/api/events/summary").problem(t, http.StatusUnauthorized)
	var sum summaryAnswer
	s.get("/api/events/summary", bearer...).wantJSON(t, http.StatusOK, &sum)
	if len(sum.Days) != 7 {
		t.Errorf("%d days", len(sum.Days))
	}
	a := s.get("/events/review")
	a.want(t, http.StatusSeeOther)
	if got := a.Header.Get("Location"); got != "/login?next=%2Fevents%2Freview" {
		t.Errorf("Location = %q", got)
	}
}

// reviewHTML loads the review page.
func (s *server) review(query string) string {
	s.t.Helper()
	a := s.get("/events/review" + query)
	a.want(s.t, http.StatusOK)
	body := string(a.Body)
	if !strings.HasPrefix(body, "<!doctype html>") || !strings.Contains(body, `<a href="/events/review" aria-current="page">Review</a>`) {
		s.t.Fatalf("want the review page with its sidebar entry current, got:\n%s", body)
	}
	return body
}

// dayBlock is the part of the review page about one date.
func dayBlock(t *testing.T, body, date string) string {
	t.Helper()
	i := strings.Index(body, `data-date="`+date+`"`)
	if i < 0 {
		t.Fatalf("no day %s on the page", date)
	}
	i = strings.LastIndex(body[:i], "<li")
	rest := body[i:]
	if j := strings.Index(rest[len("<li data-date"):], `<li class="day`); j >= 0 {
		rest = rest[:j+len("<li data-date")]
	}
	return rest
}

var (
	rectRe     = regexp.MustCompile(`<rect class="(proj[0-7]|proj-none|proj-other)" x="(\d+)" y="0" width="(\d+)" height="10"><title>([^<]*)</title></rect>`)
	dayTotalRe = regexp.MustCompile(`<span class="day-total(?: none)?" data-seconds="(\d+)">([^<]*)</span>`)
)

func TestReviewPageDrawsTheSummary(t *testing.T) {
	s := newServer(t)
	ids := s.week()
	body := s.review("") // this week: Monday 16 Nov to Sunday 22 Nov
	sum := s.summary("from=2026-11-16T00:00:00%2B09:00&to=2026-11-23T00:00:00%2B09:00")
	for _, want := range []string{
		`<span class="range">16 – 22 Nov 2026</span>`,
		`href="/events/review?from=2026-11-09&amp;to=2026-11-16" rel="prev"`,
		`href="/events/review?from=2026-11-23&amp;to=2026-11-30" rel="next"`,
		`href="/api/events/export?from=2026-11-15T15%3A00%3A00.000000Z&amp;to=2026-11-22T15%3A00%3A00.000000Z&amp;format=csv"`,
		`<span id="review-logged">3 h 10 min</span>`,
		// tags link to their listing, in the legend and in the logbook
		`<a href="/events?project_tag=work" aria-label="Events tagged work"><bdi>work</bdi></a>`,
		`<a class="tag" href="/events?project_tag=ops" aria-label="Events tagged ops">#<bdi>ops</bdi></a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(body, "This week</a>") {
		t.Error("this week's page offers a link to this week")
	}
	for _, d := range sum.Days {
		block := dayBlock(t, body, d.Date)
		if d.LoggedSeconds == 0 && d.TasksCompleted+d.CalendarEvents+d.Cancelled == 0 {
			if !strings.Contains(block, "day-empty") || strings.Contains(block, "<svg") {
				t.Errorf("%s: an empty day is not compact: %s", d.Date, block)
			}
			continue
		}
		m := dayTotalRe.FindStringSubmatch(block)
		want := "no time logged"
		if d.LoggedSeconds > 0 {
			want = durationText(d.LoggedSeconds)
		}
		if m == nil || m[1] != strconv.FormatInt(d.LoggedSeconds, 10) || m[2] != want {
			t.Errorf("%s: total %v, want %d seconds, %q", d.Date, m, d.LoggedSeconds, want)
		}
		rects := rectRe.FindAllStringSubmatch(block, -1)
		if len(rects) != len(d.Projects) {
			t.Fatalf("%s: %d bars, want %d projects", d.Date, len(rects), len(d.Projects))
		}
		var x int64
		for _, r := range rects {
			var p *struct {
				ProjectTag *string `json:"project_tag"`
				Seconds    int64   `json:"seconds"`
			}
			for i := range d.Projects {
				name := "no project"
				if d.Projects[i].ProjectTag != nil {
					name = *d.Projects[i].ProjectTag
				}
				if strings.HasPrefix(r[4], name+": ") {
					p = &d.Projects[i]
				}
			}
			if p == nil || r[3] != strconv.FormatInt(p.Seconds, 10) || r[2] != strconv.FormatInt(x, 10) {
				t.Errorf("%s: bar %v does not match the summary's %+v", d.Date, r, d.Projects)
				continue
			}
			x += p.Seconds
			if !strings.Contains(block, `<li data-seconds="`+r[3]+`">`) {
				t.Errorf("%s: no text for the bar %v", d.Date, r)
			}
		}
	}
	fri := dayBlock(t, body, "2026-11-20")
	for _, want := range []string{
		`<span class="day-total" data-seconds="9600">2 h 40 min</span>`,
		`work 1 h 30 min</li>`, `no project 40 min</li>`, `ops 30 min</li>`,
		`<a href="/events/` + strconv.FormatInt(ids["work"], 10) + `">Write the report</a> <span class="span">2 h</span>`,
		`<time datetime="2026-11-20T14:30:00.000000Z">23:30–Sat 00:30</time>`,
		// a log across midnight: each day its own piece, the whole named
		`">야간 배포</a> <span class="span">30 min of 1 h</span>`,
	} {
		if !strings.Contains(fri, want) {
			t.Errorf("Friday lacks %s:\n%s", want, fri)
		}
	}
	// the log across midnight is in Saturday's logbook too, with its date
	sat := dayBlock(t, body, "2026-11-21")
	for _, want := range []string{
		`<time datetime="2026-11-20T14:30:00.000000Z">Fri 23:30–00:30</time> <a href="/events/` + strconv.FormatInt(ids["night"], 10) + `">야간 배포</a>`,
		`<span class="what">Done</span>`, `<a href="/events/` + strconv.FormatInt(ids["done"], 10) + `">Pay rent</a>`,
		`">야간 배포</a> <span class="span">30 min of 1 h</span>`,
	} {
		if !strings.Contains(sat, want) {
			t.Errorf("Saturday lacks %s:\n%s", want, sat)
		}
	}
	if thu := dayBlock(t, body, "2026-11-19"); !strings.Contains(thu, `<span class="what">Calendar</span> <time datetime="2026-11-19T05:00:00.000000Z">14:00–15:00</time> <a href="/events/`+strconv.FormatInt(ids["meeting"], 10)+`">주간 회의</a>`) {
		t.Errorf("Thursday lacks the meeting:\n%s", thu)
	}
	if sun := dayBlock(t, body, "2026-11-22"); !strings.Contains(sun, `<span class="what">Cancelled</span>`) || !strings.Contains(sun, `>Old idea</a>`) || !strings.Contains(sun, `<span class="today">today</span>`) {
		t.Errorf("Sunday lacks the cancellation or the today mark:\n%s", sun)
	}
}

func TestReviewPageWindowByFromTo(t *testing.T) {
	s := newServer(t)
	s.week()
	body := s.review("?from=2026-11-20&to=2026-11-22")
	if n := strings.Count(body, `<li class="day`); n != 2 {
		t.Errorf("%d days, want 2", n)
	}
	for _, want := range []string{
		`<span class="range">20 – 21 Nov 2026</span>`,
		`href="/events/review?from=2026-11-18&amp;to=2026-11-20" rel="prev"`,
		`href="/events/review?from=2026-11-22&amp;to=2026-11-24" rel="next"`,
		`<a href="/events/review?from=2026-11-16&amp;to=2026-11-23">This week</a>`,
		`<span id="review-logged">3 h 10 min</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	// a week ahead, across a month: nothing planned (nothing can be logged yet)
	body = s.review("?from=" + url.QueryEscape("2026-11-30") + "&to=2026-12-07")
	if !strings.Contains(body, `30 Nov – 6 Dec 2026`) || strings.Count(body, `<li class="day day-empty"`) != 7 ||
		!strings.Contains(body, `<span id="review-plan">nothing planned</span>`) || strings.Contains(body, "No time logged") {
		t.Errorf("an empty week across a month:\n%s", body)
	}
	for _, q := range []string{"?from=soon", "?tz=UTC", "?from=2026-11-20&to=2026-11-20", "?from=2025-01-01&to=2026-11-01"} {
		s.get("/events/review"+q).want(t, http.StatusBadRequest)
	}
}

func TestEventsPageLinksTheReview(t *testing.T) {
	s := newServer(t)
	body := s.get("/events").pageHTML(t, http.StatusOK)
	if !strings.Contains(body, `<p class="tabs-aside"><a href="/events/review">Review the week</a></p>`) ||
		!strings.Contains(body, `<li><a href="/events/review">Review</a></li>`) {
		t.Errorf("/events does not link the review page")
	}
	// the tabs' fragment keeps the link
	frag := string(s.get("/events?tab=inbox", "HX-Request", "true").Body)
	if !strings.Contains(frag, `href="/events/review"`) {
		t.Errorf("the tab fragment lost the review link")
	}
}

// durationText is a duration as the page writes it, computed apart from
// the page's own function: minutes rounded to the nearest.
func durationText(seconds int64) string {
	m := (seconds + 30) / 60
	h, m := m/60, m%60
	switch {
	case h == 0:
		return fmt.Sprintf("%d min", m)
	case m == 0:
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// The review of a week still ahead is its plan: each day lists the tasks
// due and the calendar entries, and the window says its plan beside what
// was logged. A task due on a day gone by is overdue in that day's logbook.
func TestReviewPageOfAWeekAheadIsAPlan(t *testing.T) {
	s := newServer(t) // now: Sunday 22 Nov 12:00 in Seoul
	rent := s.create(`{"kind":"task","title":"Pay rent","due_at":"2026-11-24T09:00:00+09:00","project_tag":"home"}`).ID
	call := s.create(`{"kind":"calendar_event","title":"치과","start_at":"2026-11-25T15:00:00+09:00","end_at":"2026-11-25T16:00:00+09:00"}`).ID
	s.create(`{"kind":"task","title":"Done already","due_at":"2026-11-26T09:00:00+09:00","status":"done"}`)
	late := s.create(`{"kind":"task","title":"Late report","due_at":"2026-11-20T17:00:00+09:00"}`).ID

	body := s.review("?from=2026-11-23&to=2026-11-30")
	if !strings.Contains(body, `<h2 class="review-plan">Plan <span id="review-plan">1 task due · 1 calendar entry</span></h2>`) {
		t.Errorf("the week's plan is not beside its logged time:\n%s", body)
	}
	tue := dayBlock(t, body, "2026-11-24")
	for _, want := range []string{
		`<span class="plan-label">Plan</span> 1 task due`,
		`<ul class="logbook plan" aria-label="Plan for Tue 24 Nov">`,
		`<li class="entry entry-due"><span class="what">Due</span> <time datetime="2026-11-24T00:00:00.000000Z">09:00</time> <a href="/events/` + strconv.FormatInt(rent, 10) + `">Pay rent</a>`,
	} {
		if !strings.Contains(tue, want) {
			t.Errorf("Tuesday lacks %s:\n%s", want, tue)
		}
	}
	if wed := dayBlock(t, body, "2026-11-25"); !strings.Contains(wed, `<span class="what">Calendar</span> <time datetime="2026-11-25T06:00:00.000000Z">15:00–16:00</time> <a href="/events/`+strconv.FormatInt(call, 10)+`">치과</a>`) ||
		!strings.Contains(wed, `aria-label="Plan for Wed 25 Nov"`) {
		t.Errorf("Wednesday's plan lacks the calendar entry:\n%s", wed)
	}
	if thu := dayBlock(t, body, "2026-11-26"); strings.Contains(thu, "Done already") || !strings.Contains(thu, "Nothing planned") {
		t.Errorf("Thursday plans a task already done:\n%s", thu)
	}
	// last week: the task due on Friday is overdue there
	past := dayBlock(t, s.review("?from=2026-11-16&to=2026-11-23"), "2026-11-20")
	if !strings.Contains(past, `<span class="what">Overdue</span> <time datetime="2026-11-20T08:00:00.000000Z">17:00</time> <a href="/events/`+strconv.FormatInt(late, 10)+`">Late report</a>`) || strings.Contains(past, "day-plan") {
		t.Errorf("a past day's open task is not overdue, or the day has a plan:\n%s", past)
	}
	if sum := s.summary("from=2026-11-23T00:00:00%2B09:00&to=2026-11-30T00:00:00%2B09:00"); sum.Days[1].TasksDue != 1 || sum.Total.TasksDue != 1 {
		t.Errorf("summary tasks_due: %+v", sum.Total)
	}
}

// The review's shown parts add up to its shown totals (DESIGN.md, Summary,
// Shown minutes): a day of two 90-second logs of two projects is 3 min,
// its projects 2 min and 1 min (both were "2 min"), and the window's total
// and projects are the sums of its days' (the window said 6 min beside
// days of 3, 2 and 2).
func TestReviewPartsAddUpToTheirTotals(t *testing.T) {
	s := newServer(t)
	for _, l := range []string{
		`"started_at":"2026-11-16T09:00:00+09:00","ended_at":"2026-11-16T09:01:30+09:00","project_tag":"a"`,
		`"started_at":"2026-11-16T10:00:00+09:00","ended_at":"2026-11-16T10:01:30+09:00","project_tag":"b"`,
		`"started_at":"2026-11-17T10:00:00+09:00","ended_at":"2026-11-17T10:01:30+09:00","project_tag":"a"`,
		`"started_at":"2026-11-18T10:00:00+09:00","ended_at":"2026-11-18T10:01:30+09:00","project_tag":"b"`,
	} {
		s.create(`{"kind":"activity_log","title":"x",` + l + `}`)
	}
	body := s.review("")
	if !strings.Contains(body, `<span id="review-logged">7 min</span>`) {
		t.Errorf("the window's total is not 7 min (3 + 2 + 2):\n%s", body)
	}
	for _, want := range []string{`<bdi>a</bdi></a></span> <span class="legend-time">4 min</span>`, `<bdi>b</bdi></a></span> <span class="legend-time">3 min</span>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the legend lacks %s", want)
		}
	}
	mon := dayBlock(t, body, "2026-11-16")
	for _, want := range []string{`data-seconds="180">3 min</span>`, `a 2 min</li>`, `b 1 min</li>`} {
		if !strings.Contains(mon, want) {
			t.Errorf("Monday lacks %s:\n%s", want, mon)
		}
	}
}

// The review's Plan counts entries, not days: a three-day holiday is one
// calendar entry of the week's plan (it said 3), while each of its days
// lists it in its own plan.
func TestReviewPlanCountsEntries(t *testing.T) {
	s := newServer(t) // now: Sunday 22 Nov 12:00 in Seoul
	s.create(`{"kind":"calendar_event","title":"휴가","start_at":"2026-11-25T00:00:00+09:00","end_at":"2026-11-28T00:00:00+09:00","all_day":true}`)
	s.create(`{"kind":"calendar_event","title":"치과","start_at":"2026-11-24T15:00:00+09:00","end_at":"2026-11-24T16:00:00+09:00"}`)
	body := s.review("?from=2026-11-23&to=2026-11-30")
	if !strings.Contains(body, `<span id="review-plan">2 calendar entries</span>`) {
		t.Errorf("the week's plan does not count 2 entries:\n%s", body)
	}
	for _, day := range []string{"2026-11-25", "2026-11-26", "2026-11-27"} {
		if !strings.Contains(dayBlock(t, body, day), "휴가") {
			t.Errorf("%s does not plan the holiday", day)
		}
	}
}
