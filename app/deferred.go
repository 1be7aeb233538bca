// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"time"

	"events/models"
)

// deferredLimit bounds DeferredBetween: a fortnight's deferrals.
const deferredLimit = 1000

// DeferredBetween is the deferred events whose defer_until lies in
// [from, to), in defer_until order: where the Upcoming page places them
// (at the time they come back, not at their old time). It reads the
// partial index on active rows.
func (s *Service) DeferredBetween(ctx context.Context, from, to time.Time) ([]models.Event, error) {
	q := models.ListQuery{Limit: deferredLimit}
	sql := "SELECT " + eventColumns + "\nFROM events e\nWHERE e.status = 'deferred' AND e.defer_until >= ? AND e.defer_until < ?" +
		"\nORDER BY e.defer_until, e.id\nLIMIT ?"
	page, err := s.page(ctx, q, sql, []any{from, to}, func(e *models.Event) models.Position {
		return models.Position{T: e.DeferUntil, ID: e.ID}
	})
	return page.Items, err
}
