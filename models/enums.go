// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package models holds the events domain: the bun structs, the enums, the
// lifecycle table, the input types with their validation, and the domain
// errors. It does no I/O.
package models

import "slices"

// Kind is the PostgreSQL enum event_kind.
type Kind string

const (
	KindTask          Kind = "task"
	KindCalendarEvent Kind = "calendar_event"
	KindActivityLog   Kind = "activity_log"
)

// Kinds lists every kind in display order.
var Kinds = []Kind{KindTask, KindCalendarEvent, KindActivityLog}

// Valid reports whether k is one of the enum's values.
func (k Kind) Valid() bool { return k == KindTask || k == KindCalendarEvent || k == KindActivityLog }

// Status is the PostgreSQL enum event_status.
type Status string

const (
	StatusPlanned    Status = "planned"
	StatusTentative  Status = "tentative"
	StatusInProgress Status = "in_progress"
	StatusWaiting    Status = "waiting"
	StatusDeferred   Status = "deferred"
	StatusDone       Status = "done"
	StatusCancelled  Status = "cancelled"
)

// Statuses lists the seven statuses in lifecycle order.
var Statuses = []Status{StatusPlanned, StatusTentative, StatusInProgress, StatusWaiting, StatusDeferred, StatusDone, StatusCancelled}

// Valid reports whether s is one of the enum's values.
func (s Status) Valid() bool { return slices.Contains(Statuses, s) }

// Open reports whether s is open: active and not deferred.
func (s Status) Open() bool {
	return s == StatusPlanned || s == StatusTentative || s == StatusInProgress || s == StatusWaiting
}

// Active reports whether s is active: every status but done and cancelled.
func (s Status) Active() bool { return s.Open() || s == StatusDeferred }

// Source is the PostgreSQL enum event_source: where an external event came from.
type Source string

// Sources lists every source.
var Sources = []Source{"calendar", "issue_tracker", "email", "chat", "shell", "import", "other"}

// Valid reports whether s is one of the enum's values.
func (s Source) Valid() bool { return slices.Contains(Sources, s) }

// Actor is the PostgreSQL enum event_actor: who caused a history row.
type Actor string

const (
	ActorUser   Actor = "user"   // a request from the pages
	ActorAPI    Actor = "api"    // any other request
	ActorImport Actor = "import" // a create that carries a source
	// The enum also has "system" (the server itself), which nothing writes yet.
)

// ChangeKind is the PostgreSQL enum history_change_kind.
type ChangeKind string

const (
	ChangeCreate     ChangeKind = "create"
	ChangeComplete   ChangeKind = "complete"
	ChangeCancel     ChangeKind = "cancel"
	ChangeDefer      ChangeKind = "defer"
	ChangeReactivate ChangeKind = "reactivate"
	ChangeReschedule ChangeKind = "reschedule"
)
