package models

import (
	"testing"
	"time"
)

// BenchmarkAppendJSON writes one fully set event as the listings do: the
// field table drives it, and it must stay as fast as the hand-written
// writer it replaced (no reflection, no allocation).
func BenchmarkAppendJSON(b *testing.B) {
	at := time.Date(2026, 11, 22, 3, 4, 5, 123456000, time.UTC)
	src, ref, tag, undo := Source("calendar"), "ref-1", "home", StatusPlanned
	e := Event{ID: 123456, Kind: KindCalendarEvent, Status: StatusDone, Title: "Weekly review with the team", Description: "notes\nmore",
		StartAt: &at, EndAt: &at, DueAt: &at, StartedAt: &at, EndedAt: &at, Priority: 2, ProjectTag: &tag,
		CompletedAt: &at, CancelledAt: &at, DeferUntil: &at, Source: &src, SourceRef: &ref, UndoStatus: &undo, CreatedAt: at, UpdatedAt: at}
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		buf = e.AppendJSON(buf[:0])
	}
}
