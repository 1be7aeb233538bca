// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import "events/models"

// ListSQL is the statement List runs for q, and its arguments, the LIMIT
// last: for tests that EXPLAIN it.
func ListSQL(s *Service, q models.ListQuery) (string, []any) {
	sql, args := s.listSQL(q)
	return sql, append(args, q.Limit+1)
}

// NamesSQL is the statement Names runs, and its arguments: for tests that
// EXPLAIN it.
var NamesSQL = namesSQL
