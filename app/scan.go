// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"events/models"
)

// eventColumns is the row of models.EventFields (the span is the
// database's own) as one composite value in its text form:
// "(1,task,planned,\"Write the report\",...)". The driver reads a column at a
// time, each with its length, a string and a boxed value of its own; one
// column a row instead of 21 cut the service's cost of reading a row by
// about a third (DESIGN.md, Reading rows), and recordFields splits it
// without copying. PostgreSQL
// writes each field with the same output function as on its own (a time as
// "2026-11-22 03:00:00.123456+00", which parsePGTime reads).
//
// rowFields are the fields of models.EventFields that are columns, in its
// order: a row's fields. The others (the local dates) are computed from them.
var rowFields, eventColumns = tableRow()

// tableRow reads rowFields and eventColumns from the field table: once,
// and again in a test that adds a field to the table.
func tableRow() ([]*models.Field, string) {
	var fields []*models.Field
	var cols []string
	for i := range models.EventFields {
		if f := &models.EventFields[i]; f.Stored() {
			fields = append(fields, f)
			cols = append(cols, "e."+f.Column)
		}
	}
	return fields, "ROW(" + strings.Join(cols, ", ") + ")::text"
}

// arena hands out the times and the nullable texts of a statement's rows
// from shared arrays of arenaChunk: one allocation for the values of many
// rows, not one a value, and room only for the values a row has (a NULL
// takes none).
type arena[T any] []T

const arenaChunk = 128

// put stores v in the arena and returns where.
func (a *arena[T]) put(v T) *T {
	if len(*a) == cap(*a) {
		*a = make([]T, 0, arenaChunk)
	}
	*a = append(*a, v)
	return &(*a)[len(*a)-1]
}

// rowValues are the arenas of a statement's rows.
type rowValues struct {
	times arena[time.Time]
	texts arena[string]
}

// queryEvents runs query, which selects eventColumns, and returns its
// events. The rows' texts are read first and the events made once their
// number is known: one array of events, never grown (an event is about 240
// bytes; growing a Today of 311 rows made and copied 1,008 of them).
func queryEvents(ctx context.Context, db bun.IDB, query string, args ...any) ([]models.Event, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var text string
	var texts []string
	for rows.Next() {
		if err := rows.Scan(&text); err != nil {
			return nil, err
		}
		texts = append(texts, text)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var (
		events = make([]models.Event, len(texts))
		fields = make([]recordField, 0, len(rowFields))
		values rowValues
	)
	for i, text := range texts {
		if fields, err = recordFields(fields[:0], text); err != nil {
			return nil, err
		}
		if err := setEvent(&events[i], fields, &values); err != nil {
			return nil, err
		}
	}
	return events, nil
}

// setEvent writes the fields of a row, in the order of rowFields, into e
// through the fields' accessors; its times and nullable texts go into
// values.
func setEvent(e *models.Event, fields []recordField, values *rowValues) error {
	if len(fields) != len(rowFields) {
		return fmt.Errorf("an event row of %d fields, not %d", len(fields), len(rowFields))
	}
	for i, v := range fields {
		f := rowFields[i]
		switch f.Type {
		case models.TypeText, models.TypeEnum:
			switch {
			case v.null:
				f.SetText(e, nil)
			case f.KeepsText():
				f.SetText(e, values.texts.put(v.text))
			default:
				f.SetText(e, &fields[i].text) // copied: fields is the next row's too
			}
		case models.TypeTime:
			if v.null {
				f.SetTime(e, nil)
				continue
			}
			t, err := parsePGTime(v.text)
			if err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
			f.SetTime(e, values.times.put(t))
		case models.TypeLabels:
			l, err := models.ParseLabelArray(v.text)
			if err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
			f.SetLabels(e, l)
		case models.TypeBool:
			if v.text != "t" && v.text != "f" {
				return fmt.Errorf("%s: %q is not a boolean", f.Name, v.text)
			}
			f.SetBool(e, v.text == "t")
		case models.TypeInt:
			n, err := strconv.ParseInt(v.text, 10, 64)
			if err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
			f.SetInt(e, n)
		}
	}
	return nil
}

// recordField is a field of a composite value's text form; null: SQL's NULL
// (text is then "").
type recordField struct {
	text string
	null bool
}

// recordFields appends the fields of s, PostgreSQL's text form of a
// composite value (record_out), to dst. Between the parentheses fields are
// separated by commas; a NULL is nothing at all; a field holding a quote,
// a backslash, a parenthesis, a comma or white space, or nothing (the empty
// string), is in double quotes, with each quote and backslash in it
// doubled. A field is a substring of s unless it had such a pair to undo.
func recordFields(dst []recordField, s string) ([]recordField, error) {
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return dst, fmt.Errorf("not a row value: %.40q", s)
	}
	i, end := 1, len(s)-1
	for {
		switch {
		case i == end || s[i] == ',':
			dst = append(dst, recordField{null: true})
		case s[i] == '"':
			f, next, err := quotedField(s, i)
			if err != nil {
				return dst, err
			}
			dst = append(dst, recordField{text: f})
			i = next
		default:
			j := i
			for j < end && s[j] != ',' {
				if c := s[j]; c == '"' || c == '\\' {
					return dst, fmt.Errorf("a quote or a backslash outside quotes at %d of a row value", j)
				}
				j++
			}
			dst = append(dst, recordField{text: s[i:j]})
			i = j
		}
		if i == end {
			return dst, nil
		}
		if s[i] != ',' {
			return dst, fmt.Errorf("%q after a field at %d of a row value", s[i], i)
		}
		i++
	}
}

// quotedField reads the quoted field that starts at s[i] (its quote) and
// returns its text and the index just past its closing quote.
func quotedField(s string, i int) (string, int, error) {
	start := i + 1
	j := len(s)
	if q := strings.IndexByte(s[start:], '"'); q >= 0 {
		j = start + q
	}
	if b := strings.IndexByte(s[start:j], '\\'); b >= 0 {
		j = start + b
	}
	if j < len(s) && s[j] == '"' && (j+1 == len(s) || s[j+1] != '"') {
		return s[start:j], j + 1, nil // nothing to undo
	}
	b := []byte(s[start:j])
	for j < len(s) {
		c := s[j]
		switch {
		case (c == '"' || c == '\\') && j+1 < len(s) && s[j+1] == c:
			b = append(b, c)
			j += 2
		case c == '"':
			return string(b), j + 1, nil
		case c == '\\':
			// record_out doubles a backslash; record_in also reads one
			// as an escape of the next byte
			if j+1 == len(s) {
				return "", j, fmt.Errorf("a row value ends inside quotes")
			}
			b = append(b, s[j+1])
			j += 2
		default:
			b = append(b, c)
			j++
		}
	}
	return "", j, fmt.Errorf("a row value ends inside quotes")
}
