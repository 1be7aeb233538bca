// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"bytes"
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// TimeLayout is the layout of every time the API answers: RFC 3339 in UTC at
// microsecond precision, the precision PostgreSQL stores.
const TimeLayout = "2006-01-02T15:04:05.000000Z07:00"

// MarshalJSON writes the API's shape: times in UTC at microsecond precision.
func (e Event) MarshalJSON() ([]byte, error) {
	return e.AppendJSON(nil), nil
}

// AppendJSON appends the API's JSON of e to b, byte for byte what
// encoding/json writes for it without HTML escaping, but without reflection
// or a buffer of its own: a page of events is written into one buffer.
func (e *Event) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	for i := range EventFields {
		f := &EventFields[i]
		key := f.jsonKey
		if i == 0 {
			key = key[1:]
		}
		b = append(b, key...)
		b = f.appendJSON(b, e)
	}
	if e.CaptureNote != "" {
		b = append(b, `,"capture_note":`...)
		b = AppendJSONString(b, e.CaptureNote)
	}
	return append(b, '}')
}

func appendJSONTime(b []byte, t *time.Time) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = AppendTime(b, *t)
	return append(b, '"')
}

// AppendTime appends t in TimeLayout, digit by digit: the same text as
// t.UTC().AppendFormat(b, TimeLayout) for the years 0000 to 9999 (the
// only ones stored) in a fraction of its time; a list page formats
// thousands of times.
func AppendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		return t.AppendFormat(b, TimeLayout)
	}
	h, mi, s := t.Clock()
	us := t.Nanosecond() / 1000
	two := func(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }
	b = append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-')
	b = append(two(b, int(mo)), '-')
	b = append(two(b, d), 'T')
	b = append(two(b, h), ':')
	b = append(two(b, mi), ':')
	b = append(two(b, s), '.')
	for div := 100000; div > 0; div /= 10 {
		b = append(b, byte('0'+us/div%10))
	}
	return append(b, 'Z')
}

const hexDigits = "0123456789abcdef"

// AppendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it with HTML escaping off: quotes, backslashes and control
// characters; invalid UTF-8 becomes U+FFFD; U+2028 and U+2029 are escaped.
func AppendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// marshal is json.Marshal without HTML escaping: the API answers "<" as
// "<", not "\u003c" (HTML is escaped where HTML is written).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// EncodeJSON encodes an answer: JSON without HTML escaping, ending in a
// newline, so that a shell prompt after curl starts on its own line.
func EncodeJSON(v any) ([]byte, error) {
	b, err := marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// FormatTime formats t the way every answer carries a time.
func FormatTime(t time.Time) string { return string(AppendTime(make([]byte, 0, len(TimeLayout)), t)) }

// SpanStart is the time an event is placed at in listings: the calendar
// start, the activity start (else its end), the task's due time (else its
// start). Nil for an event with no time.
func (e *Event) SpanStart() *time.Time {
	switch e.Kind {
	case KindCalendarEvent:
		return e.StartAt
	case KindActivityLog:
		if e.StartedAt != nil {
			return e.StartedAt
		}
		return e.EndedAt
	default:
		if e.DueAt != nil {
			return e.DueAt
		}
		return e.StartAt
	}
}

// Running reports whether e is an activity log that has started and not ended.
func (e *Event) Running() bool {
	return e.Kind == KindActivityLog && e.Status == StatusInProgress && e.EndedAt == nil
}

// History is one row of the event_history table: a fact at a point in time.
type History struct {
	bun.BaseModel `bun:"table:event_history,alias:h"`

	ID           int64             `bun:"id,pk,autoincrement"`
	EventID      int64             `bun:"event_id,notnull"`
	ChangeKind   ChangeKind        `bun:"change_kind,notnull"`
	Actor        Actor             `bun:"actor,notnull"`
	StatusBefore *Status           `bun:"status_before"`
	StatusAfter  Status            `bun:"status_after,notnull"`
	Changes      map[string]Change `bun:"changes,type:jsonb,notnull"`
	Undoes       *int64            `bun:"undoes"`
	// UndoNext is, on a complete, cancel or defer, the step beneath it on
	// the undo stack when it was done (not in the API; nil on other rows).
	// See app.undoStack.
	UndoNext   *int64    `bun:"undo_next"`
	OccurredAt time.Time `bun:"occurred_at,notnull"`
}

// Change is the old and new value of one field in a history row. Times are
// strings in TimeLayout, absent values null.
type Change struct {
	Old any `json:"old"`
	New any `json:"new"`
}

// MarshalJSON writes the API's shape of a history row, in docs/DESIGN.md's field order.
func (h History) MarshalJSON() ([]byte, error) {
	changes := h.Changes
	if changes == nil {
		changes = map[string]Change{}
	}
	return marshal(struct {
		ID           int64             `json:"id"`
		EventID      int64             `json:"event_id"`
		ChangeKind   ChangeKind        `json:"change_kind"`
		Actor        Actor             `json:"actor"`
		StatusBefore *Status           `json:"status_before"`
		StatusAfter  Status            `json:"status_after"`
		Changes      map[string]Change `json:"changes"`
		Undoes       *int64            `json:"undoes"`
		OccurredAt   string            `json:"occurred_at"`
	}{h.ID, h.EventID, h.ChangeKind, h.Actor, h.StatusBefore, h.StatusAfter, changes, h.Undoes, FormatTime(h.OccurredAt)})
}

// timeValue is the form a time takes inside Change.
func timeValue(t *time.Time) any {
	if t == nil {
		return nil
	}
	return FormatTime(*t)
}

// ActivityAt is where an activity log sits in the timeline: its end, else its start.
func ActivityAt(e *Event) *time.Time {
	if e.EndedAt != nil {
		return e.EndedAt
	}
	return e.StartedAt
}

// Overdue reports whether e is an open task whose due time (else its start)
// is before dayStart.
func Overdue(e *Event, dayStart time.Time) bool {
	t := e.SpanStart()
	return e.Kind == KindTask && e.Status.Open() && t != nil && t.Before(dayStart)
}
