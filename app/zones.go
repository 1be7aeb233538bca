// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// FillZones gives the events stored before zones were (zone null) the
// service's zone, loc, and returns how many it gave it: the zone their
// all-day spans and day-only dues were fixed in, unless EVENTS_TIMEZONE
// changed since they were written. The service's start runs it after the
// migrations (a migration does not know the zone); updated_at stays, as
// nothing about the event changed.
func FillZones(ctx context.Context, db bun.IDB, loc *time.Location) (int64, error) {
	res, err := db.NewUpdate().Table("events").Set("zone = ?", loc.String()).Where("zone IS NULL").Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("give the events stored before zones were the zone %s: %w", loc, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	return n, nil
}
