package app

import (
	"database/sql"
	"fmt"
	"time"

	"events/models"
)

// eventColumns are the columns of models.Event (the span is the database's own).
// The times come as text, which parsePGTime reads in a fraction of the
// driver's time (a page holds up to 8,000 of them).
const eventColumns = `e.id, e.kind, e.status, e.title, e.description, e.start_at::text, e.end_at::text, e.all_day,
	e.due_at::text, e.started_at::text, e.ended_at::text, e.priority, e.project_tag, e.completed_at::text, e.cancelled_at::text,
	e.defer_until::text, e.source, e.source_ref, e.undo_status, e.created_at::text, e.updated_at::text`

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
