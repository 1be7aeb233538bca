package app

import (
	"context"
	"database/sql"
	"fmt"
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

// eventColumns are the columns of models.Event (the span is the database's own).
// The times come as text, which parsePGTime reads in a fraction of the
// driver's time (a page holds up to 8,000 of them).
const eventColumns = `e.id, e.kind, e.status, e.title, e.description, e.start_at::text, e.end_at::text, e.all_day,
	e.due_at::text, e.started_at::text, e.ended_at::text, e.priority, e.project_tag, e.completed_at::text, e.cancelled_at::text,
	e.defer_until::text, e.source, e.source_ref, e.undo_status, e.created_at::text, e.updated_at::text`

// The literal status lists match the predicates of the partial indexes, so
// the planner can prove a query stays inside them.
const (
	openStatuses = `('planned', 'tentative', 'in_progress', 'waiting')`
	spanStart    = `coalesce(lower(e.span), 'infinity')`
	activityAt   = `coalesce(e.ended_at, e.started_at)`
)

// where collects the conditions of a query and their arguments.
type where struct {
	conds []string
	args  []any
}

func (w *where) add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
}

func (w *where) sql() string {
	if len(w.conds) == 0 {
		return "TRUE"
	}
	return strings.Join(w.conds, "\n  AND ")
}

// bound is a range bound: the time, or nil for unbounded.
func bound(t *time.Time) any {
	if t == nil {
		return nil
	}
	return *t
}

// overlaps selects spans that overlap [from, to); a running activity log
// spans up to now.
func overlaps(w *where, from, to *time.Time, now time.Time) {
	w.add("e.span && tstzrange(?, ?, '[)')", bound(from), bound(to))
	if from != nil {
		w.add("(NOT upper_inf(e.span) OR ? < ?)", *from, now)
	}
}

// List answers GET /api/events: any status unless filtered, in span order,
// events without a time last.
func (s *Service) List(ctx context.Context, q models.ListQuery) (Page[models.Event], error) {
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
	if q.After != nil {
		w.add("("+spanStart+", e.id) > (coalesce(?::timestamptz, 'infinity'), ?)", bound(q.After.T), q.After.ID)
	}
	sql := "SELECT " + eventColumns + "\nFROM events e\nWHERE " + w.sql() +
		"\nORDER BY " + spanStart + ", e.id\nLIMIT ?"
	return s.page(ctx, q, sql, w.args, func(e *models.Event) models.Position {
		return models.Position{T: e.SpanStart(), ID: e.ID}
	})
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
	const overdue = `(e.status IN ` + openStatuses + ` AND e.kind = 'task' AND coalesce(e.due_at, e.start_at) < ?)`
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
	out := Page[models.Event]{Items: make([]models.Event, 0, q.Limit+1)}
	args = append(args, q.Limit+1)
	rows, err := s.db.QueryContext(ctx, sql, args...)
	if err != nil {
		return out, classify(err)
	}
	defer rows.Close()
	var r eventRow
	for rows.Next() {
		out.Items = append(out.Items, models.Event{})
		if err := r.scan(rows, &out.Items[len(out.Items)-1]); err != nil {
			return out, classify(err)
		}
	}
	if err := rows.Err(); err != nil {
		return out, classify(err)
	}
	if len(out.Items) > q.Limit {
		out.Items = out.Items[:q.Limit]
		c := q.Cursor(pos(&out.Items[len(out.Items)-1]))
		out.NextCursor = &c
	}
	return out, nil
}

// eventRow scans the columns of eventColumns into an Event without bun's
// reflection: a listing reads up to 1001 rows, and a page's time went
// mostly into scanning them. The time fields of a row share one array.
type eventRow struct {
	dest  [21]any
	e     *models.Event
	times *[8]time.Time
}

func (r *eventRow) scan(rows *sql.Rows, e *models.Event) error {
	r.e, r.times = e, new([8]time.Time)
	if r.dest[0] == nil {
		r.dest = [21]any{
			int64Col{r}, enumCol[models.Kind]{r, func(e *models.Event) *models.Kind { return &e.Kind }},
			enumCol[models.Status]{r, func(e *models.Event) *models.Status { return &e.Status }},
			stringCol{r, func(e *models.Event) *string { return &e.Title }},
			stringCol{r, func(e *models.Event) *string { return &e.Description }},
			timeCol{r, 0}, timeCol{r, 1}, boolCol{r}, timeCol{r, 2}, timeCol{r, 3}, timeCol{r, 4},
			priorityCol{r},
			stringPtrCol{r, func(e *models.Event) **string { return &e.ProjectTag }},
			timeCol{r, 5}, timeCol{r, 6}, timeCol{r, 7},
			enumPtrCol[models.Source]{r, func(e *models.Event) **models.Source { return &e.Source }},
			stringPtrCol{r, func(e *models.Event) **string { return &e.SourceRef }},
			enumPtrCol[models.Status]{r, func(e *models.Event) **models.Status { return &e.UndoStatus }},
			timeCol{r, -1}, timeCol{r, -2},
		}
	}
	return rows.Scan(r.dest[:]...)
}

// The column scanners: each writes its value into the row's current event.
type (
	int64Col    struct{ r *eventRow }
	boolCol     struct{ r *eventRow }
	priorityCol struct{ r *eventRow }
	stringCol   struct {
		r     *eventRow
		field func(*models.Event) *string
	}
	stringPtrCol struct {
		r     *eventRow
		field func(*models.Event) **string
	}
	enumCol[T ~string] struct {
		r     *eventRow
		field func(*models.Event) *T
	}
	enumPtrCol[T ~string] struct {
		r     *eventRow
		field func(*models.Event) **T
	}
	// timeCol i >= 0 is the i-th nullable time of the row, in column order;
	// -1 is created_at, -2 updated_at.
	timeCol struct {
		r *eventRow
		i int
	}
)

func (c int64Col) Scan(src any) error {
	v, ok := src.(int64)
	if !ok {
		return fmt.Errorf("id: cannot scan %T", src)
	}
	c.r.e.ID = v
	return nil
}

func (c boolCol) Scan(src any) error {
	v, ok := src.(bool)
	if !ok {
		return fmt.Errorf("all_day: cannot scan %T", src)
	}
	c.r.e.AllDay = v
	return nil
}

func (c priorityCol) Scan(src any) error {
	v, ok := src.(int64)
	if !ok {
		return fmt.Errorf("priority: cannot scan %T", src)
	}
	c.r.e.Priority = int(v)
	return nil
}

func text(src any) (string, bool) {
	switch v := src.(type) {
	case string:
		return v, true
	case []byte:
		return string(v), true
	}
	return "", false
}

func (c stringCol) Scan(src any) error {
	v, ok := text(src)
	if !ok {
		return fmt.Errorf("cannot scan %T into a string", src)
	}
	*c.field(c.r.e) = v
	return nil
}

func (c stringPtrCol) Scan(src any) error {
	if src == nil {
		*c.field(c.r.e) = nil
		return nil
	}
	v, ok := text(src)
	if !ok {
		return fmt.Errorf("cannot scan %T into a string", src)
	}
	*c.field(c.r.e) = &v
	return nil
}

// enumValue is src as T: one of the enum's values when it is one (no
// string is made for it), else a copy of src.
func enumValue[T ~string](src any) (T, error) {
	var b []byte
	switch v := src.(type) {
	case []byte:
		b = v
	case string:
		return T(v), nil
	default:
		return "", fmt.Errorf("cannot scan %T into an enum", src)
	}
	for _, s := range enumValues {
		if string(b) == s {
			return T(s), nil
		}
	}
	return T(b), nil
}

// enumValues are the values of the enums of an event row.
var enumValues = func() []string {
	var out []string
	for _, k := range models.Kinds {
		out = append(out, string(k))
	}
	for _, s := range models.Statuses {
		out = append(out, string(s))
	}
	for _, s := range models.Sources {
		out = append(out, string(s))
	}
	return out
}()

func (c enumCol[T]) Scan(src any) error {
	v, err := enumValue[T](src)
	*c.field(c.r.e) = v
	return err
}

func (c enumPtrCol[T]) Scan(src any) error {
	if src == nil {
		*c.field(c.r.e) = nil
		return nil
	}
	v, err := enumValue[T](src)
	*c.field(c.r.e) = &v
	return err
}

func (c timeCol) Scan(src any) error {
	var t *time.Time
	if src != nil {
		text, ok := src.(string) // eventColumns selects every time as text
		if !ok {
			return fmt.Errorf("cannot scan %T into a time", src)
		}
		v, err := parsePGTime(text)
		if err != nil {
			return err
		}
		if c.i < 0 {
			t = &v
		} else {
			c.r.times[c.i] = v
			t = &c.r.times[c.i]
		}
	}
	e := c.r.e
	switch c.i {
	case -1:
		e.CreatedAt = derefTime(t)
	case -2:
		e.UpdatedAt = derefTime(t)
	case 0:
		e.StartAt = t
	case 1:
		e.EndAt = t
	case 2:
		e.DueAt = t
	case 3:
		e.StartedAt = t
	case 4:
		e.EndedAt = t
	case 5:
		e.CompletedAt = t
	case 6:
		e.CancelledAt = t
	case 7:
		e.DeferUntil = t
	}
	return nil
}

func derefTime(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// parsePGTime reads PostgreSQL's text form of a timestamptz as a session in
// UTC prints it ("2026-11-22 03:00:00.123456+00"), by position; any other
// form goes to time.Parse.
func parsePGTime(s string) (time.Time, error) {
	n := len(s)
	if n < 22 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':' || s[n-3:] != "+00" {
		return time.Parse("2006-01-02 15:04:05.999999999-07", s)
	}
	digits := func(from, to int) int {
		v := 0
		for i := from; i < to; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, mo, d, h, mi, sec := digits(0, 4), digits(5, 7), digits(8, 10), digits(11, 13), digits(14, 16), digits(17, 19)
	ns := 0
	if frac := s[19 : n-3]; frac != "" {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			return time.Parse("2006-01-02 15:04:05.999999999-07", s)
		}
		ns = digits(20, n-3)
		for i := len(frac) - 1; i < 9; i++ {
			ns *= 10
		}
	}
	if y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0 || ns < 0 {
		return time.Parse("2006-01-02 15:04:05.999999999-07", s)
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, ns, time.UTC), nil
}
