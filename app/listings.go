// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"events/models"
)

// Page is one page of a listing.
type Page[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"next_cursor"`
	// NextToken is the change token after this page (changes_after only)
	NextToken *string `json:"next_token,omitempty"`
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
	if q.Changes != nil {
		return s.changes(ctx, q)
	}
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

// listSQL is List's statement and its arguments but the LIMIT. Each part
// of it reads one index in the listing's order (migration
// 20261206005700), so a page reads its own rows however large the table
// and however deep the cursor (DESIGN.md, Listings):
//
//   - a filter on kind, status or source with several values is one
//     branch per value (per combination when several are given), each an
//     ordered range of its index; the merge takes the first rows of all;
//   - from starts the walk at from: an event that starts in [from, to)
//     overlaps the window. Those that began before from and still run at
//     from are a branch of their own, found by the span indexes and
//     sorted (a few at any instant);
//   - to ends the walk: an event that overlaps a window ending at to
//     starts before it.
//
// A search (q) is the exception: its rows come from the trigram index and
// are sorted, and how many match grows with the table.
func (s *Service) listSQL(q models.ListQuery) (string, []any) {
	order := "\nORDER BY " + spanStart + ", e.id"
	if len(q.Words) > 0 {
		w := s.filters(q)
		listAfter(&w, q)
		// OFFSET 0 keeps the search a subquery of its own: planned
		// without the LIMIT, it reads the trigram index rather than
		// walking the order's index past every row that does not match
		return "SELECT " + eventColumns + "\nFROM (SELECT * FROM events e\nWHERE " + w.sql() + "\nOFFSET 0) e" +
			order + "\nLIMIT ?", w.args
	}
	// the filters every branch shares
	rest := q
	rest.Kinds, rest.Statuses, rest.Sources, rest.From, rest.To = nil, nil, nil, nil, nil
	var branches []where
	for _, eq := range equalities(q) {
		w := s.filters(rest)
		w.conds = append(w.conds, eq...)
		if len(q.Statuses) > 0 && !slices.Contains(q.Statuses, models.StatusCancelled) {
			w.add("e.status <> 'cancelled'")
		}
		// the overlap with [from, to) of the events that start in it,
		// said as a range of the order's key
		if q.From != nil {
			// one lower bound, the later of from and the cursor: given
			// both, the index's walk began at one and filtered up to
			// the other
			if q.After == nil || q.After.T != nil && q.After.T.Before(*q.From) {
				w.add(spanStart+" >= ?", *q.From)
			}
			w.add("e.span IS NOT NULL")
			w.add("(NOT upper_inf(e.span) OR ? < ?)", *q.From, s.now())
		}
		if q.To != nil {
			w.add(spanStart+" < ?", *q.To)
		}
		if q.From == nil || q.After != nil && !(q.After.T != nil && q.After.T.Before(*q.From)) {
			listAfter(&w, q)
		}
		branches = append(branches, w)
	}
	if len(branches) == 1 && q.From == nil {
		return "SELECT " + eventColumns + "\nFROM events e\nWHERE " + branches[0].sql() + order + "\nLIMIT ?", branches[0].args
	}
	var sqls []string
	var args []any
	limit := fmt.Sprintf("\nLIMIT %d", q.Limit+1)
	for _, w := range branches {
		sqls = append(sqls, "SELECT * FROM events e\nWHERE "+w.sql()+order+limit)
		args = append(args, w.args...)
	}
	if q.From != nil {
		// by the two span indexes, as an export finds its window: one
		// leaves cancelled events out, the other holds only them
		for _, part := range spanParts {
			if part != spanParts[0] && len(q.Statuses) > 0 && !slices.Contains(q.Statuses, models.StatusCancelled) {
				continue
			}
			w := s.filters(q)
			w.add(part)
			w.add("e.span @> ?::timestamptz", *q.From)
			w.add(spanStart+" < ?", *q.From)
			listAfter(&w, q)
			sqls = append(sqls, "SELECT * FROM events e\nWHERE "+w.sql()+"\nOFFSET 0")
			args = append(args, w.args...)
		}
	}
	return "SELECT " + eventColumns + " FROM (\n(" + strings.Join(sqls, ")\nUNION ALL\n(") + ")) e" +
		order + "\nLIMIT ?", args
}

// spanParts are the predicates of the two span indexes, events_span_idx
// and events_cancelled_span_idx: between them, every event with a span.
var spanParts = [2]string{"e.status <> 'cancelled'", "e.cancelled_at IS NOT NULL"}

// maxBranches is the most branches listSQL makes of the enum filters'
// values; past it, the source filter is a condition rather than branches.
const maxBranches = 21

// equalities are the conditions of listSQL's branches: one list for each
// combination of the kind, status and source filters' values (one empty
// list when there are none).
func equalities(q models.ListQuery) [][]string {
	out := [][]string{nil}
	product := func(column string, values []string) {
		if len(values) == 0 {
			return
		}
		var next [][]string
		for _, c := range out {
			for _, v := range values {
				// the values are the enums' own, checked by the parser
				next = append(next, append(slices.Clip(c), "e."+column+" = '"+v+"'"))
			}
		}
		out = next
	}
	product("kind", enumStrings(q.Kinds))
	product("status", enumStrings(q.Statuses))
	if len(out)*len(q.Sources) <= maxBranches {
		product("source", enumStrings(q.Sources))
	} else {
		for i := range out {
			out[i] = append(slices.Clip(out[i]), "e.source IN "+quoted(enumStrings(q.Sources)))
		}
	}
	return out
}

func enumStrings[T ~string](in []T) []string {
	out := make([]string, len(in))
	for i, v := range in {
		out[i] = string(v)
	}
	return out
}

// quoted is the SQL list of the (enum) values: ('a', 'b').
func quoted(values []string) string {
	return "('" + strings.Join(values, "', '") + "')"
}

// listAfter adds the cursor's condition: past the previous page's last row.
func listAfter(w *where, q models.ListQuery) {
	if q.After != nil {
		w.add("("+spanStart+", e.id) > (coalesce(?::timestamptz, 'infinity'), ?)", bound(q.After.T), q.After.ID)
	}
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
	if len(q.Labels) > 0 {
		// served by events_labels_idx (GIN)
		w.add("e.labels @> ?::text[]", pgdialect.Array(q.Labels))
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
	// the day's events by the one membership rule (DESIGN.md, Summary):
	// the span touches the day, or the event was completed that day (a
	// task done today without a due day is today's)
	w.add(`(e.span && tstzrange(?, ?, '[)')
    OR (e.kind = 'task' AND e.status = 'done' AND e.completed_at >= ? AND e.completed_at < ?)
    OR `+overdue+`
    OR e.status = 'in_progress'
    OR (e.status = 'deferred' AND e.defer_until <= ?))`, dayStart, dayEnd, dayStart, dayEnd, dayStart, now)
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

// CrossingLogs answers the activity logs, not cancelled, that overlap
// [from, to) and cross a local midnight of loc (a running one up to now),
// newest end first: Activity lists each of them under every day it touches
// (DESIGN.md, Summary, Days), its own row under the day the listing places
// it, a piece's row under each other day.
func (s *Service) CrossingLogs(ctx context.Context, from, to time.Time, loc *time.Location) ([]models.Event, error) {
	now := s.now()
	sql := "SELECT " + eventColumns + "\nFROM events e\nWHERE e.kind = 'activity_log' AND e.status <> 'cancelled'" +
		"\n  AND e.started_at IS NOT NULL AND e.span && tstzrange(?, ?, '[)')" +
		"\n  AND (e.started_at AT TIME ZONE ?)::date < ((coalesce(e.ended_at, greatest(?, e.started_at)) - interval '1 microsecond') AT TIME ZONE ?)::date" +
		"\nORDER BY " + activityAt + " DESC, e.id DESC\nLIMIT 1000"
	events, err := queryEvents(ctx, s.db, sql, from, to, loc.String(), now, loc.String())
	if err != nil {
		return nil, classify(err)
	}
	return s.writable(events, models.ListActivity), nil
}

// changesSQL lists the changes after a token: in position order, only
// those whose transaction is older than every transaction still running
// (the statement's snapshot's xmin), one row past the page; each row
// carries its position, and a row of nulls but the watermark comes when
// there is none.
const changesSQL = `WITH w AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
SELECT w.xmin::text, c.row, c.change_xid::text, c.change_seq, c.id
FROM w LEFT JOIN LATERAL (
    SELECT %s AS row, e.change_xid, e.change_seq, e.id
    FROM events e
    WHERE (e.change_xid, e.change_seq, e.id) > (?::text::xid8, ?, ?)
      AND e.change_xid < w.xmin
    ORDER BY e.change_xid, e.change_seq, e.id
    LIMIT ?) c ON TRUE
ORDER BY c.change_xid, c.change_seq, c.id`

// changes answers GET /api/events?changes_after=: the events changed
// after the token, each once in its latest state, and the token after
// them (DESIGN.md, Sync). A page short of the limit has caught up: its
// token is the watermark itself, so the next call starts past every
// transaction that had ended.
func (s *Service) changes(ctx context.Context, q models.ListQuery) (Page[models.Event], error) {
	out := Page[models.Event]{Items: []models.Event{}}
	t := *q.Changes
	rows, err := s.db.QueryContext(ctx, fmt.Sprintf(changesSQL, eventColumns),
		strconv.FormatUint(t.XID, 10), t.Seq, t.ID, q.Limit+1)
	if err != nil {
		return out, classify(err)
	}
	defer rows.Close()
	var (
		xmin   string
		texts  []string
		marks  []models.ChangeToken
		fields = make([]recordField, 0, len(rowFields))
		values rowValues
	)
	for rows.Next() {
		var text, xid sql.NullString
		var seq, id sql.NullInt64
		if err := rows.Scan(&xmin, &text, &xid, &seq, &id); err != nil {
			return out, classify(err)
		}
		if !text.Valid {
			continue
		}
		x, err := strconv.ParseUint(xid.String, 10, 64)
		if err != nil {
			return out, err
		}
		texts = append(texts, text.String)
		marks = append(marks, models.ChangeToken{XID: x, Seq: seq.Int64, ID: id.Int64})
	}
	if err := rows.Err(); err != nil {
		return out, classify(err)
	}
	next := t
	if len(texts) > q.Limit {
		texts, next = texts[:q.Limit], marks[q.Limit-1]
	} else if w, err := strconv.ParseUint(xmin, 10, 64); err != nil {
		return out, err
	} else if w > t.XID {
		// every change of a transaction older than w is listed
		next = models.ChangeToken{XID: w}
	}
	out.Items = make([]models.Event, len(texts))
	for i, text := range texts {
		if fields, err = recordFields(fields[:0], text); err != nil {
			return out, err
		}
		if err := setEvent(&out.Items[i], fields, &values); err != nil {
			return out, err
		}
	}
	token := next.String()
	out.NextToken = &token
	out.Items = s.writable(out.Items, q.Listing)
	return out, nil
}
