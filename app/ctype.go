// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"

	"github.com/uptrace/bun"
)

// SearchReadsHangul reports whether the database's search index makes
// trigrams of Korean text (DESIGN.md, Search): pg_trgm does only where the
// database's LC_CTYPE is not C. Where it does not, a search still answers
// correctly, but a Korean one reads the whole index. ctype is the
// database's LC_CTYPE.
func SearchReadsHangul(ctx context.Context, db bun.IDB) (ok bool, ctype string, err error) {
	err = db.QueryRowContext(ctx, `SELECT cardinality(show_trgm('회의')) > 0, datctype
		FROM pg_database WHERE datname = current_database()`).Scan(&ok, &ctype)
	return ok, ctype, err
}
