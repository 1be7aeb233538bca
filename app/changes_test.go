// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"events/app"
	"events/internal/dbtest"
	"events/models"
)

// changesPage lists the changes after token.
func changesPage(t *testing.T, s *app.Service, token string, limit int) app.Page[models.Event] {
	t.Helper()
	q := listQuery(t, models.ListEvents, url.Values{"changes_after": {token}, "limit": {fmt.Sprint(limit)}}.Encode())
	page, err := s.List(context.Background(), q)
	if err != nil {
		t.Fatalf("changes_after=%s: %v", token, err)
	}
	if page.NextToken == nil {
		t.Fatal("a page of changes without next_token")
	}
	return page
}

// TestChangesAfterAToken: the first call lists every event in the order
// of their changes and hands back a token; the next lists only what
// changed after it, each event once in its latest state; a page at a time
// when there are more than limit.
//
// Not parallel: a transaction running anywhere in the cluster (another
// test's) holds the watermark back, and this test reads at once.
func TestChangesAfterAToken(t *testing.T) {
	s, _, _ := newService(t, ts("2026-11-22T03:00:00Z"))
	a := create(t, s, `{"kind":"task","title":"a"}`)
	b := create(t, s, `{"kind":"task","title":"b"}`)
	c := create(t, s, `{"kind":"task","title":"c"}`)
	first := changesPage(t, s, "", 100)
	if !slices.Equal(ids(first.Items), []int64{a.ID, b.ID, c.ID}) {
		t.Fatalf("first call: %v", ids(first.Items))
	}
	if p := changesPage(t, s, *first.NextToken, 100); len(p.Items) != 0 || *p.NextToken != *first.NextToken {
		t.Errorf("nothing changed, yet %v and a new token", ids(p.Items))
	}
	mustOperate(t, s, a.ID, models.OpComplete, "")
	if _, err := patch(s, c.ID, `{"title":"c2"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := patch(s, a.ID, `{"title":"a2"}`); err != nil {
		t.Fatal(err)
	}
	p := changesPage(t, s, *first.NextToken, 100)
	if !slices.Equal(ids(p.Items), []int64{c.ID, a.ID}) || p.Items[1].Title != "a2" || p.Items[1].Status != models.StatusDone {
		t.Errorf("after two changes of a and one of c: %v (want c, then a once, done and a2)", ids(p.Items))
	}
	// a page at a time
	var walked []int64
	token := ""
	for range 10 {
		p := changesPage(t, s, token, 1)
		walked = append(walked, ids(p.Items)...)
		token = *p.NextToken
		if len(p.Items) == 0 {
			break
		}
	}
	if !slices.Equal(walked, []int64{b.ID, c.ID, a.ID}) {
		t.Errorf("a page of one at a time: %v", walked)
	}
	// a token that was edited, and other filters beside it
	s2 := listQueryErr(models.ListEvents, "changes_after=bm90LWEtdG9rZW4")
	if s2 == nil {
		t.Error("a forged token was taken")
	}
	if listQueryErr(models.ListEvents, "changes_after=&kind=task") == nil {
		t.Error("changes_after with kind was taken")
	}
}

func listQueryErr(l models.Listing, query string) error {
	v, _ := url.ParseQuery(query)
	_, err := models.ParseListQuery(l, v, seoul)
	return err
}

// TestSyncByTokenUnderConcurrentWriters: 24 writers for a while (creates,
// PATCHes and lifecycle steps through the service on hot rows, and four
// writing long transactions straight in SQL that hold their rows while
// later ones commit), and a client polling changes_after all along. At the
// end the client's mirror equals the server: nothing missing, nothing
// stale, nothing received twice, and at most 1.05 items per change.
func TestSyncByTokenUnderConcurrentWriters(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	// every write its own instant, so that two states of an event differ
	var tick atomic.Int64
	base := ts("2026-11-22T03:00:00Z")
	s := app.NewService(db, seoul, func() time.Time { return base.Add(time.Duration(tick.Add(1)) * time.Millisecond) })
	ctx := context.Background()
	var hot []int64
	for i := range 30 {
		hot = append(hot, create(t, s, fmt.Sprintf(`{"kind":"task","title":"hot %d"}`, i)).ID)
	}
	const writers, rounds = 24, 40
	var changes atomic.Int64
	changes.Store(int64(len(hot)))
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 57))
			for i := range rounds {
				id := hot[r.IntN(len(hot))]
				var err error
				rows := int64(1)
				switch {
				case w < 4:
					// a long transaction over three hot rows, in id order
					// (no deadlock between two of them)
					ids := []int64{hot[r.IntN(len(hot))], hot[r.IntN(len(hot))], hot[r.IntN(len(hot))]}
					slices.Sort(ids)
					ids = slices.Compact(ids)
					rows = int64(len(ids))
					err = longWrite(ctx, db, ids, fmt.Sprintf("long %d.%d", w, i), time.Duration(20+r.IntN(120))*time.Millisecond)
				case i%4 == 0:
					_, err = tryCreate(s, fmt.Sprintf(`{"kind":"task","title":"new %d.%d"}`, w, i))
				case i%4 == 1:
					_, err = operate(s, id, models.OpComplete, "")
				case i%4 == 2:
					_, err = operate(s, id, models.OpReactivate, "")
				default:
					_, err = patch(s, id, fmt.Sprintf(`{"title":"patched %d.%d"}`, w, i))
				}
				if err == nil {
					changes.Add(rows)
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	mirror := map[int64][]byte{}
	var items, duplicated int
	token := ""
	poll := func() int {
		p := changesPage(t, s, token, 50)
		for i := range p.Items {
			b := p.Items[i].AppendJSON(nil)
			if bytes.Equal(mirror[p.Items[i].ID], b) {
				duplicated++
			}
			mirror[p.Items[i].ID] = b
		}
		items += len(p.Items)
		token = *p.NextToken
		return len(p.Items)
	}
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
			if poll() < 50 {
				time.Sleep(2 * time.Millisecond)
			}
		}
	}
	// caught up: past a transaction that began after every write ended
	// (another test's transaction may hold the watermark back a while)
	var last uint64
	if err := db.NewRaw("SELECT pg_current_xact_id()::text::bigint").Scan(ctx, &last); err != nil {
		t.Fatal(err)
	}
	for {
		n := poll()
		tok, err := models.ParseChangeToken(token)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 && tok.XID > last {
			break
		}
		if n == 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}

	server := map[int64][]byte{}
	q := listQuery(t, models.ListEvents, "limit=1000")
	for {
		p, err := s.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for i := range p.Items {
			server[p.Items[i].ID] = p.Items[i].AppendJSON(nil)
		}
		if p.NextCursor == nil {
			break
		}
		q = listQuery(t, models.ListEvents, "limit=1000&cursor="+url.QueryEscape(*p.NextCursor))
	}
	var missing, stale int
	for id, b := range server {
		switch m, ok := mirror[id]; {
		case !ok:
			missing++
		case !bytes.Equal(m, b):
			stale++
		}
	}
	per := float64(items) / float64(changes.Load())
	t.Logf("%d changes, %d items received (%.3f a change), %d events: %d missing, %d stale, %d duplicated, %d not on the server",
		changes.Load(), items, per, len(server), missing, stale, duplicated, len(mirror)-len(server)+missing)
	if missing != 0 || stale != 0 || duplicated != 0 || len(mirror) != len(server) {
		t.Errorf("the mirror differs: %d missing, %d stale, %d duplicated, %d in the mirror, %d on the server", missing, stale, duplicated, len(mirror), len(server))
	}
	if per > 1.05 {
		t.Errorf("%.3f items a change, more than 1.05", per)
	}
}

// longWrite changes the title of each event of ids in one transaction that
// holds its rows for hold before it commits.
func longWrite(ctx context.Context, db interface {
	BeginTx(context.Context, *sql.TxOptions) (bun.Tx, error)
}, ids []int64, title string, hold time.Duration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, "UPDATE events SET title = ?, updated_at = updated_at + interval '1 microsecond' WHERE id = ?", title, id); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, "SELECT pg_sleep(?)", hold.Seconds()); err != nil {
		return err
	}
	return tx.Commit()
}
