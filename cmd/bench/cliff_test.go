// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"testing"
)

// Up to a million events the seed keeps the shape every earlier run had.
func TestSeedShapeUpToAMillion(t *testing.T) {
	for _, n := range []int{10, 100_000, 1_000_000} {
		if got, want := shapeOf(n), (seedShape{days: 3652, special: 25000, running: 250000, word: 500}); got != want {
			t.Errorf("shapeOf(%d) = %+v, want %+v", n, got, want)
		}
	}
}

// Beyond a million, what a person has now keeps its number: the listings
// answer at ten million what they answer at one.
func TestSeedShapeKeepsTheListingsAtTenMillion(t *testing.T) {
	one, ten := shapeOf(1_000_000), shapeOf(10_000_000)
	for _, c := range []struct {
		what     string
		one, ten int
	}{
		{"Inbox, overdue and deferred tasks", 1_000_000 / one.special, 10_000_000 / ten.special},
		{"tasks in progress", 1_000_000 / one.running, 10_000_000 / ten.running},
		{"titles with each search word", 1_000_000 / one.word, 10_000_000 / ten.word},
		{"events a day", 1_000_000 / one.days, 10_000_000 / ten.days},
	} {
		if c.one != c.ten {
			t.Errorf("%s: %d at a million, %d at ten million", c.what, c.one, c.ten)
		}
	}
	if one.word/2+7 == 7 || ten.word/2+7 >= ten.word {
		t.Errorf("the Korean word's place %d must differ from the English one's within %d", ten.word/2+7, ten.word)
	}
}

const samplePlans = "### Today\n\n```text\n" + `Limit  (cost=1522.86..1523.12 rows=101 width=400) (actual time=2.750..2.760 rows=101 loops=1)
  Buffers: shared hit=135 read=4
  ->  Sort  (cost=1522.86..1523.78 rows=366 width=400)
        ->  Bitmap Heap Scan on events e  (cost=41.73..1508.85 rows=366 width=400)
              Buffers: shared hit=126
              ->  BitmapOr
                    ->  Bitmap Index Scan on events_span_idx  (cost=0.00..14.45 rows=271 width=0)
                    ->  Bitmap Index Scan on events_active_idx  (cost=0.00..18.35 rows=99 width=0)
                    ->  Bitmap Index Scan on events_active_idx  (cost=0.00..4.28 rows=1 width=0)
Planning:
  Buffers: shared hit=353
Execution Time: 3.378 ms` + "\n```\n\n### Today\n\n```text\n" + `Limit  (cost=0.43..100.41 rows=101 width=148)
  Buffers: shared read=9
  ->  Index Scan Backward using events_activity_idx on events e_1  (cost=0.43..422160.56 rows=430847 width=188)
  ->  Seq Scan on event_history h  (cost=0.00..1.00 rows=1 width=8)
Execution Time: 5.329 ms` + "\n```\n\n"

// The line reads the buffers of each statement's root, not of its nodes or
// its planning, and names every index and every table read whole.
func TestPlanReading(t *testing.T) {
	if got := buffers(samplePlans); got != 135+4+9 {
		t.Errorf("buffers = %d, want %d", got, 135+4+9)
	}
	if got, want := readBy(samplePlans), "`events_span_idx`, `events_active_idx`, `events_activity_idx`, **whole event_history**"; got != want {
		t.Errorf("readBy = %s, want %s", got, want)
	}
	if got := readBy("Result  (cost=0.00..0.01 rows=1 width=4)"); got != "–" {
		t.Errorf("readBy of a plan without a scan = %q", got)
	}
}

func TestNumbers(t *testing.T) {
	for n, want := range map[int]string{10: "10", 1000: "1,000", 1_000_000: "1,000,000", 10_000_000: "10,000,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %s, want %s", n, got, want)
		}
	}
	for n, want := range map[int]string{900: "900", 250_000: "250k", 1_000_000: "1M", 10_000_000: "10M", 1_500_000: "1500k"} {
		if got := short(n); got != want {
			t.Errorf("short(%d) = %s, want %s", n, got, want)
		}
	}
}
