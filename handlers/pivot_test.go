// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"events/models"
)

// shownWeek is what the review shows of a window, in minutes: each day's
// total, and each project's minutes per day and over the window
// (models.DayMinutes, DESIGN.md, Summary).
type shownWeek struct {
	Days     map[string]int64
	Projects map[string]int64 // "" for no project
	Cells    map[string]int64 // "date tag"
}

// summaryShown reads GET /api/events/summary for the window and rounds it
// as every screen shows it.
func summaryShown(t *testing.T, s *server, window string) shownWeek {
	t.Helper()
	var sum struct {
		Days []struct {
			Date          string `json:"date"`
			LoggedSeconds int64  `json:"logged_seconds"`
			Projects      []struct {
				Tag     *string `json:"project_tag"`
				Seconds int64   `json:"seconds"`
			} `json:"projects"`
		} `json:"days"`
	}
	if err := json.Unmarshal(s.get("/api/events/summary?"+window).want(t, http.StatusOK).Body, &sum); err != nil {
		t.Fatal(err)
	}
	out := shownWeek{Days: map[string]int64{}, Projects: map[string]int64{}, Cells: map[string]int64{}}
	for _, d := range sum.Days {
		secs := make([]int64, len(d.Projects))
		for i, p := range d.Projects {
			secs[i] = p.Seconds
		}
		total, parts := models.DayMinutes(d.LoggedSeconds, secs)
		out.Days[d.Date] = total
		for i, p := range d.Projects {
			tag := ""
			if p.Tag != nil {
				tag = *p.Tag
			}
			out.Projects[tag] += parts[i]
			out.Cells[d.Date+" "+tag] += parts[i]
		}
	}
	return out
}

// csvPivot sums the CSV export's counted_minutes of the window by
// local_date, by project_tag and by both, as a spreadsheet's pivot does.
func csvPivot(t *testing.T, s *server, window string) shownWeek {
	t.Helper()
	records := readCSV(t, s.get("/api/events/export?"+window).want(t, http.StatusOK).Body)
	col := map[string]int{}
	for i, name := range records[0] {
		col[name] = i
	}
	out := shownWeek{Days: map[string]int64{}, Projects: map[string]int64{}, Cells: map[string]int64{}}
	for _, r := range records[1:] {
		cell := r[col["counted_minutes"]]
		if cell == "" {
			if r[col["kind"]] == "activity_log" {
				t.Errorf("log %s on %s has no counted_minutes", r[0], r[col["local_date"]])
			}
			continue
		}
		m, err := strconv.ParseInt(cell, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		if m == 0 {
			continue
		}
		day, tag := r[col["local_date"]], r[col["project_tag"]]
		out.Days[day] += m
		out.Projects[tag] += m
		out.Cells[day+" "+tag] += m
	}
	return out
}

// TestExportPivotIsTheSummary: on random weeks (logs that overlap, inside
// a project and across projects, that cross midnight into and out of the
// week, that run, that were cancelled, of odd seconds), a pivot of the
// CSV export's counted_minutes by local_date gives the review's day
// totals, by project_tag its projects, and by both each day's projects,
// exactly. Before, the CSV had no counted_minutes, and its minutes counted
// a log across midnight on its first day and overlaps twice.
func TestExportPivotIsTheSummary(t *testing.T) {
	s := newServer(t)
	r := rand.New(rand.NewPCG(55, 55))
	tags := []string{"", "work", "home", "건강"}
	for week := range 6 {
		monday := time.Date(2026, 9, 7+7*week, 0, 0, 0, 0, seoul)
		end := monday.AddDate(0, 0, 7)
		// now: on the week's last day, so a running log crosses into it
		now := end.Add(-time.Duration(1+r.IntN(20)) * time.Hour)
		s.clock.Set(now)
		var running int64
		for i := range 25 + r.IntN(20) {
			start := monday.Add(-3*time.Hour + time.Duration(r.Int64N(int64(7*24*time.Hour+2*time.Hour))))
			length := time.Duration(r.Int64N(int64(3*time.Hour))) + time.Duration(r.IntN(60))*time.Second
			if r.IntN(8) == 0 { // a long one, across midnight
				length += time.Duration(r.IntN(30)) * time.Hour
			}
			if !start.Add(length).Before(now) {
				continue
			}
			tag := tags[r.IntN(len(tags))]
			body := map[string]any{"kind": "activity_log", "title": fmt.Sprintf("log %d.%d", week, i),
				"started_at": start.Format(time.RFC3339), "ended_at": start.Add(length).Format(time.RFC3339)}
			if tag != "" {
				body["project_tag"] = tag
			}
			b, _ := json.Marshal(body)
			e := s.create(string(b))
			if r.IntN(10) == 0 {
				s.op(e.ID, "cancel", "")
			}
		}
		// a running log since the evening before, and a task and an entry
		started := models.DayStart(now, seoul, 0).Add(-time.Duration(1+r.IntN(5)) * time.Hour)
		running = s.create(`{"kind":"activity_log","title":"timer","status":"in_progress","project_tag":"work","started_at":"` + started.Format(time.RFC3339) + `"}`).ID
		s.create(`{"kind":"calendar_event","title":"회의","start_at":"` + monday.Add(33*time.Hour).Format(time.RFC3339) + `","end_at":"` + monday.Add(35*time.Hour).Format(time.RFC3339) + `"}`)
		window := "from=" + url.QueryEscape(monday.Format(time.RFC3339)) + "&to=" + url.QueryEscape(end.Format(time.RFC3339))
		want, got := summaryShown(t, s, window), csvPivot(t, s, window)
		if len(want.Days) < 5 || len(want.Projects) < 3 {
			t.Fatalf("week of %s: too little logged to compare: %v", monday.Format(time.DateOnly), want)
		}
		for _, m := range []struct {
			name      string
			want, got map[string]int64
		}{{"day", want.Days, got.Days}, {"project", want.Projects, got.Projects}, {"day and project", want.Cells, got.Cells}} {
			keys := slices.Sorted(func(yield func(string) bool) {
				for k := range m.want {
					if !yield(k) {
						return
					}
				}
				for k := range m.got {
					if _, ok := m.want[k]; !ok && !yield(k) {
						return
					}
				}
			})
			for _, k := range keys {
				if m.want[k] != m.got[k] {
					t.Errorf("week of %s: %s %q: the CSV pivot gives %d min, the review %d min", monday.Format(time.DateOnly), m.name, k, m.got[k], m.want[k])
				}
			}
		}
		s.op(running, "complete", "")
	}
}

// The export of a window holds the window's events by the one membership
// rule (DESIGN.md, Summary): what touches it, and what was completed or
// cancelled in it, as the review's logbook lists them. "Export these days"
// left out a task done that week without a due day.
func TestExportOfDaysHoldsWhatHappenedInThem(t *testing.T) {
	s := newServer(t) // now is 12:00 on Sun 2026-11-22 in Seoul
	s.clock.Set(time.Date(2026, 11, 18, 10, 0, 0, 0, seoul))
	inbox := s.create(`{"kind":"task","title":"Reply to Jin"}`)
	s.op(inbox.ID, "complete", "")
	later := s.create(`{"kind":"task","title":"Book flights","due_at":"2026-12-04T09:00:00+09:00"}`)
	s.op(later.ID, "cancel", "")
	logged := s.create(`{"kind":"activity_log","title":"standup","started_at":"2026-11-18T09:00:00+09:00","ended_at":"2026-11-18T09:15:00+09:00"}`)
	s.clock.Set(time.Date(2026, 11, 25, 10, 0, 0, 0, seoul))
	other := s.create(`{"kind":"task","title":"Next week"}`)
	s.op(other.ID, "complete", "")
	week := "from=" + url.QueryEscape("2026-11-16T00:00:00+09:00") + "&to=" + url.QueryEscape("2026-11-23T00:00:00+09:00")
	var got []int64
	for _, r := range readCSV(t, s.get("/api/events/export?"+week).want(t, http.StatusOK).Body)[1:] {
		id, _ := strconv.ParseInt(r[0], 10, 64)
		got = append(got, id)
	}
	if want := []int64{inbox.ID, later.ID, logged.ID}; !slices.Equal(got, want) {
		t.Errorf("the week's export holds %v, want %v (done, cancelled and logged in it)", got, want)
	}
	body := s.review("?from=2026-11-16&to=2026-11-23")
	for _, id := range []int64{inbox.ID, later.ID, logged.ID} {
		if !strings.Contains(body, `href="/events/`+strconv.FormatInt(id, 10)+`"`) {
			t.Errorf("the review's logbook lacks %d", id)
		}
	}
}
