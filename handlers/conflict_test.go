// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
)

// TestIllegalStepNamesStatusAndAllowedOperations: a 409 for a lifecycle
// operation the event's status does not allow carries a code a program
// can act on (status: illegal_step), the status the event has, and the
// operations it allows now; the old answer had errors: [].
func TestIllegalStepNamesStatusAndAllowedOperations(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"once"}`)
	s.op(e.ID, "complete", "")
	for _, c := range []struct {
		op      string
		status  string
		allowed []string
	}{
		{"complete", "done", []string{"cancel", "reactivate"}},
		{"defer", "done", []string{"cancel", "reactivate"}},
	} {
		a := s.json("POST", path(e.ID, c.op), "")
		p := a.problem(t, http.StatusConflict, "status")
		if codes := p.codes(); !slices.Equal(codes, []string{"status:illegal_step"}) {
			t.Errorf("%s: errors %v, want status:illegal_step", c.op, codes)
		}
		var body struct {
			EventStatus string   `json:"event_status"`
			Allowed     []string `json:"allowed_operations"`
		}
		if err := json.Unmarshal(a.Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.EventStatus != c.status || !slices.Equal(body.Allowed, c.allowed) {
			t.Errorf("%s of a done task: event_status %q, allowed_operations %v; want %q, %v", c.op, body.EventStatus, body.Allowed, c.status, c.allowed)
		}
	}
	// a cancelled event allows only reactivate; after it, no step to undo
	s.op(e.ID, "reactivate", "")
	s.op(e.ID, "cancel", "")
	a := s.json("POST", path(e.ID, "cancel"), "")
	var body struct {
		EventStatus string    `json:"event_status"`
		Allowed     *[]string `json:"allowed_operations"`
	}
	a.problem(t, http.StatusConflict, "status")
	if err := json.Unmarshal(a.Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.EventStatus != "cancelled" || body.Allowed == nil || !slices.Equal(*body.Allowed, []string{"reactivate"}) {
		t.Errorf("cancel of a cancelled task: %s", a.Body)
	}
}
