// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"

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
}

// StartExport begins an export of the events matching q's filters, with
// their history when withHistory. It finds the range of ids the export
// reads: with a window (from or to), the first and last id of the events in
// it, by the span indexes (events_span_idx for every status but cancelled,
// events_cancelled_span_idx for cancelled); without one, every id up to the
// last. The keyset on id then reads only that range: it used to walk the
// primary key from the table's first id, so a month's export at a million
// events read the whole table before its first event. The file holds the
// events that existed when it began.
func (s *Service) StartExport(ctx context.Context, q models.ListQuery, withHistory bool) (*Export, error) {
	x := &Export{q: q, withHistory: withHistory}
	var err error
	if q.From == nil && q.To == nil {
		err = s.db.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) FROM events").Scan(&x.last)
	} else {
		// Two branches, each implying one span index's predicate. Said
		// as one scan with an OR, min(id) and max(id) became walks of the
		// primary key from either end (PostgreSQL's plan for min and max),
		// which is what the range is here to avoid.
		w := s.filters(q)
		sql := "SELECT coalesce(min(id) - 1, 0), coalesce(max(id), 0) FROM (\n" +
			"SELECT e.id FROM events e\nWHERE " + w.sql() + "\n  AND e.status <> 'cancelled'\n" +
			"UNION ALL\n" +
			"SELECT e.id FROM events e\nWHERE " + w.sql() + "\n  AND e.cancelled_at IS NOT NULL) matching"
		err = s.db.QueryRowContext(ctx, sql, append(w.args, w.args...)...).Scan(&x.after, &x.last)
	}
	if err != nil {
		return nil, classify(err)
	}
	return x, nil
}

// ExportBatch reads x's next batch: up to n matching events in id order and,
// when x asks for it, each one's history, oldest first. An export reads
// batch after batch until one comes back short; each batch is its own
// statement, so no transaction stays open while a slow client reads.
func (s *Service) ExportBatch(ctx context.Context, x *Export, n int) ([]models.Event, [][]models.History, error) {
	w := s.filters(x.q)
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
