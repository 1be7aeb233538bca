// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"events/app"
	"events/internal/dbtest"
	"events/migrations"
	"events/models"
)

// oldUndoRule is the undo stack as it was read before the links: the newest
// complete, cancel or defer of the event that no reactivate names, and the
// step under it by the same rule. It is the oracle the linked stack must
// agree with.
const oldUndoRule = `SELECT h.id, h.status_before FROM event_history h
	WHERE h.event_id = ? AND h.change_kind IN ('complete', 'cancel', 'defer')
	AND NOT EXISTS (SELECT 1 FROM event_history r WHERE r.undoes = h.id)
	ORDER BY h.id DESC LIMIT 2`

// stackView is what the undo stack of one event answers.
type stackView struct {
	top        int64          // the step reactivate would undo, 0 for none
	topBefore  *models.Status // its status before
	nextBefore *models.Status // status_before of the step beneath it
}

func (v stackView) String() string {
	s := func(p *models.Status) string {
		if p == nil {
			return "-"
		}
		return string(*p)
	}
	return fmt.Sprintf("top %d (before %s), beneath: %s", v.top, s(v.topBefore), s(v.nextBefore))
}

func (v stackView) equal(w stackView) bool {
	same := func(a, b *models.Status) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	return v.top == w.top && same(v.topBefore, w.topBefore) && same(v.nextBefore, w.nextBefore)
}

// oldStack reads the stack by the old rule.
func oldStack(t *testing.T, db bun.IDB, id int64) stackView {
	t.Helper()
	var rows []struct {
		ID           int64          `bun:"id"`
		StatusBefore *models.Status `bun:"status_before"`
	}
	if err := db.NewRaw(oldUndoRule, id).Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	var v stackView
	if len(rows) > 0 {
		v.top, v.topBefore = rows[0].ID, rows[0].StatusBefore
	}
	if len(rows) > 1 {
		v.nextBefore = rows[1].StatusBefore
	}
	return v
}

// linkedStack reads the stack by the links, with the service's statements.
func linkedStack(t *testing.T, db bun.IDB, id int64) stackView {
	t.Helper()
	var top sql.NullInt64
	if err := db.NewRaw("SELECT CASE WHEN undo_status IS NOT NULL THEN undo_top END FROM events WHERE id = ?", id).Scan(context.Background(), &top); err != nil {
		t.Fatal(err)
	}
	var v stackView
	if !top.Valid {
		var unlinked bool
		if err := db.NewRaw("SELECT undo_status IS NOT NULL AND undo_top IS NULL FROM events WHERE id = ?", id).Scan(context.Background(), &unlinked); err != nil {
			t.Fatal(err)
		}
		if unlinked { // loaded around the service: the search serves it
			return oldStack(t, db, id)
		}
		return v
	}
	var rows []struct {
		ID           int64          `bun:"id"`
		StatusBefore *models.Status `bun:"status_before"`
		NextStatus   *models.Status `bun:"next_status"`
	}
	if err := db.NewRaw("SELECT id, status_before, next_status FROM ("+app.UndoStackSQL+") s", id).Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].ID != top.Int64 {
		t.Fatalf("event %d: the top is %d but the stack statement read %+v", id, top.Int64, rows)
	}
	return stackView{top: top.Int64, topBefore: rows[0].StatusBefore, nextBefore: rows[0].NextStatus}
}

// checkStack fails the test unless the links, the old rule and the event's
// reactivate_to agree.
func checkStack(t *testing.T, s *app.Service, db bun.IDB, id int64, after string) {
	t.Helper()
	old, linked := oldStack(t, db, id), linkedStack(t, db, id)
	if !old.equal(linked) {
		t.Fatalf("event %d after %s: linked stack %v, old rule %v", id, after, linked, old)
	}
	e, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !(stackView{topBefore: e.UndoStatus}).equal(stackView{topBefore: old.topBefore}) {
		t.Fatalf("event %d after %s: reactivate_to %v, the old rule's step was %v", id, after, e.UndoStatus, old)
	}
}

// undoDriver applies operations to events and checks the stack after each.
type undoDriver struct {
	t   *testing.T
	s   *app.Service
	db  *bun.DB
	clk *dbtest.Clock
	rng *rand.Rand
	n   int // patches so far, for distinct due times
}

// do applies op (or a reschedule, op "reschedule") to id and checks that a
// reactivate undid what the old rule names, and the stack after.
func (d *undoDriver) do(id int64, op models.Op) (models.Event, error) {
	d.t.Helper()
	before := oldStack(d.t, d.db, id)
	var e models.Event
	var err error
	switch op {
	case "reschedule":
		d.n++
		e, err = patch(d.s, id, fmt.Sprintf(`{"due_at":"%s"}`, d.clk.Now().Add(time.Duration(24+d.n)*time.Hour).Format(time.RFC3339)))
	case models.OpDefer:
		e, err = operate(d.s, id, op, fmt.Sprintf(`{"defer_until":"%s"}`, d.clk.Now().Add(time.Duration(1+d.rng.IntN(72))*time.Hour).Format(time.RFC3339)))
	default:
		e, err = operate(d.s, id, op, "")
	}
	if err != nil {
		return e, err
	}
	if op == models.OpReactivate {
		var undoes int64
		if err := d.db.QueryRow("SELECT undoes FROM event_history WHERE event_id = ? ORDER BY id DESC LIMIT 1", id).Scan(&undoes); err != nil {
			d.t.Fatal(err)
		}
		if undoes != before.top {
			d.t.Fatalf("event %d: reactivate undid %d, the old rule names %d", id, undoes, before.top)
		}
	}
	d.clk.Add(time.Minute)
	checkStack(d.t, d.s, d.db, id, string(op))
	return e, nil
}

func (d *undoDriver) must(id int64, op models.Op) models.Event {
	d.t.Helper()
	e, err := d.do(id, op)
	if err != nil {
		d.t.Fatalf("%s %d: %v", op, id, err)
	}
	return e
}

// random applies n operations chosen among those the event allows (undo
// twice as likely, so stacks grow and shrink), with reschedules of tasks
// between them.
func (d *undoDriver) random(e models.Event, n int) {
	d.t.Helper()
	for range n {
		ops := models.Available(&e)
		if len(ops) == 0 {
			return
		}
		if models.Check(&e, models.OpReactivate) == nil {
			ops = append(ops, models.OpReactivate)
		}
		op := ops[d.rng.IntN(len(ops))]
		if e.Kind == models.KindTask && d.rng.IntN(6) == 0 {
			op = "reschedule"
		}
		e = d.must(e.ID, op)
	}
}

func newUndoDriver(t *testing.T, seed uint64) *undoDriver {
	s, db, clk := newService(t, ts("2026-11-22T03:00:00Z"))
	return &undoDriver{t: t, s: s, db: db, clk: clk, rng: rand.New(rand.NewPCG(seed, 16))}
}

// TestUndoStackFollowsTheOldRule: after every operation of long and mixed
// sequences, the stack read through the links is the one the old rule
// (search for the newest step no reactivate names) gives, each reactivate
// undoes the step that rule names, and the answers are those of before.
func TestUndoStackFollowsTheOldRule(t *testing.T) {
	t.Parallel()
	d := newUndoDriver(t, 1)
	task := func(title string) models.Event {
		return create(t, d.s, `{"kind":"task","title":"`+title+`","due_at":"2026-11-25T00:00:00Z"}`)
	}

	// Complete and reactivate, 300 times: planned again, nothing left.
	e := task("cycles")
	for i := range 300 {
		if got := d.must(e.ID, models.OpComplete); got.Status != models.StatusDone || *got.UndoStatus != models.StatusPlanned {
			t.Fatalf("cycle %d complete: %s reactivate_to %v", i, got.Status, got.UndoStatus)
		}
		if got := d.must(e.ID, models.OpReactivate); got.Status != models.StatusPlanned || got.UndoStatus != nil || got.CompletedAt != nil {
			t.Fatalf("cycle %d reactivate: %s reactivate_to %v completed_at %v", i, got.Status, got.UndoStatus, got.CompletedAt)
		}
	}
	if _, err := d.do(e.ID, models.OpReactivate); !isConflict(err) {
		t.Fatalf("reactivate after 300 cycles: %v, want 409", err)
	}
	var rows int
	if err := d.db.QueryRow("SELECT count(*) FROM event_history WHERE event_id = ?", e.ID).Scan(&rows); err != nil || rows != 601 {
		t.Fatalf("%d history rows (%v), want 601", rows, err)
	}

	// Defer, complete, undo, undo.
	e = task("defer complete")
	deferred := d.must(e.ID, models.OpDefer)
	d.must(e.ID, models.OpComplete)
	if got := d.must(e.ID, models.OpReactivate); got.Status != models.StatusDeferred || !got.DeferUntil.Equal(*deferred.DeferUntil) || *got.UndoStatus != models.StatusPlanned {
		t.Fatalf("undo complete: %s until %v reactivate_to %v, want deferred until %v", got.Status, got.DeferUntil, got.UndoStatus, deferred.DeferUntil)
	}
	if got := d.must(e.ID, models.OpReactivate); got.Status != models.StatusPlanned || got.DeferUntil != nil || got.UndoStatus != nil {
		t.Fatalf("undo defer: %s until %v reactivate_to %v", got.Status, got.DeferUntil, got.UndoStatus)
	}

	// Cancel on a stack of four, with reschedules between, undone to the
	// bottom; new steps after undos go on what is left.
	e = task("cancel")
	first := d.must(e.ID, models.OpDefer)
	d.must(e.ID, "reschedule")
	second := d.must(e.ID, models.OpDefer)
	d.must(e.ID, models.OpComplete)
	d.must(e.ID, "reschedule")
	d.must(e.ID, models.OpCancel)
	d.must(e.ID, "reschedule")
	for _, want := range []struct {
		status models.Status
		until  *time.Time
	}{{models.StatusDone, nil}, {models.StatusDeferred, second.DeferUntil}} {
		got := d.must(e.ID, models.OpReactivate)
		if got.Status != want.status || (want.until != nil && !got.DeferUntil.Equal(*want.until)) {
			t.Fatalf("undo: %s until %v, want %s until %v", got.Status, got.DeferUntil, want.status, want.until)
		}
	}
	d.must(e.ID, models.OpCancel) // on top of the second defer
	if got := d.must(e.ID, models.OpReactivate); got.Status != models.StatusDeferred || !got.DeferUntil.Equal(*second.DeferUntil) {
		t.Fatalf("undo the new cancel: %s until %v", got.Status, got.DeferUntil)
	}
	if got := d.must(e.ID, models.OpReactivate); got.Status != models.StatusDeferred || !got.DeferUntil.Equal(*first.DeferUntil) {
		t.Fatalf("undo the second defer: %s until %v, want %v", got.Status, got.DeferUntil, first.DeferUntil)
	}
	if got := d.must(e.ID, models.OpReactivate); got.Status != models.StatusPlanned || got.UndoStatus != nil {
		t.Fatalf("undo the first defer: %s reactivate_to %v", got.Status, got.UndoStatus)
	}
	if _, err := d.do(e.ID, models.OpReactivate); !isConflict(err) {
		t.Fatalf("reactivate on an empty stack: %v, want 409", err)
	}

	// A running log: complete, undo gives it back running; cancel, undo.
	log := create(t, d.s, `{"kind":"activity_log","title":"run","status":"in_progress"}`)
	d.must(log.ID, models.OpComplete)
	if got := d.must(log.ID, models.OpReactivate); got.Status != models.StatusInProgress || got.EndedAt != nil {
		t.Fatalf("undo complete of a running log: %s ended %v", got.Status, got.EndedAt)
	}
	d.must(log.ID, models.OpCancel)
	d.must(log.ID, models.OpReactivate)

	// Mixed: random operations on tasks, calendar entries and logs.
	for i := range 6 {
		var ev models.Event
		switch i % 3 {
		case 0:
			ev = task(fmt.Sprintf("mixed %d", i))
		case 1:
			ev = create(t, d.s, `{"kind":"calendar_event","title":"c","status":"tentative","start_at":"2026-11-23T01:00:00Z"}`)
		default:
			ev = create(t, d.s, `{"kind":"activity_log","title":"l","status":"in_progress"}`)
		}
		d.random(ev, 150)
	}
}

// runMigration runs one embedded migration file, split as bun does, in one
// transaction.
func runMigration(t *testing.T, db *bun.DB, name string) {
	t.Helper()
	b, err := migrations.FS.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	err = db.RunInTx(context.Background(), nil, func(ctx context.Context, tx bun.Tx) error {
		for _, q := range strings.Split(string(b), "--bun:split") {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

const undoMigration = "20261123000400_undo_stack.tx"

// TestUndoLinksBackfilled: history written before the links (the migration
// taken down, rows written the old way, by the service and by hand) gets
// exactly the links the service writes when the migration goes up again,
// and reactivate then undoes what the old rule names, to the bottom.
func TestUndoLinksBackfilled(t *testing.T) {
	t.Parallel()
	d := newUndoDriver(t, 2)
	var events []int64
	e := create(t, d.s, `{"kind":"task","title":"cycles","due_at":"2026-11-25T00:00:00Z"}`)
	events = append(events, e.ID)
	for range 40 {
		d.must(e.ID, models.OpComplete)
		d.must(e.ID, models.OpReactivate)
	}
	d.must(e.ID, models.OpDefer)
	d.must(e.ID, models.OpComplete)
	for i := range 8 {
		var ev models.Event
		switch i % 3 {
		case 0:
			ev = create(t, d.s, `{"kind":"task","title":"t","due_at":"2026-11-25T00:00:00Z"}`)
		case 1:
			ev = create(t, d.s, `{"kind":"calendar_event","title":"c","start_at":"2026-11-23T01:00:00Z"}`)
		default:
			ev = create(t, d.s, `{"kind":"activity_log","title":"l","status":"in_progress"}`)
		}
		events = append(events, ev.ID)
		d.random(ev, 60)
	}
	// the links the service wrote
	type link struct {
		ID       int64
		UndoNext *int64
	}
	var written []link
	if err := d.db.NewRaw("SELECT id, undo_next FROM event_history ORDER BY id").Scan(context.Background(), &written); err != nil {
		t.Fatal(err)
	}
	// and the tops (undo_top counts while undo_status is set)
	tops := func() map[int64]*int64 {
		var rows []struct {
			ID  int64
			Top *int64
		}
		if err := d.db.NewRaw("SELECT id, CASE WHEN undo_status IS NOT NULL THEN undo_top END AS top FROM events").Scan(context.Background(), &rows); err != nil {
			t.Fatal(err)
		}
		m := map[int64]*int64{}
		for _, r := range rows {
			m[r.ID] = r.Top
		}
		return m
	}
	wantTops := tops()

	runMigration(t, d.db, undoMigration+".down.sql")
	var cols int
	if err := d.db.QueryRow("SELECT count(*) FROM information_schema.columns WHERE column_name IN ('undo_next', 'undo_top')").Scan(&cols); err != nil || cols != 0 {
		t.Fatalf("after the down migration: %d undo_next or undo_top columns (%v)", cols, err)
	}

	// Written by hand the old way: create, defer, defer, undo, complete,
	// cancel, undo; then one as the bench's seed writes it (create,
	// reschedule, complete).
	var hand, seeded int64
	d1, d2 := "2026-11-24T00:00:00.000000Z", "2026-11-26T00:00:00.000000Z"
	done := "2026-11-22T05:00:00.000000Z"
	if err := d.db.QueryRow(`INSERT INTO events (kind, status, title, completed_at, undo_status, created_at, updated_at)
		VALUES ('task', 'done', 'by hand', ?, 'deferred', '2026-11-22T01:00:00Z', '2026-11-22T06:00:00Z') RETURNING id`, done).Scan(&hand); err != nil {
		t.Fatal(err)
	}
	row := func(event int64, kind, before, after, changes string, undoes *int64, at string) int64 {
		t.Helper()
		var id int64
		var sb *string
		if before != "" {
			sb = &before
		}
		if err := d.db.QueryRow(`INSERT INTO event_history (event_id, change_kind, actor, status_before, status_after, changes, undoes, occurred_at)
			VALUES (?, ?, 'api', ?, ?, ?, ?, ?) RETURNING id`, event, kind, sb, after, changes, undoes, at).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	ch := func(field string, old, new any) string {
		b, _ := json.Marshal(map[string]models.Change{field: {Old: old, New: new}})
		return string(b)
	}
	row(hand, "create", "", "planned", "{}", nil, "2026-11-22T01:00:00Z")
	hd1 := row(hand, "defer", "planned", "deferred", ch("defer_until", nil, d1), nil, "2026-11-22T02:00:00Z")
	hd2 := row(hand, "defer", "deferred", "deferred", ch("defer_until", d1, d2), nil, "2026-11-22T03:00:00Z")
	hr1 := row(hand, "reactivate", "deferred", "deferred", ch("defer_until", d2, d1), &hd2, "2026-11-22T03:30:00Z")
	hc := row(hand, "complete", "deferred", "done",
		`{"completed_at":{"old":null,"new":"`+done+`"},"defer_until":{"old":"`+d1+`","new":null}}`, nil, "2026-11-22T05:00:00Z")
	hx := row(hand, "cancel", "done", "cancelled", ch("cancelled_at", nil, "2026-11-22T05:30:00.000000Z"), nil, "2026-11-22T05:30:00Z")
	hr2 := row(hand, "reactivate", "cancelled", "done", ch("cancelled_at", "2026-11-22T05:30:00.000000Z", nil), &hx, "2026-11-22T06:00:00Z")
	if err := d.db.QueryRow(`INSERT INTO events (kind, status, title, due_at, completed_at, undo_status, created_at, updated_at)
		VALUES ('task', 'done', 'seeded', '2026-11-20T00:00:00Z', '2026-11-21T00:00:00Z', 'planned', '2026-11-19T00:00:00Z', '2026-11-21T00:00:00Z') RETURNING id`).Scan(&seeded); err != nil {
		t.Fatal(err)
	}
	row(seeded, "create", "", "planned", "{}", nil, "2026-11-19T00:00:00Z")
	sr := row(seeded, "reschedule", "planned", "planned", ch("due_at", "2026-11-19T00:00:00.000000Z", "2026-11-20T00:00:00.000000Z"), nil, "2026-11-19T00:01:00Z")
	sc := row(seeded, "complete", "planned", "done", ch("completed_at", nil, "2026-11-21T00:00:00.000000Z"), nil, "2026-11-21T00:00:00Z")

	runMigration(t, d.db, undoMigration+".up.sql")

	var got []link
	if err := d.db.NewRaw("SELECT id, undo_next FROM event_history ORDER BY id").Scan(context.Background(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[int64]*int64{hd1: nil, hd2: &hd1, hr1: nil, hc: &hd1, hx: &hc, hr2: nil, sr: nil, sc: nil}
	for _, l := range written {
		want[l.ID] = l.UndoNext
	}
	str := func(p *int64) string {
		if p == nil {
			return "NULL"
		}
		return fmt.Sprint(*p)
	}
	filled := 0
	for _, l := range got {
		w, ok := want[l.ID]
		if !ok {
			continue // a create row by hand
		}
		if str(w) != str(l.UndoNext) {
			t.Errorf("row %d: undo_next %s after the backfill, want %s", l.ID, str(l.UndoNext), str(w))
		}
		if l.UndoNext != nil {
			filled++
		}
	}
	if filled < 20 {
		t.Fatalf("only %d links filled: the sequences did not build stacks", filled)
	}
	wantTops[hand], wantTops[seeded] = &hc, &sc
	for id, top := range tops() {
		if str(top) != str(wantTops[id]) {
			t.Errorf("event %d: undo_top %s after the backfill, want %s", id, str(top), str(wantTops[id]))
		}
	}
	if _, err := d.db.Exec("UPDATE event_history SET actor = 'system' WHERE id = ?", hc); err == nil {
		t.Fatal("history can be updated after the migration")
	}

	// by hand: undo complete gives deferred until d1, then planned, then 409
	checkStack(t, d.s, d.db, hand, "the backfill")
	if got := d.must(hand, models.OpReactivate); got.Status != models.StatusDeferred || got.DeferUntil == nil || !got.DeferUntil.Equal(ts("2026-11-24T00:00:00Z")) || got.CompletedAt != nil {
		t.Fatalf("by hand, first undo: %s until %v completed %v", got.Status, got.DeferUntil, got.CompletedAt)
	}
	if got := d.must(hand, models.OpReactivate); got.Status != models.StatusPlanned || got.UndoStatus != nil {
		t.Fatalf("by hand, second undo: %s reactivate_to %v", got.Status, got.UndoStatus)
	}
	if got := d.must(seeded, models.OpReactivate); got.Status != models.StatusPlanned || got.UndoStatus != nil {
		t.Fatalf("seeded, undo: %s reactivate_to %v", got.Status, got.UndoStatus)
	}
	// every other event: undo to the bottom, each step the old rule's
	for _, id := range events {
		checkStack(t, d.s, d.db, id, "the backfill")
		for {
			if _, err := d.do(id, models.OpReactivate); err != nil {
				if !isConflict(err) {
					t.Fatal(err)
				}
				break
			}
		}
		if v := oldStack(t, d.db, id); v.top != 0 {
			t.Fatalf("event %d: 409 with step %d left", id, v.top)
		}
	}
}

// TestUndoOnRowsWrittenAroundTheService: rows a bulk load writes without the
// links (a status to restore, no undo_top, as the benchmark's seed does) are
// undone by the old rule's search, and the next operation links them; an
// event reset to "nothing to undo" by clearing undo_status alone (as the
// benchmark's cleanup does) starts a new stack.
func TestUndoOnRowsWrittenAroundTheService(t *testing.T) {
	t.Parallel()
	d := newUndoDriver(t, 3)
	var a, b int64
	for _, p := range []*int64{&a, &b} {
		if err := d.db.QueryRow(`INSERT INTO events (kind, status, title, completed_at, undo_status, created_at, updated_at)
			VALUES ('task', 'done', 'loaded', '2026-11-21T02:00:00Z', 'deferred', '2026-11-21T00:00:00Z', '2026-11-21T02:00:00Z') RETURNING id`).Scan(p); err != nil {
			t.Fatal(err)
		}
		if _, err := d.db.Exec(`INSERT INTO event_history (event_id, change_kind, actor, status_before, status_after, changes, occurred_at) VALUES
			(?0, 'create', 'api', NULL, 'planned', '{}', '2026-11-21T00:00:00Z'),
			(?0, 'defer', 'api', 'planned', 'deferred', '{"defer_until":{"old":null,"new":"2026-11-30T00:00:00.000000Z"}}', '2026-11-21T01:00:00Z'),
			(?0, 'complete', 'api', 'deferred', 'done',
			 '{"completed_at":{"old":null,"new":"2026-11-21T02:00:00.000000Z"},"defer_until":{"old":"2026-11-30T00:00:00.000000Z","new":null}}', '2026-11-21T02:00:00Z')`, *p); err != nil {
			t.Fatal(err)
		}
		checkStack(t, d.s, d.db, *p, "the load")
	}
	// a: undone twice by the search's answers
	if got := d.must(a, models.OpReactivate); got.Status != models.StatusDeferred || got.DeferUntil == nil || *got.UndoStatus != models.StatusPlanned {
		t.Fatalf("first undo: %s until %v reactivate_to %v", got.Status, got.DeferUntil, got.UndoStatus)
	}
	if got := d.must(a, models.OpReactivate); got.Status != models.StatusPlanned || got.UndoStatus != nil {
		t.Fatalf("second undo: %s reactivate_to %v", got.Status, got.UndoStatus)
	}
	// b: a cancel goes on top of the loaded steps, then all three undone
	d.must(b, models.OpCancel)
	for _, want := range []models.Status{models.StatusDone, models.StatusDeferred, models.StatusPlanned} {
		if got := d.must(b, models.OpReactivate); got.Status != want {
			t.Fatalf("undo: %s, want %s", got.Status, want)
		}
	}
	// reset as the benchmark's cleanup does: the steps deleted (triggers
	// off for its session) and undo_status cleared, undo_top left naming a
	// row that is gone
	e := create(t, d.s, `{"kind":"task","title":"reset"}`)
	d.must(e.ID, models.OpDefer)
	d.must(e.ID, models.OpComplete)
	conn, err := d.db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"SET session_replication_role = replica",
		fmt.Sprintf("DELETE FROM event_history WHERE event_id = %d AND change_kind <> 'create'", e.ID),
		fmt.Sprintf("UPDATE events SET status = 'planned', completed_at = NULL, defer_until = NULL, undo_status = NULL WHERE id = %d", e.ID),
		"RESET session_replication_role",
	} {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	conn.Close()
	if _, err := d.do(e.ID, models.OpReactivate); !isConflict(err) {
		t.Fatalf("reactivate after the reset: %v, want 409", err)
	}
	d.must(e.ID, models.OpComplete)
	if got := d.must(e.ID, models.OpReactivate); got.Status != models.StatusPlanned || got.UndoStatus != nil {
		t.Fatalf("undo after the reset: %s reactivate_to %v, want planned and nothing left", got.Status, got.UndoStatus)
	}
}

// undoPairs stores a planned task with a create row and pairs complete and
// reactivate pairs, in the past, as the service writes them (each pair
// leaves the stack empty, so no links), and returns its id.
func undoPairs(t *testing.T, db *bun.DB, pairs int) int64 {
	t.Helper()
	var id int64
	err := db.RunInTx(context.Background(), nil, func(ctx context.Context, tx bun.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO events (kind, status, title, created_at, updated_at)
			VALUES ('task', 'planned', 'pairs', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z') RETURNING id`).Scan(&id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO event_history (event_id, change_kind, actor, status_after, occurred_at)
			VALUES (?, 'create', 'api', 'planned', '2026-11-01T00:00:00Z')`, id); err != nil {
			return err
		}
		var first int64
		if err := tx.QueryRowContext(ctx, `SELECT nextval(pg_get_serial_sequence('event_history', 'id'))`).Scan(&first); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('event_history', 'id'), ?)`, first+int64(2*pairs)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `
INSERT INTO event_history (id, event_id, change_kind, actor, status_before, status_after, changes, undoes, occurred_at)
SELECT ?0 + 2 * (p - 1) + k, ?1, CASE k WHEN 0 THEN 'complete' ELSE 'reactivate' END::history_change_kind, 'api',
    CASE k WHEN 0 THEN 'planned' ELSE 'done' END::event_status, CASE k WHEN 0 THEN 'done' ELSE 'planned' END::event_status,
    jsonb_build_object('completed_at', jsonb_build_object(
        'old', CASE k WHEN 1 THEN to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END,
        'new', CASE k WHEN 0 THEN to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END)),
    CASE k WHEN 1 THEN ?0 + 2 * (p - 1) END, at + k * interval '1 millisecond'
FROM generate_series(1, ?2::int) p CROSS JOIN generate_series(0, 1) k
CROSS JOIN LATERAL (SELECT timestamptz '2026-11-01T00:00:00Z' + p * interval '1 second' AS at) c
ORDER BY 1`, first, id, pairs)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// reschedules adds n reschedule rows to a done task.
func reschedules(t *testing.T, db *bun.DB, id int64, n int) {
	t.Helper()
	if _, err := db.Exec(`
INSERT INTO event_history (event_id, change_kind, actor, status_before, status_after, changes, occurred_at)
SELECT ?0, 'reschedule', 'api', 'done', 'done',
    jsonb_build_object('due_at', jsonb_build_object('old', NULL, 'new', NULL)),
    timestamptz '2026-11-22T03:00:00Z' + g * interval '1 millisecond'
FROM generate_series(1, ?1::int) g ORDER BY g`, id, n); err != nil {
		t.Fatal(err)
	}
}

// planCost runs EXPLAIN (ANALYZE, BUFFERS) of query and returns the rows
// its nodes produced or removed, summed over loops, and the buffers it
// touched.
func planCost(t *testing.T, db *bun.DB, query string, args ...any) (rows, buffers float64, text string) {
	t.Helper()
	var out []string
	for range 2 { // the second run, with hint bits set by the first
		out = out[:0]
		if err := db.NewRaw("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) "+query, args...).Scan(context.Background(), &out); err != nil {
			t.Fatal(err)
		}
	}
	var plans []struct {
		Plan map[string]any `json:"Plan"`
	}
	if err := json.Unmarshal([]byte(strings.Join(out, "")), &plans); err != nil || len(plans) != 1 {
		t.Fatalf("EXPLAIN: %v %s", err, out)
	}
	num := func(n map[string]any, k string) float64 { f, _ := n[k].(float64); return f }
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		loops := max(1, num(n, "Actual Loops"))
		rows += loops * (num(n, "Actual Rows") + num(n, "Rows Removed by Filter") + num(n, "Rows Removed by Index Recheck") + num(n, "Rows Removed by Join Filter"))
		if sub, ok := n["Plans"].([]any); ok {
			for _, c := range sub {
				walk(c.(map[string]any))
			}
		}
	}
	walk(plans[0].Plan)
	buffers = num(plans[0].Plan, "Shared Hit Blocks") + num(plans[0].Plan, "Shared Read Blocks")
	return rows, buffers, strings.Join(out, "")
}

// TestReactivateCostsTheSameAtAnyDepth: the statements a reactivate (and a
// complete, for its link) runs against the history read as many rows and
// buffers on a task with 10,000 history rows as on one with 10, whether the
// rows are undone steps or reschedules over the step; the old rule's search
// read thousands. Then reactivate does its work on each.
func TestReactivateCostsTheSameAtAnyDepth(t *testing.T) {
	t.Parallel()
	s, db, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	// 10 rows: create, 4 pairs, the complete to undo; 10,000: 4,999 pairs
	shallow, deep := undoPairs(t, db, 4), undoPairs(t, db, 4999)
	// over a complete: 8 reschedules (10 rows) and 9,998
	rshallow := create(t, s, `{"kind":"task","title":"r"}`).ID
	rdeep := create(t, s, `{"kind":"task","title":"r"}`).ID
	for _, id := range []int64{shallow, deep, rshallow, rdeep} {
		mustOperate(t, s, id, models.OpComplete, "")
	}
	reschedules(t, db, rshallow, 8)
	reschedules(t, db, rdeep, 9998)
	if _, err := db.Exec("ANALYZE event_history"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name          string
		shallow, deep int64
	}{{"undone steps", shallow, deep}, {"reschedules", rshallow, rdeep}} {
		for _, id := range []int64{c.shallow, c.deep} {
			var n int
			if err := db.QueryRow("SELECT count(*) FROM event_history WHERE event_id = ?", id).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if want := map[int64]int{c.shallow: 10, c.deep: 10000}[id]; n != want {
				t.Fatalf("%s: event %d has %d history rows, want %d", c.name, id, n, want)
			}
		}
		for _, st := range []struct{ name, sql string }{
			{"reactivate's read of the stack", app.UndoStackSQL},
		} {
			r10, b10, _ := planCost(t, db, st.sql, c.shallow)
			r10k, b10k, plan := planCost(t, db, st.sql, c.deep)
			t.Logf("%s, %s: 10 rows: %.0f rows read, %.0f buffers; 10,000 rows: %.0f rows read, %.0f buffers", c.name, st.name, r10, b10, r10k, b10k)
			if r10k > r10 || b10k > b10+2 || r10k > 6 || b10k > 16 {
				t.Errorf("%s, %s: 10 rows: %.0f rows, %.0f buffers; 10,000 rows: %.0f rows, %.0f buffers; plan %s", c.name, st.name, r10, b10, r10k, b10k, plan)
			}
		}
		// what the old rule read: the check above tells the two apart
		_, oldB10, _ := planCost(t, db, oldUndoRule, c.shallow)
		oldR10k, oldB10k, _ := planCost(t, db, oldUndoRule, c.deep)
		t.Logf("%s, the old rule: %.0f buffers at 10 rows, %.0f rows and %.0f buffers at 10,000", c.name, oldB10, oldR10k, oldB10k)
		if oldR10k < 4000 {
			t.Errorf("%s: the old rule read only %.0f rows at 10,000 history rows", c.name, oldR10k)
		}
		for _, id := range []int64{c.shallow, c.deep} {
			checkStack(t, s, db, id, "the SQL history")
			got := mustOperate(t, s, id, models.OpReactivate, "")
			if got.Status != models.StatusPlanned || got.CompletedAt != nil || got.UndoStatus != nil {
				t.Errorf("%s: event %d after reactivate: %s completed %v reactivate_to %v", c.name, id, got.Status, got.CompletedAt, got.UndoStatus)
			}
			checkStack(t, s, db, id, "reactivate")
		}
	}
}
