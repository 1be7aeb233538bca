// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"events/app"
)

// dates are the read-only zone and local dates of an event answer; a
// missing key decodes as absent, a null as nil.
type dates struct {
	raw map[string]any
}

func datesOf(t *testing.T, a answer, status int) dates {
	t.Helper()
	a.want(t, status)
	var m map[string]any
	if err := json.Unmarshal(a.Body, &m); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	return dates{m}
}

// want checks zone, start_date, end_date and due_date: each present, nil
// for null.
func (d dates) want(t *testing.T, what string, zone, start, end, due any) {
	t.Helper()
	for _, kv := range []struct {
		k string
		v any
	}{{"zone", zone}, {"start_date", start}, {"end_date", end}, {"due_date", due}} {
		if got, ok := d.raw[kv.k]; !ok || got != kv.v {
			t.Errorf("%s: %s = %#v (present %v), want %#v", what, kv.k, got, ok, kv.v)
		}
	}
}

// TestEventAnswersCarryTheirDates: an all-day entry's answer carries its
// local dates (the end inclusive) and the zone they were fixed in, a
// day-only task its due_date, a timed task a null due_date; the listing,
// GET and the exports say the same; a create or a PATCH that sends them is
// refused naming them.
func TestEventAnswersCarryTheirDates(t *testing.T) {
	s := newServer(t)
	trip := s.create(`{"kind":"calendar_event","title":"Trip","all_day":true,"start_at":"2026-11-25T00:00:00+09:00","end_at":"2026-11-27T00:00:00+09:00"}`)
	rent := s.create(`{"kind":"task","text":"Pay rent 11/30"}`)
	berlinRent := datesOf(t, s.json("POST", "/api/events?tz=Europe/Berlin", `{"kind":"task","text":"Pay rent in Berlin 11/30"}`), http.StatusCreated)
	call := s.create(`{"kind":"task","title":"Call","due_at":"2026-11-26T09:00:00+09:00"}`)

	datesOf(t, s.get(path(trip.ID)), http.StatusOK).want(t, "the all-day entry", "Asia/Seoul", "2026-11-25", "2026-11-26", nil)
	datesOf(t, s.get(path(rent.ID)), http.StatusOK).want(t, "the day-only task", "Asia/Seoul", nil, nil, "2026-11-30")
	berlinRent.want(t, "the day-only task read in ?tz=Europe/Berlin", "Europe/Berlin", nil, nil, "2026-11-30")
	datesOf(t, s.get(path(call.ID)), http.StatusOK).want(t, "the timed task", "Asia/Seoul", nil, nil, nil)

	// the listing writes its rows with the same writer
	var list struct{ Items []map[string]any }
	if err := json.Unmarshal(s.get("/api/events?kind=calendar_event").want(t, http.StatusOK).Body, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0]["start_date"] != "2026-11-25" || list.Items[0]["end_date"] != "2026-11-26" {
		t.Errorf("listing: %v", list.Items)
	}

	// the CSV export has a column of each, by its name
	records, err := csv.NewReader(bytes.NewReader(s.get("/api/events/export?format=csv").want(t, http.StatusOK).Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int {
		i := slices.Index(records[0], name)
		if i < 0 {
			t.Fatalf("no %s column in %q", name, records[0])
		}
		return i
	}
	if r := records[1]; r[col("zone")] != "Asia/Seoul" || r[col("start_date")] != "2026-11-25" || r[col("end_date")] != "2026-11-26" || r[col("due_date")] != "" {
		t.Errorf("CSV row of the all-day entry: %q", r)
	}
	if r := records[2]; r[col("due_date")] != "2026-11-30" || r[col("start_date")] != "" {
		t.Errorf("CSV row of the day-only task: %q", r)
	}

	for _, name := range []string{"zone", "start_date", "end_date", "due_date"} {
		v := `"2026-11-25"`
		if name == "zone" {
			v = `"Europe/Berlin"`
		}
		p := s.json("PATCH", path(trip.ID), `{"title":"Trip","`+name+`":`+v+`}`).problem(t, http.StatusUnprocessableEntity, name)
		if p.Errors[0].Message != "is set by the server" {
			t.Errorf("PATCH %s: %q", name, p.Errors[0].Message)
		}
		s.json("POST", "/api/events", `{"kind":"task","title":"x","`+name+`":`+v+`}`).problem(t, http.StatusUnprocessableEntity, name)
		s.form("PATCH", path(trip.ID), url.Values{"title": {"Trip"}, name: {"2026-11-25"}}).problem(t, http.StatusUnprocessableEntity, name)
	}
	datesOf(t, s.get(path(trip.ID)), http.StatusOK).want(t, "the all-day entry after the refusals", "Asia/Seoul", "2026-11-25", "2026-11-26", nil)
}

// TestDatesSurviveAZoneChange: the service restarted with another
// EVENTS_TIMEZONE still answers an all-day entry's and a day-only task's
// dates as they were fixed, and a PATCH that leaves their times alone
// leaves them; one that moves them fixes them in the new zone.
func TestDatesSurviveAZoneChange(t *testing.T) {
	s := newServer(t)
	trip := s.create(`{"kind":"calendar_event","title":"Trip","all_day":true,"start_at":"2026-11-25T00:00:00+09:00","end_at":"2026-11-27T00:00:00+09:00"}`)
	rent := s.create(`{"kind":"task","text":"Pay rent 11/30"}`)

	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	restarted := &server{t: t, svc: app.NewService(s.db, berlin, s.clock.Now), db: s.db, clock: s.clock}
	restarted.f = newApp(t, restarted.svc)

	datesOf(t, restarted.get(path(trip.ID)), http.StatusOK).want(t, "the all-day entry under Berlin", "Asia/Seoul", "2026-11-25", "2026-11-26", nil)
	datesOf(t, restarted.get(path(rent.ID)), http.StatusOK).want(t, "the day-only task under Berlin", "Asia/Seoul", nil, nil, "2026-11-30")

	retitled := restarted.json("PATCH", path(trip.ID), `{"title":"Trip to Busan"}`).event(t, http.StatusOK)
	if str(retitled.StartAt) != str(trip.StartAt) || str(retitled.EndAt) != str(trip.EndAt) {
		t.Errorf("a title PATCH under Berlin moved the span: %s..%s, was %s..%s", str(retitled.StartAt), str(retitled.EndAt), str(trip.StartAt), str(trip.EndAt))
	}
	datesOf(t, restarted.get(path(trip.ID)), http.StatusOK).want(t, "the all-day entry retitled under Berlin", "Asia/Seoul", "2026-11-25", "2026-11-26", nil)
	if h := restarted.history(trip.ID); changeKinds(h)[len(h)-1] == "reschedule" {
		t.Errorf("a title PATCH wrote a reschedule row: %v", changeKinds(h))
	}

	moved := datesOf(t, restarted.json("PATCH", path(trip.ID), `{"start_at":"2026-12-01T00:00:00+01:00","end_at":null}`), http.StatusOK)
	moved.want(t, "the all-day entry moved under Berlin", "Europe/Berlin", "2026-12-01", "2026-12-01", nil)
	if moved.raw["start_at"] != "2026-11-30T23:00:00.000000Z" {
		t.Errorf("moved under Berlin: start_at %v, want Berlin's midnight", moved.raw["start_at"])
	}
}

// TestFillZones: the rows stored before zones were (zone null: no zone,
// no dates) are given the service's zone at its start, and only those.
func TestFillZones(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	var old int64
	if err := s.db.QueryRowContext(ctx, `INSERT INTO events (kind, status, title, description, start_at, end_at, all_day)
		VALUES ('calendar_event', 'planned', 'Old trip', '', '2026-11-24T15:00:00Z', '2026-11-25T15:00:00Z', true) RETURNING id`).Scan(&old); err != nil {
		t.Fatal(err)
	}
	datesOf(t, s.get(path(old)), http.StatusOK).want(t, "a row without a zone", nil, nil, nil, nil)
	trip := s.create(`{"kind":"calendar_event","title":"Trip","all_day":true,"start_at":"2026-11-25T00:00:00+09:00"}`)

	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	before := s.get(path(old)).event(t, http.StatusOK).UpdatedAt
	if n, err := app.FillZones(ctx, s.db, seoul); err != nil || n != 1 {
		t.Fatalf("FillZones: %d, %v; want 1 row", n, err)
	}
	if n, err := app.FillZones(ctx, s.db, berlin); err != nil || n != 0 {
		t.Fatalf("FillZones again: %d, %v; want none", n, err)
	}
	datesOf(t, s.get(path(old)), http.StatusOK).want(t, "the old row filled", "Asia/Seoul", "2026-11-25", "2026-11-25", nil)
	datesOf(t, s.get(path(trip.ID)), http.StatusOK).want(t, "a row with its zone", "Asia/Seoul", "2026-11-25", "2026-11-25", nil)
	if after := s.get(path(old)).event(t, http.StatusOK).UpdatedAt; after != before {
		t.Errorf("updated_at moved from %s to %s", before, after)
	}
	// the column holds names only
	if _, err := s.db.ExecContext(ctx, `UPDATE events SET zone = '' WHERE id = ?`, old); err == nil {
		t.Error("an empty zone was stored")
	}
}

// TestFillZonesInBatches: the events without a zone are given one a batch
// of ids at a time (a batch of three over eight events, two of them with a
// zone already and a gap in the ids), every one of them; a second run
// finds none. One UPDATE of a million rows ran past the statement timeout
// and stopped the service's start.
func TestFillZonesInBatches(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	for i := range 9 {
		zone := "NULL"
		if i == 2 || i == 6 {
			zone = "'Europe/Berlin'"
		}
		if _, err := s.db.ExecContext(ctx, "INSERT INTO events (kind, status, title, zone) VALUES ('task', 'planned', 'x', "+zone+")"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM events WHERE id = (SELECT min(id) + 4 FROM events)"); err != nil {
		t.Fatal(err)
	}
	if n, err := app.FillZonesBatched(ctx, s.db, seoul, 3); err != nil || n != 6 {
		t.Fatalf("FillZones: %d, %v; want 6", n, err)
	}
	var null, berlin int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FILTER (WHERE zone IS NULL), count(*) FILTER (WHERE zone = 'Europe/Berlin') FROM events").Scan(&null, &berlin); err != nil {
		t.Fatal(err)
	}
	if null != 0 || berlin != 2 {
		t.Errorf("after FillZones: %d events without a zone, %d in Berlin; want 0 and 2", null, berlin)
	}
	if n, err := app.FillZonesBatched(ctx, s.db, seoul, 3); err != nil || n != 0 {
		t.Errorf("FillZones again: %d, %v; want none", n, err)
	}
}
