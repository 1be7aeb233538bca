// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"net/url"
	"testing"
	"time"
)

// TestEventDatesInTheirZone: every event answer carries the zone its dates
// were fixed in, and an all-day entry its local dates (the end inclusive),
// a task due on a day without a clock time its due_date; null where they
// do not apply.
func TestEventDatesInTheirZone(t *testing.T) {
	t.Parallel()
	seoul, berlin := mustZone(t, "Asia/Seoul"), mustZone(t, "Europe/Berlin")
	santiago := mustZone(t, "America/Santiago") // 2026-09-06 begins at 01:00
	cases := []struct {
		name       string
		body       string
		loc, tz    *time.Location // the service's zone and the request's ?tz=
		zone       string
		start, end any
		due        any
	}{
		{"an all-day entry of two days", `{"kind":"calendar_event","title":"Trip","all_day":true,"start_at":"2026-11-25T10:00:00+09:00","end_at":"2026-11-27T00:00:00+09:00"}`,
			seoul, nil, "Asia/Seoul", "2026-11-25", "2026-11-26", nil},
		{"an all-day entry of one day", `{"kind":"calendar_event","title":"Holiday","all_day":true,"start_at":"2026-11-25T00:00:00+09:00"}`,
			seoul, nil, "Asia/Seoul", "2026-11-25", "2026-11-25", nil},
		{"an all-day entry whose end day is cut short by its zone's clocks", `{"kind":"calendar_event","title":"Fiesta","all_day":true,"start_at":"2026-09-05T12:00:00-04:00"}`,
			santiago, nil, "America/Santiago", "2026-09-05", "2026-09-05", nil},
		{"an all-day entry on the day that begins at 01:00", `{"kind":"calendar_event","title":"Domingo","all_day":true,"start_at":"2026-09-06T12:00:00-03:00"}`,
			santiago, nil, "America/Santiago", "2026-09-06", "2026-09-06", nil},
		{"the ?tz= of a create fixes no all-day span", `{"kind":"calendar_event","title":"Trip","all_day":true,"start_at":"2026-11-25T10:00:00+09:00"}`,
			seoul, berlin, "Asia/Seoul", "2026-11-25", "2026-11-25", nil},
		{"a timed entry", `{"kind":"calendar_event","title":"Standup","start_at":"2026-11-25T10:00:00+09:00"}`,
			seoul, nil, "Asia/Seoul", nil, nil, nil},
		{"a task due on a day", `{"kind":"task","title":"Pay rent","due_at":"2026-11-26T23:59:59.999999+09:00"}`,
			seoul, nil, "Asia/Seoul", nil, nil, "2026-11-26"},
		{"a task due at a clock time", `{"kind":"task","title":"Call","due_at":"2026-11-26T09:00:00+09:00"}`,
			seoul, nil, "Asia/Seoul", nil, nil, nil},
		{"a task due at the day's end in another zone has a clock time", `{"kind":"task","title":"Call","due_at":"2026-11-26T23:59:59.999999+01:00"}`,
			seoul, nil, "Asia/Seoul", nil, nil, nil},
		{"a capture text's day read in ?tz=", `{"kind":"task","text":"Pay rent 2026-11-30"}`,
			seoul, berlin, "Europe/Berlin", nil, nil, "2026-11-30"},
		{"a capture text's day read in the service's zone", `{"kind":"task","text":"Pay rent 2026-11-30"}`,
			seoul, nil, "Asia/Seoul", nil, nil, "2026-11-30"},
		{"a log", `{"kind":"activity_log","title":"Walk","started_at":"2026-11-24T09:00:00+09:00","ended_at":"2026-11-24T10:00:00+09:00"}`,
			seoul, nil, "Asia/Seoul", nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := DecodeJSON([]byte(c.body), CreateFields)
			if err != nil {
				t.Fatal(err)
			}
			in.TextZone = c.tz
			e, err := in.NewEvent(now, c.loc)
			if err != nil {
				t.Fatal(err)
			}
			m := decodeObject(t, e.AppendJSON(nil))
			for k, want := range map[string]any{"zone": c.zone, "start_date": c.start, "end_date": c.end, "due_date": c.due} {
				if got, ok := m[k]; !ok || got != want {
					t.Errorf("%s: got %#v (present %v), want %#v", k, got, ok, want)
				}
			}
		})
	}
}

// TestEventDatesWithoutAZone: a row stored before zones were has neither
// a zone nor dates, until the service's start gives it one.
func TestEventDatesWithoutAZone(t *testing.T) {
	t.Parallel()
	start, end := ts(t, "2026-11-24T15:00:00Z"), ts(t, "2026-11-25T15:00:00Z")
	e := Event{Kind: KindCalendarEvent, Status: StatusPlanned, Title: "Trip", AllDay: true, StartAt: &start, EndAt: &end}
	m := decodeObject(t, e.AppendJSON(nil))
	for _, k := range []string{"zone", "start_date", "end_date", "due_date"} {
		if v, ok := m[k]; !ok || v != nil {
			t.Errorf("%s: got %#v (present %v), want null", k, v, ok)
		}
	}
	e.Zone = ptr("Asia/Seoul")
	if m := decodeObject(t, e.AppendJSON(nil)); m["start_date"] != "2026-11-25" || m["end_date"] != "2026-11-25" {
		t.Errorf("with its zone: %v to %v, want 2026-11-25 to 2026-11-25", m["start_date"], m["end_date"])
	}
	e.Zone = ptr("Not/A_Zone")
	if m := decodeObject(t, e.AppendJSON(nil)); m["zone"] != "Not/A_Zone" || m["start_date"] != nil {
		t.Errorf("a zone this system does not know: zone %v, start_date %v, want the name and null", m["zone"], m["start_date"])
	}
}

// TestDateFieldsAreReadOnly: a create or a PATCH that sends zone or a date,
// as JSON or as a form, is refused naming it, as id and created_at are.
func TestDateFieldsAreReadOnly(t *testing.T) {
	t.Parallel()
	values := map[string]string{"zone": "Asia/Seoul", "start_date": "2026-11-25", "end_date": "2026-11-26", "due_date": "2026-11-26"}
	for _, set := range []FieldSet{CreateFields, PatchFields} {
		for name, v := range values {
			_, err := DecodeJSON([]byte(`{"title":"x",`+`"`+name+`":"`+v+`"}`), set)
			wantFieldError(t, err, name)
			if msg := err.(FieldErrors)[0].Message; msg != "is set by the server" {
				t.Errorf("%s: %q", name, msg)
			}
			_, err = DecodeForm(url.Values{"title": {"x"}, name: {v}}, set, time.UTC)
			wantFieldError(t, err, name)
		}
	}
}

// TestPatchKeepsTheZoneOfItsDates: a PATCH that leaves an all-day entry's
// times alone leaves its span and zone, whatever the service's zone is now;
// one that moves them fixes them in the service's zone.
func TestPatchKeepsTheZoneOfItsDates(t *testing.T) {
	t.Parallel()
	seoul, berlin := mustZone(t, "Asia/Seoul"), mustZone(t, "Europe/Berlin")
	in, err := DecodeJSON([]byte(`{"kind":"calendar_event","title":"Trip","all_day":true,"start_at":"2026-11-25T00:00:00+09:00","end_at":"2026-11-27T00:00:00+09:00"}`), CreateFields)
	if err != nil {
		t.Fatal(err)
	}
	e, err := in.NewEvent(now, seoul)
	if err != nil {
		t.Fatal(err)
	}
	dates := func(e Event) (string, string, string) {
		m := decodeObject(t, e.AppendJSON(nil))
		z, _ := m["zone"].(string)
		s, _ := m["start_date"].(string)
		en, _ := m["end_date"].(string)
		return z, s, en
	}

	for _, body := range []string{`{"title":"Trip to Busan"}`, `{"all_day":true}`, `{"start_at":"2026-11-25T00:00:00+09:00"}`} {
		p, err := DecodeJSON([]byte(body), PatchFields)
		if err != nil {
			t.Fatal(err)
		}
		n, times, _, err := ApplyPatch(e, p, now, berlin)
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if !n.StartAt.Equal(*e.StartAt) || !n.EndAt.Equal(*e.EndAt) || len(times) > 0 {
			t.Errorf("%s under Berlin moved the span: %s..%s, was %s..%s (rescheduled %v)", body, n.StartAt, n.EndAt, e.StartAt, e.EndAt, times)
		}
		if z, s, en := dates(n); z != "Asia/Seoul" || s != "2026-11-25" || en != "2026-11-26" {
			t.Errorf("%s under Berlin: zone %s, %s to %s; want Asia/Seoul, 2026-11-25 to 2026-11-26", body, z, s, en)
		}
	}

	p, err := DecodeJSON([]byte(`{"start_at":"2026-12-01T00:00:00+01:00","end_at":null}`), PatchFields)
	if err != nil {
		t.Fatal(err)
	}
	n, times, _, err := ApplyPatch(e, p, now, berlin)
	if err != nil {
		t.Fatal(err)
	}
	if z, s, en := dates(n); z != "Europe/Berlin" || s != "2026-12-01" || en != "2026-12-01" {
		t.Errorf("moved under Berlin: zone %s, %s to %s; want Europe/Berlin, 2026-12-01 to 2026-12-01", z, s, en)
	}
	if want := ts(t, "2026-11-30T23:00:00Z"); !n.StartAt.Equal(want) || times["start_at"].New != FormatTime(want) {
		t.Errorf("moved under Berlin: start %s (rescheduled %v), want Berlin's midnight %s", n.StartAt, times, want)
	}
}
