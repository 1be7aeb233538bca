// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"events/models"
)

// ExportBatchSize is how many events an export reads at a time: its memory
// is one batch, whatever the number of events.
const ExportBatchSize = 1000

// An Export is one GET /api/events/export being read (DESIGN.md, Export):
// its filters, and the ids its next batch reads, (after, last].
type Export struct {
	q           models.ListQuery
	withHistory bool
	after, last int64
	// a CSV's rows (CountMinutes) and what each batch's log pieces count
	csv     *models.CSVOptions
	counted map[string]map[int64]int64 // local date, log id: minutes
}

// CountMinutes has each batch count, for the rows o writes of its logs,
// what each piece counts toward its day (CountedMinutes): Counted answers
// it for the batch last read.
func (x *Export) CountMinutes(o models.CSVOptions) { x.csv = &o }

// Counted is what the piece on the local date day of the log id counts
// toward that day, in shown minutes: the counted_minutes cell.
func (x *Export) Counted(id int64, day string) int64 { return x.counted[day][id] }

// StartExport begins an export of the events matching q's filters, with
// their history when withHistory. With a window (from or to), an event is
// in it by the one membership rule (DESIGN.md, Summary): its span touches
// the window, or it was completed or cancelled in it (a task done in the
// window without a due day is in the window's file, as in its review).
// StartExport finds the range of ids the export reads: with a window, the
// first and last id of the events in it, by the span indexes
// (events_span_idx for every status but cancelled,
// events_cancelled_span_idx for cancelled) and those of the lifecycle
// steps (events_completed_idx, events_cancelled_idx); without one, every
// id up to the last. The keyset on id then reads only that range: it used
// to walk the primary key from the table's first id, so a month's export
// at a million events read the whole table before its first event. The
// file holds the events that existed when it began.
func (s *Service) StartExport(ctx context.Context, q models.ListQuery, withHistory bool) (*Export, error) {
	x := &Export{q: q, withHistory: withHistory}
	var err error
	if q.From == nil && q.To == nil {
		err = s.db.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) FROM events").Scan(&x.last)
	} else {
		// One branch per index, each implying its predicate. Said as one
		// scan with an OR, min(id) and max(id) became walks of the
		// primary key from either end (PostgreSQL's plan for min and max),
		// which is what the range is here to avoid.
		var sql string
		var args []any
		for i, b := range s.exportBranches(q) {
			if i > 0 {
				sql += "UNION ALL\n"
			}
			sql += "SELECT e.id FROM events e\nWHERE " + b.sql() + "\n"
			args = append(args, b.args...)
		}
		sql = "SELECT coalesce(min(id) - 1, 0), coalesce(max(id), 0) FROM (\n" + sql + ") matching"
		err = s.db.QueryRowContext(ctx, sql, args...).Scan(&x.after, &x.last)
	}
	if err != nil {
		return nil, classify(err)
	}
	return x, nil
}

// exportBranches are the conditions of the events of an export with a
// window, one a way of being in it: a span that touches it (not
// cancelled; cancelled), a task completed in it, an event cancelled in it.
func (s *Service) exportBranches(q models.ListQuery) []where {
	w := s.filters(q)
	span := w
	span.conds, span.args = slices.Clone(w.conds), slices.Clone(w.args)
	span.add("e.status <> 'cancelled'")
	cancelledSpan := w
	cancelledSpan.conds, cancelledSpan.args = slices.Clone(w.conds), slices.Clone(w.args)
	cancelledSpan.add("e.cancelled_at IS NOT NULL")
	out := []where{span, cancelledSpan}
	noWindow := q
	noWindow.From, noWindow.To = nil, nil
	for _, step := range []struct{ cond, at string }{
		{"e.kind = 'task' AND e.status = 'done'", "e.completed_at"},
		{"e.status = 'cancelled'", "e.cancelled_at"},
	} {
		b := s.filters(noWindow)
		b.add(step.cond)
		if q.From != nil {
			b.add(step.at+" >= ?", *q.From)
		} else {
			b.add(step.at + " IS NOT NULL")
		}
		if q.To != nil {
			b.add(step.at+" < ?", *q.To)
		}
		out = append(out, b)
	}
	return out
}

// exportWhere is the condition of an export's events: its filters, and
// with a window any of exportBranches.
func (s *Service) exportWhere(q models.ListQuery) where {
	if q.From == nil && q.To == nil {
		return s.filters(q)
	}
	var w where
	var ors []string
	for _, b := range s.exportBranches(q) {
		ors = append(ors, "("+b.sql()+")")
		w.args = append(w.args, b.args...)
	}
	w.conds = []string{"(" + strings.Join(ors, "\n   OR ") + ")"}
	return w
}

// ExportBatch reads x's next batch: up to n matching events in id order and,
// when x asks for it, each one's history, oldest first. An export reads
// batch after batch until one comes back short; each batch is its own
// statement, so no transaction stays open while a slow client reads.
func (s *Service) ExportBatch(ctx context.Context, x *Export, n int) ([]models.Event, [][]models.History, error) {
	w := s.exportWhere(x.q)
	w.add("e.id > ?", x.after)
	w.add("e.id <= ?", x.last)
	sql := "SELECT " + eventColumns + "\nFROM events e\nWHERE " + w.sql() + "\nORDER BY e.id\nLIMIT ?"
	events, err := queryEvents(ctx, s.db, sql, append(w.args, n)...)
	if err != nil {
		return nil, nil, classify(err)
	}
	if len(events) > 0 {
		x.after = events[len(events)-1].ID
	}
	if x.csv != nil {
		if x.counted, err = s.countBatch(ctx, events, *x.csv); err != nil {
			return nil, nil, err
		}
	}
	if !x.withHistory || len(events) == 0 {
		return events, nil, nil
	}
	ids := make([]int64, len(events))
	at := make(map[int64]int, len(events))
	for i := range events {
		ids[i], at[events[i].ID] = events[i].ID, i
	}
	var hist []models.History
	if err := s.db.NewSelect().Model(&hist).Where("h.event_id IN (?)", bun.In(ids)).
		OrderExpr("h.event_id, h.occurred_at, h.id").Scan(ctx); err != nil {
		return nil, nil, classify(err)
	}
	histories := make([][]models.History, len(events))
	for _, h := range hist {
		i := at[h.EventID]
		histories[i] = append(histories[i], h)
	}
	return events, histories, nil
}

// countBatch counts the days the rows of events' logs fall on
// (models.CSVOptions.LogPieces): what each log's piece counts toward its
// day, from every log of the day, whatever the export's filters.
func (s *Service) countBatch(ctx context.Context, events []models.Event, o models.CSVOptions) (map[string]map[int64]int64, error) {
	days := map[string]bool{}
	for i := range events {
		e := &events[i]
		if e.Kind != models.KindActivityLog || e.Status == models.StatusCancelled {
			continue
		}
		for _, p := range o.LogPieces(e) {
			days[p.Date] = true
		}
	}
	if len(days) == 0 {
		return nil, nil
	}
	return s.CountedMinutes(ctx, slices.Sorted(maps.Keys(days)), o.Loc, o.Now)
}

// countedSQL is the parts of the logs, not cancelled, on the local dates
// ?0 (a date array) in the zone ?1, their spans cut at its midnights (a
// running log up to now, ?2), as dayPartsCTE cuts them; ?3 is the days'
// spans as one multirange, so only the logs that touch them are read.
const countedSQL = `
WITH spans AS (
    SELECT e.id, e.project_tag,
           CASE WHEN NOT upper_inf(e.span) THEN e.span
                WHEN lower(e.span) < ?2 THEN tstzrange(lower(e.span), ?2, '[)')
                ELSE tstzrange(lower(e.span), lower(e.span), '[]') END AS span
    FROM events e
    WHERE e.kind = 'activity_log' AND e.status <> 'cancelled'
      AND e.span && ?3::tstzmultirange
),
parts AS (
    -- each asked day joined to the spans it meets, never a series over a
    -- span's own days: a log from year 1 to 9999 has 3.65 million of them
    SELECT d.day, s.id, s.project_tag, s.span * d.range AS part
    FROM (SELECT day, tstzrange(day::timestamp AT TIME ZONE ?1,
                                (day + 1)::timestamp AT TIME ZONE ?1, '[)') AS range
          FROM unnest(?0::date[]) AS day) d
    JOIN spans s ON s.span && d.range
    WHERE NOT isempty(s.span)
)
SELECT to_char(day, 'YYYY-MM-DD') AS day, id, project_tag,
       floor(extract(epoch FROM lower(part)))::bigint AS start_s,
       floor(extract(epoch FROM upper(part)))::bigint AS end_s
FROM parts
WHERE NOT isempty(part)
ORDER BY 1, lower(part), id
`

// CountedMinutes answers, for each of the local dates days (YYYY-MM-DD, in
// loc), what each log's piece of that day counts toward it (CountDay), as
// the summary counts the day at now.
func (s *Service) CountedMinutes(ctx context.Context, days []string, loc *time.Location, now time.Time) (map[string]map[int64]int64, error) {
	var ranges strings.Builder
	ranges.WriteByte('{')
	kept := days[:0:0]
	for _, d := range days {
		t, err := time.ParseInLocation(time.DateOnly, d, loc)
		if err != nil {
			continue // a local date past year 9999 ("10000-01-01" east of UTC) counts nothing
		}
		from, to := models.DayStart(t, loc, 0), models.DayStart(t, loc, 1)
		if !models.InBounds(from) || !models.InBounds(to) {
			continue // a day at the edge of years 1-9999 counts nothing
		}
		if len(kept) > 0 {
			ranges.WriteByte(',')
		}
		kept = append(kept, d)
		fmt.Fprintf(&ranges, "[%q,%q)", models.FormatTime(from), models.FormatTime(to))
	}
	ranges.WriteByte('}')
	if len(kept) == 0 {
		return map[string]map[int64]int64{}, nil
	}
	rows, err := s.db.QueryContext(ctx, countedSQL, "{"+strings.Join(kept, ",")+"}", loc.String(), now, ranges.String())
	if err != nil {
		return nil, classify(err)
	}
	defer rows.Close()
	parts := map[string][]LogPart{}
	for rows.Next() {
		var (
			day string
			p   LogPart
		)
		if err := rows.Scan(&day, &p.ID, &p.Tag, &p.Start, &p.End); err != nil {
			return nil, classify(err)
		}
		parts[day] = append(parts[day], p)
	}
	if err := rows.Err(); err != nil {
		return nil, classify(err)
	}
	out := make(map[string]map[int64]int64, len(parts))
	for day, ps := range parts {
		out[day] = CountDay(ps)
	}
	return out, nil
}

// CountDay is what each log's part of one day counts toward the day, in
// shown minutes (models.DayMinutes): the day's minutes split among its
// projects (the summary's order), each project's among its parts by their
// shares (ShareParts), in the order of parts. They add up to the day's
// minutes, and each project's to the project's minutes on the review.
func CountDay(parts []LogPart) map[int64]int64 {
	total, projects, each := ShareParts(parts)
	seconds := make([]int64, len(projects))
	for i, p := range projects {
		seconds[i] = p.Seconds
	}
	_, minutes := models.DayMinutes(total, seconds)
	out := make(map[int64]int64, len(parts))
	for i, p := range projects {
		var idx []int
		var secs []int64
		for j, part := range parts {
			if tagKey(part.Tag) == tagKey(p.ProjectTag) {
				idx = append(idx, j)
				secs = append(secs, each[j])
			}
		}
		for k, m := range models.SplitMinutes(minutes[i], secs) {
			out[parts[idx[k]].ID] += m
		}
	}
	return out
}
