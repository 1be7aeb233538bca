// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"
)

// TestProjectTagIsNotTrimmedIntoValidity: a one-line field (project_tag,
// location, each label) follows one rule for its characters, in JSON, a
// form and a listing's query alike: a control character anywhere is
// refused, around the text as inside it ("\ta\n" as "a\nb"); only spaces
// around it are trimmed.
func TestProjectTagIsNotTrimmedIntoValidity(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"tagged","project_tag":"work"}`)
	events, rows := s.counts()
	for _, v := range []string{"\ta\n", "a\nb", "\ta", "a\n", "\r\n", "\t", "a\u0085", "\u0085a", "\u0000a", "#\ta", "a\u007f"} {
		j, _ := json.Marshal(v)
		for _, f := range []string{"project_tag", "location"} {
			body := `{"kind":"task","title":"t","` + f + `":` + string(j) + `}`
			p := s.json("POST", "/api/events", body).problem(t, http.StatusUnprocessableEntity, f)
			if !slices.Equal(p.codes(), []string{f + ":control_character"}) {
				t.Errorf("create with %s %q: codes %v, want control_character", f, v, p.codes())
			}
			s.json("PATCH", path(e.ID), `{"`+f+`":`+string(j)+`}`).problem(t, http.StatusUnprocessableEntity, f)
			s.form("POST", "/api/events", url.Values{"kind": {"task"}, "title": {"t"}, f: {v}}).problem(t, http.StatusUnprocessableEntity, f)
		}
		s.json("POST", "/api/events", `{"kind":"task","title":"t","labels":["ok",`+string(j)+`]}`).problem(t, http.StatusUnprocessableEntity, "labels")
		p := s.get("/api/events?project_tag="+url.QueryEscape(v)).problem(t, http.StatusBadRequest, "project_tag")
		if !slices.Equal(p.codes(), []string{"project_tag:control_character"}) {
			t.Errorf("a listing by project_tag %q: codes %v, want control_character", v, p.codes())
		}
		s.get("/api/events?label="+url.QueryEscape(v)).problem(t, http.StatusBadRequest, "label")
	}
	if ev, hr := s.counts(); ev != events || hr != rows {
		t.Errorf("after the refusals: %d events and %d history rows, want %d and %d", ev, hr, events, rows)
	}
	// spaces around it (U+00A0 too, a space and no control) are trimmed, a
	// leading # dropped, as before
	for v, want := range map[string]string{" a ": "a", "\u00a0a\u00a0": "a", "# a": "a", "  #work  ": "work"} {
		j, _ := json.Marshal(v)
		got := s.create(`{"kind":"task","title":"t","project_tag":` + string(j) + `}`)
		if got.ProjectTag == nil || *got.ProjectTag != want {
			t.Errorf("project_tag %q stored as %s, want %q", v, str(got.ProjectTag), want)
		}
		if n := len(s.get("/api/events?project_tag=" + url.QueryEscape(v)).page(t).Items); n == 0 {
			t.Errorf("a listing by project_tag %q found nothing", v)
		}
	}
}
