// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"testing"
)

// TestEmptyFormatAndForeignCharsetAreRefused: an empty format= is refused
// as an empty bom= is (the old server read it as csv), and a body whose
// charset is not UTF-8 is 415 (the old server read it as UTF-8 anyway);
// utf-8 in any case, or no charset, is taken.
func TestEmptyFormatAndForeignCharsetAreRefused(t *testing.T) {
	s := newServer(t)
	s.get("/api/events/export?format=").problem(t, http.StatusBadRequest, "format")
	s.get("/api/events/export?bom=").problem(t, http.StatusBadRequest, "bom")
	if a := s.get("/api/events/export"); a.Status != http.StatusOK {
		t.Errorf("export without format: %s", a)
	}
	for _, ct := range []string{"application/json; charset=iso-8859-1", "application/json; charset=euc-kr", "application/x-www-form-urlencoded; charset=latin1"} {
		if a := s.do("POST", "/api/events", ct, `{"kind":"task","title":"x"}`); a.Status != http.StatusUnsupportedMediaType {
			t.Errorf("%s: %s, want 415", ct, a)
		}
	}
	for _, ct := range []string{"application/json; charset=utf-8", "application/json; charset=UTF-8", "application/json"} {
		if a := s.do("POST", "/api/events", ct, `{"kind":"task","title":"x"}`); a.Status != http.StatusCreated {
			t.Errorf("%s: %s, want 201", ct, a)
		}
	}
}
