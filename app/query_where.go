// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"strings"
	"time"
	"unicode/utf8"

	"events/models"
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

// searchExpr is the expression events_search_idx indexes: the database's
// events_search_text (the searched texts lowercased, one space apart) of
// the columns of the fields the table searches (models.SearchColumns),
// each given by its name, so that the table's order need not be the
// function's. PostgreSQL puts named arguments in their places before it
// matches an expression with an index's, so a condition on exactly this
// is served by the trigram index. TestSearchedFieldsAreTheIndexed holds
// the function and the index to the table.
var searchExpr = searchText("e.")

// searchText is events_search_text called with each searched column, of
// the table qualified by prefix, by its name.
func searchText(prefix string) string {
	b := []byte("events_search_text(")
	for i, c := range models.SearchColumns() {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(append(append(append(b, c...), " => "...), prefix...), c...)
	}
	return string(append(b, ')'))
}

// likeEscaper escapes LIKE's wildcards and its escape character, so a word
// matches only itself.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// search selects events whose title or description holds every word,
// case-insensitively (DESIGN.md, Search). A word repeated is one
// condition. A word of one or two characters has no trigram, so the
// trigram index would read all of itself for it (q=e e e e e e e e ran to
// the deadline on a large table): its condition is written on an
// expression the index does not hold, so it filters the rows the longer
// words (or the listing's order) lead to.
func search(w *where, words []string) {
	seen := make(map[string]bool, len(words))
	for _, word := range words {
		key := strings.ToLower(word)
		if seen[key] {
			continue
		}
		seen[key] = true
		expr := searchExpr
		if utf8.RuneCountInString(word) < 3 {
			expr = "(" + searchExpr + " || '')"
		}
		w.add(expr+" LIKE '%' || lower(?) || '%'", likeEscaper.Replace(word))
	}
}

// changedSince selects events changed after since: every write moves
// updated_at forward (see ETag), so this is every event written since.
func changedSince(w *where, since time.Time) {
	w.add("e.updated_at > ?", since)
}
