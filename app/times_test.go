// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"events/models"
)

// TestListingsReadTimesExactly: listings read times from their text form
// by position; every precision and the ends of the allowed years come back
// as the instant stored, the same as reading one event.
func TestListingsReadTimesExactly(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	svc, _, _ := newService(t, now)
	ctx := context.Background()
	times := []time.Time{
		time.Date(2026, 11, 22, 3, 4, 5, 0, time.UTC),
		time.Date(2026, 11, 22, 3, 4, 5, 500000000, time.UTC),
		time.Date(2026, 11, 22, 3, 4, 5, 123456000, time.UTC),
		time.Date(2026, 11, 22, 3, 4, 5, 1000, time.UTC),
		time.Date(2026, 11, 22, 3, 4, 5, 120000000, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC),
		time.Date(999, 6, 30, 12, 0, 0, 10000, time.UTC),
	}
	want := map[int64]time.Time{}
	for _, tm := range times {
		in, err := models.DecodeJSON([]byte(`{"kind":"calendar_event","title":"t","start_at":"`+tm.Format(time.RFC3339Nano)+`"}`), models.CreateFields)
		if err != nil {
			t.Fatal(err)
		}
		e, err := svc.Create(ctx, in, models.ActorAPI)
		if err != nil {
			t.Fatalf("%v: %v", tm, err)
		}
		want[e.ID] = tm
	}
	q, err := models.ParseListQuery(models.ListEvents, url.Values{"limit": {"1000"}}, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	page, err := svc.List(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != len(times) {
		t.Fatalf("listed %d events, want %d", len(page.Items), len(times))
	}
	for _, e := range page.Items {
		one, err := svc.Get(ctx, e.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !e.StartAt.Equal(want[e.ID]) || !e.StartAt.Equal(*one.StartAt) || e.StartAt.Location() != time.UTC {
			t.Errorf("listed start %v (%v), stored %v, read alone %v", e.StartAt, e.StartAt.Location(), want[e.ID], one.StartAt)
		}
		if !e.CreatedAt.Equal(one.CreatedAt) || !e.UpdatedAt.Equal(one.UpdatedAt) || e.EndAt != nil {
			t.Errorf("listed created/updated/end %v %v %v, read alone %v %v", e.CreatedAt, e.UpdatedAt, e.EndAt, one.CreatedAt, one.UpdatedAt)
		}
	}
}
