// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"

	"github.com/uptrace/bun"

	"events/app"
	"events/internal/dbtest"
)

// TestTrigramsReadHangul shows what the search migration's trigram index
// makes of Korean text. pg_trgm reads words by the database's LC_CTYPE: under
// C it makes no trigram from Hangul at all (a search still answers, by
// reading every row of the index), under C.UTF-8 (the test cluster's and the
// embedded default's, pgcluster.SearchCtype) it makes them, so the index
// narrows a Korean search. Both databases below are migrated and answer the
// same search; only the C.UTF-8 one has trigrams.
func TestTrigramsReadHangul(t *testing.T) {
	ctx := context.Background()
	dsn := dbtest.NewURL(t)
	db := openURL(t, dsn)

	// A database made with LC_CTYPE C from template0, as the embedded
	// default's was before, migrated like any other.
	var name, ctype string
	if err := db.QueryRowContext(ctx, "SELECT datname, datctype FROM pg_database WHERE datname = current_database()").Scan(&name, &ctype); err != nil {
		t.Fatal(err)
	}
	if ctype != "C.UTF-8" {
		t.Errorf("the test cluster's database has LC_CTYPE %q, want C.UTF-8", ctype)
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
	cDB := openURL(t, u.String())
	if err := app.Migrate(ctx, cDB); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		db       *bun.DB
		ctype    string
		trigrams int
	}{
		{db, ctype, 6},
		{cDB, "C", 0},
	} {
		var n int
		if err := c.db.QueryRowContext(ctx, "SELECT cardinality(show_trgm('회의 준비')), show_trgm('회의 준비')::text").Scan(&n, new(string)); err != nil {
			t.Fatal(err)
		}
		if n != c.trigrams {
			t.Errorf("LC_CTYPE %s: show_trgm('회의 준비') has %d trigrams, want %d", c.ctype, n, c.trigrams)
		}
		if _, err := c.db.ExecContext(ctx, `INSERT INTO events (kind, status, title, description)
			SELECT 'task', 'planned', 'task ' || i, 'english words ' || i FROM generate_series(1, 2000) i;
			INSERT INTO events (kind, status, title, description) VALUES
			    ('task', 'planned', '주간 회의 준비', ''), ('task', 'planned', 'Weekly', '회의록 정리 Meeting notes');
			ANALYZE events`); err != nil {
			t.Fatal(err)
		}
		for q, want := range map[string][]string{"회의": {"주간 회의 준비", "Weekly"}, "회의 준": {"주간 회의 준비"}, "meeting": {"Weekly"}} {
			var titles []string
			err := c.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				if _, err := tx.ExecContext(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
					return err
				}
				return tx.NewRaw("SELECT title FROM events e WHERE "+app.SearchExpr+" LIKE '%' || lower(?) || '%' ORDER BY id", q).Scan(ctx, &titles)
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(titles) != len(want) || (len(want) > 0 && titles[0] != want[0]) {
				t.Errorf("LC_CTYPE %s: search %q = %q, want %q", c.ctype, q, titles, want)
			}
		}
		// The index narrows a three-character Korean query to its rows where
		// it reads Hangul; under C it hands every row to the recheck.
		var rows float64
		err := c.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.ExecContext(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
				return err
			}
			var plan []byte
			if err := tx.QueryRowContext(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) SELECT id FROM events e WHERE "+app.SearchExpr+" LIKE '%회의록%'").Scan(&plan); err != nil {
				return err
			}
			var doc []struct{ Plan planNode }
			if err := json.Unmarshal(plan, &doc); err != nil {
				return err
			}
			n := doc[0].Plan.find("Bitmap Index Scan")
			if n == nil || n.IndexName != "events_search_idx" {
				t.Errorf("LC_CTYPE %s: the search is not served by events_search_idx:\n%s", c.ctype, plan)
				return nil
			}
			rows = n.ActualRows
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if narrowed := rows <= 2; narrowed != (c.trigrams > 0) {
			t.Errorf("LC_CTYPE %s: the index hands %v rows of 2002 to the recheck", c.ctype, rows)
		}
	}
}

type planNode struct {
	NodeType   string     `json:"Node Type"`
	IndexName  string     `json:"Index Name"`
	ActualRows float64    `json:"Actual Rows"`
	Plans      []planNode `json:"Plans"`
}

// explain runs sql under EXPLAIN (ANALYZE, FORMAT JSON): its plan's top
// node, and the plan as PostgreSQL wrote it (for failure messages).
func explain(t *testing.T, ctx context.Context, db *bun.DB, sql string, args ...any) (*planNode, []byte) {
	t.Helper()
	var plan []byte
	if err := db.QueryRowContext(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) "+sql, args...).Scan(&plan); err != nil {
		t.Fatal(err)
	}
	var doc []struct{ Plan planNode }
	if err := json.Unmarshal(plan, &doc); err != nil {
		t.Fatal(err)
	}
	return &doc[0].Plan, plan
}

func (n *planNode) find(nodeType string) *planNode {
	if n.NodeType == nodeType {
		return n
	}
	for i := range n.Plans {
		if f := n.Plans[i].find(nodeType); f != nil {
			return f
		}
	}
	return nil
}

func openURL(t *testing.T, dsn string) *bun.DB {
	t.Helper()
	db, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
