// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"events/app"
	"events/internal/dbtest"
	"events/models"
)

func TestMain(m *testing.M) { dbtest.Main(m, app.Migrate) }

var seoul = mustZone("Asia/Seoul")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// newService returns a service over a fresh database, its clock at now.
func newService(t *testing.T, now time.Time) (*app.Service, *bun.DB, *dbtest.Clock) {
	t.Helper()
	db := dbtest.New(t)
	c := dbtest.NewClock(now)
	return app.NewService(db, seoul, c.Now), db, c
}

// seedAt runs each statement of a seed with now for every "?" in it.
func seedAt(t *testing.T, db bun.IDB, now time.Time, statements ...string) {
	t.Helper()
	for _, q := range statements {
		if _, err := db.ExecContext(context.Background(), q, slices.Repeat([]any{now}, strings.Count(q, "?"))...); err != nil {
			t.Fatalf("seed: %v\n%s", err, q)
		}
	}
}

// create decodes a JSON body and creates the event, failing the test on error.
func create(t *testing.T, s *app.Service, body string) models.Event {
	t.Helper()
	e, err := tryCreate(s, body)
	if err != nil {
		t.Fatalf("create %s: %v", body, err)
	}
	return e
}

func tryCreate(s *app.Service, body string) (models.Event, error) {
	in, err := models.DecodeJSON([]byte(body), models.CreateFields)
	if err != nil {
		return models.Event{}, err
	}
	return s.Create(context.Background(), in, models.ActorAPI)
}

// operate applies op with a JSON body ("" for none).
func operate(s *app.Service, id int64, op models.Op, body string) (models.Event, error) {
	set := models.NoFields
	if op == models.OpDefer {
		set = models.DeferFields
	}
	in, inErr := models.DecodeJSON([]byte(body), set)
	return s.Operate(context.Background(), id, op, in, inErr, models.ActorAPI)
}

func mustOperate(t *testing.T, s *app.Service, id int64, op models.Op, body string) models.Event {
	t.Helper()
	e, err := operate(s, id, op, body)
	if err != nil {
		t.Fatalf("%s %d: %v", op, id, err)
	}
	return e
}

func patch(s *app.Service, id int64, body string) (models.Event, error) {
	in, inErr := models.DecodeJSON([]byte(body), models.PatchFields)
	return s.Patch(context.Background(), id, in, inErr, models.ActorAPI)
}

// history returns the change kinds of an event's history, oldest first.
func history(t *testing.T, s *app.Service, id int64) []models.History {
	t.Helper()
	q, err := models.ParseListQuery(models.ListHistory, nil, seoul)
	if err != nil {
		t.Fatal(err)
	}
	page, err := s.History(context.Background(), id, q)
	if err != nil {
		t.Fatalf("history %d: %v", id, err)
	}
	return page.Items
}

func kinds(hs []models.History) []models.ChangeKind {
	out := make([]models.ChangeKind, len(hs))
	for i, h := range hs {
		out[i] = h.ChangeKind
	}
	return out
}

// counts returns the number of events and history rows stored.
func counts(t *testing.T, db *bun.DB) (events, rows int) {
	t.Helper()
	if err := db.QueryRow("SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM event_history)").Scan(&events, &rows); err != nil {
		t.Fatal(err)
	}
	return events, rows
}

func isConflict(err error) bool {
	var c *models.ConflictError
	return errors.As(err, &c)
}

func isFieldError(err error, field string) bool {
	var fe models.FieldErrors
	if !errors.As(err, &fe) {
		return false
	}
	for _, e := range fe {
		if e.Field == field {
			return true
		}
	}
	return false
}

// ids lists the ids of a page's events.
func ids(es []models.Event) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}
