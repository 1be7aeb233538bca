// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"encoding/json"
	"net/url"
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
