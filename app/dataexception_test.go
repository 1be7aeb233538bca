// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"events/models"
)

// TestDataExceptionIsABadRequest: a value PostgreSQL refuses as a data
// exception (SQLSTATE class 22) is the request's fault, a 400, not a 500:
// here a listing position in year 0, which the cursor's own check now
// refuses too, handed straight to the use cases.
func TestDataExceptionIsABadRequest(t *testing.T) {
	s, _, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	year0 := time.Date(0, 6, 1, 0, 0, 0, 0, time.UTC)
	for name, list := range map[string]func(models.ListQuery) error{
		"inbox": func(q models.ListQuery) error { _, err := s.Inbox(t.Context(), q); return err },
		"list":  func(q models.ListQuery) error { _, err := s.List(t.Context(), q); return err },
	} {
		q := models.ListQuery{Loc: time.UTC, Limit: 10, After: &models.Position{G: 0, T: &year0, ID: 1}}
		err := list(q)
		var bad *models.BadRequestError
		if !errors.As(err, &bad) {
			t.Errorf("%s after a position in year 0: %v, want a *models.BadRequestError", name, err)
		}
	}
}

// TestSequenceAtItsEndIsNotTheRequests: with the events' id sequence at
// its end (a restore of a crafted backup once made it so), a create fails
// as the server's fault, not as a 400 "a value of the request is outside
// what the database accepts".
func TestSequenceAtItsEndIsNotTheRequests(t *testing.T) {
	s, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	if _, err := db.ExecContext(t.Context(), "SELECT setval('events_id_seq', 9223372036854775807)"); err != nil {
		t.Fatal(err)
	}
	_, err := tryCreate(s, `{"kind":"task","title":"one more"}`)
	var bad *models.BadRequestError
	if err == nil || errors.As(err, &bad) || !strings.Contains(err.Error(), "sequence has reached its end") {
		t.Errorf("a create with the sequence at its end: %v, want the server's error", err)
	}
}
