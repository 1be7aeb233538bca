package app

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"events/models"
)

// eventColumns are the columns of models.EventFields (the span is the
// database's own). The times come as text, which parsePGTime reads in a
// fraction of the driver's time (a page holds up to 1001 rows of 8 times).
var eventColumns = func() string {
	cols := make([]string, len(models.EventFields))
	for i, f := range models.EventFields {
		cols[i] = "e." + f.Column
		if f.Type == models.TypeTime {
			cols[i] += "::text"
		}
	}
	return strings.Join(cols, ", ")
}()

// rowTimes is how many times a row has: they share one array.
var rowTimes = func() int {
	n := 0
	for _, f := range models.EventFields {
		if f.Type == models.TypeTime {
			n++
		}
	}
	return n
}()

// queryEvents runs query, which selects eventColumns, and appends its
// events to dst, read by eventRow.
func queryEvents(ctx context.Context, db bun.IDB, dst []models.Event, query string, args ...any) ([]models.Event, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return dst, err
	}
	defer rows.Close()
	var r eventRow
	for rows.Next() {
		dst = append(dst, models.Event{})
		if err := r.scan(rows, &dst[len(dst)-1]); err != nil {
			return dst, err
		}
	}
	return dst, rows.Err()
}

// eventRow scans the columns of eventColumns into an Event without bun's
// reflection: a listing reads up to 1001 rows, and a page's time went
// mostly into scanning them. The times of a row share one array.
type eventRow struct {
	dest  []any
	e     *models.Event
	times []time.Time
}

func (r *eventRow) scan(rows *sql.Rows, e *models.Event) error {
	r.e, r.times = e, make([]time.Time, rowTimes)
	if r.dest == nil {
		r.dest = make([]any, len(models.EventFields))
		t := 0
		for i := range models.EventFields {
			f := &models.EventFields[i]
			switch f.Type {
			case models.TypeText:
				r.dest[i] = textCol{r, f}
			case models.TypeEnum:
				r.dest[i] = enumCol{r, f}
			case models.TypeTime:
				r.dest[i] = timeCol{r, f, t}
				t++
			case models.TypeBool:
				r.dest[i] = boolCol{r, f}
			case models.TypeInt:
				r.dest[i] = intCol{r, f}
			}
		}
	}
	return rows.Scan(r.dest...)
}

// The column scanners: each writes its value into the row's current event
// through its field's accessors.
type (
	intCol struct {
		r *eventRow
		f *models.Field
	}
	boolCol struct {
		r *eventRow
		f *models.Field
	}
	textCol struct {
		r *eventRow
		f *models.Field
	}
	enumCol struct {
		r *eventRow
		f *models.Field
	}
	// timeCol i is the i-th time of the row, in column order.
	timeCol struct {
		r *eventRow
		f *models.Field
		i int
	}
)

func (c intCol) Scan(src any) error {
	v, ok := src.(int64)
	if !ok {
		return fmt.Errorf("%s: cannot scan %T", c.f.Name, src)
	}
	c.f.SetInt(c.r.e, v)
	return nil
}

func (c boolCol) Scan(src any) error {
	v, ok := src.(bool)
	if !ok {
		return fmt.Errorf("%s: cannot scan %T", c.f.Name, src)
	}
	c.f.SetBool(c.r.e, v)
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

func (c textCol) Scan(src any) error {
	if src == nil {
		c.f.SetText(c.r.e, "", false)
		return nil
	}
	v, ok := text(src)
	if !ok {
		return fmt.Errorf("%s: cannot scan %T into a string", c.f.Name, src)
	}
	c.f.SetText(c.r.e, v, true)
	return nil
}

// enumValue is src as a string: one of the enums' values when it is one (no
// string is made for it), else a copy of src.
func enumValue(src any) (string, error) {
	var b []byte
	switch v := src.(type) {
	case []byte:
		b = v
	case string:
		return v, nil
	default:
		return "", fmt.Errorf("cannot scan %T into an enum", src)
	}
	for _, s := range enumValues {
		if string(b) == s {
			return s, nil
		}
	}
	return string(b), nil
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

func (c enumCol) Scan(src any) error {
	if src == nil {
		c.f.SetText(c.r.e, "", false)
		return nil
	}
	v, err := enumValue(src)
	c.f.SetText(c.r.e, v, true)
	return err
}

func (c timeCol) Scan(src any) error {
	var t *time.Time
	if src != nil {
		text, ok := src.(string) // eventColumns selects every time as text
		if !ok {
			return fmt.Errorf("%s: cannot scan %T into a time", c.f.Name, src)
		}
		v, err := parsePGTime(text)
		if err != nil {
			return err
		}
		c.r.times[c.i] = v
		t = &c.r.times[c.i]
	}
	c.f.SetTime(c.r.e, t)
	return nil
}
