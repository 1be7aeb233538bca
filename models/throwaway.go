// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

// AddThrowAwayField adds to the field table, for one test, an editable
// one-line text field name of the kinds given, shown on the forms as
// label and on a list row after the label "Place:" (row_place): a line
// like any other of EventFields, its value kept beside the event by its id
// (no column of Event). It answers the function that takes it out again.
// Tests only (models' and handlers' recipe tests): it changes the table
// every request reads, unguarded.
func AddThrowAwayField(name, label string, kinds ...Kind) (remove func()) {
	store := map[int64]**string{}
	get := func(e *Event) **string {
		if store[e.ID] == nil {
			store[e.ID] = new(*string)
		}
		return store[e.ID]
	}
	saved := EventFields
	f := text(name, get, nil, editable...).form(label, "text", "").rowText("row_place").line(80).trim().emptyIsNull().of(kinds...)
	EventFields = append(EventFields[:len(EventFields):len(EventFields)], f)
	fieldIndex = indexFields()
	return func() {
		EventFields = saved
		fieldIndex = indexFields()
	}
}
