// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"testing"
	"time"

	"events/models"
)

// TestNextUpdateStaysInBounds: with the clock standing at the last
// microsecond of 9999, a second write would have stored updated_at in the
// year 10000, after which no answer could write the event; it is refused
// naming updated_at instead. Below the edge it moves a microsecond on.
func TestNextUpdateStaysInBounds(t *testing.T) {
	last := models.MaxTime
	if got, err := nextUpdate(last.Add(-time.Microsecond), last); err != nil || !got.Equal(last) {
		t.Errorf("nextUpdate(last-1µs, last) = %s, %v", got, err)
	}
	if got, err := nextUpdate(last.Add(-time.Microsecond), last.Add(-time.Microsecond)); err != nil || !got.Equal(last) {
		t.Errorf("nextUpdate(last-1µs, last-1µs) = %s, %v", got, err)
	}
	_, err := nextUpdate(last, last)
	if fe, ok := err.(models.FieldErrors); !ok || len(fe) != 1 || fe[0].Field != "updated_at" {
		t.Errorf("nextUpdate(last, last): %v, want a 422 naming updated_at", err)
	}
}
