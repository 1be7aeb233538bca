// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"fmt"
	"strings"
	"time"

	"events/internal/i18n"
)

// Running logs and overlaps (DESIGN.md): a create of an activity log may
// stop the log that runs (stop_running), and says which logs its span
// overlaps; overlap chooses what happens then.

// Overlap choices of a create's "overlap".
const (
	OverlapAllow  = "allow"  // store it, and name the overlaps (the default)
	OverlapRefuse = "refuse" // 409 naming them; nothing written
	OverlapBefore = "before" // the same length, ending where the earliest overlapped log begins
)

// Overlap is a log that a new log's span overlaps, and for how long.
type Overlap struct {
	ID      int64  `json:"id"`
	Title   string `json:"title"`
	Seconds int64  `json:"seconds"`
}

// CreateOptions are a create's stop_running and overlap, read and checked
// against the kind and status of the event they create: both are for an
// activity_log; stop_running acts only when the new log runs (in_progress);
// overlap before needs a finished log, whose length it keeps. Refusals
// name the field (422).
type CreateOptions struct {
	StopRunning bool
	Overlap     string
}

// ReadCreateOptions reads in's options for e, the event it creates.
func ReadCreateOptions(in Input, e *Event) (CreateOptions, error) {
	o := CreateOptions{StopRunning: in.StopRunning.Set && in.StopRunning.V, Overlap: OverlapAllow}
	var fe FieldErrors
	kind := in.Kind.V
	if e != nil {
		kind = e.Kind
	}
	if in.StopRunning.Set && kind != KindActivityLog {
		fe.add("stop_running", CodeNotAllowedForKind, "is only for an activity_log")
	}
	if in.Overlap.Set {
		switch v := strings.TrimSpace(in.Overlap.V); v {
		case OverlapAllow, OverlapRefuse, OverlapBefore:
			o.Overlap = v
		default:
			fe.add("overlap", CodeBadFormat, "must be one of allow, refuse, before")
		}
		switch {
		case fe.has("overlap"):
		case kind != KindActivityLog:
			fe.add("overlap", CodeNotAllowedForKind, "is only for an activity_log")
		case o.Overlap == OverlapBefore && e != nil && e.EndedAt == nil:
			fe.add("overlap", CodeConflictingFields, "before moves a finished log (one with a duration or a range); a running log has no length yet")
		}
	}
	return o, fe.err()
}

// OverlapSpan is the span of a log that overlap detection compares: from
// its start to its end, or to now while it runs. ok is false for a log
// that spans no time (an instant, or one starting after its end or now).
func OverlapSpan(e *Event, now time.Time) (start, end time.Time, ok bool) {
	if e.Kind != KindActivityLog || e.StartedAt == nil {
		return
	}
	start, end = *e.StartedAt, now
	if e.EndedAt != nil {
		end = *e.EndedAt
	} else if !e.Running() {
		return
	}
	return start, end, end.After(start)
}

// OverlapError is a create refused for its overlaps (409): overlap refuse,
// or overlap before when the place before still overlaps.
type OverlapError struct {
	Reason   string
	Overlaps []Overlap
}

func (e *OverlapError) Error() string { return e.Reason }

// NewOverlapError names the logs of a refusal: what says why, such as
// "the log overlaps".
func NewOverlapError(what string, overlaps []Overlap) *OverlapError {
	parts := make([]string, len(overlaps))
	for i, o := range overlaps {
		parts[i] = fmt.Sprintf("%d %q (%s)", o.ID, o.Title, OverlapLength(o.Seconds))
	}
	noun := "log"
	if len(overlaps) != 1 {
		noun = "logs"
	}
	return &OverlapError{
		Reason:   fmt.Sprintf("%s %d %s: %s; nothing was written", what, len(overlaps), noun, strings.Join(parts, ", ")),
		Overlaps: overlaps,
	}
}

// OverlapLength is an overlap's seconds in words, in English: whole
// minutes, rounded up ("1 min" for 20 s), hours beyond the hour ("1 h 05
// min"); a page writes i18n's OverlapLength in its language.
func OverlapLength(seconds int64) string { return i18n.English.OverlapLength(seconds) }
