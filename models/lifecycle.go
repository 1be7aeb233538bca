// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"fmt"
	"slices"
	"time"
)

// Op is a lifecycle operation.
type Op string

const (
	OpComplete   Op = "complete"
	OpDefer      Op = "defer"
	OpCancel     Op = "cancel"
	OpReactivate Op = "reactivate"
)

// Ops lists the operations in the order the pages show their buttons.
var Ops = []Op{OpComplete, OpDefer, OpCancel, OpReactivate}

// rule is one row of the lifecycle table.
type rule struct {
	from   func(Status) bool // statuses the operation starts from
	to     Status            // status it leads to (reactivate: the undone step's status before)
	noKind Kind              // a kind the operation is not for
}

// lifecycle is the one place the transitions live: Check refuses by it,
// Apply moves to its status, and the pages draw their buttons from it.
var lifecycle = map[Op]rule{
	OpComplete: {from: func(s Status) bool { return s.Active() }, to: StatusDone},
	OpCancel:   {from: func(s Status) bool { return s != StatusCancelled }, to: StatusCancelled},
	OpDefer:    {from: func(s Status) bool { return s.Active() }, to: StatusDeferred, noKind: KindActivityLog},
	OpReactivate: {from: func(s Status) bool {
		return s == StatusDone || s == StatusCancelled || s == StatusDeferred
	}},
}

// Check reports whether op may be applied to e: a FieldErrors (422) when the
// kind does not allow it, a *ConflictError (409) when the status does not.
func Check(e *Event, op Op) error {
	switch opRefusal(e, op) {
	case refusedKind:
		return Invalid("kind", CodeNotAllowedForKind, "an %s cannot be %s", e.Kind, pastTense(op))
	case refusedStatus:
		return &ConflictError{Reason: fmt.Sprintf("a %s event cannot be %s", e.Status, pastTense(op)), Event: e}
	case refusedNoUndo:
		return &ConflictError{Reason: "there is no step to undo: reactivate undoes the last complete, cancel or defer", Event: e}
	}
	return nil
}

// Why Check refuses an operation, in the order it looks.
const (
	allowed = iota
	refusedKind
	refusedStatus
	refusedNoUndo
)

// opRefusal is Check's decision without its error: the pages ask it of
// every operation on every row they draw (Available), where building the
// message of each refusal was 4% of the Today page's CPU.
func opRefusal(e *Event, op Op) int {
	r := lifecycle[op]
	switch {
	case r.noKind != "" && e.Kind == r.noKind:
		return refusedKind
	case !r.from(e.Status):
		return refusedStatus
	case op == OpReactivate && e.UndoStatus == nil:
		return refusedNoUndo
	}
	return allowed
}

// Available lists the operations Check allows on e, in button order. The
// answer depends on e's kind, status and whether it has a step to undo
// only, so it is made once for each of those (availableOps) and shared:
// callers must not change it. The pages ask it of every row they draw.
func Available(e *Event) []Op {
	if ops, ok := availableOps[availableKey{e.Kind, e.Status, e.UndoStatus != nil}]; ok {
		return ops
	}
	return availableFor(e) // a kind or status of no list: not met on a valid event
}

type availableKey struct {
	kind   Kind
	status Status
	undo   bool
}

// availableOps is Available's answer for every kind, status and undo step.
var availableOps = func() map[availableKey][]Op {
	m := map[availableKey][]Op{}
	for _, k := range Kinds {
		for _, s := range Statuses {
			for _, undo := range []bool{false, true} {
				e := Event{Kind: k, Status: s}
				if undo {
					e.UndoStatus = &e.Status
				}
				m[availableKey{k, s, undo}] = availableFor(&e)
			}
		}
	}
	return m
}()

// availableFor is Available worked out: nil when no operation is allowed.
func availableFor(e *Event) []Op {
	var ops []Op
	for _, op := range Ops {
		if opRefusal(e, op) == allowed {
			ops = append(ops, op)
		}
	}
	return slices.Clip(ops)
}

func pastTense(op Op) string {
	switch op {
	case OpComplete:
		return "completed"
	case OpCancel:
		return "cancelled"
	case OpDefer:
		return "deferred"
	}
	return "reactivated"
}

// Undo is what a reactivate needs from the history: the step it undoes, and
// the status the next reactivate would restore after it (nil when none).
type Undo struct {
	Step History
	Next *Status
}

// Apply performs op on e at time now and returns the changed event and the
// history row to insert (its EventID set, its ID not). Refusals come in the
// order of docs/DESIGN.md: kind (422), status (409), value (422). in carries
// defer_until; undo is required for reactivate.
func Apply(e Event, op Op, in Input, now time.Time, actor Actor, undo *Undo) (Event, History, error) {
	if err := Check(&e, op); err != nil {
		return e, History{}, err
	}
	now = now.UTC().Truncate(time.Microsecond)
	clock := now // updated_at: the write's own time, whatever the step's
	now, err := stepAt(&e, op, in, now)
	if err != nil {
		return e, History{}, err
	}
	n := e
	changes := map[string]Change{}
	set := func(name string, dst **time.Time, v *time.Time) {
		if !sameTime(*dst, v) {
			changes[name] = Change{Old: timeValue(*dst), New: timeValue(v)}
			*dst = v
		}
	}
	before := e.Status
	h := History{EventID: e.ID, ChangeKind: ChangeKind(op), Actor: actor, StatusBefore: &before, OccurredAt: now}

	switch op {
	case OpComplete:
		n.Status = lifecycle[op].to
		set("completed_at", &n.CompletedAt, &now)
		set("defer_until", &n.DeferUntil, nil)
		if e.Running() {
			end := now
			if e.StartedAt != nil && e.StartedAt.After(end) {
				end = *e.StartedAt
			}
			set("ended_at", &n.EndedAt, &end)
		}
	case OpCancel:
		n.Status = lifecycle[op].to
		set("cancelled_at", &n.CancelledAt, &now)
		set("defer_until", &n.DeferUntil, nil)
	case OpDefer:
		until := in.DeferUntil.Ptr()
		switch {
		case until == nil:
			return e, History{}, Invalid("defer_until", CodeRequired, "is required: the time the event comes back")
		case !until.After(now):
			return e, History{}, Invalid("defer_until", CodeInThePast, "must be in the future")
		}
		n.Status = lifecycle[op].to
		set("defer_until", &n.DeferUntil, until)
	case OpReactivate:
		if err := undoStep(&n, undo, set); err != nil {
			if c, ok := err.(*ConflictError); ok {
				c.Event = &e // the event as it is, for the status and what it allows
			}
			return e, History{}, err
		}
		id := undo.Step.ID
		h.Undoes = &id
	}
	if err := checkStepBounds(&n, changes); err != nil {
		return e, History{}, err
	}
	if op != OpReactivate {
		n.UndoStatus = &before
	}
	n.UpdatedAt = clock
	h.StatusAfter = n.Status
	h.Changes = changes
	return n, h, nil
}

// stepAt is when step op on e happened: now, or in's at for a complete or
// a cancel that happened before (never after now, nor, for a running
// log's complete, before its start).
func stepAt(e *Event, op Op, in Input, now time.Time) (time.Time, error) {
	if !in.At.Set {
		return now, nil
	}
	switch {
	case op != OpComplete && op != OpCancel:
		return now, Invalid("at", CodeNotEditable, "is taken by complete and cancel only")
	case in.At.Null:
		return now, Invalid("at", CodeBadFormat, "must be an RFC 3339 time, not null (leave it out for now)")
	case in.At.V.After(now):
		return now, Invalid("at", CodeInTheFuture, "is %s, after now (%s): a step cannot have happened ahead", FormatTime(in.At.V), FormatTime(now))
	case op == OpComplete && e.Running() && e.StartedAt != nil && in.At.V.Before(*e.StartedAt):
		return now, Invalid("at", CodeOutOfRange, "is before the log's start (%s)", FormatTime(*e.StartedAt))
	}
	return in.At.V.UTC().Truncate(time.Microsecond), nil
}

// undoStep undoes undo's step on n: the status before it, and each time
// the step set (through set) unless it was edited since; the next undo
// step is undo.Next.
func undoStep(n *Event, undo *Undo, set func(name string, dst **time.Time, v *time.Time)) error {
	if undo == nil || undo.Step.StatusBefore == nil {
		return &ConflictError{Reason: "there is no step to undo"}
	}
	n.Status = *undo.Step.StatusBefore
	for _, name := range []string{"completed_at", "cancelled_at", "defer_until", "ended_at"} {
		c, ok := undo.Step.Changes[name]
		if !ok {
			continue
		}
		cur := n.timeField(name)
		if !sameTime(*cur, changeTime(c.New)) {
			continue // edited since: the edit stays
		}
		set(name, cur, changeTime(c.Old))
	}
	if n.Kind == KindActivityLog && n.Status == StatusInProgress && n.EndedAt != nil {
		return &ConflictError{Reason: "cannot undo: ended_at was edited since the log was completed, and a running log has no end", Field: "ended_at"}
	}
	n.UndoStatus = undo.Next
	return nil
}

// timeField returns a pointer to the lifecycle time field name of e.
func (e *Event) timeField(name string) **time.Time {
	switch name {
	case "completed_at":
		return &e.CompletedAt
	case "cancelled_at":
		return &e.CancelledAt
	case "defer_until":
		return &e.DeferUntil
	}
	return &e.EndedAt
}

// changeTime reads a time stored in a Change.
func changeTime(v any) *time.Time {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return nil
	}
	t = t.UTC()
	return &t
}

// CreateRecord is the history row of a create.
func CreateRecord(e *Event, actor Actor) History {
	return History{EventID: e.ID, ChangeKind: ChangeCreate, Actor: actor, StatusAfter: e.Status,
		Changes: map[string]Change{}, OccurredAt: e.CreatedAt}
}

// RescheduleRecord is the history row of a PATCH that changed time fields.
func RescheduleRecord(e *Event, times map[string]Change, actor Actor) History {
	st := e.Status
	return History{EventID: e.ID, ChangeKind: ChangeReschedule, Actor: actor, StatusBefore: &st,
		StatusAfter: st, Changes: times, OccurredAt: e.UpdatedAt}
}
