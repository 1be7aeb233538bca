// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

// SearchExpr is the expression events_search_idx indexes, for the tests of
// package app_test: they search with it rather than a copy of it.
var SearchExpr = searchExpr

// RereadTableRow reads the listings' row (rowFields, eventColumns) from the
// field table again, for a test that adds a field to the table.
func RereadTableRow() { rowFields, eventColumns = tableRow() }

// ProbeEachOverlap makes s read every overlap by a probe of its own (the
// window read off), so a test can read the same overlaps both ways.
func ProbeEachOverlap(s *Service) { s.probeEach = true }
