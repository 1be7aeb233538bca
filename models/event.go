package models

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"
)

// TimeLayout is the layout of every time the API answers: RFC 3339 in UTC at
// microsecond precision, the precision PostgreSQL stores.
const TimeLayout = "2006-01-02T15:04:05.000000Z07:00"

// Event is one row of the events table.
type Event struct {
	bun.BaseModel `bun:"table:events,alias:e"`

	ID          int64      `bun:"id,pk,autoincrement"`
	Kind        Kind       `bun:"kind,notnull"`
	Status      Status     `bun:"status,notnull"`
	Title       string     `bun:"title,notnull"`
	Description string     `bun:"description,notnull"`
	StartAt     *time.Time `bun:"start_at"`
	EndAt       *time.Time `bun:"end_at"`
	AllDay      bool       `bun:"all_day,notnull"`
	DueAt       *time.Time `bun:"due_at"`
	StartedAt   *time.Time `bun:"started_at"`
	EndedAt     *time.Time `bun:"ended_at"`
	Priority    int        `bun:"priority,notnull"`
	ProjectTag  *string    `bun:"project_tag"`
	CompletedAt *time.Time `bun:"completed_at"`
	CancelledAt *time.Time `bun:"cancelled_at"`
	DeferUntil  *time.Time `bun:"defer_until"`
	Source      *Source    `bun:"source"`
	SourceRef   *string    `bun:"source_ref"`
	// UndoStatus is the status reactivate would restore, nil when there is
	// no step to undo. Every operation keeps it current, so a row can offer
	// its buttons without reading the history.
	UndoStatus *Status   `bun:"undo_status"`
	CreatedAt  time.Time `bun:"created_at,notnull"`
	UpdatedAt  time.Time `bun:"updated_at,notnull"`
}

// eventJSON is the API's shape of an event.
type eventJSON struct {
	ID           int64   `json:"id"`
	Kind         Kind    `json:"kind"`
	Status       Status  `json:"status"`
	Title        string  `json:"title"`
	Description  string  `json:"description"`
	StartAt      *string `json:"start_at"`
	EndAt        *string `json:"end_at"`
	AllDay       bool    `json:"all_day"`
	DueAt        *string `json:"due_at"`
	StartedAt    *string `json:"started_at"`
	EndedAt      *string `json:"ended_at"`
	Priority     int     `json:"priority"`
	ProjectTag   *string `json:"project_tag"`
	CompletedAt  *string `json:"completed_at"`
	CancelledAt  *string `json:"cancelled_at"`
	DeferUntil   *string `json:"defer_until"`
	Source       *Source `json:"source"`
	SourceRef    *string `json:"source_ref"`
	ReactivateTo *Status `json:"reactivate_to"`
	CreatedAt    string  `json:"created_at"`
	UpdatedAt    string  `json:"updated_at"`
}

// MarshalJSON writes the API's shape: times in UTC at microsecond precision.
func (e Event) MarshalJSON() ([]byte, error) {
	return marshal(eventJSON{
		ID: e.ID, Kind: e.Kind, Status: e.Status, Title: e.Title, Description: e.Description,
		StartAt: fmtTime(e.StartAt), EndAt: fmtTime(e.EndAt), AllDay: e.AllDay, DueAt: fmtTime(e.DueAt),
		StartedAt: fmtTime(e.StartedAt), EndedAt: fmtTime(e.EndedAt), Priority: e.Priority,
		ProjectTag: e.ProjectTag, CompletedAt: fmtTime(e.CompletedAt), CancelledAt: fmtTime(e.CancelledAt),
		DeferUntil: fmtTime(e.DeferUntil), Source: e.Source, SourceRef: e.SourceRef,
		ReactivateTo: e.UndoStatus,
		CreatedAt:    FormatTime(e.CreatedAt), UpdatedAt: FormatTime(e.UpdatedAt),
	})
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
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

func fmtTime(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := FormatTime(*t)
	return &s
}

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
	OccurredAt   time.Time         `bun:"occurred_at,notnull"`
}

// Change is the old and new value of one field in a history row. Times are
// strings in TimeLayout, absent values null.
type Change struct {
	Old any `json:"old"`
	New any `json:"new"`
}

// MarshalJSON writes the API's shape of a history row, in DESIGN.md's field order.
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
