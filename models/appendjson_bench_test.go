// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"bytes"
	"testing"
	"time"
)

// BenchmarkAppendJSON writes one fully set event as the listings do: the
// field table drives it, and it must stay as fast as the hand-written
// writer it replaced (no reflection, no allocation), an all-day entry's
// dates in its zone included.
func BenchmarkAppendJSON(b *testing.B) {
	at := time.Date(2026, 11, 22, 3, 4, 5, 123456000, time.UTC)
	src, ref, tag, undo, zone := Source("calendar"), "ref-1", "home", StatusPlanned, "Asia/Seoul"
	e := Event{ID: 123456, Kind: KindCalendarEvent, Status: StatusDone, Title: "Weekly review with the team", Description: "notes\nmore",
		StartAt: &at, EndAt: &at, AllDay: true, Zone: &zone, DueAt: &at, StartedAt: &at, EndedAt: &at, Priority: 2, ProjectTag: &tag,
		CompletedAt: &at, CancelledAt: &at, DeferUntil: &at, Source: &src, SourceRef: &ref, UndoStatus: &undo, CreatedAt: at, UpdatedAt: at}
	buf := make([]byte, 0, 4096)
	if buf = e.AppendJSON(buf[:0]); !bytes.Contains(buf, []byte(`"start_date":"2026-11-22"`)) {
		b.Fatalf("no dates: %s", buf)
	}
	b.ReportAllocs()
	for b.Loop() {
		buf = e.AppendJSON(buf[:0])
	}
	if n := testing.AllocsPerRun(100, func() { buf = e.AppendJSON(buf[:0]) }); n != 0 {
		b.Errorf("%v allocations a row, want none", n)
	}
}
