// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"strings"
	"time"
)

// where collects the conditions of a query and their arguments.
type where struct {
	conds []string
	args  []any
}

func (w *where) add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
}

func (w *where) sql() string {
	if len(w.conds) == 0 {
		return "TRUE"
	}
	return strings.Join(w.conds, "\n  AND ")
}

// bound is a range bound: the time, or nil for unbounded.
func bound(t *time.Time) any {
	if t == nil {
		return nil
	}
	return *t
}

// overlaps selects spans that overlap [from, to); a running activity log
// spans up to now.
func overlaps(w *where, from, to *time.Time, now time.Time) {
	w.add("e.span && tstzrange(?, ?, '[)')", bound(from), bound(to))
	if from != nil {
		w.add("(NOT upper_inf(e.span) OR ? < ?)", *from, now)
	}
}

// searchExpr is the expression events_search_idx indexes (migration
// 20261123000300): a condition on exactly it is served by the trigram index.
const searchExpr = "lower(e.title || ' ' || e.description)"

// likeEscaper escapes LIKE's wildcards and its escape character, so a word
// matches only itself.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// search selects events whose title or description holds every word,
// case-insensitively (DESIGN.md, Search).
func search(w *where, words []string) {
	for _, word := range words {
		w.add(searchExpr+" LIKE '%' || lower(?) || '%'", likeEscaper.Replace(word))
	}
}

// changedSince selects events changed after since: every write moves
// updated_at forward (see ETag), so this is every event written since.
func changedSince(w *where, since time.Time) {
	w.add("e.updated_at > ?", since)
}
