// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// dayOutline is a tab's headings and rows in page order: "# Today", "#
// Today · 2 h logged" (with Activity's total), and each row as its id.
func dayOutline(body string) []string {
	re := regexp.MustCompile(`<h2 id="day-[0-9-]+">([^<]*)</h2>(?: <span class="day-logged" data-seconds="\d+">([^<]*)</span>)?|<li class="event-row" id="event-(\d+(?:-on-[0-9-]+)?)"`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		switch {
		case m[3] != "":
			out = append(out, m[3])
		case m[2] != "":
			out = append(out, "# "+m[1]+" · "+m[2])
		default:
			out = append(out, "# "+m[1])
		}
	}
	return out
}

// Upcoming and Activity are grouped under day headings in the zone;
// Activity's headings carry the day's logged time, the summary's.
func TestUpcomingAndActivityByDay(t *testing.T) {
	s := newServer(t) // now is 12:00 on Sun 2026-11-22 in Seoul
	dentist := s.create(`{"kind":"calendar_event","title":"Dentist","start_at":"2026-11-22T15:00:00+09:00"}`)
	rent := s.create(`{"kind":"task","title":"Pay rent","due_at":"2026-11-23T09:00:00+09:00"}`)
	offsite := s.create(`{"kind":"calendar_event","title":"Offsite","start_at":"2026-11-30T10:00:00+09:00","end_at":"2026-11-30T17:00:00+09:00"}`)
	going := s.create(`{"kind":"calendar_event","title":"Conference","start_at":"2026-11-21T09:00:00+09:00","end_at":"2026-11-23T18:00:00+09:00"}`)
	a := s.create(`{"kind":"activity_log","title":"a","started_at":"2026-11-22T09:00:00+09:00","ended_at":"2026-11-22T10:00:00+09:00","project_tag":"work"}`)
	b := s.create(`{"kind":"activity_log","title":"b","started_at":"2026-11-22T09:30:00+09:00","ended_at":"2026-11-22T11:00:00+09:00"}`)
	c := s.create(`{"kind":"activity_log","title":"c","started_at":"2026-11-20T23:30:00+09:00","ended_at":"2026-11-21T00:15:00+09:00"}`)
	d := s.create(`{"kind":"activity_log","title":"d","started_at":"2026-11-19T08:00:00+09:00","ended_at":"2026-11-19T08:45:00+09:00"}`)

	up := s.get("/events?tab=upcoming").pageHTML(t, http.StatusOK)
	want := []string{"# Today", itoa(going.ID), itoa(dentist.ID), "# Tomorrow", itoa(rent.ID), "# Mon 30 Nov", itoa(offsite.ID)}
	if got := dayOutline(up); !slices.Equal(got, want) {
		t.Errorf("Upcoming = %q,\nwant %q", got, want)
	}
	if !strings.Contains(up, `<section class="day-group" data-day="2026-11-22" aria-labelledby="day-2026-11-22">`) ||
		!strings.Contains(up, `<ul class="events" data-records data-tasks aria-live="polite" aria-relevant="additions">`) {
		t.Errorf("today's group is not the capture lines' list:\n%s", up)
	}
	act := s.get("/events?tab=activity").pageHTML(t, http.StatusOK)
	want = []string{"# Today · 2 h logged", itoa(b.ID), itoa(a.ID), "# Yesterday · 15 min logged", itoa(c.ID),
		"# Fri 20 Nov · 30 min logged", itoa(c.ID) + "-on-2026-11-20", "# Thu 19 Nov · 45 min logged", itoa(d.ID)}
	if got := dayOutline(act); !slices.Equal(got, want) {
		t.Errorf("Activity = %q,\nwant %q", got, want)
	}
	// the heading's total is the summary's
	sum := s.summary("")
	if sum.Days[6].LoggedSeconds != 7200 || !strings.Contains(act, `data-seconds="7200">2 h logged</span>`) {
		t.Errorf("today's total: summary %d s", sum.Days[6].LoggedSeconds)
	}
	// A tab with no rows says so; today's empty group is there for the capture lines.
	t.Run("empty", func(t *testing.T) {
		empty := newServer(t).get("/events?tab=activity").pageHTML(t, http.StatusOK)
		if got := dayOutline(empty); !slices.Equal(got, []string{"# Today"}) || !strings.Contains(empty, `<p class="empty">No activity recorded`) {
			t.Errorf("an empty Activity = %q", got)
		}
	})
}

// "Show more" on a tab by day asks the API for the next page by day: its
// rows continue the day drawn last without a second heading, and a new day
// gets its heading.
func TestActivityShowMoreContinuesTheDays(t *testing.T) {
	s := newServer(t)
	var ids []string
	for _, span := range [][2]string{{"2026-11-22T09:00:00", "2026-11-22T09:30:00"}, {"2026-11-22T08:00:00", "2026-11-22T08:30:00"}, {"2026-11-21T08:00:00", "2026-11-21T08:30:00"}} {
		ids = append(ids, itoa(s.create(`{"kind":"activity_log","title":"x","started_at":"`+span[0]+`+09:00","ended_at":"`+span[1]+`+09:00"}`).ID))
	}
	first := s.get("/api/events/activity?limit=1", "HX-Request", "true", "X-Day-Groups", "activity 2026-11-22")
	body := first.html(t, http.StatusOK)
	if got := dayOutline(body); !slices.Equal(got, []string{ids[0]}) {
		t.Errorf("a page continuing today = %q, want the row without a heading", got)
	}
	m := regexp.MustCompile(`hx-get="([^"]+)" hx-headers="([^"]+)"`).FindStringSubmatch(body)
	if m == nil || !strings.Contains(m[2], `X-Day-Groups&#34;:&#34;activity 2026-11-22`) {
		t.Fatalf("no Show more asking by day:\n%s", body)
	}
	follow := func(body string) string {
		t.Helper()
		m := regexp.MustCompile(`hx-get="([^"]+)" hx-headers="\{&#34;X-Day-Groups&#34;:&#34;([^&]+)&#34;\}"`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no Show more asking by day:\n%s", body)
		}
		return s.get(strings.ReplaceAll(m[1], "&amp;", "&"), "HX-Request", "true", "X-Day-Groups", m[2]).html(t, http.StatusOK)
	}
	second := follow(body)
	if got := dayOutline(second); !slices.Equal(got, []string{ids[1]}) {
		t.Errorf("the second page = %q, want today's row without a heading", got)
	}
	if got := dayOutline(follow(second)); !slices.Equal(got, []string{"# Yesterday · 30 min logged", ids[2]}) {
		t.Errorf("the third page = %q, want yesterday's heading and row", got)
	}
	if plain := s.get("/api/events/activity?limit=1", "HX-Request", "true").html(t, http.StatusOK); strings.Contains(plain, "day-") {
		t.Errorf("a page not asked by day has days:\n%s", plain)
	}
}

// Activity lists a log across midnight under each day it touches, each day
// its own piece with the whole beside it, so each day's heading is the
// sum of its rows (it listed the log only under the day it ended, and a
// 9 h 5 min day's rows added up to 8 h 15 min); a day the log covers
// whole gets a heading of its own; on "Show more" the pieces stay on their
// days. A running log's piece of today is listed too.
func TestActivityCutsLogsAtMidnight(t *testing.T) {
	s := newServer(t) // now is 12:00 on Sun 2026-11-22 in Seoul
	night := s.create(`{"kind":"activity_log","title":"night","started_at":"2026-11-18T23:10:00+09:00","ended_at":"2026-11-19T00:50:00+09:00","project_tag":"ops"}`)
	wed := s.create(`{"kind":"activity_log","title":"wed","started_at":"2026-11-18T09:00:00+09:00","ended_at":"2026-11-18T09:30:00+09:00"}`)
	long := s.create(`{"kind":"activity_log","title":"long","started_at":"2026-11-19T22:00:00+09:00","ended_at":"2026-11-21T01:00:00+09:00"}`)
	timer := s.create(`{"kind":"activity_log","title":"timer","status":"in_progress","started_at":"2026-11-21T23:00:00+09:00"}`)
	act := s.get("/events?tab=activity").pageHTML(t, http.StatusOK)
	want := []string{"# Today · 12 h logged", itoa(timer.ID) + "-on-2026-11-22", "# Yesterday · 2 h logged", itoa(timer.ID), itoa(long.ID),
		"# Fri 20 Nov · 24 h logged", itoa(long.ID) + "-on-2026-11-20", "# Thu 19 Nov · 2 h 50 min logged", itoa(long.ID) + "-on-2026-11-19", itoa(night.ID),
		"# Wed 18 Nov · 1 h 20 min logged", itoa(night.ID) + "-on-2026-11-18", itoa(wed.ID)}
	if got := dayOutline(act); !slices.Equal(got, want) {
		t.Errorf("Activity = %q,\nwant %q", got, want)
	}
	for _, piece := range []string{
		`id="event-` + itoa(night.ID) + `"`, `id="event-` + itoa(night.ID) + `-on-2026-11-18"`,
	} {
		i := strings.Index(act, piece)
		if i < 0 || !strings.Contains(act[i:i+1500], `<span class="duration">50 min of 1 h 40 min</span>`) {
			t.Errorf("the row %s does not show its piece of the whole", piece)
		}
	}
	if i := strings.Index(act, `id="event-`+itoa(long.ID)+`-on-2026-11-20"`); i < 0 || !strings.Contains(act[i:i+1500], `<span class="duration">24 h of 27 h</span>`) {
		t.Errorf("the whole day of the long log does not show 24 h of 27 h")
	}
	// Show more: a page a row; the pieces stay on their days
	var outline []string
	body := s.get("/api/events/activity?limit=1", "HX-Request", "true", "X-Day-Groups", "activity 2026-11-22").html(t, http.StatusOK)
	for range 10 {
		outline = append(outline, dayOutline(body)...)
		m := regexp.MustCompile(`hx-get="([^"]+)" hx-headers="\{&#34;X-Day-Groups&#34;:&#34;([^&]+)&#34;\}"`).FindStringSubmatch(body)
		if m == nil {
			break
		}
		body = s.get(strings.ReplaceAll(m[1], "&amp;", "&"), "HX-Request", "true", "X-Day-Groups", m[2]).html(t, http.StatusOK)
	}
	// (pages continuing today: today's heading and piece were drawn already)
	if want := want[2:]; !slices.Equal(outline, want) {
		t.Errorf("Activity by pages = %q,\nwant %q", outline, want)
	}
}
