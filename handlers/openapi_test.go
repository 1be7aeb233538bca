// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"events/docs"
	"events/docs/apicheck"
)

// checkAPI checks one request and its answer against docs/openapi.json
// (see apicheck); send and live call it for every request of the tests.
func checkAPI(t *testing.T, req *http.Request, body []byte, a answer) {
	t.Helper()
	for _, p := range apicheck.Problems(req, body, a.Status, a.Header, a.Body) {
		t.Errorf("%s: %s", a, p)
	}
}

// The document is served, without authentication, as it is in the repository.
func TestOpenAPIDocumentIsServed(t *testing.T) {
	s := newServer(t)
	a := s.get("/api/openapi.json").want(t, http.StatusOK)
	if !bytes.Equal(a.Body, docs.OpenAPI) {
		t.Errorf("GET /api/openapi.json is not docs/openapi.json")
	}
	if ct := a.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q", ct)
	}
	if _, err := apicheck.Load(); err != nil {
		t.Errorf("docs/openapi.json: %v", err)
	}
}

// A change the document does not describe fails: an answer with a field
// the Event schema lacks, and one with an undocumented status.
func TestOpenAPICheckCatchesADrift(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"Drift"}`)
	good := s.get(path(e.ID))
	for name, a := range map[string]answer{
		"a field the document lacks": {method: "GET", target: path(e.ID), Status: 200, Header: good.Header,
			Body: bytes.Replace(good.Body, []byte(`{"id"`), []byte(`{"mood":"calm","id"`), 1)},
		"an undocumented status": {method: "GET", target: path(e.ID), Status: 418, Header: good.Header, Body: good.Body},
	} {
		if p := apicheck.Problems(httptest.NewRequest("GET", path(e.ID), nil), nil, a.Status, a.Header, a.Body); len(p) == 0 {
			t.Errorf("%s: the check passed", name)
		}
	}
}
