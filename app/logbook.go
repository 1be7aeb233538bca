// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"database/sql"
	"time"

	"github.com/uptrace/bun"

	"events/models"
)

// Entry kinds of the logbook: what an event did on a day.
const (
	LogbookCompleted = "completed" // a task done that day (by completed_at)
	LogbookLog       = "log"       // an activity log, not cancelled, overlapping the day
	LogbookCalendar  = "calendar"  // a calendar entry, not cancelled, overlapping the day
	LogbookCancelled = "cancelled" // an event cancelled that day (by cancelled_at); a cancelled log on the day it was logged for
	LogbookDue       = "due"       // a task due that day, neither done nor cancelled: the day's plan
)

// LogbookEntry is one line of a day's logbook on the review page.
type LogbookEntry struct {
	Date  string    // the local day, YYYY-MM-DD
	What  string    // one of the Logbook* kinds
	At    time.Time // when it sits in the day: the completion, the cancellation, or its span's start clipped to the day
	Event models.Event
}

// logbookSQL finds every entry of the window's days, in one statement; the
// same rules as summarySQL's counts (DESIGN.md, Summary), so the review
// page's logbook and its numbers agree: ?0 and ?1 are the window, ?2 the
// zone, ?3 now. A span is cut at the local midnights it crosses, so a log
// across midnight is on both days. A cancelled log is listed on the day it
// was logged for (its span's start), not on the day it was cancelled,
// where the summary still counts its cancellation: a log cancelled on
// Monday for last Friday belongs to Friday's record.
const logbookSQL = `
WITH ` + dayPartsCTE + `
SELECT to_char(day, 'YYYY-MM-DD') AS day,
       CASE kind WHEN 'activity_log' THEN 'log' ELSE 'calendar' END AS what,
       lower(part) AS at, id
FROM parts WHERE NOT isempty(part)
UNION ALL
SELECT to_char((e.completed_at AT TIME ZONE ?2)::date, 'YYYY-MM-DD'), 'completed', e.completed_at, e.id
FROM events e
WHERE e.kind = 'task' AND e.status = 'done' AND e.completed_at >= ?0 AND e.completed_at < ?1
UNION ALL
SELECT to_char((e.cancelled_at AT TIME ZONE ?2)::date, 'YYYY-MM-DD'), 'cancelled', e.cancelled_at, e.id
FROM events e
WHERE e.status = 'cancelled' AND e.kind <> 'activity_log' AND e.cancelled_at >= ?0 AND e.cancelled_at < ?1
UNION ALL
SELECT to_char((lower(e.span) AT TIME ZONE ?2)::date, 'YYYY-MM-DD'), 'cancelled', lower(e.span), e.id
FROM events e
WHERE e.kind = 'activity_log' AND e.status = 'cancelled' AND e.cancelled_at IS NOT NULL
  AND e.span && tstzrange(?0, ?1, '[)') AND lower(e.span) >= ?0 AND lower(e.span) < ?1
UNION ALL
SELECT to_char((e.due_at AT TIME ZONE ?2)::date, 'YYYY-MM-DD'), 'due', e.due_at, e.id
FROM events e
WHERE e.kind = 'task' AND e.status NOT IN ('done', 'cancelled')
  AND e.span && tstzrange(?0, ?1, '[)') AND e.due_at >= ?0 AND e.due_at < ?1
ORDER BY 1, 3, 4
`

// MaxLogbookEntries bounds the entries of one logbook: a window holding
// more shows the first ones and says the rest were left out.
const MaxLogbookEntries = 2000

// Logbook answers the entries of the local days in loc of the window
// [from, to) (whole local days, as SummaryWindow makes them), oldest
// first, each with its event: two statements in one read-only
// transaction, whatever the number of days. more tells that entries past
// MaxLogbookEntries were left out.
func (s *Service) Logbook(ctx context.Context, from, to time.Time, loc *time.Location) (entries []LogbookEntry, more bool, err error) {
	now := s.now()
	err = s.db.RunInTx(ctx, &sql.TxOptions{ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "SET LOCAL jit = off"); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, logbookSQL+" LIMIT ?4", from, to, loc.String(), now, MaxLogbookEntries+1)
		if err != nil {
			return err
		}
		defer rows.Close()
		var ids []int64
		for rows.Next() {
			var (
				e  LogbookEntry
				id int64
			)
			if err := rows.Scan(&e.Date, &e.What, &e.At, &id); err != nil {
				return err
			}
			e.Event.ID = id
			entries = append(entries, e)
			ids = append(ids, id)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if len(entries) > MaxLogbookEntries {
			entries, ids, more = entries[:MaxLogbookEntries], ids[:MaxLogbookEntries], true
		}
		if len(ids) == 0 {
			return nil
		}
		// the entries' events, read with the listings' scanner: bun's
		// reflection took most of the review page's CPU on a week of
		// 2,000 entries
		events, err := queryEvents(ctx, tx, "SELECT "+eventColumns+"\nFROM events e\nWHERE e.id IN (?)", bun.In(ids))
		if err != nil {
			return err
		}
		events = s.writable(events, "logbook")
		byID := make(map[int64]*models.Event, len(events))
		for i := range events {
			byID[events[i].ID] = &events[i]
		}
		kept := entries[:0]
		for i := range entries {
			if e := byID[entries[i].Event.ID]; e != nil {
				entries[i].Event = *e
				kept = append(kept, entries[i])
			}
		}
		entries = kept
		return nil
	})
	if err != nil {
		return nil, false, classify(err)
	}
	return entries, more, nil
}
