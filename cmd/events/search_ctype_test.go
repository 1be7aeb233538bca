// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"events/app"
	"events/internal/dbtest"
)

// TestSearchOnACDatabase: the binary on a database made with LC_CTYPE C
// (as the embedded default's was before C.UTF-8) starts, says in its log
// that the index cannot narrow a Korean search and where docs/operations.md
// says how to move, and answers Korean and English searches correctly; on a
// C.UTF-8 database it says nothing of the kind.
func TestSearchOnACDatabase(t *testing.T) {
	needPostgres(t)
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.NewURL(t)
	db, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var name string
	if err := db.QueryRowContext(ctx, "SELECT current_database()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	cName := name + "_c"
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+cName+" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+cName+" WITH (FORCE)") })
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + cName

	const warning = "cannot narrow a Korean one"
	for _, c := range []struct {
		dsn  string
		warn bool
	}{{u.String(), true}, {dsn, false}} {
		s := start(t, "DATABASE_URL="+c.dsn, "HOST=127.0.0.1")
		if got := strings.Contains(s.Logs(), warning); got != c.warn {
			t.Errorf("warn=%v: the log says %q: %v\n%s", c.warn, warning, got, s.Logs())
		}
		// The warning names the document that says how to move.
		if c.warn && !strings.Contains(s.Logs(), "docs/operations.md (Korean search and the database's locale)") {
			t.Errorf("the warning does not name docs/operations.md:\n%s", s.Logs())
		}
		for _, body := range []map[string]any{{"kind": "task", "title": "주간 회의 준비"},
			{"kind": "task", "title": "Weekly", "description": "회의록 Meeting"}, {"kind": "task", "title": "Groceries"}} {
			createEvent(t, s.base, body)
		}
		for q, want := range map[string]int{"회의": 2, "회의록": 1, "MEETING": 1, "의 준": 1, "없다": 0} {
			var page struct {
				Items []apiEvent `json:"items"`
			}
			apiCall(t, "GET", s.base+"/api/events?q="+url.QueryEscape(q), nil, 200, &page)
			if len(page.Items) != want {
				t.Errorf("warn=%v: q=%s found %d events, want %d", c.warn, q, len(page.Items), want)
			}
		}
		s.stop(t, syscall.SIGTERM)
	}
}
