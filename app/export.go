package app

import (
	"context"

	"github.com/uptrace/bun"

	"events/models"
)

// ExportBatchSize is how many events an export reads at a time: its memory
// is one batch, whatever the number of events.
const ExportBatchSize = 1000

// ExportBatch is one batch of GET /api/events/export (DESIGN.md, Export):
// up to n events matching q's filters with an id above after, in id order,
// and, when withHistory, each one's history, oldest first. An export reads
// batch after batch (keyset on id) until one comes back short; each batch
// is its own statement, so no transaction stays open while a slow client
// reads.
func (s *Service) ExportBatch(ctx context.Context, q models.ListQuery, after int64, n int, withHistory bool) ([]models.Event, [][]models.History, error) {
	w := s.filters(q)
	w.add("e.id > ?", after)
	sql := "SELECT " + eventColumns + "\nFROM events e\nWHERE " + w.sql() + "\nORDER BY e.id\nLIMIT ?"
	events, err := queryEvents(ctx, s.db, sql, append(w.args, n)...)
	if err != nil {
		return nil, nil, classify(err)
	}
	if !withHistory || len(events) == 0 {
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
