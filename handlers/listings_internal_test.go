// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"events/docs"
	"events/models"
)

// Every listing of the registry is known to models with its parameters,
// has a use case, is documented in docs/openapi.json, and at most one
// listing sits at each address.
func TestListingRegistry(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(docs.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	paths, names := map[string]bool{}, map[string]bool{}
	for _, l := range listings {
		if l.Run == nil {
			t.Errorf("%s: no use case", l.Name)
		}
		if _, ok := doc.Paths[l.apiPath()]; !ok {
			t.Errorf("%s: docs/openapi.json has no path %s", l.Name, l.apiPath())
		}
		if _, err := models.ParseListQuery(l.Name, url.Values{}, time.UTC); err != nil {
			t.Errorf("%s: models does not know it: %v", l.Name, err)
		}
		if paths[l.Path] {
			t.Errorf("%s: a second listing at /api/events%s", l.Name, l.Path)
		}
		paths[l.Path] = true
		if l.Tab != nil {
			if names[l.Tab.Name] {
				t.Errorf("%s: a second tab named %s", l.Name, l.Tab.Name)
			}
			names[l.Tab.Name] = true
		}
	}
	var tabList []string
	for _, tb := range tabs {
		tabList = append(tabList, tb.Name)
	}
	want := strings.Join(tabList[:len(tabList)-1], ", ") + " or " + tabList[len(tabList)-1]
	if got := tabNames(); got != want {
		t.Errorf("tabNames() = %q, want %q", got, want)
	}
}

// The query parameters the document gives each listing's GET are the
// ones models reads for it (listParams), no more and no fewer: the
// generator writes them where the path in docs/openapi-source.json says
// {"$listing": name}, so a path that names no listing, or another, or
// lists parameters by hand, fails here.
func TestListingParametersAreDocumented(t *testing.T) {
	t.Parallel()
	type param struct {
		Ref  string `json:"$ref"`
		Name string `json:"name"`
		In   string `json:"in"`
	}
	var doc struct {
		Paths map[string]struct {
			Get struct {
				Parameters []param `json:"parameters"`
			} `json:"get"`
		} `json:"paths"`
		Components struct {
			Parameters map[string]param `json:"parameters"`
		} `json:"components"`
	}
	if err := json.Unmarshal(docs.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	for _, l := range listings {
		var got []string
		for _, p := range doc.Paths[l.apiPath()].Get.Parameters {
			if p.Ref != "" {
				p = doc.Components.Parameters[strings.TrimPrefix(p.Ref, "#/components/parameters/")]
			}
			if p.In == "query" {
				got = append(got, p.Name)
			}
		}
		want := models.ListParams(l.Name)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("docs/openapi-source.json: GET %s takes the query parameters %v; models/query.go reads %v", l.apiPath(), got, want)
		}
	}
}
