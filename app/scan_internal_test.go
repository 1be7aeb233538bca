// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"reflect"
	"testing"
)

// TestRecordFields splits record_out's text forms: NULLs, empty strings,
// quoted fields with and without doubled quotes and backslashes.
func TestRecordFields(t *testing.T) {
	null := recordField{null: true}
	text := func(s string) recordField { return recordField{text: s} }
	for _, c := range []struct {
		in   string
		want []recordField
	}{
		{`(1)`, []recordField{text("1")}},
		{`()`, []recordField{null}},
		{`(,)`, []recordField{null, null}},
		{`(1,,t)`, []recordField{text("1"), null, text("t")}},
		{`("",x,"")`, []recordField{text(""), text("x"), text("")}},
		{`("a b","2026-11-22 03:00:00.5+00",)`, []recordField{text("a b"), text("2026-11-22 03:00:00.5+00"), null}},
		{`("say ""hi""","a\\b","""","\\","(x, y)")`, []recordField{text(`say "hi"`), text(`a\b`), text(`"`), text(`\`), text("(x, y)")}},
		{`(회의록,"회의록, ""정리""")`, []recordField{text("회의록"), text(`회의록, "정리"`)}},
		{"(\"line\none\ttab\")", []recordField{text("line\none\ttab")}},
	} {
		got, err := recordFields(nil, c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("recordFields(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{``, `(`, `1,2`, `("open)`, `(a"b)`, `(a\b)`, `("a"b)`, `("a\`} {
		if got, err := recordFields(nil, bad); err == nil {
			t.Errorf("recordFields(%q) = %+v, want an error", bad, got)
		}
	}
}
