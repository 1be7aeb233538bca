// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"events/models"
)

// Service runs the use cases of the events service.
type Service struct {
	db  *bun.DB
	loc *time.Location // EVENTS_TIMEZONE: all-day dates and the listings' default zone
	now func() time.Time
	log *slog.Logger // for rows a read leaves out (unwritable.go); nil: slog.Default()
	// probeEach: read every overlap by a probe of its own, never a
	// window (overlaps.go); for the test that compares the two
	probeEach bool
}

// NewService returns a Service over db. loc is the configured time zone; now
// is the clock (time.Now in production).
func NewService(db *bun.DB, loc *time.Location, now func() time.Time) *Service {
	return &Service{db: db, loc: loc, now: now}
}

// Zone is the configured time zone (EVENTS_TIMEZONE).
func (s *Service) Zone() *time.Location { return s.loc }

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }

// Ping answers whether the database answers.
func (s *Service) Ping(ctx context.Context) error { return classify(s.db.PingContext(ctx)) }

// Create stores a new event and its create row. A (source, source_ref)
// already stored is a *models.DuplicateError naming the stored event.
func (s *Service) Create(ctx context.Context, in models.Input, actor models.Actor) (models.Event, error) {
	c, err := s.CreateFull(ctx, in, actor)
	return c.Event, err
}

// Created is a stored create and what it did beside storing the event
// (DESIGN.md, "Running logs and overlaps").
type Created struct {
	Event models.Event
	// Overlaps are the logs that an activity log's span overlaps, earliest
	// first (at most maxOverlaps); empty, not nil, for a log that overlaps
	// none, nil for any other kind.
	Overlaps []models.Overlap
	// Stopped are the running logs that stop_running completed first, as
	// they now are.
	Stopped []models.Event
	// Before is where the log would sit right before the logs it overlaps
	// (its length, ending where the earliest begins) when nothing is there:
	// the pages offer to move it there. Nil when it overlaps nothing, runs,
	// or that place is taken.
	Before *Span
}

// Span is a half-open stretch of time [Start, End).
type Span struct{ Start, End time.Time }

// CreateFull is Create, reporting what the create did.
func (s *Service) CreateFull(ctx context.Context, in models.Input, actor models.Actor) (Created, error) {
	var c Created
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) (err error) {
		c, err = s.createIn(ctx, tx, in, actor)
		return err
	})
	if err != nil {
		return Created{}, classify(err)
	}
	return c, nil
}

// createIn makes the event of in and stores it in tx with its create row
// (CreateFull, and CreateOnce in idempotency.go): with stop_running, the
// running logs are completed first; an activity log's overlaps are found,
// and refused or moved before as its overlap option says.
func (s *Service) createIn(ctx context.Context, tx bun.Tx, in models.Input, actor models.Actor) (Created, error) {
	now := s.now()
	e, err := in.NewEvent(now, s.loc)
	var made *models.Event
	if err == nil {
		made = &e
	}
	opts, optErr := models.ReadCreateOptions(in, made)
	var fe, oe models.FieldErrors
	if errors.As(err, &fe) && errors.As(optErr, &oe) {
		return Created{}, append(fe, oe...) // one 422 naming every field
	}
	if err != nil {
		return Created{}, err
	}
	if optErr != nil {
		return Created{}, optErr
	}
	c := Created{}
	if opts.StopRunning && e.Running() {
		if c.Stopped, err = s.stopRunning(ctx, tx, &e, now, actor); err != nil {
			return Created{}, err
		}
	}
	if e.Kind == models.KindActivityLog {
		if c.Overlaps, c.Before, err = s.placeLog(ctx, tx, &e, opts.Overlap, now); err != nil {
			return Created{}, err
		}
	}
	if err := insertEvent(ctx, tx, &e, actor); err != nil {
		return Created{}, err
	}
	c.Event = e
	return c, nil
}

// stopRunning completes every running log (one complete row each, as the
// operation writes) before e, a new running log, starts: Timewarrior's
// start. A log stops now, or where e starts when e starts earlier (since
// 9:30) and after the running log began, so that the two do not overlap.
func (s *Service) stopRunning(ctx context.Context, tx bun.Tx, e *models.Event, now time.Time, actor models.Actor) ([]models.Event, error) {
	var running []models.Event
	if err := tx.NewSelect().Model(&running).
		Where("kind = 'activity_log' AND status = 'in_progress' AND ended_at IS NULL").
		Order("id").For("UPDATE").Scan(ctx); err != nil {
		return nil, err
	}
	out := make([]models.Event, 0, len(running))
	for _, r := range running {
		n, h, err := models.Apply(r, models.OpComplete, models.Input{}, now, actor, nil)
		if err != nil {
			return nil, err
		}
		if st := e.StartedAt; st != nil && st.Before(*n.EndedAt) && r.StartedAt != nil && st.After(*r.StartedAt) {
			end := *st
			n.EndedAt = &end
			h.Changes["ended_at"] = models.Change{Old: nil, New: models.FormatTime(end)}
		}
		if n, err = writeStep(ctx, tx, r, n, h, nil); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// maxOverlaps bounds the logs a create names: a day-long log over a day of
// short records names the first ones.
const maxOverlaps = 50

// overlapSQL reads the logs, not cancelled, whose span overlaps [start,
// end), a running one up to now, earliest first; through the span's GiST
// index alone (kindOfLogs: a long span's guess could otherwise AND it
// with the kind's b-tree). Arguments: start, end, end, now, start, now,
// maxOverlaps.
const overlapSQL = `SELECT e.id, e.title, e.started_at, e.ended_at
	FROM events AS e
	WHERE ` + kindOfLogs + ` AND e.status <> 'cancelled'
	AND e.span && tstzrange(?, ?, '[)')
	AND e.started_at < ?
	AND (e.ended_at IS NOT NULL OR e.status = 'in_progress')
	AND coalesce(e.ended_at, ?) > ?
	AND coalesce(e.ended_at, ?) > e.started_at
	ORDER BY e.started_at, e.id
	LIMIT ?`

// loggedSpan is a log that overlap detection found.
type loggedSpan struct {
	ID        int64      `bun:"id"`
	Title     string     `bun:"title"`
	StartedAt time.Time  `bun:"started_at"`
	EndedAt   *time.Time `bun:"ended_at"`
}

// overlapping returns the logs whose spans overlap [start, end) at now,
// with the seconds each shares with it, and the earliest start among them.
func overlapping(ctx context.Context, tx bun.Tx, start, end, now time.Time) ([]models.Overlap, time.Time, error) {
	var rows []loggedSpan
	if err := tx.NewRaw(overlapSQL, start, end, end, now, start, now, maxOverlaps).Scan(ctx, &rows); err != nil {
		return nil, time.Time{}, err
	}
	out := make([]models.Overlap, 0, len(rows))
	var earliest time.Time
	for _, r := range rows {
		oe := now
		if r.EndedAt != nil {
			oe = *r.EndedAt
		}
		secs := models.Seconds(later(start, r.StartedAt), earlier(end, oe))
		if secs < 1 {
			continue
		}
		if len(out) == 0 {
			earliest = r.StartedAt
		}
		out = append(out, models.Overlap{ID: r.ID, Title: r.Title, Seconds: secs})
	}
	return out, earliest, nil
}

// placeLog finds the logs e's span overlaps and applies the overlap
// option: refuse is an *models.OverlapError naming them; before moves e to
// end where the earliest of them begins, keeping its length (an
// *models.OverlapError when it would still overlap); allow keeps it, and
// returns where before would have put it, if that place is free.
func (s *Service) placeLog(ctx context.Context, tx bun.Tx, e *models.Event, choice string, now time.Time) ([]models.Overlap, *Span, error) {
	start, end, ok := models.OverlapSpan(e, now)
	if !ok {
		return []models.Overlap{}, nil, nil
	}
	found, earliest, err := overlapping(ctx, tx, start, end, now)
	if err != nil || len(found) == 0 {
		return found, nil, err
	}
	if choice == models.OverlapRefuse {
		return nil, nil, models.NewOverlapError("the log overlaps", found)
	}
	var before *Span
	if e.EndedAt != nil { // a running log has no length to keep
		// A place that would begin before the year 0001 is not offered,
		// and overlap before is refused there as where it would overlap:
		// a stored log of year 1 must not make a create fail.
		b := Span{End: earliest}
		var fits bool
		if b.Start, fits = models.SpanBefore(earliest, start, end); !fits {
			if choice == models.OverlapBefore {
				return nil, nil, models.NewOverlapError("placed before the logs it overlaps, the log would begin before the year 0001", found)
			}
			return found, nil, nil
		}
		again, _, err := overlapping(ctx, tx, b.Start, b.End, now)
		if err != nil {
			return nil, nil, err
		}
		if len(again) == 0 {
			before = &b
		} else if choice == models.OverlapBefore {
			return nil, nil, models.NewOverlapError("placed before the logs it overlaps, the log would still overlap", again)
		}
	}
	if choice == models.OverlapBefore && before != nil {
		e.StartedAt, e.EndedAt = &before.Start, &before.End
		return []models.Overlap{}, nil, nil
	}
	return found, before, nil
}

// earlier is the earlier of two times.
func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// later is the later of two times.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// insertEvent stores e and its create row in tx (Create, and CreateOnce in
// idempotency.go).
func insertEvent(ctx context.Context, tx bun.Tx, e *models.Event, actor models.Actor) error {
	if e.Source != nil {
		actor = models.ActorImport
	}
	err := tx.NewInsert().Model(e).
		On("CONFLICT (source, source_ref) WHERE source IS NOT NULL DO NOTHING").
		Returning("id").Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		// The unique index refused it; the winner has committed.
		var id int64
		if err := tx.NewSelect().Model((*models.Event)(nil)).Column("id").
			Where("source = ? AND source_ref = ?", *e.Source, *e.SourceRef).Scan(ctx, &id); err != nil {
			return err
		}
		return &models.DuplicateError{ExistingID: id}
	}
	if err != nil {
		return err
	}
	h := models.CreateRecord(e, actor)
	_, err = tx.NewInsert().Model(&h).Exec(ctx)
	return err
}

// Get returns one event.
func (s *Service) Get(ctx context.Context, id int64) (models.Event, error) {
	var e models.Event
	err := s.db.NewSelect().Model(&e).Where("id = ?", id).Scan(ctx)
	return e, classify(err)
}

// Patch applies a PATCH of the editable fields. inErr is the error of
// decoding the body, reported after the event is known to exist. A change of
// a time field writes one reschedule row.
func (s *Service) Patch(ctx context.Context, id int64, in models.Input, inErr error, actor models.Actor) (models.Event, error) {
	return s.PatchIf(ctx, id, nil, in, inErr, actor)
}

// PatchIf is Patch under an If-Match precondition (nil: none), checked
// after the row is locked and before anything else about the request: a
// stale client is told so first (412), whatever its body.
func (s *Service) PatchIf(ctx context.Context, id int64, cond *IfMatch, in models.Input, inErr error, actor models.Actor) (models.Event, error) {
	return s.patch(ctx, nil, id, cond, in, inErr, actor)
}

// patch is PatchIf, under an Idempotency-Key when o is not nil (PatchOnce).
func (s *Service) patch(ctx context.Context, o *once, id int64, cond *IfMatch, in models.Input, inErr error, actor models.Actor) (models.Event, error) {
	var out models.Event
	err := s.runOnce(ctx, o, &out, func(ctx context.Context, tx bun.Tx) error {
		e, err := lock(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := cond.check(e); err != nil {
			return err
		}
		if inErr != nil {
			return inErr
		}
		n, times, changed, err := models.ApplyPatch(e, in, s.now(), s.loc)
		if err != nil {
			return err
		}
		out = n
		if !changed {
			return nil
		}
		h := models.RescheduleRecord(&n, times, actor) // at the clock's time
		// every write moves updated_at, the event's validator (see ETag)
		if n.UpdatedAt, err = nextUpdate(e.UpdatedAt, n.UpdatedAt); err != nil {
			return err
		}
		out = n
		if _, err := tx.NewUpdate().Model(&n).WherePK().
			Column(models.EditableColumns()...).
			Exec(ctx); err != nil {
			return err
		}
		if len(times) == 0 {
			return nil
		}
		_, err = tx.NewInsert().Model(&h).Exec(ctx)
		return err
	})
	if err != nil {
		return models.Event{}, classify(err)
	}
	return out, nil
}

// Operate applies a lifecycle operation and writes its history row. inErr is
// the error of decoding the body; refusals come in the order of docs/DESIGN.md.
func (s *Service) Operate(ctx context.Context, id int64, op models.Op, in models.Input, inErr error, actor models.Actor) (models.Event, error) {
	return s.OperateIf(ctx, id, nil, op, in, inErr, actor)
}

// OperateIf is Operate under an If-Match precondition (nil: none), checked
// after the row is locked, before the body and the status: a stale client
// is told so first (412).
func (s *Service) OperateIf(ctx context.Context, id int64, cond *IfMatch, op models.Op, in models.Input, inErr error, actor models.Actor) (models.Event, error) {
	return s.operate(ctx, nil, id, cond, op, in, inErr, actor)
}

// operate is OperateIf, under an Idempotency-Key when o is not nil
// (OperateOnce).
func (s *Service) operate(ctx context.Context, o *once, id int64, cond *IfMatch, op models.Op, in models.Input, inErr error, actor models.Actor) (models.Event, error) {
	var out models.Event
	err := s.runOnce(ctx, o, &out, func(ctx context.Context, tx bun.Tx) error {
		e, err := lock(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := cond.check(e); err != nil {
			return err
		}
		// After 404: a body that does not parse (400, 415), the kind and
		// the status (422, 409), then a bad value (422).
		var fieldErr models.FieldErrors
		if inErr != nil && !errors.As(inErr, &fieldErr) {
			return inErr
		}
		if err := models.Check(&e, op); err != nil {
			return err
		}
		if inErr != nil {
			return inErr
		}
		var undo *models.Undo
		if op == models.OpReactivate {
			if undo, err = undoStack(ctx, tx, &e); err != nil {
				return err
			}
		}
		n, h, err := models.Apply(e, op, in, s.now(), actor, undo)
		if err != nil {
			return err
		}
		out, err = writeStep(ctx, tx, e, n, h, undo)
		return err
	})
	if err != nil {
		return models.Event{}, classify(err)
	}
	return out, nil
}

// writeStep writes a lifecycle step: n, the event e became by it, and h,
// its history row (undo: the step a reactivate undoes). The history row and
// the event are written by one statement.
func writeStep(ctx context.Context, tx bun.Tx, e, n models.Event, h models.History, undo *models.Undo) (models.Event, error) {
	var err error
	// every write moves updated_at, the event's validator (see ETag);
	// the history row keeps the clock's time
	if n.UpdatedAt, err = nextUpdate(e.UpdatedAt, n.UpdatedAt); err != nil {
		return models.Event{}, err
	}
	// The undo stack (docs/DESIGN.md, History): a step goes on top and
	// names the step beneath it; a reactivate leaves on top the step
	// beneath the one it undid. The history row and the event are
	// written by one statement, the row as a CTE whose id the event
	// takes as its new top.
	upd := tx.NewUpdate().Model(&n).WherePK().
		Column("status", "completed_at", "cancelled_at", "defer_until", "ended_at", "undo_status", "undo_top", "updated_at")
	switch {
	case unlinked(&e):
		// rows loaded around the service: the step links what is
		// beneath it, but the event stays on the search until its
		// stack is empty, since the loaded steps name nothing beneath
		n.UndoTop = nil
		if undo == nil {
			if h.UndoNext, err = stackTop(ctx, tx, &e); err != nil {
				return models.Event{}, err
			}
		}
	case undo != nil:
		n.UndoTop = undo.Step.UndoNext
	default:
		if h.UndoNext, err = stackTop(ctx, tx, &e); err != nil {
			return models.Event{}, err
		}
		upd = upd.Value("undo_top", "(SELECT id FROM h)")
	}
	if _, err := upd.With("h", tx.NewInsert().Model(&h).Returning("id")).
		Returning("undo_top").Exec(ctx); err != nil {
		return models.Event{}, err
	}
	return n, nil
}

// lock reads the event and locks its row until the transaction ends, so
// operations on one event are applied one after another.
func lock(ctx context.Context, tx bun.Tx, id int64) (models.Event, error) {
	var e models.Event
	err := tx.NewSelect().Model(&e).Where("id = ?", id).For("UPDATE").Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return e, models.ErrNotFound
	}
	return e, err
}

// undoStackSQL reads the step on top of an event's undo stack, named by
// the event row, and the status_before of the step beneath it, which that
// step's row names: three rows by primary key, however long the history.
// One argument, the event's id. (The statement keeps the text
// "change_kind IN ('complete', 'cancel', 'defer')": the benchmark's capture
// of a reactivate finds it by that.)
const undoStackSQL = `SELECT h.id, h.event_id, h.change_kind, h.actor, h.status_before, h.status_after,
	h.changes, h.undoes, h.undo_next, h.occurred_at, b.status_before AS next_status
	FROM events AS e
	JOIN event_history AS h ON h.id = e.undo_top AND h.event_id = e.id AND h.change_kind IN ('complete', 'cancel', 'defer')
	LEFT JOIN event_history AS b ON b.id = h.undo_next
	WHERE e.id = ? AND e.undo_status IS NOT NULL`

// searchStackSQL is the undo stack as read before the links: the newest
// complete, cancel or defer no reactivate names, and the one beneath it. It
// reads every undone step, so it serves only events whose rows were written
// around the service, with a status to restore and no link (a bulk load such
// as the benchmark's seed), until their stack is empty; the next step then
// starts a linked stack.
const searchStackSQL = `SELECT h.id, h.event_id, h.change_kind, h.actor, h.status_before, h.status_after,
	h.changes, h.undoes, h.undo_next, h.occurred_at
	FROM event_history AS h
	WHERE h.event_id = ? AND h.change_kind IN ('complete', 'cancel', 'defer')
	AND NOT EXISTS (SELECT 1 FROM event_history r WHERE r.undoes = h.id)
	ORDER BY h.id DESC LIMIT 2`

// undoRow is a step and the status the step beneath it would restore.
type undoRow struct {
	models.History `bun:",extend"`
	NextStatus     *models.Status `bun:"next_status"`
}

// unlinked reports whether e has a step to undo but no link to it.
func unlinked(e *models.Event) bool { return e.UndoStatus != nil && e.UndoTop == nil }

// stackTop is the id of the step on top of e's undo stack, nil when there is
// none. undo_top counts only while undo_status is set: whatever resets an
// event to "nothing to undo" needs to clear just that.
func stackTop(ctx context.Context, tx bun.Tx, e *models.Event) (*int64, error) {
	if !unlinked(e) {
		if e.UndoStatus == nil {
			return nil, nil
		}
		return e.UndoTop, nil
	}
	var steps []models.History
	if err := tx.NewRaw(searchStackSQL, e.ID).Scan(ctx, &steps); err != nil || len(steps) == 0 {
		return nil, err
	}
	return &steps[0].ID, nil
}

// undoStack returns the newest complete, cancel or defer of the event not
// undone yet, and the status the step beneath it would restore.
func undoStack(ctx context.Context, tx bun.Tx, e *models.Event) (*models.Undo, error) {
	if unlinked(e) {
		var steps []models.History
		if err := tx.NewRaw(searchStackSQL, e.ID).Scan(ctx, &steps); err != nil {
			return nil, err
		}
		if len(steps) == 0 {
			return nil, &models.ConflictError{Reason: "there is no step to undo", Event: e}
		}
		u := &models.Undo{Step: steps[0]}
		if len(steps) == 2 {
			u.Next = steps[1].StatusBefore
		}
		return u, nil
	}
	var rows []undoRow
	if err := tx.NewRaw(undoStackSQL, e.ID).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, &models.ConflictError{Reason: "there is no step to undo", Event: e}
	}
	return &models.Undo{Step: rows[0].History, Next: rows[0].NextStatus}, nil
}
