// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"events/internal/openapi"
	"events/models"
)

// The recipe for a field (docs/contributing.md, Adding a field) holds: a
// throw-away field added as one line of the field table, of tasks and
// calendar entries only, reaches the JSON of an event, a create and a
// PATCH (refused on an activity log, naming it), the CSV export's header
// and rows, each kind's form, and every schema of the API document that
// carries an event's fields, its example events included, with no other
// edit. (A list row is handlers' TestThrowAwayFieldReachesTheRow, a real
// column app's TestThrowAwayFieldReachesAColumn.)
func TestThrowAwayFieldReachesEveryPlace(t *testing.T) {
	remove := models.AddThrowAwayField("scratch_place", "Scratch place", models.KindTask, models.KindCalendarEvent)
	t.Cleanup(remove)
	seoul, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)

	// a create and its JSON
	in, err := models.DecodeJSON([]byte(`{"kind":"task","title":"t","scratch_place":"  회의실 3  "}`), models.CreateFields)
	if err != nil {
		t.Fatal(err)
	}
	e, err := in.NewEvent(now, seoul)
	if err != nil {
		t.Fatal(err)
	}
	if js := string(e.AppendJSON(nil)); !strings.Contains(js, `"scratch_place":"회의실 3"`) {
		t.Errorf("the JSON lacks the field, trimmed: %s", js)
	}
	// the CSV
	if h := string(models.AppendCSVHeader(nil)); !strings.Contains(h, ",scratch_place,") && !strings.Contains(h, ",scratch_place\r\n") {
		t.Errorf("the CSV header lacks the field: %q", h)
	}
	if row := string(models.AppendCSVRecord(nil, &e, models.CSVOptions{Loc: seoul})); !strings.Contains(row, "회의실 3") {
		t.Errorf("the CSV row lacks the field: %q", row)
	}
	// an activity log refuses it, naming it
	in, err = models.DecodeJSON([]byte(`{"kind":"activity_log","title":"l","scratch_place":"x"}`), models.CreateFields)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.NewEvent(now, seoul); err == nil || !strings.Contains(err.Error(), "scratch_place") {
		t.Errorf("an activity log with the field: %v, want a refusal naming it", err)
	}
	// a PATCH body takes it
	if _, err := models.DecodeJSON([]byte(`{"scratch_place":"y"}`), models.PatchFields); err != nil {
		t.Errorf("PATCH: %v", err)
	}
	// the forms: the kinds that carry it
	for _, k := range models.Kinds {
		has := slices.ContainsFunc(models.FormFields(k), func(f *models.Field) bool { return f.Name == "scratch_place" })
		if want := k != models.KindActivityLog; has != want {
			t.Errorf("the %s form holds the field: %v, want %v", k, has, want)
		}
	}
	// the API document
	src, err := os.ReadFile("../docs/openapi-source.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi.Generate(src)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	for schema, want := range map[string]bool{"Event": true, "CreatedEvent": true, "TaskCreate": true, "CalendarEventCreate": true,
		"ActivityLogCreate": false, "EventPatch": true, "EventCreateForm": true, "EventPatchForm": true} {
		if _, has := d.Components.Schemas[schema].Properties["scratch_place"]; has != want {
			t.Errorf("the document's %s holds the field: %v, want %v", schema, has, want)
		}
	}
	if !slices.Contains(d.Components.Schemas["Event"].Required, "scratch_place") {
		t.Errorf("Event.required lacks the field")
	}
	if n, events := strings.Count(string(doc), `"scratch_place": null`), strings.Count(string(doc), `"created_at": "`); n == 0 || n < events {
		t.Errorf("%d of the document's %d example events hold the field", n, events)
	}
}
