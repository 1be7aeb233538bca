// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"encoding/json"
	"fmt"
	"time"
)

// An event read back from the API's JSON and written as a create body,
// both from the field table: the API client and the importer use Event
// itself, so a field added to the table reaches them with no copy to edit.

// UnmarshalJSON reads an event as the API writes it (AppendJSON): every
// field of the table by its name, and capture_note. A computed field (the
// local dates) is read from the others, and keys the table does not know
// (a create's overlaps) are left to the caller.
func (e *Event) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*e = Event{}
	for i := range EventFields {
		f := &EventFields[i]
		raw, ok := m[f.Name]
		if !ok || f.Type == TypeDate {
			continue
		}
		if err := f.readJSON(e, raw); err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	if raw, ok := m["capture_note"]; ok {
		return json.Unmarshal(raw, &e.CaptureNote)
	}
	return nil
}

// readJSON sets the field of e from its JSON value.
func (f *Field) readJSON(e *Event, raw json.RawMessage) error {
	null := string(raw) == "null"
	switch f.Type {
	case TypeText, TypeEnum:
		if null {
			f.setText(e, nil)
			return nil
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		f.setText(e, &s)
	case TypeTime:
		if null {
			f.setTime(e, nil)
			return nil
		}
		var t time.Time
		if err := json.Unmarshal(raw, &t); err != nil {
			return err
		}
		t = t.UTC()
		f.setTime(e, &t)
	case TypeBool:
		return json.Unmarshal(raw, f.getBool(e))
	case TypeLabels:
		return json.Unmarshal(raw, f.getLabels(e))
	case TypeInt:
		var v int64
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		f.setInt(e, v)
	}
	return nil
}

// AppendCreateJSON appends the body of a create of e (POST /api/events):
// its kind, then every field a create accepts that e's kind carries and e
// holds (Field.Empty: a field left out takes its default), in the table's
// order. The same event gives the same bytes.
func (e *Event) AppendCreateJSON(b []byte) []byte {
	b = append(b, '{')
	first := true
	for i := range EventFields {
		f := &EventFields[i]
		if !f.Accepted(CreateFields) || !f.ForKind(e.Kind) || (f.Name != "kind" && f.Empty(e)) {
			continue
		}
		key := f.jsonKey
		if first {
			key, first = key[1:], false
		}
		b = append(b, key...)
		b = f.appendJSON(b, e)
	}
	return append(b, '}')
}
