// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// TestUndoConflictsNameTheStep: the 409s of undo (no step to undo, a
// running log whose end was edited) carry a code on a field, the status
// and the allowed operations, like any illegal step, never errors: [].
func TestUndoConflictsNameTheStep(t *testing.T) {
	s := newServer(t)
	type conflict struct {
		Errors []struct {
			Field, Code string
		} `json:"errors"`
		EventStatus string    `json:"event_status"`
		Allowed     *[]string `json:"allowed_operations"`
	}
	read := func(a answer, field string) conflict {
		t.Helper()
		a.problem(t, http.StatusConflict, field)
		var c conflict
		if err := json.Unmarshal(a.Body, &c); err != nil {
			t.Fatal(err)
		}
		if len(c.Errors) != 1 || c.Errors[0].Code != "illegal_step" || c.EventStatus == "" || c.Allowed == nil {
			t.Errorf("%s: want one %s:illegal_step with event_status and allowed_operations", a, field)
		}
		return c
	}

	// the event says there is a step to undo, with no link to it and no
	// such step in its history (a row stored by hand): the undo stack
	// finds nothing
	e := s.create(`{"kind":"task","title":"lost step","status":"done"}`)
	if _, err := s.db.Exec(`UPDATE events SET undo_status = 'planned', undo_top = NULL WHERE id = ?`, e.ID); err != nil {
		t.Fatal(err)
	}
	c := read(s.json("POST", path(e.ID, "reactivate"), ""), "status")
	if c.EventStatus != "done" {
		t.Errorf("no step to undo: event_status %q, want done", c.EventStatus)
	}

	// a log completed while running, its end then edited: undoing would
	// leave a running log with an end
	log := s.create(`{"kind":"activity_log","title":"running","status":"in_progress","started_at":"` + t0.Add(-time.Hour).Format(time.RFC3339) + `"}`)
	s.op(log.ID, "complete", "")
	s.json("PATCH", path(log.ID), `{"ended_at":"`+t0.Add(-10*time.Minute).Format(time.RFC3339)+`"}`).event(t, http.StatusOK)
	c = read(s.json("POST", path(log.ID, "reactivate"), ""), "ended_at")
	if c.EventStatus != "done" {
		t.Errorf("undo of an edited log: event_status %q, want done", c.EventStatus)
	}
}
