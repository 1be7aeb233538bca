// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"events/models"
)

// TestEveryTransition drives each operation from each status the service can
// reach, through the database, and checks the status it leads to, the one
// history row it writes, and that a refused operation writes nothing.
func TestEveryTransition(t *testing.T) {
	t.Parallel()
	now := ts("2026-11-22T03:00:00Z")
	s, db, _ := newService(t, now)
	future := now.Add(48 * time.Hour).Format(time.RFC3339)
	// Each setup reaches a status from a fresh task.
	setups := map[models.Status]func(t *testing.T) models.Event{
		models.StatusPlanned: func(t *testing.T) models.Event { return create(t, s, `{"kind":"task","title":"t"}`) },
		models.StatusTentative: func(t *testing.T) models.Event {
			return create(t, s, `{"kind":"calendar_event","title":"c","status":"tentative","start_at":"2026-11-23T01:00:00Z"}`)
		},
		models.StatusInProgress: func(t *testing.T) models.Event {
			return create(t, s, `{"kind":"task","title":"t","status":"in_progress"}`)
		},
		models.StatusWaiting: func(t *testing.T) models.Event {
			return create(t, s, `{"kind":"task","title":"t","status":"waiting"}`)
		},
		models.StatusDeferred: func(t *testing.T) models.Event {
			e := create(t, s, `{"kind":"task","title":"t"}`)
			return mustOperate(t, s, e.ID, models.OpDefer, `{"defer_until":"`+future+`"}`)
		},
		models.StatusDone: func(t *testing.T) models.Event {
			e := create(t, s, `{"kind":"task","title":"t"}`)
			return mustOperate(t, s, e.ID, models.OpComplete, "")
		},
		models.StatusCancelled: func(t *testing.T) models.Event {
			e := create(t, s, `{"kind":"task","title":"t"}`)
			return mustOperate(t, s, e.ID, models.OpCancel, "")
		},
	}
	want := map[models.Op]map[models.Status]models.Status{
		models.OpComplete:   {"planned": "done", "tentative": "done", "in_progress": "done", "waiting": "done", "deferred": "done"},
		models.OpCancel:     {"planned": "cancelled", "tentative": "cancelled", "in_progress": "cancelled", "waiting": "cancelled", "deferred": "cancelled", "done": "cancelled"},
		models.OpDefer:      {"planned": "deferred", "tentative": "deferred", "in_progress": "deferred", "waiting": "deferred", "deferred": "deferred"},
		models.OpReactivate: {"deferred": "planned", "done": "planned", "cancelled": "planned"},
	}
	for _, op := range models.Ops {
		for _, from := range models.Statuses {
			t.Run(fmt.Sprintf("%s from %s", op, from), func(t *testing.T) {
				e := setups[from](t)
				before := history(t, s, e.ID)
				_, rowsBefore := counts(t, db)
				body := ""
				if op == models.OpDefer {
					body = `{"defer_until":"` + now.Add(72*time.Hour).Format(time.RFC3339) + `"}`
				}
				got, err := operate(s, e.ID, op, body)
				to, allowed := want[op][from]
				if !allowed {
					if !isConflict(err) {
						t.Fatalf("want 409 conflict, got %v", err)
					}
					if _, rows := counts(t, db); rows != rowsBefore {
						t.Errorf("a refused operation wrote %d history rows", rows-rowsBefore)
					}
					stored, _ := s.Get(t.Context(), e.ID)
					if !reflect.DeepEqual(stored, e) {
						t.Errorf("a refused operation changed the event:\n%+v\n%+v", stored, e)
					}
					return
				}
				if err != nil {
					t.Fatalf("want %s, got %v", to, err)
				}
				if got.Status != to {
					t.Errorf("status = %s, want %s", got.Status, to)
				}
				after := history(t, s, e.ID)
				if len(after) != len(before)+1 {
					t.Fatalf("history rows %d -> %d, want one more", len(before), len(after))
				}
				last := after[len(after)-1]
				if last.ChangeKind != models.ChangeKind(op) || *last.StatusBefore != from || last.StatusAfter != to {
					t.Errorf("history row = %s %v->%s, want %s %s->%s", last.ChangeKind, *last.StatusBefore, last.StatusAfter, op, from, to)
				}
				stored, err := s.Get(t.Context(), e.ID)
				if err != nil || !reflect.DeepEqual(stored, got) {
					t.Errorf("stored event differs from the answer:\n%+v\n%+v (%v)", stored, got, err)
				}
			})
		}
	}
}

func TestDeferIsNotForActivityLogsAndNeedsAFutureTime(t *testing.T) {
	t.Parallel()
	now := ts("2026-11-22T03:00:00Z")
	s, db, _ := newService(t, now)
	log := create(t, s, `{"kind":"activity_log","title":"ran"}`)
	if _, err := operate(s, log.ID, models.OpDefer, `{"defer_until":"2026-11-30T00:00:00Z"}`); !isFieldError(err, "kind") {
		t.Errorf("defer of an activity_log: %v, want 422 naming kind", err)
	}
	task := create(t, s, `{"kind":"task","title":"t"}`)
	done := create(t, s, `{"kind":"task","title":"t","status":"done"}`)
	for _, c := range []struct {
		id    int64
		body  string
		check func(error) bool
	}{
		{task.ID, ``, func(err error) bool { return isFieldError(err, "defer_until") }},
		{task.ID, `{"defer_until":"2026-11-22T02:59:59Z"}`, func(err error) bool { return isFieldError(err, "defer_until") }},
		{task.ID, `{"defer_until":"2026-11-22T03:00:00Z"}`, func(err error) bool { return isFieldError(err, "defer_until") }},
		{task.ID, `{"defer_until":"tomorrow"}`, func(err error) bool { return isFieldError(err, "defer_until") }},
		// status before value: a done event is a 409 whatever the value
		{done.ID, `{"defer_until":"2026-11-01T00:00:00Z"}`, isConflict},
		{done.ID, `{"defer_until":"tomorrow"}`, isConflict},
		{99999, `{"defer_until":"tomorrow"}`, func(err error) bool { return errors.Is(err, models.ErrNotFound) }},
	} {
		if _, err := operate(s, c.id, models.OpDefer, c.body); !c.check(err) {
			t.Errorf("defer %d %q: unexpected %v", c.id, c.body, err)
		}
	}
	if _, rows := counts(t, db); rows != 3 {
		t.Errorf("%d history rows, want only the 3 creates", rows)
	}
}

func TestCompleteEndsARunningLog(t *testing.T) {
	t.Parallel()
	now := ts("2026-11-22T03:00:00Z")
	s, _, clk := newService(t, now)
	e := create(t, s, `{"kind":"activity_log","title":"writing","status":"in_progress"}`)
	if e.StartedAt == nil || !e.StartedAt.Equal(now) || e.EndedAt != nil {
		t.Fatalf("running log: started %v ended %v", e.StartedAt, e.EndedAt)
	}
	clk.Add(90 * time.Minute)
	done := mustOperate(t, s, e.ID, models.OpComplete, "")
	if done.EndedAt == nil || !done.EndedAt.Equal(now.Add(90*time.Minute)) {
		t.Errorf("ended_at = %v, want the completion time", done.EndedAt)
	}
	back := mustOperate(t, s, e.ID, models.OpReactivate, "")
	if back.Status != models.StatusInProgress || back.EndedAt != nil || back.CompletedAt != nil {
		t.Errorf("reactivate: %s ended %v completed %v, want running again", back.Status, back.EndedAt, back.CompletedAt)
	}
}

// TestReactivateIsAnUndoStack follows the chains of docs/DESIGN.md.
func TestReactivateIsAnUndoStack(t *testing.T) {
	t.Parallel()
	now := ts("2026-11-22T03:00:00Z")
	s, _, clk := newService(t, now)
	until := "2026-11-25T00:00:00Z"

	e := create(t, s, `{"kind":"task","title":"chain"}`)
	mustOperate(t, s, e.ID, models.OpDefer, `{"defer_until":"`+until+`"}`)
	clk.Add(time.Minute)
	cancelled := mustOperate(t, s, e.ID, models.OpCancel, "")
	if cancelled.DeferUntil != nil || cancelled.UndoStatus == nil || *cancelled.UndoStatus != models.StatusDeferred {
		t.Fatalf("cancel of a deferred event: defer_until %v, reactivate_to %v", cancelled.DeferUntil, cancelled.UndoStatus)
	}
	first := mustOperate(t, s, e.ID, models.OpReactivate, "")
	if first.Status != models.StatusDeferred || first.DeferUntil == nil || !first.DeferUntil.Equal(ts(until)) || first.CancelledAt != nil {
		t.Errorf("first reactivate: %s defer_until %v cancelled_at %v, want deferred until %s", first.Status, first.DeferUntil, first.CancelledAt, until)
	}
	if first.UndoStatus == nil || *first.UndoStatus != models.StatusPlanned {
		t.Errorf("after the first reactivate, reactivate_to = %v, want planned", first.UndoStatus)
	}
	second := mustOperate(t, s, e.ID, models.OpReactivate, "")
	if second.Status != models.StatusPlanned || second.DeferUntil != nil || second.UndoStatus != nil {
		t.Errorf("second reactivate: %s defer_until %v reactivate_to %v, want planned with nothing left", second.Status, second.DeferUntil, second.UndoStatus)
	}
	if _, err := operate(s, e.ID, models.OpReactivate, ""); !isConflict(err) {
		t.Errorf("third reactivate: %v, want 409", err)
	}
	hs := history(t, s, e.ID)
	wantKinds := []models.ChangeKind{"create", "defer", "cancel", "reactivate", "reactivate"}
	if !reflect.DeepEqual(kinds(hs), wantKinds) {
		t.Fatalf("history = %v, want %v", kinds(hs), wantKinds)
	}
	if *hs[3].Undoes != hs[2].ID || *hs[4].Undoes != hs[1].ID {
		t.Errorf("undoes = %d, %d; want the cancel (%d) then the defer (%d)", *hs[3].Undoes, *hs[4].Undoes, hs[2].ID, hs[1].ID)
	}

	// A quick record is created done: there is nothing to undo.
	log := create(t, s, `{"kind":"activity_log","title":"quick"}`)
	if _, err := operate(s, log.ID, models.OpReactivate, ""); !isConflict(err) {
		t.Errorf("reactivate of a quick record: %v, want 409", err)
	}

	// A new step after an undo goes on top of what is left.
	f := create(t, s, `{"kind":"task","title":"f"}`)
	mustOperate(t, s, f.ID, models.OpDefer, `{"defer_until":"`+until+`"}`)
	mustOperate(t, s, f.ID, models.OpComplete, "")
	if got := mustOperate(t, s, f.ID, models.OpReactivate, ""); got.Status != models.StatusDeferred || got.DeferUntil == nil {
		t.Errorf("undo complete of a deferred task: %s %v", got.Status, got.DeferUntil)
	}
	mustOperate(t, s, f.ID, models.OpCancel, "")
	if got := mustOperate(t, s, f.ID, models.OpReactivate, ""); got.Status != models.StatusDeferred {
		t.Errorf("undo cancel: %s, want deferred", got.Status)
	}
	if got := mustOperate(t, s, f.ID, models.OpReactivate, ""); got.Status != models.StatusPlanned {
		t.Errorf("undo defer: %s, want planned", got.Status)
	}

	// Cancelling a done event keeps completed_at; undoing gives done back.
	g := create(t, s, `{"kind":"task","title":"g"}`)
	done := mustOperate(t, s, g.ID, models.OpComplete, "")
	c := mustOperate(t, s, g.ID, models.OpCancel, "")
	if c.CompletedAt == nil || !c.CompletedAt.Equal(*done.CompletedAt) {
		t.Errorf("cancel of a done event lost completed_at: %v", c.CompletedAt)
	}
	if got := mustOperate(t, s, g.ID, models.OpReactivate, ""); got.Status != models.StatusDone || got.CancelledAt != nil || got.CompletedAt == nil {
		t.Errorf("undo cancel of done: %s cancelled %v completed %v", got.Status, got.CancelledAt, got.CompletedAt)
	}
}

// atOnce runs f(0) to f(n-1) in n goroutines released together, and waits for them.
func atOnce(n int, f func(i int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			f(i)
		}()
	}
	close(start)
	wg.Wait()
}

// TestConcurrentCompletes: twelve completes of one event at once; the row
// lock lets one through and the others see it done.
func TestConcurrentCompletes(t *testing.T) {
	t.Parallel()
	s, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	e := create(t, s, `{"kind":"task","title":"race"}`)
	const n = 12
	errs := make([]error, n)
	atOnce(n, func(i int) { _, errs[i] = operate(s, e.ID, models.OpComplete, "") })
	var ok, conflicts int
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case isConflict(err):
			conflicts++
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 1 || conflicts != n-1 {
		t.Errorf("%d succeeded and %d conflicted, want 1 and %d", ok, conflicts, n-1)
	}
	var completes int
	if err := db.QueryRow(`SELECT count(*) FROM event_history WHERE event_id = ? AND change_kind = 'complete'`, e.ID).Scan(&completes); err != nil {
		t.Fatal(err)
	}
	if completes != 1 {
		t.Errorf("%d complete rows, want exactly 1", completes)
	}
}

// TestConcurrentDedup: sixteen creates of one (source, source_ref) at once;
// exactly one is stored, the others name it.
func TestConcurrentDedup(t *testing.T) {
	t.Parallel()
	s, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	const n = 16
	results := make([]models.Event, n)
	errs := make([]error, n)
	atOnce(n, func(i int) {
		results[i], errs[i] = tryCreate(s, `{"kind":"task","title":"from mail","source":"email","source_ref":"<msg-42@example.org>"}`)
	})
	var winner int64
	var dups []int64
	for i, err := range errs {
		var dup *models.DuplicateError
		switch {
		case err == nil:
			if winner != 0 {
				t.Errorf("two creates won: %d and %d", winner, results[i].ID)
			}
			winner = results[i].ID
		case errors.As(err, &dup):
			dups = append(dups, dup.ExistingID)
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if winner == 0 || len(dups) != n-1 {
		t.Fatalf("winner %d, %d duplicates; want one winner and %d duplicates", winner, len(dups), n-1)
	}
	for _, id := range dups {
		if id != winner {
			t.Errorf("a duplicate names %d, want the stored %d", id, winner)
		}
	}
	if ev, rows := counts(t, db); ev != 1 || rows != 1 {
		t.Errorf("%d events and %d history rows stored, want 1 and 1", ev, rows)
	}
	hs := history(t, s, winner)
	if len(hs) != 1 || hs[0].Actor != models.ActorImport {
		t.Errorf("history of an imported event: %+v, want one create by import", hs)
	}
}

func TestRescheduleWrittenOnlyForTimeChanges(t *testing.T) {
	t.Parallel()
	s, db, clk := newService(t, ts("2026-11-22T03:00:00Z"))
	e := create(t, s, `{"kind":"task","title":"rent","due_at":"2026-11-25T09:00:00+09:00"}`)
	clk.Add(time.Minute)

	// Title and priority only: no reschedule row.
	got, err := patch(s, e.ID, `{"title":"pay rent","priority":3}`)
	if err != nil || got.Title != "pay rent" || got.Priority != 3 {
		t.Fatalf("patch: %+v %v", got, err)
	}
	// The same due time written with another offset is no change.
	if _, err := patch(s, e.ID, `{"due_at":"2026-11-25T00:00:00Z"}`); err != nil {
		t.Fatal(err)
	}
	if k := kinds(history(t, s, e.ID)); !reflect.DeepEqual(k, []models.ChangeKind{"create"}) {
		t.Fatalf("history = %v, want only create", k)
	}
	// A new due time and a start: one reschedule row with both fields.
	got, err = patch(s, e.ID, `{"due_at":"2026-11-26T09:00:00+09:00","start_at":"2026-11-26T08:00:00+09:00"}`)
	if err != nil {
		t.Fatal(err)
	}
	hs := history(t, s, e.ID)
	if k := kinds(hs); !reflect.DeepEqual(k, []models.ChangeKind{"create", "reschedule"}) {
		t.Fatalf("history = %v, want create, reschedule", k)
	}
	want := map[string]models.Change{
		"due_at":   {Old: "2026-11-25T00:00:00.000000Z", New: "2026-11-26T00:00:00.000000Z"},
		"start_at": {Old: nil, New: "2026-11-25T23:00:00.000000Z"},
	}
	if !reflect.DeepEqual(hs[1].Changes, want) {
		t.Errorf("reschedule changes = %v, want %v", hs[1].Changes, want)
	}
	if hs[1].StatusBefore == nil || *hs[1].StatusBefore != got.Status || hs[1].StatusAfter != got.Status {
		t.Errorf("reschedule row statuses %v -> %s", hs[1].StatusBefore, hs[1].StatusAfter)
	}

	// A PATCH naming a field outside the editable set changes nothing.
	_, rowsBefore := counts(t, db)
	for _, body := range []string{`{"status":"done"}`, `{"title":"x","completed_at":null}`, `{"defer_until":"2026-12-01T00:00:00Z"}`, `{"kind":"calendar_event"}`, `{"ended_at":"2026-11-26T00:00:00Z"}`} {
		if _, err := patch(s, e.ID, body); err == nil {
			t.Errorf("PATCH %s accepted", body)
		}
	}
	stored, _ := s.Get(t.Context(), e.ID)
	if !reflect.DeepEqual(stored, got) {
		t.Errorf("refused PATCHes changed the event")
	}
	if _, rows := counts(t, db); rows != rowsBefore {
		t.Errorf("refused PATCHes wrote history")
	}
	if _, err := patch(s, 424242, `{"title":"x"}`); !errors.Is(err, models.ErrNotFound) {
		t.Errorf("PATCH of a missing event: %v", err)
	}
	// 404 comes before a bad body.
	if _, err := patch(s, 424242, `{"title":`); !errors.Is(err, models.ErrNotFound) {
		t.Errorf("PATCH of a missing event with a bad body: %v, want 404", err)
	}
}
