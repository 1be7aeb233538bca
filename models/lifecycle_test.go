// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"
)

var (
	completedAt = time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	cancelledAt = time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	deferOld    = time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC) // a defer_until already stored
	deferNew    = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)  // the defer_until a defer asks for
)

// fixture is an event of kind k in status s as the service could store it:
// the fields of its kind set, the lifecycle fields of its status set, and
// UndoStatus naming the status the last step started from.
func fixture(k Kind, s Status) Event {
	e := Event{ID: 42, Kind: k, Status: s, Title: "t", CreatedAt: t0, UpdatedAt: t0}
	switch k {
	case KindTask:
		e.DueAt = at(t0.Add(96 * time.Hour))
	case KindCalendarEvent:
		e.StartAt, e.EndAt = at(t0.Add(24*time.Hour)), at(t0.Add(25*time.Hour))
	case KindActivityLog:
		e.StartedAt = at(t0)
		if s != StatusInProgress {
			e.EndedAt = at(t0.Add(time.Hour))
		}
	}
	switch s {
	case StatusDeferred: // deferred from planned
		e.DeferUntil, e.UndoStatus = at(deferOld), ptr(StatusPlanned)
	case StatusDone: // completed from waiting (a running log: from in_progress)
		e.CompletedAt, e.UndoStatus = at(completedAt), ptr(StatusWaiting)
		if k == KindActivityLog {
			e.UndoStatus = ptr(StatusInProgress)
		}
	case StatusCancelled: // cancelled when done: completed_at kept
		e.CompletedAt, e.CancelledAt, e.UndoStatus = at(completedAt), at(cancelledAt), ptr(StatusDone)
	}
	return e
}

// stepOf is the history row of the step that led a fixture to its status,
// as the service would have stored it (id 7).
func stepOf(e Event) History {
	h := History{ID: 7, EventID: e.ID, Actor: ActorAPI, StatusBefore: e.UndoStatus, StatusAfter: e.Status,
		Changes: map[string]Change{}, OccurredAt: t0}
	switch e.Status {
	case StatusDone:
		h.ChangeKind = ChangeComplete
		h.Changes["completed_at"] = Change{Old: nil, New: FormatTime(*e.CompletedAt)}
		if e.Kind == KindActivityLog {
			h.Changes["ended_at"] = Change{Old: nil, New: FormatTime(*e.EndedAt)}
		}
	case StatusCancelled:
		h.ChangeKind = ChangeCancel
		h.Changes["cancelled_at"] = Change{Old: nil, New: FormatTime(*e.CancelledAt)}
	case StatusDeferred:
		h.ChangeKind = ChangeDefer
		h.Changes["defer_until"] = Change{Old: nil, New: FormatTime(*e.DeferUntil)}
	}
	return h
}

// allowedFrom is docs/DESIGN.md's lifecycle table, written out: the statuses each
// operation starts from (reactivate: when there is a step to undo).
var allowedFrom = map[Op][]Status{
	OpComplete:   {StatusPlanned, StatusTentative, StatusInProgress, StatusWaiting, StatusDeferred},
	OpCancel:     {StatusPlanned, StatusTentative, StatusInProgress, StatusWaiting, StatusDeferred, StatusDone},
	OpDefer:      {StatusPlanned, StatusTentative, StatusInProgress, StatusWaiting, StatusDeferred},
	OpReactivate: {StatusDeferred, StatusDone, StatusCancelled},
}

// wantAnswer is what docs/DESIGN.md says op on a fixture gives: "ok", "422" (the
// kind does not allow it) or "409" (the status does not).
func wantAnswer(k Kind, s Status, op Op) string {
	switch {
	case op == OpDefer && k == KindActivityLog:
		return "422"
	case !slices.Contains(allowedFrom[op], s):
		return "409"
	}
	return "ok"
}

func tv(t time.Time) any { return FormatTime(t) }

// TestLifecycleTable runs every (kind, status, operation) through Check and
// Apply and compares the event and the history row with docs/DESIGN.md.
func TestLifecycleTable(t *testing.T) {
	t.Parallel()
	in := Input{DeferUntil: Opt[time.Time]{Set: true, V: deferNew}}
	for _, k := range Kinds {
		for _, s := range Statuses {
			for _, op := range Ops {
				t.Run(fmt.Sprintf("%s/%s/%s", k, s, op), func(t *testing.T) {
					e := fixture(k, s)
					var undo *Undo
					if op == OpReactivate && e.UndoStatus != nil {
						undo = &Undo{Step: stepOf(e), Next: ptr(StatusTentative)}
					}
					want := wantAnswer(k, s, op)
					if got := class(Check(&e, op)); got != want {
						t.Fatalf("Check: got %s, want %s", got, want)
					}
					n, h, err := Apply(e, op, in, now, ActorUser, undo)
					if got := class(err); got != want {
						t.Fatalf("Apply: got %s (%v), want %s", got, err, want)
					}
					if want != "ok" {
						if want == "422" {
							if names := fieldsOf(err); !reflect.DeepEqual(names, []string{"kind"}) {
								t.Errorf("422 names %v, want [kind]", names)
							}
						}
						checkEvent(t, n, fixture(k, s))
						if !reflect.DeepEqual(h, History{}) {
							t.Errorf("a refused operation returned a history row: %+v", h)
						}
						return
					}
					wantEvent, wantChanges := expectApply(e, op)
					checkEvent(t, n, wantEvent)
					wantH := History{EventID: 42, ChangeKind: ChangeKind(op), Actor: ActorUser, StatusBefore: ptr(s),
						StatusAfter: wantEvent.Status, Changes: wantChanges, OccurredAt: nowUS}
					if op == OpReactivate {
						wantH.Undoes = ptr(int64(7))
					}
					checkHistory(t, h, wantH)
				})
			}
		}
	}
}

// expectApply is the event and the changes docs/DESIGN.md says an allowed op
// gives on a fixture.
func expectApply(e Event, op Op) (Event, map[string]Change) {
	w := e
	w.UpdatedAt = nowUS
	w.UndoStatus = ptr(e.Status)
	ch := map[string]Change{}
	clearDefer := func() {
		if e.DeferUntil != nil {
			w.DeferUntil = nil
			ch["defer_until"] = Change{Old: tv(*e.DeferUntil), New: nil}
		}
	}
	switch op {
	case OpComplete:
		w.Status = StatusDone
		w.CompletedAt = at(nowUS)
		ch["completed_at"] = Change{Old: nil, New: tv(nowUS)}
		clearDefer()
		if e.Kind == KindActivityLog && e.Status == StatusInProgress {
			w.EndedAt = at(nowUS)
			ch["ended_at"] = Change{Old: nil, New: tv(nowUS)}
		}
	case OpCancel:
		w.Status = StatusCancelled
		w.CancelledAt = at(nowUS)
		ch["cancelled_at"] = Change{Old: nil, New: tv(nowUS)}
		clearDefer()
	case OpDefer:
		w.Status = StatusDeferred
		w.DeferUntil = at(deferNew)
		var old any
		if e.DeferUntil != nil {
			old = tv(*e.DeferUntil)
		}
		ch["defer_until"] = Change{Old: old, New: tv(deferNew)}
	case OpReactivate:
		// The fixture's step: back to its status before, its fields back to
		// their earlier values, UndoStatus to the step beneath.
		w.Status = *e.UndoStatus
		w.UndoStatus = ptr(StatusTentative)
		switch e.Status {
		case StatusDone:
			w.CompletedAt = nil
			ch["completed_at"] = Change{Old: tv(*e.CompletedAt), New: nil}
			if e.Kind == KindActivityLog {
				w.EndedAt = nil
				ch["ended_at"] = Change{Old: tv(*e.EndedAt), New: nil}
			}
		case StatusCancelled:
			w.CancelledAt = nil
			ch["cancelled_at"] = Change{Old: tv(*e.CancelledAt), New: nil}
		case StatusDeferred:
			w.DeferUntil = nil
			ch["defer_until"] = Change{Old: tv(*e.DeferUntil), New: nil}
		}
	}
	return w, ch
}

func checkHistory(t *testing.T, got, want History) {
	t.Helper()
	if got.ID != want.ID || got.EventID != want.EventID || got.ChangeKind != want.ChangeKind || got.Actor != want.Actor {
		t.Errorf("history id/event_id/change_kind/actor: got %d/%d/%s/%s, want %d/%d/%s/%s",
			got.ID, got.EventID, got.ChangeKind, got.Actor, want.ID, want.EventID, want.ChangeKind, want.Actor)
	}
	checkStatusPtr(t, "status_before", got.StatusBefore, want.StatusBefore)
	if got.StatusAfter != want.StatusAfter {
		t.Errorf("status_after: got %s, want %s", got.StatusAfter, want.StatusAfter)
	}
	if !reflect.DeepEqual(got.Changes, want.Changes) {
		t.Errorf("changes:\ngot  %v\nwant %v", got.Changes, want.Changes)
	}
	if fmt.Sprint(deref64(got.Undoes)) != fmt.Sprint(deref64(want.Undoes)) {
		t.Errorf("undoes: got %v, want %v", deref64(got.Undoes), deref64(want.Undoes))
	}
	if !got.OccurredAt.Equal(want.OccurredAt) {
		t.Errorf("occurred_at: got %s, want %s", got.OccurredAt, want.OccurredAt)
	}
}

func deref64(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestCheckReactivateNeedsAStep: with nothing to undo, reactivate is a 409
// from every status, and Available never offers it.
func TestCheckReactivateNeedsAStep(t *testing.T) {
	t.Parallel()
	for _, k := range Kinds {
		for _, s := range Statuses {
			e := fixture(k, s)
			e.UndoStatus = nil
			if got := class(Check(&e, OpReactivate)); got != "409" {
				t.Errorf("%s %s without a step: Check(reactivate) got %s, want 409", k, s, got)
			}
			_, _, err := Apply(e, OpReactivate, Input{}, now, ActorAPI, nil)
			if got := class(err); got != "409" {
				t.Errorf("%s %s without a step: Apply(reactivate) got %s, want 409", k, s, got)
			}
		}
	}
	// Check passes (UndoStatus set) but the caller found no step: still 409.
	e := fixture(KindTask, StatusDone)
	if _, _, err := Apply(e, OpReactivate, Input{}, now, ActorAPI, nil); class(err) != "409" {
		t.Errorf("reactivate without an Undo: got %v, want a 409", err)
	}
}

// TestAvailableAgreesWithCheck: the buttons a row shows are exactly the
// operations Check allows, in button order.
func TestAvailableAgreesWithCheck(t *testing.T) {
	t.Parallel()
	for _, k := range Kinds {
		for _, s := range Statuses {
			for _, undo := range []*Status{nil, ptr(StatusPlanned)} {
				e := fixture(k, s)
				e.UndoStatus = undo
				var want []Op
				for _, op := range Ops {
					if Check(&e, op) == nil {
						want = append(want, op)
					}
				}
				if got := Available(&e); !reflect.DeepEqual(got, want) {
					t.Errorf("%s %s (undo %s): Available got %v, want %v", k, s, fmtStatus(undo), got, want)
				}
			}
		}
	}
	// And the order is the pages' button order.
	e := fixture(KindTask, StatusDeferred)
	if got, want := Available(&e), []Op{OpComplete, OpDefer, OpCancel, OpReactivate}; !reflect.DeepEqual(got, want) {
		t.Errorf("deferred task: Available got %v, want %v", got, want)
	}
	l := fixture(KindActivityLog, StatusInProgress)
	if got, want := Available(&l), []Op{OpComplete, OpCancel}; !reflect.DeepEqual(got, want) {
		t.Errorf("running log: Available got %v, want %v", got, want)
	}
}

// TestRefusalOrder: kind (422) before status (409) before a bad value (422).
func TestRefusalOrder(t *testing.T) {
	t.Parallel()
	past := Input{DeferUntil: Opt[time.Time]{Set: true, V: now.Add(-time.Hour)}}
	planned := fixture(KindTask, StatusPlanned)
	cases := []struct {
		name   string
		e      Event
		op     Op
		in     Input
		want   string
		naming string
	}{
		{"defer of a cancelled log, bad value: the kind", fixture(KindActivityLog, StatusCancelled), OpDefer, past, "422", "kind"},
		{"defer of a done log, no value: the kind", fixture(KindActivityLog, StatusDone), OpDefer, Input{}, "422", "kind"},
		{"defer of a done task, bad value: the status", fixture(KindTask, StatusDone), OpDefer, past, "409", ""},
		{"defer of a cancelled entry, no value: the status", fixture(KindCalendarEvent, StatusCancelled), OpDefer, Input{}, "409", ""},
		{"defer of a planned task, in the past", planned, OpDefer, past, "422", "defer_until"},
		{"defer of a planned task, missing", planned, OpDefer, Input{}, "422", "defer_until"},
		{"defer of a planned task, null", planned, OpDefer, Input{DeferUntil: Opt[time.Time]{Set: true, Null: true}}, "422", "defer_until"},
		{"defer of a planned task, exactly now", planned, OpDefer, deferTo(nowUS), "422", "defer_until"},
		{"defer of a planned task, one microsecond ahead", planned, OpDefer, deferTo(nowUS.Add(time.Microsecond)), "ok", ""},
		{"complete of a done task (a repeat)", fixture(KindTask, StatusDone), OpComplete, Input{}, "409", ""},
		{"cancel of a cancelled log (a repeat)", fixture(KindActivityLog, StatusCancelled), OpCancel, Input{}, "409", ""},
		{"defer of a deferred task moves the time", fixture(KindTask, StatusDeferred), OpDefer, deferTo(deferNew), "ok", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, _, err := Apply(c.e, c.op, c.in, now, ActorAPI, nil)
			if got := class(err); got != c.want {
				t.Fatalf("got %s (%v), want %s", got, err, c.want)
			}
			if c.naming != "" {
				if names := fieldsOf(err); !reflect.DeepEqual(names, []string{c.naming}) {
					t.Errorf("422 names %v, want [%s]", names, c.naming)
				}
			}
			if c.want != "ok" {
				checkEvent(t, n, c.e)
			}
		})
	}
}

// TestOperationThenReactivate: every allowed complete, cancel and defer,
// undone by a reactivate built from its own history row, gives the event
// back as it was (but updated_at), and the reactivate row names the step
// and swaps its changes.
func TestOperationThenReactivate(t *testing.T) {
	t.Parallel()
	later := now.Add(time.Hour)
	in := Input{DeferUntil: Opt[time.Time]{Set: true, V: deferNew}}
	for _, k := range Kinds {
		for _, s := range Statuses {
			for _, op := range []Op{OpComplete, OpCancel, OpDefer} {
				if wantAnswer(k, s, op) != "ok" {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/%s", k, s, op), func(t *testing.T) {
					e := fixture(k, s)
					var j journal
					n := j.do(t, e, op, in, now)
					if n.UndoStatus == nil || *n.UndoStatus != s {
						t.Fatalf("after %s: UndoStatus got %s, want %s", op, fmtStatus(n.UndoStatus), s)
					}
					u := j.undo()
					u.Next = e.UndoStatus // the step beneath, as the fixture says
					r, h, err := Apply(n, OpReactivate, Input{}, later, ActorUser, u)
					if err != nil {
						t.Fatalf("reactivate: %v", err)
					}
					want := e
					want.UpdatedAt = later.Truncate(time.Microsecond)
					checkEvent(t, r, want)
					swapped := map[string]Change{}
					for name, c := range j.rows[0].Changes {
						swapped[name] = Change{Old: c.New, New: c.Old}
					}
					checkHistory(t, h, History{EventID: 42, ChangeKind: ChangeReactivate, Actor: ActorUser,
						StatusBefore: ptr(n.Status), StatusAfter: s, Changes: swapped, Undoes: ptr(j.rows[0].ID),
						OccurredAt: later.Truncate(time.Microsecond)})
				})
			}
		}
	}
}

// journal keeps one event's history rows as the service stores them (ids
// given in order, changes through JSON as in the jsonb column) and builds
// the Undo of a reactivate by hand from them.
type journal struct{ rows []History }

func (j *journal) add(t *testing.T, h History) {
	t.Helper()
	h.ID = int64(len(j.rows) + 1)
	b, err := json.Marshal(h.Changes)
	if err != nil {
		t.Fatalf("changes do not marshal: %v", err)
	}
	h.Changes = nil
	if err := json.Unmarshal(b, &h.Changes); err != nil {
		t.Fatalf("changes do not unmarshal: %v", err)
	}
	j.rows = append(j.rows, h)
}

// undo is the newest complete, cancel or defer not undone yet, and the
// status before of the one beneath it; nil when there is none.
func (j *journal) undo() *Undo {
	undone := map[int64]bool{}
	for _, h := range j.rows {
		if h.Undoes != nil {
			undone[*h.Undoes] = true
		}
	}
	var steps []History
	for i := len(j.rows) - 1; i >= 0; i-- {
		h := j.rows[i]
		if (h.ChangeKind == ChangeComplete || h.ChangeKind == ChangeCancel || h.ChangeKind == ChangeDefer) && !undone[h.ID] {
			steps = append(steps, h)
		}
	}
	if len(steps) == 0 {
		return nil
	}
	u := &Undo{Step: steps[0]}
	if len(steps) > 1 {
		u.Next = steps[1].StatusBefore
	}
	return u
}

// do applies op (a reactivate with the Undo from the journal) and keeps its row.
func (j *journal) do(t *testing.T, e Event, op Op, in Input, when time.Time) Event {
	t.Helper()
	var u *Undo
	if op == OpReactivate {
		u = j.undo()
	}
	n, h, err := Apply(e, op, in, when, ActorAPI, u)
	if err != nil {
		t.Fatalf("%s of a %s %s: %v", op, e.Status, e.Kind, err)
	}
	if p := storageProblems(n, time.UTC); len(p) > 0 {
		t.Errorf("after %s the event breaks %v", op, p)
	}
	j.add(t, h)
	return n
}

func deferTo(t time.Time) Input { return Input{DeferUntil: Opt[time.Time]{Set: true, V: t}} }

// TestReactivateIsAnUndoStack: docs/DESIGN.md's example, step by step.
func TestReactivateIsAnUndoStack(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	in := Input{Kind: Opt[Kind]{Set: true, V: KindTask}, Title: Opt[string]{Set: true, V: "Pay rent"}}
	e, err := in.NewEvent(t0, seoul)
	if err != nil {
		t.Fatal(err)
	}
	e.ID = 42
	var j journal
	j.add(t, CreateRecord(&e, ActorAPI))

	t1, t2, t3, t4 := t0.Add(time.Hour), t0.Add(2*time.Hour), t0.Add(3*time.Hour), t0.Add(4*time.Hour)
	until := t0.Add(48 * time.Hour)
	e = j.do(t, e, OpDefer, deferTo(until), t1)
	e = j.do(t, e, OpCancel, Input{}, t2)
	if e.Status != StatusCancelled || e.DeferUntil != nil || !samePtr(e.CancelledAt, &t2) {
		t.Fatalf("after defer, cancel: got %s, defer_until %s, cancelled_at %s", e.Status, fmtPtr(e.DeferUntil), fmtPtr(e.CancelledAt))
	}
	checkStatusPtr(t, "undo status after cancel", e.UndoStatus, ptr(StatusDeferred))

	e = j.do(t, e, OpReactivate, Input{}, t3)
	if e.Status != StatusDeferred {
		t.Errorf("first reactivate: got %s, want deferred", e.Status)
	}
	checkTime(t, "defer_until after the first reactivate", e.DeferUntil, &until)
	checkTime(t, "cancelled_at after the first reactivate", e.CancelledAt, nil)
	checkStatusPtr(t, "undo status after the first reactivate", e.UndoStatus, ptr(StatusPlanned))
	if r := j.rows[3]; r.ChangeKind != ChangeReactivate || deref64(r.Undoes) != int64(3) {
		t.Errorf("first reactivate row: got %s undoing %v, want reactivate undoing 3 (the cancel)", r.ChangeKind, deref64(r.Undoes))
	}
	if got := Available(&e); !reflect.DeepEqual(got, []Op{OpComplete, OpDefer, OpCancel, OpReactivate}) {
		t.Errorf("buttons after the first reactivate: got %v", got)
	}

	e = j.do(t, e, OpReactivate, Input{}, t4)
	if e.Status != StatusPlanned {
		t.Errorf("second reactivate: got %s, want planned", e.Status)
	}
	checkTime(t, "defer_until after the second reactivate", e.DeferUntil, nil)
	checkStatusPtr(t, "undo status after the second reactivate", e.UndoStatus, nil)
	if r := j.rows[4]; deref64(r.Undoes) != int64(2) {
		t.Errorf("second reactivate undoes %v, want 2 (the defer)", deref64(r.Undoes))
	}
	if got := j.rows[4].Changes; !reflect.DeepEqual(got, map[string]Change{"defer_until": {Old: tv(until), New: nil}}) {
		t.Errorf("second reactivate changes: got %v", got)
	}

	if err := Check(&e, OpReactivate); class(err) != "409" {
		t.Errorf("third reactivate: Check got %v, want a 409", err)
	}
	if j.undo() != nil {
		t.Errorf("the journal still has a step to undo: %+v", j.undo())
	}
	if p := storageProblems(e, seoul); len(p) > 0 {
		t.Errorf("final event breaks %v", p)
	}
}

// TestCreatedDoneHasNothingToUndo: a quick record (or a task created done)
// cannot be reactivated.
func TestCreatedDoneHasNothingToUndo(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	for _, body := range []Input{
		{Kind: Opt[Kind]{Set: true, V: KindActivityLog}},
		{Kind: Opt[Kind]{Set: true, V: KindTask}, Title: Opt[string]{Set: true, V: "x"}, Status: Opt[Status]{Set: true, V: StatusDone}},
		{Kind: Opt[Kind]{Set: true, V: KindCalendarEvent}, Title: Opt[string]{Set: true, V: "x"}, StartAt: Opt[time.Time]{Set: true, V: t0}, Status: Opt[Status]{Set: true, V: StatusDone}},
	} {
		e, err := body.NewEvent(now, seoul)
		if err != nil {
			t.Fatal(err)
		}
		if e.Status != StatusDone || e.UndoStatus != nil || e.CompletedAt != nil {
			t.Errorf("created %s: status %s, undo %s, completed_at %s; want done, nil, nil", e.Kind, e.Status, fmtStatus(e.UndoStatus), fmtPtr(e.CompletedAt))
		}
		if err := Check(&e, OpReactivate); class(err) != "409" {
			t.Errorf("reactivate of a %s created done: got %v, want a 409", e.Kind, err)
		}
		if got := Available(&e); !reflect.DeepEqual(got, []Op{OpCancel}) {
			t.Errorf("buttons of a %s created done: got %v, want [cancel]", e.Kind, got)
		}
	}
}

// TestCompleteDeferredThenReactivate: the deferral comes back with its time.
func TestCompleteDeferredThenReactivate(t *testing.T) {
	t.Parallel()
	e := fixture(KindTask, StatusPlanned)
	var j journal
	until := nowUS.Add(72 * time.Hour)
	e = j.do(t, e, OpDefer, deferTo(until), now)
	e = j.do(t, e, OpComplete, Input{}, now.Add(time.Hour))
	if e.Status != StatusDone || e.DeferUntil != nil {
		t.Fatalf("complete of a deferred task: got %s with defer_until %s", e.Status, fmtPtr(e.DeferUntil))
	}
	e = j.do(t, e, OpReactivate, Input{}, now.Add(2*time.Hour))
	if e.Status != StatusDeferred {
		t.Errorf("reactivate: got %s, want deferred", e.Status)
	}
	checkTime(t, "defer_until", e.DeferUntil, &until)
	checkTime(t, "completed_at", e.CompletedAt, nil)
	checkStatusPtr(t, "undo status", e.UndoStatus, ptr(StatusPlanned))
}

// TestCancelDoneKeepsCompletedAt: cancelling a done event keeps its
// completed_at, and reactivate gives done back.
func TestCancelDoneKeepsCompletedAt(t *testing.T) {
	t.Parallel()
	e := fixture(KindTask, StatusWaiting)
	var j journal
	e = j.do(t, e, OpComplete, Input{}, now)
	e = j.do(t, e, OpCancel, Input{}, now.Add(time.Hour))
	if e.Status != StatusCancelled {
		t.Fatalf("cancel: got %s", e.Status)
	}
	checkTime(t, "completed_at after cancel", e.CompletedAt, &nowUS)
	if _, ok := j.rows[1].Changes["completed_at"]; ok {
		t.Errorf("the cancel row changes completed_at: %v", j.rows[1].Changes)
	}
	e = j.do(t, e, OpReactivate, Input{}, now.Add(2*time.Hour))
	if e.Status != StatusDone {
		t.Errorf("reactivate: got %s, want done", e.Status)
	}
	checkTime(t, "completed_at after reactivate", e.CompletedAt, &nowUS)
	checkTime(t, "cancelled_at after reactivate", e.CancelledAt, nil)
	checkStatusPtr(t, "undo status", e.UndoStatus, ptr(StatusWaiting))
	e = j.do(t, e, OpReactivate, Input{}, now.Add(3*time.Hour))
	if e.Status != StatusWaiting || e.CompletedAt != nil || e.UndoStatus != nil {
		t.Errorf("second reactivate: got %s, completed_at %s, undo %s; want waiting, nil, nil", e.Status, fmtPtr(e.CompletedAt), fmtStatus(e.UndoStatus))
	}
}

// TestReactivateKeepsEdits: a field edited since the step keeps the edit.
func TestReactivateKeepsEdits(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")

	t.Run("fields reactivate does not own", func(t *testing.T) {
		e := fixture(KindTask, StatusPlanned)
		var j journal
		e = j.do(t, e, OpComplete, Input{}, now)
		due := now.Add(240 * time.Hour).Truncate(time.Microsecond)
		e, _, _, err := ApplyPatch(e, Input{Title: Opt[string]{Set: true, V: "renamed"}, DueAt: Opt[time.Time]{Set: true, V: due}}, now.Add(time.Minute), seoul)
		if err != nil {
			t.Fatal(err)
		}
		e = j.do(t, e, OpReactivate, Input{}, now.Add(time.Hour))
		if e.Status != StatusPlanned || e.Title != "renamed" {
			t.Errorf("got %s %q, want planned \"renamed\"", e.Status, e.Title)
		}
		checkTime(t, "due_at", e.DueAt, &due)
	})

	// ended_at is the one field a step sets that a PATCH may edit. A log
	// completed while running goes back to in_progress; an end edited
	// since then stays, and since a running log has no end, the undo is
	// refused and nothing changes.
	t.Run("an edited end of a completed running log", func(t *testing.T) {
		e := fixture(KindActivityLog, StatusInProgress)
		var j journal
		e = j.do(t, e, OpComplete, Input{}, now)
		checkTime(t, "ended_at after complete", e.EndedAt, &nowUS)
		edited := nowUS.Add(-10 * time.Minute)
		e, times, _, err := ApplyPatch(e, Input{EndedAt: Opt[time.Time]{Set: true, V: edited}}, now.Add(time.Minute), seoul)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := times["ended_at"]; !ok {
			t.Fatalf("the edit of ended_at is not a reschedule: %v", times)
		}
		n, h, err := Apply(e, OpReactivate, Input{}, now.Add(time.Hour), ActorAPI, j.undo())
		if class(err) != "409" {
			t.Fatalf("reactivate: got %v, want a 409", err)
		}
		checkEvent(t, n, e)
		if !reflect.DeepEqual(h, History{}) {
			t.Errorf("a refused reactivate returned a row: %+v", h)
		}
	})

	t.Run("an end edited back to the value the step set is no edit", func(t *testing.T) {
		e := fixture(KindActivityLog, StatusInProgress)
		var j journal
		e = j.do(t, e, OpComplete, Input{}, now)
		for _, end := range []time.Time{nowUS.Add(-10 * time.Minute), nowUS} {
			var err error
			if e, _, _, err = ApplyPatch(e, Input{EndedAt: Opt[time.Time]{Set: true, V: end}}, now, seoul); err != nil {
				t.Fatal(err)
			}
		}
		e = j.do(t, e, OpReactivate, Input{}, now.Add(time.Hour))
		if e.Status != StatusInProgress || e.EndedAt != nil || e.CompletedAt != nil {
			t.Errorf("got %s, ended_at %s, completed_at %s; want in_progress, nil, nil", e.Status, fmtPtr(e.EndedAt), fmtPtr(e.CompletedAt))
		}
	})

	// The mechanism itself, on a field the step changed and that differs
	// from the value the step wrote: it is left alone, the rest undone.
	t.Run("the rule on the row", func(t *testing.T) {
		e := fixture(KindTask, StatusDone)
		step := stepOf(e)
		step.Changes["defer_until"] = Change{Old: tv(deferOld), New: nil}
		e.CompletedAt = at(completedAt.Add(time.Minute)) // not what the step wrote
		n, h, err := Apply(e, OpReactivate, Input{}, now, ActorAPI, &Undo{Step: step})
		if err != nil {
			t.Fatal(err)
		}
		checkTime(t, "completed_at (edited since)", n.CompletedAt, at(completedAt.Add(time.Minute)))
		checkTime(t, "defer_until (restored)", n.DeferUntil, &deferOld)
		if _, ok := h.Changes["completed_at"]; ok {
			t.Errorf("the row records a change of the kept field: %v", h.Changes)
		}
	})
}

// TestCompleteOfALogStartedInTheFuture: the end is never before the start.
func TestCompleteOfALogStartedInTheFuture(t *testing.T) {
	t.Parallel()
	e := fixture(KindActivityLog, StatusInProgress)
	start := nowUS.Add(time.Hour)
	e.StartedAt = &start
	n, h, err := Apply(e, OpComplete, Input{}, now, ActorAPI, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkTime(t, "ended_at", n.EndedAt, &start)
	checkTime(t, "completed_at", n.CompletedAt, &nowUS)
	if got := h.Changes["ended_at"].New; got != tv(start) {
		t.Errorf("ended_at change: got %v, want %v", got, tv(start))
	}
	if p := storageProblems(n, time.UTC); len(p) > 0 {
		t.Errorf("breaks %v", p)
	}
}

func TestRecords(t *testing.T) {
	t.Parallel()
	e := fixture(KindTask, StatusPlanned)
	c := CreateRecord(&e, ActorImport)
	checkHistory(t, c, History{EventID: 42, ChangeKind: ChangeCreate, Actor: ActorImport, StatusAfter: StatusPlanned,
		Changes: map[string]Change{}, OccurredAt: t0})
	if c.Changes == nil {
		t.Errorf("a create row's changes are nil, want {}")
	}
	e.UpdatedAt = nowUS
	times := map[string]Change{"due_at": {Old: tv(t0), New: tv(nowUS)}}
	r := RescheduleRecord(&e, times, ActorUser)
	checkHistory(t, r, History{EventID: 42, ChangeKind: ChangeReschedule, Actor: ActorUser, StatusBefore: ptr(StatusPlanned),
		StatusAfter: StatusPlanned, Changes: times, OccurredAt: nowUS})
}
