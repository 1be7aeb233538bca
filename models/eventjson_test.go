// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// everyField is an event of kind k with a value in every stored field,
// made from the field table alone.
func everyField(t *testing.T, k Kind) Event {
	t.Helper()
	e := Event{Kind: k}
	at := time.Date(2026, 11, 25, 0, 30, 0, 123456000, time.UTC)
	for i := range EventFields {
		f := &EventFields[i]
		switch {
		case f.Name == "kind" || !f.Stored():
		case f.Type == TypeEnum:
			v := f.Values[len(f.Values)-1]
			f.SetText(&e, &v)
		case f.Type == TypeText:
			v := "x " + f.Name + " 회의"
			if f.Name == "zone" {
				v = "Asia/Seoul"
			}
			f.SetText(&e, &v)
		case f.Type == TypeTime:
			v := at
			f.SetTime(&e, &v)
			at = at.Add(time.Hour)
		case f.Type == TypeBool:
			f.SetBool(&e, true)
		case f.Type == TypeInt:
			v := int64(7)
			if f.Max > f.Min {
				v = int64(f.Max)
			}
			f.SetInt(&e, v)
		case f.Type == TypeLabels:
			f.SetLabels(&e, []string{"a", "회의"})
		default:
			t.Fatalf("%s: a type this test cannot fill", f.Name)
		}
	}
	return e
}

// The API client reads an event with Event itself (UnmarshalJSON, from the
// field table): what the service writes reads back to the same event,
// field by field, and a null reads back as null.
func TestEventJSONReadsBack(t *testing.T) {
	for _, k := range Kinds {
		for _, e := range []Event{everyField(t, k), {ID: 1, Kind: k, Status: StatusPlanned}} {
			e.CaptureNote = "Read “12-1” as 12:00–13:00."
			js := e.AppendJSON(nil)
			var back Event
			if err := json.Unmarshal(js, &back); err != nil {
				t.Fatalf("%s: %v", js, err)
			}
			if again := back.AppendJSON(nil); !bytes.Equal(again, js) {
				t.Errorf("read back and written again:\n%s\nwant\n%s", again, js)
			}
		}
	}
}

// The importer sends an event as a create body (AppendCreateJSON): the
// fields a create takes that the kind carries and the event holds, which
// the service's own decoder accepts.
func TestEventCreateBody(t *testing.T) {
	for _, k := range Kinds {
		e := everyField(t, k)
		body := e.AppendCreateJSON(nil)
		in, err := DecodeJSON(body, CreateFields)
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if !in.Kind.Set || in.Kind.V != k {
			t.Errorf("%s: kind %v", body, in.Kind)
		}
		for i := range EventFields {
			f := &EventFields[i]
			has := strings.Contains(string(body), `"`+f.Name+`":`)
			if want := f.Accepted(CreateFields) && f.ForKind(k); has != want {
				t.Errorf("%s: %s in the body %v, want %v", body, f.Name, has, want)
			}
		}
		if empty := (&Event{Kind: k}).AppendCreateJSON(nil); string(empty) != `{"kind":"`+string(k)+`"}` {
			t.Errorf("an empty %s: %s", k, empty)
		}
	}
}
