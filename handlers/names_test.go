// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

type namesBody struct {
	Of     string `json:"of"`
	Prefix string `json:"prefix"`
	Names  []struct {
		Name   string `json:"name"`
		Events int64  `json:"events"`
	} `json:"names"`
}

func (b namesBody) list() string {
	var out []string
	for _, n := range b.Names {
		out = append(out, n.Name)
	}
	return strings.Join(out, "|")
}

// TestNamesAPI: GET /api/events/names answers the projects or labels in
// use that begin with a prefix, Hangul included, the most used first; an
// htmx request gets the listbox's options, escaped.
func TestNamesAPI(t *testing.T) {
	s := newServer(t)
	s.create(`{"kind":"task","title":"a","project_tag":"Acme website","labels":["회의","client acme"]}`)
	s.create(`{"kind":"task","title":"b","project_tag":"Acme website","labels":["회의록"]}`)
	s.create(`{"kind":"task","title":"c","project_tag":"acorn","labels":["<b>&x"]}`)
	s.create(`{"kind":"task","title":"d","project_tag":"업무"}`)
	for _, c := range []struct{ query, want string }{
		{"of=project&prefix=ac", "Acme website|acorn"},
		{"of=project&prefix=AC&limit=1", "Acme website"},
		{"of=project&prefix=" + url.QueryEscape("업"), "업무"},
		{"of=project&prefix=%20acm%20", "Acme website"},
		{"of=project&prefix=zz", ""},
		{"of=project", "Acme website|acorn|업무"},
		{"of=label&prefix=" + url.QueryEscape("회"), "회의|회의록"},
		{"of=label&prefix=" + url.QueryEscape("회의록"), "회의록"},
		{"of=label&prefix=client%20", "client acme"},
		{"of=label&prefix=%25", ""}, // % is itself, not a wildcard
		{"of=label&prefix=_", ""},
	} {
		var b namesBody
		s.get("/api/events/names?"+c.query).wantJSON(t, http.StatusOK, &b)
		if got := b.list(); got != c.want {
			t.Errorf("%s: names %q, want %q", c.query, got, c.want)
		}
		if b.Names == nil {
			t.Errorf("%s: names is null, want an array", c.query)
		}
	}
	var b namesBody
	s.get("/api/events/names?of=project&prefix=acme").wantJSON(t, http.StatusOK, &b)
	if b.Of != "project" || b.Prefix != "acme" || len(b.Names) != 1 || b.Names[0].Events != 2 {
		t.Errorf("the answer: %+v", b)
	}
	// the page's list: options that carry the name, escaped
	frag := s.get("/api/events/names?of=label&prefix=%3C", "HX-Request", "true").html(t, http.StatusOK)
	if !strings.Contains(frag, `role="option"`) || !strings.Contains(frag, `data-name="&lt;b&gt;&amp;x"`) || strings.Contains(frag, "<b>") {
		t.Errorf("the fragment: %s", frag)
	}
	if frag := s.get("/api/events/names?of=label&prefix=zz", "HX-Request", "true").html(t, http.StatusOK); strings.TrimSpace(frag) != "" {
		t.Errorf("no names: the fragment is %q, want nothing", frag)
	}
}

// TestNamesAPIRefusesHostileInput: a prefix longer than any name, a control
// character, a limit out of its bounds or not in digits, an unknown or a
// repeated parameter are 400 naming the parameter; a LIKE wildcard is text.
func TestNamesAPIRefusesHostileInput(t *testing.T) {
	s := newServer(t)
	s.create(`{"kind":"task","title":"a","project_tag":"work"}`)
	huge := strings.Repeat("가", 65)
	for _, c := range []struct{ query, field string }{
		{"prefix=w", "of"},
		{"of=tag&prefix=w", "of"},
		{"of=project&of=label", "of"},
		{"of=project&prefix=" + url.QueryEscape(huge), "prefix"},
		{"of=project&prefix=" + strings.Repeat("w", 30000), "prefix"},
		{"of=project&prefix=w%00", "prefix"},
		{"of=project&prefix=w%0A", "prefix"},
		{"of=project&prefix=%FF", "prefix"},
		{"of=project&limit=0", "limit"},
		{"of=project&limit=51", "limit"},
		{"of=project&limit=-1", "limit"},
		{"of=project&limit=%2B5", "limit"},
		{"of=project&limit=5.0", "limit"},
		{"of=project&limit=", "limit"},
		{"of=project&limit=99999999999999999999999", "limit"},
		{"of=project&q=w", "q"},
	} {
		s.get("/api/events/names?"+c.query).problem(t, http.StatusBadRequest, c.field)
	}
	// the longest prefix a name can have is still a question
	var b namesBody
	s.get("/api/events/names?of=project&limit=50&prefix="+url.QueryEscape(strings.Repeat("가", 64))).wantJSON(t, http.StatusOK, &b)
	if len(b.Names) != 0 {
		t.Errorf("64 characters: %+v", b)
	}
	s.get("/api/events/names?of=project&prefix=w%27%3B%20drop%20table%20events%3B--").wantJSON(t, http.StatusOK, &b)
	s.get("/api/events/names?of=project&prefix=w").wantJSON(t, http.StatusOK, &b)
	if b.list() != "work" {
		t.Errorf("after a quote in a prefix: %q", b.list())
	}
}
