// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package edge_test

import (
	"slices"
	"strings"
	"testing"

	"events/docs"
	"events/edge"
)

// TestEdgeProblemTypesAreDocumented: the problem details the edge answers
// itself carry the service's problem types, which the document lists;
// before, they said about:blank.
func TestEdgeProblemTypesAreDocumented(t *testing.T) {
	types, err := docs.Enum("Problem", "type")
	if err != nil {
		t.Fatal(err)
	}
	var conf strings.Builder
	if err := edge.Render(&conf, edge.Defaults()); err != nil {
		t.Fatal(err)
	}
	for status, ty := range edgeTypes {
		if !slices.Contains(types, ty) {
			t.Errorf("%d: the edge's type %s is not in docs/openapi.json", status, ty)
		}
		if !strings.Contains(conf.String(), `{"type":"`+ty+`","title":`) {
			t.Errorf("%d: nginx.conf has no problem details of the type %s", status, ty)
		}
	}
}
