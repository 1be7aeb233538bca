// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package pgcluster

import (
	"path/filepath"
	"testing"
)

// TestClusterReadsHangul: the cluster the embedded default makes (not
// Fast) sorts bytewise but has the character classes of C.UTF-8, under
// which pg_trgm makes trigrams of Hangul (DESIGN.md, Search).
func TestClusterReadsHangul(t *testing.T) {
	requireBinaries(t)
	t.Parallel()
	c := start(t, Options{DataDir: filepath.Join(tempRoot(t), "postgres")})
	db := open(t, c.URL())
	var collate, ctype string
	var trigrams int
	if err := db.QueryRow(`SELECT datcollate, datctype FROM pg_database WHERE datname = current_database()`).Scan(&collate, &ctype); err != nil {
		t.Fatal(err)
	}
	if collate != "C" || ctype != SearchCtype {
		t.Errorf("LC_COLLATE %q, LC_CTYPE %q, want C and %s", collate, ctype, SearchCtype)
	}
	if _, err := db.Exec("CREATE EXTENSION pg_trgm"); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT cardinality(show_trgm('회의 준비'))").Scan(&trigrams); err != nil {
		t.Fatal(err)
	}
	if trigrams != 6 {
		t.Errorf("show_trgm('회의 준비') has %d trigrams, want 6", trigrams)
	}
}
