// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"events/app"
	"events/internal/dbtest"
)

// TestStatementDeadline: under a marked context a statement runs with
// statement_timeout set to what is left of the deadline, in a transaction
// as outside one, and the setting does not outlive its statement (outside a
// transaction) or its transaction; an unmarked context keeps the session's.
func TestStatementDeadline(t *testing.T) {
	db, err := app.OpenDB(dbtest.NewURL(t), 50*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one session, so a setting left behind would show
	setting := func(ctx context.Context, q bun.IDB) time.Duration {
		t.Helper()
		var s string
		if err := q.NewRaw("SELECT current_setting('statement_timeout')").Scan(ctx, &s); err != nil {
			t.Fatal(err)
		}
		d, err := time.ParseDuration(strings.TrimSuffix(s, "ms") + "ms")
		if err != nil {
			d, err = time.ParseDuration(s)
		}
		if err != nil {
			t.Fatalf("statement_timeout %q: %v", s, err)
		}
		return d
	}
	// 30 s, of which a busy machine may take a few before the statement
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	marked := app.WithStatementDeadline(ctx)

	if got := setting(marked, db); got > 30*time.Second || got < 20*time.Second {
		t.Errorf("marked, outside a transaction: statement_timeout %s, want what is left of 30 s", got)
	}
	if got := setting(ctx, db); got != 50*time.Second {
		t.Errorf("unmarked after a marked statement: %s, want the session's 50s", got)
	}
	err = db.RunInTx(marked, nil, func(ctx context.Context, tx bun.Tx) error {
		first := setting(ctx, tx)
		time.Sleep(50 * time.Millisecond)
		if second := setting(ctx, tx); second >= first || second > 30*time.Second {
			t.Errorf("in a transaction: %s then %s, want each what is left", first, second)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := setting(ctx, db); got != 50*time.Second {
		t.Errorf("after the transaction: %s, want the session's 50s", got)
	}
	far, cancelFar := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancelFar()
	if got := setting(app.WithStatementDeadline(far), db); got != 50*time.Second {
		t.Errorf("a deadline beyond the session's timeout: %s, want the session's 50s", got)
	}
	gone, cancelGone := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancelGone()
	time.Sleep(5 * time.Millisecond)
	if _, err := db.ExecContext(app.WithStatementDeadline(gone), "SELECT 1"); err == nil {
		t.Error("a statement whose deadline has passed was sent")
	}
}

// BenchmarkStatementDeadline measures what the SET sent with each statement
// costs: the same one-row query with and without the deadline mark, one
// after the other in each iteration, so a change of the machine's load
// weighs on both alike. It reports ns/plain and ns/marked. The sessions have
// no statement timeout of their own, so every marked statement sends a SET.
func BenchmarkStatementDeadline(b *testing.B) {
	db, err := app.OpenDB(dbtest.NewURL(b), 0)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	plain, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	marked := app.WithStatementDeadline(plain)
	var n int
	var tookPlain, tookMarked time.Duration
	for b.Loop() {
		began := time.Now()
		if err := db.NewRaw("SELECT 1").Scan(plain, &n); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		if err := db.NewRaw("SELECT 1").Scan(marked, &n); err != nil {
			b.Fatal(err)
		}
		tookPlain += mid.Sub(began)
		tookMarked += time.Since(mid)
	}
	b.ReportMetric(float64(tookPlain.Nanoseconds())/float64(b.N), "ns/plain")
	b.ReportMetric(float64(tookMarked.Nanoseconds())/float64(b.N), "ns/marked")
}
