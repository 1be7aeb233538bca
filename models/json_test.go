// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"events/docs"
)

// designKeys are the keys of an event answer: those of docs/openapi.json
// (docs/DESIGN.md's example, plus reactivate_to).
var designKeys = docs.EventKeys()

var answerTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$`)

func decodeObject(t *testing.T, b []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}

func sortedKeys(m map[string]any) []string {
	k := make([]string, 0, len(m))
	for name := range m {
		k = append(k, name)
	}
	sort.Strings(k)
	return k
}

func TestEventMarshalJSONExample(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	// docs/DESIGN.md's example, the created and updated times given in Seoul and
	// with nanoseconds.
	e := Event{ID: 42, Kind: KindTask, Status: StatusPlanned, Title: "Pay rent", Description: "",
		DueAt: at(ts(t, "2026-11-25T00:00:00Z")), Priority: 2, ProjectTag: ptr("home"),
		CreatedAt: time.Date(2026, 11, 22, 9, 0, 0, 123456789, seoul), UpdatedAt: time.Date(2026, 11, 22, 9, 0, 0, 0, seoul)}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	example := map[string]string{"id": `42`, "kind": `"task"`, "status": `"planned"`, "title": `"Pay rent"`,
		"due_at": `"2026-11-25T00:00:00.000000Z"`, "priority": `2`, "project_tag": `"home"`,
		"created_at": `"2026-11-22T00:00:00.123456Z"`, "updated_at": `"2026-11-22T00:00:00.000000Z"`}
	// every other field of the table, in its order, at its zero value
	zero := map[FieldType]string{TypeText: `""`, TypeBool: `false`, TypeInt: `0`, TypeLabels: `[]`}
	var parts []string
	for _, f := range EventFields {
		v, ok := example[f.Name]
		switch {
		case ok:
		case f.Nullable:
			v = "null"
		default:
			v = zero[f.Type]
		}
		parts = append(parts, `"`+f.Name+`":`+v)
	}
	want := "{" + strings.Join(parts, ",") + "}"
	if !strings.HasPrefix(want, `{"id":42,"kind":"task","status":"planned","title":"Pay rent","description":"",`) {
		t.Fatalf("the example is not the table's: %s", want)
	}
	if string(b) != want {
		t.Errorf("marshal:\ngot  %s\nwant %s", b, want)
	}
	// A pointer marshals the same.
	if b2, _ := json.Marshal(&e); !bytes.Equal(b, b2) {
		t.Errorf("*Event marshals differently:\n%s\n%s", b2, b)
	}
}

func TestEventMarshalJSONEveryField(t *testing.T) {
	t.Parallel()
	ny := mustZone(t, "America/New_York")
	local := func(s string) *time.Time { v := ts(t, s).In(ny); return &v }
	e := Event{ID: 7, Kind: KindCalendarEvent, Status: StatusCancelled, Title: "Standup", Description: "a\nb",
		StartAt: local("2026-11-25T00:00:00.1Z"), EndAt: local("2026-11-25T01:00:00.000001999Z"), AllDay: true,
		DueAt: local("2026-11-26T00:00:00Z"), StartedAt: local("2026-11-24T00:00:00Z"), EndedAt: local("2026-11-24T01:00:00Z"),
		Priority: 3, ProjectTag: ptr("work"), CompletedAt: local("2026-11-23T00:00:00Z"), CancelledAt: local("2026-11-23T01:00:00Z"),
		DeferUntil: local("2026-12-01T00:00:00Z"), Source: ptr(Source("calendar")), SourceRef: ptr("ics-1"),
		UndoStatus: ptr(StatusDone), CreatedAt: t0, UpdatedAt: now}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	m := decodeObject(t, b)
	want := append([]string(nil), designKeys...)
	sort.Strings(want)
	if got := sortedKeys(m); !reflect.DeepEqual(got, want) {
		t.Errorf("keys:\ngot  %v\nwant %v", got, want)
	}
	wantValues := map[string]any{
		"id": json.Number("7"), "kind": "calendar_event", "status": "cancelled", "title": "Standup", "description": "a\nb",
		"start_at": "2026-11-25T00:00:00.100000Z", "end_at": "2026-11-25T01:00:00.000001Z", "all_day": true,
		"due_at": "2026-11-26T00:00:00.000000Z", "started_at": "2026-11-24T00:00:00.000000Z", "ended_at": "2026-11-24T01:00:00.000000Z",
		"priority": json.Number("3"), "project_tag": "work", "completed_at": "2026-11-23T00:00:00.000000Z",
		"cancelled_at": "2026-11-23T01:00:00.000000Z", "defer_until": "2026-12-01T00:00:00.000000Z",
		"source": "calendar", "source_ref": "ics-1", "reactivate_to": "done",
		"created_at": "2026-11-20T09:00:00.000000Z", "updated_at": "2026-11-25T03:30:15.123456Z",
	}
	for k, w := range wantValues {
		if m[k] != w {
			t.Errorf("%s: got %#v, want %#v", k, m[k], w)
		}
		if s, ok := w.(string); ok && (strings.HasSuffix(k, "_at") || k == "defer_until") {
			if !answerTime.MatchString(s) {
				t.Errorf("%s: %q is not UTC with six fractional digits", k, s)
			}
		}
	}
}

func TestEventMarshalJSONNulls(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(Event{Kind: KindActivityLog, Status: StatusDone})
	if err != nil {
		t.Fatal(err)
	}
	m := decodeObject(t, b)
	nullable := namesOf(tableFields(func(f *Field) bool { return f.Nullable }))
	if !slices.Contains(nullable, "project_tag") || !slices.Contains(nullable, "reactivate_to") {
		t.Fatalf("nullable fields: %v", nullable)
	}
	for _, k := range nullable {
		if v, ok := m[k]; !ok || v != nil {
			t.Errorf("%s: got %#v (present %v), want null", k, v, ok)
		}
	}
	if m["title"] != "" || m["description"] != "" || m["all_day"] != false || m["priority"] != json.Number("0") {
		t.Errorf("zero values: got %v", m)
	}
}

func TestHistoryMarshalJSON(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	occurred := time.Date(2026, 11, 25, 9, 0, 0, 987654321, seoul)
	cases := []struct {
		name string
		h    History
		want string
	}{
		{"a create row: no changes, no status before",
			History{ID: 1, EventID: 42, ChangeKind: ChangeCreate, Actor: ActorAPI, StatusAfter: StatusPlanned, OccurredAt: occurred},
			`{"id":1,"event_id":42,"change_kind":"create","actor":"api","status_before":null,"status_after":"planned",` +
				`"changes":{},"undoes":null,"occurred_at":"2026-11-25T00:00:00.987654Z"}`},
		{"an empty map is {} too",
			History{ID: 2, EventID: 42, ChangeKind: ChangeCreate, Actor: ActorImport, StatusAfter: StatusDone, Changes: map[string]Change{}, OccurredAt: occurred},
			`{"id":2,"event_id":42,"change_kind":"create","actor":"import","status_before":null,"status_after":"done",` +
				`"changes":{},"undoes":null,"occurred_at":"2026-11-25T00:00:00.987654Z"}`},
		{"a reactivate row",
			History{ID: 5, EventID: 42, ChangeKind: ChangeReactivate, Actor: ActorUser, StatusBefore: ptr(StatusCancelled), StatusAfter: StatusDeferred,
				Changes: map[string]Change{"cancelled_at": {Old: "2026-11-25T00:00:00.000000Z", New: nil}, "defer_until": {Old: nil, New: "2026-11-26T00:00:00.000000Z"}},
				Undoes:  ptr(int64(4)), OccurredAt: occurred},
			`{"id":5,"event_id":42,"change_kind":"reactivate","actor":"user","status_before":"cancelled","status_after":"deferred",` +
				`"changes":{"cancelled_at":{"old":"2026-11-25T00:00:00.000000Z","new":null},"defer_until":{"old":null,"new":"2026-11-26T00:00:00.000000Z"}},` +
				`"undoes":4,"occurred_at":"2026-11-25T00:00:00.987654Z"}`},
		{"a reschedule of all_day",
			History{ID: 6, EventID: 42, ChangeKind: ChangeReschedule, Actor: ActorImport, StatusBefore: ptr(StatusPlanned), StatusAfter: StatusPlanned,
				Changes: map[string]Change{"all_day": {Old: false, New: true}}, OccurredAt: occurred},
			`{"id":6,"event_id":42,"change_kind":"reschedule","actor":"import","status_before":"planned","status_after":"planned",` +
				`"changes":{"all_day":{"old":false,"new":true}},"undoes":null,"occurred_at":"2026-11-25T00:00:00.987654Z"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(c.h)
			if err != nil {
				t.Fatal(err)
			}
			// The same object (key order is no part of JSON's meaning).
			if got, want := decodeObject(t, b), decodeObject(t, []byte(c.want)); !reflect.DeepEqual(got, want) {
				t.Errorf("marshal:\ngot  %s\nwant %s", b, c.want)
			}
			if b2, _ := json.Marshal(&c.h); !bytes.Equal(b, b2) {
				t.Errorf("*History marshals differently: %s", b2)
			}
		})
	}
}

// TestHistoryRowsMarshal: the rows Apply, CreateRecord and RescheduleRecord
// build carry their times in the answers' format.
func TestHistoryRowsMarshal(t *testing.T) {
	t.Parallel()
	e := fixture(KindTask, StatusDeferred)
	_, h, err := Apply(e, OpComplete, Input{}, now, ActorAPI, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(h)
	m := decodeObject(t, b)
	changes, _ := m["changes"].(map[string]any)
	for name, c := range changes {
		for _, side := range []string{"old", "new"} {
			v := c.(map[string]any)[side]
			if s, ok := v.(string); v != nil && (!ok || !answerTime.MatchString(s)) {
				t.Errorf("%s.%s: got %#v", name, side, v)
			}
		}
	}
	if got := m["occurred_at"]; got != "2026-11-25T03:30:15.123456Z" {
		t.Errorf("occurred_at: got %v", got)
	}
}

// reflected is the event's JSON through encoding/json, the reference
// AppendJSON must match byte for byte: each field of the table in its
// order, its value read by the table's accessors and written by
// encoding/json (a time as FormatTime's text).
func reflected(t *testing.T, e Event) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	encode := func(v any) {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
	}
	buf.WriteByte('{')
	for i := range EventFields {
		f := &EventFields[i]
		if i > 0 {
			buf.WriteByte(',')
		}
		encode(f.Name)
		buf.WriteByte(':')
		var v any
		switch f.Type {
		case TypeText, TypeEnum:
			if s, ok := f.Text(&e); ok {
				v = s
			}
		case TypeTime:
			if tm := f.Time(&e); tm != nil {
				v = FormatTime(*tm)
			}
		case TypeBool:
			v = f.Bool(&e)
		case TypeInt:
			v = f.Int(&e)
		case TypeLabels:
			v = append([]string{}, f.Labels(&e)...) // an array, empty for none
		}
		encode(v)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

// AppendJSON writes what encoding/json writes, for every field and for the
// strings encoding/json escapes: quotes, backslashes, every control
// character, invalid UTF-8, U+2028 and U+2029, and (not escaped) <, > and &.
func TestEventAppendJSONMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	seoulTime := time.Date(2026, 11, 22, 12, 0, 0, 123456000, time.FixedZone("KST", 9*3600))
	src, ref, tag, undo := Source("calendar"), "ref \"1\"", "home", StatusPlanned
	full := Event{ID: 1<<53 + 1, Kind: KindCalendarEvent, Status: StatusDone, Title: "t", Description: "d",
		StartAt: &seoulTime, EndAt: &seoulTime, AllDay: true, DueAt: &seoulTime, StartedAt: &seoulTime, EndedAt: &seoulTime,
		Priority: 3, ProjectTag: &tag, CompletedAt: &seoulTime, CancelledAt: &seoulTime, DeferUntil: &seoulTime,
		Source: &src, SourceRef: &ref, UndoStatus: &undo, CreatedAt: seoulTime, UpdatedAt: seoulTime}
	var controls strings.Builder
	for c := rune(0); c < 0x20; c++ {
		controls.WriteRune(c)
		controls.WriteString("x")
	}
	titles := []string{"", "plain", `quote " and \ backslash`, controls.String(), "\x7f del", "<b>&amp;</b>",
		"bad \xff utf-8 \xe2\x82", "line\u2028para\u2029end", "한국어 ✓ 😀", "\u00e9\u0301"}
	for _, title := range titles {
		for _, e := range []Event{full, {ID: 7, Kind: KindTask, Status: StatusPlanned, CreatedAt: seoulTime, UpdatedAt: seoulTime}} {
			e.Title, e.Description = title, title+"\n"+title
			got, err := e.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if want := reflected(t, e); !bytes.Equal(got, want) {
				t.Errorf("title %q:\n got %s\nwant %s", title, got, want)
			}
		}
	}
}
