// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
)

// Name is a project or a label in use, and how many events carry it.
type Name struct {
	Name   string `json:"name"`
	Events int64  `json:"events"`
}

// NamesRecent bounds the events a suggestion reads: the names of the most
// recently changed ones (events_updated_idx), so that a keystroke's
// suggestions cost the same on a million events as on a hundred.
const NamesRecent = 5000

// Names answers the projects (of "project") or labels (of "label") in use
// among the NamesRecent most recently changed events whose name begins
// with prefix, case-insensitively: the most used first, then by name; at
// most limit.
func (s *Service) Names(ctx context.Context, of, prefix string, limit int) ([]Name, error) {
	query, args := namesSQL(of, prefix, limit)
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, classify(err)
	}
	defer rows.Close()
	out := []Name{}
	for rows.Next() {
		var n Name
		if err := rows.Scan(&n.Name, &n.Events); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// namesSQL is the statement of Names and its arguments.
func namesSQL(of, prefix string, limit int) (string, []any) {
	source := "SELECT e.project_tag AS name FROM recent e WHERE e.project_tag IS NOT NULL"
	if of == "label" {
		source = "SELECT unnest(e.labels) AS name FROM recent e"
	}
	query := `WITH recent AS (
    SELECT e.project_tag, e.labels FROM events e ORDER BY e.updated_at DESC LIMIT ?
)
SELECT name, count(*) FROM (` + source + `) n
WHERE lower(name) LIKE lower(?) || '%'
GROUP BY name ORDER BY count(*) DESC, name LIMIT ?`
	return query, []any{NamesRecent, likeEscaper.Replace(prefix), limit}
}
