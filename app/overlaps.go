// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"events/models"
)

// Overlapping is what a stored log's span overlaps when it is read
// (DESIGN.md, "Running logs and overlaps"): nothing keeps it, so a mark on
// a row lasts exactly as long as the times overlap.
type Overlapping struct {
	// Overlaps are the other logs, not cancelled, that the log's span (a
	// running log's up to now) overlaps by a second or more, earliest first,
	// at most maxOverlaps.
	Overlaps []models.Overlap
	// Before is the log's place right before the earliest of them (its
	// length, ending where that one begins) when nothing else is there: the
	// move a create's answer offers. Nil for a running log, or when that
	// place is taken or would leave the years 0001 to 9999.
	Before *Span
}

// probeOverlapSQL reads, for each probe (an id, and a span [s, e) that
// probe's log has or would have), the logs other than the probe's own,
// not cancelled, whose span overlaps it (a running one up to now),
// earliest first, at most a limit each: one statement for a page of rows,
// each probe answered through the span's GiST index. The logs come whole
// (eventColumns), so that one holding a time the API cannot write is left
// out as every read leaves it out. Arguments: the probes' ids, starts and
// ends (arrays of one length), now, now, the limit.
//
// The kind is compared as text (kindOfLogs) so that the span's index is
// the only one the statement can use: a probe's span is a parameter the
// planner cannot see, and at ten million events it guessed one in a
// hundred rows and ANDed the span's bitmap with the kind's, reading the
// b-tree entries of every log (6 million) for each probe: 45 s for a page
// of 130 rows, against 16 ms through the span's index alone.
var probeOverlapSQL = `SELECT p.id, o.row
FROM unnest(?::bigint[], ?::text[]::timestamptz[], ?::text[]::timestamptz[]) AS p(id, s, e)
CROSS JOIN LATERAL (
	SELECT e.started_at, e.id, ` + eventColumns + ` AS row
	FROM events AS e
	WHERE ` + kindOfLogs + ` AND e.status <> 'cancelled' AND e.id <> p.id
	AND e.span && tstzrange(p.s, p.e, '[)')
	AND e.started_at < p.e
	AND (e.ended_at IS NOT NULL OR e.status = 'in_progress')
	AND coalesce(e.ended_at, ?) > p.s
	AND coalesce(e.ended_at, ?) > e.started_at
	ORDER BY e.started_at, e.id
	LIMIT ?) AS o
ORDER BY p.id, o.started_at, o.id`

// kindOfLogs keeps an overlap statement to the logs without offering the
// planner the kind's b-tree indexes (probeOverlapSQL).
const kindOfLogs = "e.kind::text = 'activity_log'"

// probe is a span a log has or would have; its own row is left out of
// what it overlaps.
type probe struct {
	ID         int64
	Start, End time.Time
	Running    bool // a running log's span ends now: it has no length to move
}

// probeOverlaps answers, by probe id, the logs each probe's span overlaps
// by a second or more at now, earliest first (at most limit each), and
// the earliest start among them. Probes that lie close together in time
// (a page of Today's or a week's rows) are answered from one read of
// their window (windowOverlaps); others each from a probe of the span's
// index (probeOverlapSQL).
func (s *Service) probeOverlaps(ctx context.Context, probes []probe, now time.Time, limit int) (map[int64][]models.Overlap, map[int64]time.Time, error) {
	if len(probes) == 0 {
		return nil, nil, nil
	}
	if found, earliest, ok, err := s.windowOverlaps(ctx, probes, now, limit); ok || err != nil {
		return found, earliest, err
	}
	ids := make([]int64, len(probes))
	starts := make([]string, len(probes))
	ends := make([]string, len(probes))
	spans := make(map[int64]probe, len(probes))
	for i, p := range probes {
		ids[i], starts[i], ends[i] = p.ID, p.Start.UTC().Format(time.RFC3339Nano), p.End.UTC().Format(time.RFC3339Nano)
		spans[p.ID] = p
	}
	rows, err := s.db.QueryContext(ctx, probeOverlapSQL, pgdialect.Array(ids), pgdialect.Array(starts), pgdialect.Array(ends), now, now, limit)
	if err != nil {
		return nil, nil, classify(err)
	}
	defer rows.Close()
	var (
		of     int64
		text   string
		fields []recordField
		values rowValues
	)
	o := overlapsFound{found: map[int64][]models.Overlap{}, earliest: map[int64]time.Time{}}
	for rows.Next() {
		if err := rows.Scan(&of, &text); err != nil {
			return nil, nil, classify(err)
		}
		var e models.Event
		if fields, err = recordFields(fields[:0], text); err != nil {
			return nil, nil, err
		}
		if err := setEvent(&e, fields, &values); err != nil {
			return nil, nil, err
		}
		if len(s.writable([]models.Event{e}, models.ListEvents)) == 0 {
			continue
		}
		o.add(spans[of], &e, now)
	}
	return o.found, o.earliest, classify(rows.Err())
}

// overlapsFound gathers what each probe overlaps, the rows of both ways of
// reading it.
type overlapsFound struct {
	found    map[int64][]models.Overlap
	earliest map[int64]time.Time
}

// add counts e, a log the statement found for p and the API can write,
// when it overlaps p by a second or more at now; rows come earliest first.
func (o *overlapsFound) add(p probe, e *models.Event, now time.Time) {
	if e.StartedAt == nil {
		return
	}
	oe := now
	if e.EndedAt != nil {
		oe = *e.EndedAt
	}
	secs := models.Seconds(later(p.Start, *e.StartedAt), earlier(p.End, oe))
	if secs < 1 {
		return
	}
	if _, ok := o.earliest[p.ID]; !ok {
		o.earliest[p.ID] = *e.StartedAt
	}
	o.found[p.ID] = append(o.found[p.ID], models.Overlap{ID: e.ID, Title: e.Title, Seconds: secs})
}

// The window read: the logs of the probes' whole window, read once in
// (started_at, id) order, and each probe's answer taken from them in Go
// exactly as probeOverlapSQL takes it (the same conditions, the first
// limit rows, then the same checks). A page of 128 logs that each overlap
// about ten took two probes of the span's index per log, about 10 and
// 8 ms of PostgreSQL at a million events; its window is one scan. A
// window longer than overlapWindow, or holding more than
// overlapWindowRows logs, is left to the probes: a span of years would
// read every log.
const (
	overlapWindow     = 8 * 24 * time.Hour
	overlapWindowRows = 2000
)

// windowSQL reads the logs, not cancelled, that overlap [start, end) and
// have ended or are running, earliest first; through the span's GiST
// index (kindOfLogs). Arguments: start, end, the most rows.
var windowSQL = "SELECT " + eventColumns + `
FROM events e
WHERE ` + kindOfLogs + ` AND e.status <> 'cancelled'
AND e.span && tstzrange(?, ?, '[)')
AND (e.ended_at IS NOT NULL OR e.status = 'in_progress')
ORDER BY e.started_at, e.id
LIMIT ?`

// windowOverlaps answers probeOverlaps from one read of the probes'
// window; ok is false when the window is too long or holds too many logs.
func (s *Service) windowOverlaps(ctx context.Context, probes []probe, now time.Time, limit int) (found map[int64][]models.Overlap, earliest map[int64]time.Time, ok bool, err error) {
	if len(probes) < 2 || s.probeEach {
		return nil, nil, false, nil
	}
	// the instants as PostgreSQL reads them: a probe's bounds are sent as
	// text, which it rounds to the microsecond; now is sent cut to it
	nowPG := now.Truncate(time.Microsecond)
	start, end := probes[0].Start, probes[0].End
	for _, p := range probes[1:] {
		start, end = earlier(start, p.Start), later(end, p.End)
	}
	start, end = start.Round(time.Microsecond), end.Round(time.Microsecond)
	if end.Sub(start) > overlapWindow {
		return nil, nil, false, nil
	}
	logs, err := queryEvents(ctx, s.db, windowSQL, start, end, overlapWindowRows+1)
	if err != nil {
		return nil, nil, false, classify(err)
	}
	if len(logs) > overlapWindowRows {
		return nil, nil, false, nil
	}
	writable := make(map[int64]bool, len(logs))
	for _, e := range s.writable(logs, models.ListEvents) {
		writable[e.ID] = true
	}
	o := overlapsFound{found: map[int64][]models.Overlap{}, earliest: map[int64]time.Time{}}
	for _, p := range probes {
		ps, pe := p.Start.Round(time.Microsecond), p.End.Round(time.Microsecond)
		if !ps.Before(pe) {
			continue // an empty range overlaps nothing
		}
		taken := 0
		for i := range logs {
			e := &logs[i]
			if taken == limit || e.StartedAt == nil || !e.StartedAt.Before(pe) {
				break // started_at < p.e, earliest first: none after this one either
			}
			oe := nowPG
			if e.EndedAt != nil {
				oe = *e.EndedAt
			}
			if e.ID == p.ID || !oe.After(ps) || !oe.After(*e.StartedAt) {
				continue
			}
			taken++ // a row of the probe's LIMIT
			if writable[e.ID] {
				o.add(p, e, now)
			}
		}
	}
	return o.found, o.earliest, true, nil
}

// Overlapped answers the logs among ids (at most limit of them), in id
// order, for the answer to a create to draw again with their marks:
// those holding a time the API cannot write are left out, as every read
// leaves them out.
func (s *Service) Overlapped(ctx context.Context, ids []int64, limit int) ([]models.Event, error) {
	if len(ids) > limit {
		ids = ids[:limit]
	}
	if len(ids) == 0 {
		return nil, nil
	}
	var out []models.Event
	if err := s.db.NewSelect().Model(&out).Where("id IN (?)", bun.In(ids)).Order("id").Scan(ctx); err != nil {
		return nil, classify(err)
	}
	return s.writable(out, models.ListEvents), nil
}

// OverlapsOf answers, by id, what each activity log among events overlaps
// at now (Overlapping); a log that overlaps nothing, and any other event,
// is absent. Two statements whatever the number of events: one for the
// logs' own spans, one for the places before them.
func (s *Service) OverlapsOf(ctx context.Context, events []models.Event) (map[int64]Overlapping, error) {
	now := s.now()
	probes := make([]probe, 0, len(events))
	seen := make(map[int64]bool, len(events))
	for i := range events {
		e := &events[i]
		if e.Status == models.StatusCancelled || seen[e.ID] {
			continue
		}
		if start, end, ok := models.OverlapSpan(e, now); ok {
			seen[e.ID] = true
			probes = append(probes, probe{ID: e.ID, Start: start, End: end, Running: e.Running()})
		}
	}
	found, earliest, err := s.probeOverlaps(ctx, probes, now, maxOverlaps)
	if err != nil || len(found) == 0 {
		return nil, err
	}
	out := make(map[int64]Overlapping, len(found))
	var places []probe
	for _, p := range probes {
		o, ok := found[p.ID]
		if !ok {
			continue
		}
		out[p.ID] = Overlapping{Overlaps: o}
		if !p.Running { // a running log has no length to keep
			if start, fits := models.SpanBefore(earliest[p.ID], p.Start, p.End); fits {
				places = append(places, probe{ID: p.ID, Start: start, End: earliest[p.ID]})
			}
		}
	}
	taken, _, err := s.probeOverlaps(ctx, places, now, 5)
	if err != nil {
		return nil, err
	}
	for _, b := range places {
		if _, ok := taken[b.ID]; !ok {
			o := out[b.ID]
			o.Before = &Span{Start: b.Start, End: b.End}
			out[b.ID] = o
		}
	}
	return out, nil
}
