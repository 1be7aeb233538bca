// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"database/sql"
	"encoding/json"
	"math"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"events/models"
)

// MaxSummaryDays is the longest window of a summary, in local days.
const MaxSummaryDays = 366

// Summary is the review of the local days of a window (DESIGN.md, Summary):
// GET /api/events/summary answers it as JSON.
type Summary struct {
	From  time.Time    // the first day's start
	To    time.Time    // the last day's end (exclusive)
	TZ    string       // the zone whose calendar made the days
	Days  []SummaryDay // every local day of the window, oldest first
	Total SummaryCounts
}

// SummaryDay is one local day.
type SummaryDay struct {
	Date string `json:"date"` // YYYY-MM-DD, the local date
	SummaryCounts
}

// SummaryCounts is what a day, or the whole window, holds.
type SummaryCounts struct {
	// LoggedSeconds is the length of the union of the spans of the activity
	// logs that are not cancelled, clipped to the day, in whole seconds (each
	// bound cut down to the second; overlaps count once; a running log counts
	// up to now).
	LoggedSeconds int64 `json:"logged_seconds"`
	// Projects: per project_tag (nil for none), its share of LoggedSeconds
	// (ShareDay: a union inside a tag, time where k tags overlap shared
	// equally), so they add up to it exactly; seconds descending then tag
	// (none last); a tag whose share is 0 is left out.
	Projects []ProjectSeconds `json:"projects"`
	// Labels: per label, the union of the spans of the logs carrying it
	// (LabelDay); labels overlap, so they do not add up to LoggedSeconds.
	Labels []LabelSeconds `json:"labels"`
	// Logs: activity logs, not cancelled, whose span overlaps the day.
	Logs int64 `json:"logs"`
	// TasksCompleted: tasks whose status is done and whose completed_at
	// falls in the day (a completion undone by reactivate no longer counts).
	TasksCompleted int64 `json:"tasks_completed"`
	// CalendarEvents: calendar entries, not cancelled, overlapping the day.
	CalendarEvents int64 `json:"calendar_events"`
	// Cancelled: events whose cancelled_at falls in the day.
	Cancelled int64 `json:"cancelled"`
	// TasksDue: tasks neither done nor cancelled whose due_at falls in the
	// day: the plan of a day still ahead.
	TasksDue int64 `json:"tasks_due"`
}

// ProjectSeconds is one project's logged time.
type ProjectSeconds struct {
	ProjectTag *string `json:"project_tag"`
	Seconds    int64   `json:"seconds"`
}

// MarshalJSON writes DESIGN.md's shape: from and to in UTC at microsecond
// precision, then tz, days and total.
func (s Summary) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		From  string        `json:"from"`
		To    string        `json:"to"`
		TZ    string        `json:"tz"`
		Days  []SummaryDay  `json:"days"`
		Total SummaryCounts `json:"total"`
	}{s.From.UTC().Format(models.TimeLayout), s.To.UTC().Format(models.TimeLayout), s.TZ, s.Days, s.Total})
}

// SummaryWindow is the window a summary covers, in whole local days of loc:
// from the start of from's day to the end of to's day (a to that is a local
// midnight ends the day before it). Without both: the last seven local days
// up to the end of today; with from alone, seven days from it; with to
// alone, the seven days up to it. from not before to, or more than
// MaxSummaryDays days, is a *models.BadRequestError (400).
func SummaryWindow(from, to *time.Time, loc *time.Location, now time.Time) (time.Time, time.Time, error) {
	var f, t time.Time
	switch {
	case from == nil && to == nil:
		f, t = models.DayStart(now, loc, -6), models.DayStart(now, loc, 1)
	case to == nil:
		f = models.DayStart(*from, loc, 0)
		t = models.DayStart(f, loc, 7)
	case from == nil:
		t = ceilDay(*to, loc)
		f = models.DayStart(t, loc, -7)
	default:
		if !from.Before(*to) {
			return f, t, models.BadRequest("from", models.CodeOutOfRange, "must be before to")
		}
		f, t = models.DayStart(*from, loc, 0), ceilDay(*to, loc)
	}
	if y1, y2 := f.UTC().Year(), t.UTC().Year(); y1 < 1 || y2 > 9999 {
		return f, t, models.BadRequest("from", models.CodeOutOfRange, "the window must lie in the years 0001 to 9999")
	}
	if limit := models.DayStart(f, loc, MaxSummaryDays); t.After(limit) {
		return f, t, models.BadRequest("to", models.CodeOutOfRange, "a summary covers at most %d days", MaxSummaryDays)
	}
	return f, t, nil
}

// ceilDay is t when it starts a local day, else the start of the next one.
func ceilDay(t time.Time, loc *time.Location) time.Time {
	if d := models.DayStart(t, loc, 0); d.Equal(t) {
		return d
	}
	return models.DayStart(t, loc, 1)
}

// dayPartsCTE is the part of summarySQL and logbookSQL that says which time
// a day holds: the spans of the logs and calendar entries that are not
// cancelled, overlapping the window ?0..?1 (a running log up to now, ?3),
// cut at the local midnights of the zone ?2 into one part per day. Written
// once, so the review page's logbook and its numbers cannot disagree.
const dayPartsCTE = `spans AS (
    -- a running log spans up to now (a point when it starts after now)
    SELECT e.id, e.kind, e.project_tag, e.labels,
           CASE WHEN NOT upper_inf(e.span) THEN e.span
                WHEN lower(e.span) < ?3 THEN tstzrange(lower(e.span), ?3, '[)')
                ELSE tstzrange(lower(e.span), lower(e.span), '[]') END
           * tstzrange(?0, ?1, '[)') AS span
    FROM events e
    WHERE e.kind IN ('activity_log', 'calendar_event')
      AND e.status <> 'cancelled'
      AND e.span && tstzrange(?0, ?1, '[)')
),
parts AS (
    SELECT g::date AS day, s.id, s.kind, s.project_tag, s.labels,
           s.span * tstzrange(g AT TIME ZONE ?2, (g + interval '1 day') AT TIME ZONE ?2, '[)') AS part
    FROM spans s,
         generate_series((lower(s.span) AT TIME ZONE ?2)::date::timestamp,
                         (upper(s.span) AT TIME ZONE ?2)::date::timestamp,
                         interval '1 day') AS g
    WHERE NOT isempty(s.span)
)`

// summarySQL counts every day of the window and the total in one
// statement. ?0 and ?1 are the window's bounds (local midnights), ?2 the
// zone, ?3 now, ?4 and ?5 the first local date and the number of days.
// Each span of a log or a calendar entry that overlaps the window is
// clipped to it and cut at the local midnights it crosses (a
// generate_series over its own days, so the work follows the spans, not
// days times spans). The days themselves are a generate_series of local
// dates; each day's start is its date's midnight read in the zone. The
// logged time is not counted here but from the same parts (logPartsSQL,
// ShareDay). The estimate of the spans' generate_series is PostgreSQL's
// default (a thousand rows a call), which on a long window put the plan's
// cost high enough for JIT compilation to take seconds: the statement runs
// with jit off.
const summarySQL = `
WITH days AS (
    -- the first local date plus 0 .. days-1: constants, so the planner
    -- knows how many rows this is
    SELECT ?4::date + i AS day FROM generate_series(0, ?5 - 1) AS i
),
` + dayPartsCTE + `,
kept AS (
    SELECT * FROM parts WHERE NOT isempty(part)
),
counted AS (
    SELECT day,
           count(*) FILTER (WHERE kind = 'activity_log') AS logs,
           count(*) FILTER (WHERE kind = 'calendar_event') AS calendar_events
    FROM kept
    GROUP BY day
),
completed AS (
    SELECT (e.completed_at AT TIME ZONE ?2)::date AS day, count(*) AS n
    FROM events e
    WHERE e.kind = 'task' AND e.status = 'done' AND e.completed_at >= ?0 AND e.completed_at < ?1
    GROUP BY 1
),
cancelled AS (
    SELECT (e.cancelled_at AT TIME ZONE ?2)::date AS day, count(*) AS n
    FROM events e
    WHERE e.status = 'cancelled' AND e.cancelled_at >= ?0 AND e.cancelled_at < ?1
    GROUP BY 1
),
due AS (
    SELECT (e.due_at AT TIME ZONE ?2)::date AS day, count(*) AS n
    FROM events e
    WHERE e.kind = 'task' AND e.status NOT IN ('done', 'cancelled')
      AND e.span && tstzrange(?0, ?1, '[)') AND e.due_at >= ?0 AND e.due_at < ?1
    GROUP BY 1
),
day_rows AS (
    SELECT d.day,
           coalesce(c.logs, 0) AS logs,
           coalesce(t.n, 0) AS tasks_completed,
           coalesce(c.calendar_events, 0) AS calendar_events,
           coalesce(x.n, 0) AS cancelled,
           coalesce(u.n, 0) AS tasks_due
    FROM days d
    LEFT JOIN counted c ON c.day = d.day
    LEFT JOIN completed t ON t.day = d.day
    LEFT JOIN cancelled x ON x.day = d.day
    LEFT JOIN due u ON u.day = d.day
)
SELECT to_char(day, 'YYYY-MM-DD') AS day, logs, tasks_completed, calendar_events, cancelled, tasks_due
FROM day_rows
UNION ALL
-- the total: each event once
SELECT NULL,
       (SELECT count(DISTINCT id) FROM kept WHERE kind = 'activity_log'),
       (SELECT coalesce(sum(n), 0) FROM completed)::bigint,
       (SELECT count(DISTINCT id) FROM kept WHERE kind = 'calendar_event'),
       (SELECT coalesce(sum(n), 0) FROM cancelled)::bigint,
       (SELECT coalesce(sum(n), 0) FROM due)::bigint
ORDER BY 1 NULLS LAST
`

// logPartsSQL is the logs' parts of each day of the window (dayPartsCTE),
// with their project tags, each bound cut down to the whole second (epoch
// seconds): the logged time and its shares (shareDay) are counted in whole
// seconds, so that they add up exactly. ?0 .. ?3 as in summarySQL.
const logPartsSQL = `
WITH ` + dayPartsCTE + `
SELECT to_char(day, 'YYYY-MM-DD') AS day, project_tag, labels,
       floor(extract(epoch FROM lower(part)))::bigint AS start_s,
       floor(extract(epoch FROM upper(part)))::bigint AS end_s
FROM parts
WHERE kind = 'activity_log' AND NOT isempty(part)
ORDER BY 1
`

// Summary answers GET /api/events/summary: the local days in loc of the
// window SummaryWindow makes of from and to: the counts in one statement,
// and the logged time from the logs' parts of each day (shareDay), both in
// one read-only transaction.
func (s *Service) Summary(ctx context.Context, from, to *time.Time, loc *time.Location) (Summary, error) {
	now := s.now()
	f, t, err := SummaryWindow(from, to, loc, now)
	if err != nil {
		return Summary{}, err
	}
	out := Summary{From: f.UTC(), To: t.UTC(), TZ: loc.String(), Days: []SummaryDay{}}
	parts, err := s.summaryRows(ctx, &out, f, t, loc, now)
	if err != nil {
		return Summary{}, classify(err)
	}
	out.addLogged(parts)
	return out, nil
}

// summaryRows reads, in one read-only transaction, the counts of each
// day and of the window into out (summarySQL) and the logs' parts of each
// day (logPartsSQL), by local date.
func (s *Service) summaryRows(ctx context.Context, out *Summary, f, t time.Time, loc *time.Location, now time.Time) (map[string][]LogPart, error) {
	first := f.In(loc)
	// whole local days: their hours differ from 24 by at most a few in all
	days := int(math.Round(t.Sub(f).Hours() / 24))
	parts := map[string][]LogPart{}
	err := s.db.RunInTx(ctx, &sql.TxOptions{ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "SET LOCAL jit = off"); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, summarySQL, f, t, loc.String(), now, first.Format(time.DateOnly), days)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				day *string
				c   SummaryCounts
			)
			if err := rows.Scan(&day, &c.Logs, &c.TasksCompleted, &c.CalendarEvents, &c.Cancelled, &c.TasksDue); err != nil {
				return err
			}
			if day == nil {
				out.Total = c
			} else {
				out.Days = append(out.Days, SummaryDay{Date: *day, SummaryCounts: c})
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows, err = tx.QueryContext(ctx, logPartsSQL, f, t, loc.String(), now)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				day string
				p   LogPart
			)
			if err := rows.Scan(&day, &p.Tag, pgdialect.Array(&p.Labels), &p.Start, &p.End); err != nil {
				return err
			}
			parts[day] = append(parts[day], p)
		}
		return rows.Err()
	})
	return parts, err
}

// addLogged gives each day and the window their logged time, projects
// and labels from the days' log parts (ShareDay, LabelDay).
func (out *Summary) addLogged(parts map[string][]LogPart) {
	week := map[string]*ProjectSeconds{}
	weekLabels := map[string]int64{}
	for i := range out.Days {
		d := &out.Days[i].SummaryCounts
		d.LoggedSeconds, d.Projects = ShareDay(parts[out.Days[i].Date])
		d.Labels = LabelDay(parts[out.Days[i].Date])
		addLabels(weekLabels, d.Labels)
		out.Total.LoggedSeconds += d.LoggedSeconds
		for _, p := range d.Projects {
			k := tagKey(p.ProjectTag)
			if week[k] == nil {
				week[k] = &ProjectSeconds{ProjectTag: p.ProjectTag}
			}
			week[k].Seconds += p.Seconds
		}
	}
	out.Total.Projects = make([]ProjectSeconds, 0, len(week))
	for _, p := range week {
		out.Total.Projects = append(out.Total.Projects, *p)
	}
	sortProjects(out.Total.Projects)
	out.Total.Labels = windowLabels(weekLabels)
}
