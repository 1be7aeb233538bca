// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"strconv"
	"time"

	"events/models"
)

// ETag is the strong validator of an event: its id and its updated_at at
// microsecond precision (what PostgreSQL stores), quoted as RFC 9110 asks.
//
// updated_at is a validator only because every write moves it forward:
// nextUpdate makes a write's updated_at later than the stored one even when
// the clock stands still (a test clock), repeats a microsecond, or steps
// back (NTP). A PATCH that changes nothing writes nothing and keeps it.
// This needs no column of its own: every listing and every answer already
// reads updated_at, so a row drawn from any page carries its validator.
func ETag(e models.Event) string {
	return string(AppendETag(make([]byte, 0, 40), &e))
}

// AppendETag appends the ETag of e.
func AppendETag(b []byte, e *models.Event) []byte {
	b = append(b, '"')
	b = strconv.AppendInt(b, e.ID, 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, e.UpdatedAt.UnixMicro(), 10)
	return append(b, '"')
}

// nextUpdate is the updated_at of a write at now over an event last written
// at prev: now, or one microsecond after prev when now is not later. It runs
// under the row's lock, so no other write of the event comes between. At
// the last microsecond of 9999 (models.MaxTime) there is no later one to
// move to: the write is refused (422 naming updated_at) rather than stored
// with an updated_at no answer can write.
func nextUpdate(prev, now time.Time) (time.Time, error) {
	if now.After(prev) {
		return now, nil
	}
	next := prev.Add(time.Microsecond)
	if !models.InBounds(next) {
		return prev, models.Invalid("updated_at", models.CodeOutOfRange, "cannot move past the end of the year 9999, so this write could not be told from the last one")
	}
	return next, nil
}

// IfMatch is the If-Match precondition of a write (RFC 9110, 13.1.1): any
// current event ("*"), or one of the entity tags. A nil *IfMatch is no
// precondition.
type IfMatch struct {
	Any  bool
	Tags []string // opaque tags with their quotes; weak tags never match
}

// check holds the precondition against e, the event as locked for the
// write: a mismatch is a *PreconditionError carrying e.
func (m *IfMatch) check(e models.Event) error {
	if m == nil || m.Any { // the event exists: the lock found it
		return nil
	}
	tag := ETag(e)
	for _, t := range m.Tags {
		if t == tag { // strong comparison: W/ tags are never equal to ours
			return nil
		}
	}
	return &PreconditionError{Current: e}
}

// PreconditionError is a write refused because the event changed since the
// client read it (412): its If-Match names none of the event's validators.
// Current is the event as it is now, to draw it again.
type PreconditionError struct{ Current models.Event }

func (e *PreconditionError) Error() string {
	return "the event changed since this validator was read (If-Match does not match its ETag " + ETag(e.Current) + "); nothing was written"
}
