// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// FillZones gives the events stored before zones were (zone null) the
// service's zone, loc, and returns how many it gave it: the zone their
// all-day spans and day-only dues were fixed in, unless EVENTS_TIMEZONE
// changed since they were written. The service's start runs it after the
// migrations (a migration does not know the zone); updated_at stays, as
// nothing about the event changed. It goes through the events by id, a
// batch a statement: one UPDATE of a million rows ran past the sessions'
// statement timeout and stopped the start.
func FillZones(ctx context.Context, db bun.IDB, loc *time.Location) (int64, error) {
	return FillZonesBatched(ctx, db, loc, fillZonesBatch)
}

// FillZonesBatched is FillZones reading batch events a statement.
func FillZonesBatched(ctx context.Context, db bun.IDB, loc *time.Location, batch int) (int64, error) {
	var first sql.NullInt64 // one scan at each start; none after the first
	if err := db.QueryRowContext(ctx, "SELECT min(id) FROM events WHERE zone IS NULL").Scan(&first); err != nil || !first.Valid {
		return 0, err
	}
	var total, after int64 = 0, first.Int64 - 1
	for {
		var last sql.NullInt64
		var n int64
		err := db.QueryRowContext(ctx, `WITH batch AS (
	SELECT id FROM events WHERE id > ? ORDER BY id LIMIT ?
), filled AS (
	UPDATE events e SET zone = ? FROM batch WHERE e.id = batch.id AND e.zone IS NULL RETURNING e.id
)
SELECT (SELECT max(id) FROM batch), (SELECT count(*) FROM filled)`, after, batch, loc.String()).Scan(&last, &n)
		if err != nil {
			return total, fmt.Errorf("give the events stored before zones were the zone %s: %w", loc, err)
		}
		total += n
		if !last.Valid {
			return total, nil
		}
		after = last.Int64
	}
}

// fillZonesBatch is how many events one statement of FillZones reads.
const fillZonesBatch = 10000
