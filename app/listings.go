// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"events/models"
)

// Page is one page of a listing.
type Page[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"next_cursor"`
}

const (
	spanStart  = `coalesce(lower(e.span), 'infinity')`
	activityAt = `coalesce(e.ended_at, e.started_at)`
)

// openStatuses is the SQL list of the open statuses, from models. It is
// written into the statement as literals, not bound, so the planner can
// prove a query stays inside the active rows' partial index
// (events_active_idx, whose literal list TestStatusListsOfTheDatabase
// holds to models).
var openStatuses = statusList(models.Status.Open)

// statusList is the SQL list of the statuses in, in lifecycle order:
// ('planned', 'tentative', ...).
func statusList(in func(models.Status) bool) string {
	var quoted []string
	for _, s := range models.Statuses {
		if in(s) {
			quoted = append(quoted, "'"+string(s)+"'")
		}
	}
	return "(" + strings.Join(quoted, ", ") + ")"
}

// List answers GET /api/events: any status unless filtered, in span order,
// events without a time last. With updated_since, the events changed after
// it, in (updated_at, id) order: a client that keeps a copy reads only what
// changed (DESIGN.md, Listings).
func (s *Service) List(ctx context.Context, q models.ListQuery) (Page[models.Event], error) {
	if q.UpdatedSince != nil {
		sql, args := s.changedSQL(q)
		return s.page(ctx, q, sql, args, func(e *models.Event) models.Position {
			t := e.UpdatedAt
			return models.Position{T: &t, ID: e.ID}
		})
	}
	sql, args := s.listSQL(q)
	return s.page(ctx, q, sql, args, func(e *models.Event) models.Position {
		return models.Position{T: e.SpanStart(), ID: e.ID}
	})
}

// changedSQL is List's statement with updated_since, but the LIMIT: the
// other filters apply as they do without it, and the order is that of
// events_updated_idx (migration 20261127003000).
func (s *Service) changedSQL(q models.ListQuery) (string, []any) {
	w := s.filters(q)
	changedSince(&w, *q.UpdatedSince)
	if q.After != nil {
		w.add("(e.updated_at, e.id) > (?, ?)", bound(q.After.T), q.After.ID)
	}
	return "SELECT " + eventColumns + "\nFROM events e\nWHERE " + w.sql() +
		"\nORDER BY e.updated_at, e.id\nLIMIT ?", w.args
}

// listSQL is List's statement and its arguments but the LIMIT.
func (s *Service) listSQL(q models.ListQuery) (string, []any) {
	w := s.filters(q)
	if q.After != nil {
		w.add("("+spanStart+", e.id) > (coalesce(?::timestamptz, 'infinity'), ?)", bound(q.After.T), q.After.ID)
	}
	return "SELECT " + eventColumns + "\nFROM events e\nWHERE " + w.sql() +
		"\nORDER BY " + spanStart + ", e.id\nLIMIT ?", w.args
}

// filters are the conditions of GET /api/events's filters, which its
// export shares.
func (s *Service) filters(q models.ListQuery) where {
	var w where
	if len(q.Kinds) > 0 {
		w.add("e.kind IN (?)", bun.In(q.Kinds))
	}
	if len(q.Statuses) > 0 {
		w.add("e.status IN (?)", bun.In(q.Statuses))
		if !slices.Contains(q.Statuses, models.StatusCancelled) {
			w.add("e.status <> 'cancelled'")
		}
	}
	if q.ProjectTag != nil {
		if *q.ProjectTag == "" {
			w.add("e.project_tag IS NULL")
		} else {
			w.add("e.project_tag = ?", *q.ProjectTag)
		}
	}
	if len(q.Sources) > 0 {
		w.add("e.source IN (?)", bun.In(q.Sources))
	}
	if q.From != nil || q.To != nil {
		overlaps(&w, q.From, q.To, s.now())
	}
	search(&w, q.Words)
	return w
}

// Today answers GET /api/events/today: what the day in q.Loc holds, overdue
// tasks first.
func (s *Service) Today(ctx context.Context, q models.ListQuery) (Page[models.Event], error) {
	now := s.now()
	dayStart, dayEnd := models.DayBounds(now, q.Loc)
	var w where
	w.add("e.status <> 'cancelled'")
	w.add("NOT (e.status = 'deferred' AND e.defer_until > ?)", now)
	// overdue: an open task due (else starting) before the day; its one
	// argument is the day's start
	overdue := `(e.status IN ` + openStatuses + ` AND e.kind = 'task' AND coalesce(e.due_at, e.start_at) < ?)`
	w.add(`(e.span && tstzrange(?, ?, '[)')
    OR `+overdue+`
    OR e.status = 'in_progress'
    OR (e.status = 'deferred' AND e.defer_until <= ?))`, dayStart, dayEnd, dayStart, now)
	group := `(CASE WHEN ` + overdue + ` THEN 0 ELSE 1 END)`
	if q.After != nil {
		w.add("("+group+", "+spanStart+", e.id) > (?, coalesce(?::timestamptz, 'infinity'), ?)",
			dayStart, q.After.G, bound(q.After.T), q.After.ID)
	}
	sql := "SELECT " + eventColumns + "\nFROM events e\nWHERE " + w.sql() +
		"\nORDER BY " + group + ", " + spanStart + ", e.id\nLIMIT ?"
	args := append(w.args, dayStart)
	return s.page(ctx, q, sql, args, func(e *models.Event) models.Position {
		g := 1
		if models.Overdue(e, dayStart) {
			g = 0
		}
		return models.Position{G: g, T: e.SpanStart(), ID: e.ID}
	})
}

// Inbox answers GET /api/events/inbox: open tasks with no time, oldest first.
func (s *Service) Inbox(ctx context.Context, q models.ListQuery) (Page[models.Event], error) {
	var w where
	w.add("e.status IN " + openStatuses)
	w.add("e.kind = 'task'")
	w.add("coalesce(e.due_at, e.start_at) IS NULL")
	if q.After != nil {
		w.add("(e.created_at, e.id) > (?, ?)", bound(q.After.T), q.After.ID)
	}
	sql := "SELECT " + eventColumns + "\nFROM events e\nWHERE " + w.sql() +
		"\nORDER BY e.created_at, e.id\nLIMIT ?"
	return s.page(ctx, q, sql, w.args, func(e *models.Event) models.Position {
		t := e.CreatedAt
		return models.Position{T: &t, ID: e.ID}
	})
}

// ActivityWindow is the window GET /api/events/activity covers: as asked,
// else from the local midnight six days before today to the end of today.
func ActivityWindow(q models.ListQuery, now time.Time) (from, to *time.Time) {
	if q.From != nil || q.To != nil {
		return q.From, q.To
	}
	f, t := models.DayStart(now, q.Loc, -6), models.DayStart(now, q.Loc, 1)
	return &f, &t
}

// Activity answers GET /api/events/activity: activity logs of the window,
// newest first. A log overlaps the window [from, to) when it sits (ends, or
// is) at or after from and starts before to; those come from the activity
// index in its order. The only other logs that overlap it are those still
// running since before from.
func (s *Service) Activity(ctx context.Context, q models.ListQuery) (Page[models.Event], error) {
	now := s.now()
	from, to := ActivityWindow(q, now)
	var a, b where
	a.add("e.kind = 'activity_log'")
	a.add("e.status <> 'cancelled'")
	if from != nil {
		a.add(activityAt+" >= ?", *from)
		// a span [s, e) that ends exactly at from does not reach into the window
		a.add("("+activityAt+" > ? OR NOT coalesce(e.ended_at > e.started_at, false))", *from)
		// a running log spans up to now
		a.add("(e.ended_at IS NOT NULL OR e.status <> 'in_progress' OR ? < ?)", *from, now)
	}
	if to != nil {
		a.add("coalesce(e.started_at, e.ended_at) < ?", *to)
	}
	b.add("e.kind = 'activity_log'")
	b.add("e.status = 'in_progress'")
	b.add("e.ended_at IS NULL")
	if from != nil {
		b.add("e.started_at < ?", *from)
		b.add("? < ?", *from, now)
	} else {
		b.add("FALSE")
	}
	if q.After != nil {
		a.add("("+activityAt+", e.id) < (?, ?)", bound(q.After.T), q.After.ID)
		b.add("("+activityAt+", e.id) < (?, ?)", bound(q.After.T), q.After.ID)
	}
	order := "\nORDER BY " + activityAt + " DESC, e.id DESC\nLIMIT ?"
	sql := "SELECT " + eventColumns + " FROM (\n(SELECT * FROM events e\nWHERE " + a.sql() + order + ")\nUNION ALL\n" +
		"(SELECT * FROM events e\nWHERE " + b.sql() + order + ")) e" + order
	limit := q.Limit + 1
	args := append(append(append(a.args, limit), b.args...), limit)
	return s.page(ctx, q, sql, args, func(e *models.Event) models.Position {
		return models.Position{T: models.ActivityAt(e), ID: e.ID}
	})
}

// History answers GET /api/events/{id}/history, oldest first.
func (s *Service) History(ctx context.Context, id int64, q models.ListQuery) (Page[models.History], error) {
	out := Page[models.History]{Items: []models.History{}}
	exists, err := s.db.NewSelect().Model((*models.Event)(nil)).Where("id = ?", id).Exists(ctx)
	if err != nil {
		return out, classify(err)
	}
	if !exists {
		return out, models.ErrNotFound
	}
	sel := s.db.NewSelect().Model(&out.Items).Where("h.event_id = ?", id).
		OrderExpr("h.occurred_at, h.id").Limit(int64(q.Limit + 1))
	if q.After != nil {
		sel = sel.Where("(h.occurred_at, h.id) > (?, ?)", bound(q.After.T), q.After.ID)
	}
	if err := sel.Scan(ctx); err != nil {
		return out, classify(err)
	}
	if len(out.Items) > q.Limit {
		out.Items = out.Items[:q.Limit]
		last := out.Items[len(out.Items)-1]
		c := q.Cursor(models.Position{T: &last.OccurredAt, ID: last.ID})
		out.NextCursor = &c
	}
	return out, nil
}

// page runs a listing's query (its last argument the LIMIT) one row past
// the page, to know whether another page follows.
func (s *Service) page(ctx context.Context, q models.ListQuery, sql string, args []any, pos func(*models.Event) models.Position) (Page[models.Event], error) {
	out := Page[models.Event]{}
	var err error
	if out.Items, err = queryEvents(ctx, s.db, sql, append(args, q.Limit+1)...); err != nil {
		return out, classify(err)
	}
	if len(out.Items) > q.Limit {
		out.Items = out.Items[:q.Limit]
		c := q.Cursor(pos(&out.Items[len(out.Items)-1]))
		out.NextCursor = &c
	}
	// after the cursor, which may come from a row left out
	out.Items = s.writable(out.Items, q.Listing)
	return out, nil
}
