// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package openapi

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"events/docs"
	"events/models"
)

// The document checked in is what the generator writes from its source and
// the field table: a field added to the table, or a word changed in the
// source, fails here until `go generate ./docs` has written it.
func TestDocumentIsGenerated(t *testing.T) {
	src, err := os.ReadFile("../../docs/openapi-source.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Generate(src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc, docs.OpenAPI) {
		got, want := bytes.Split(docs.OpenAPI, []byte("\n")), bytes.Split(doc, []byte("\n"))
		line := 0
		for line < len(got) && line < len(want) && bytes.Equal(got[line], want[line]) {
			line++
		}
		t.Errorf("docs/openapi.json is not what go generate ./docs writes from docs/openapi-source.json and "+
			"models/fields.go (edit the source or the table, never the document, then run go generate ./docs); "+
			"from line %d it has\n%.300s\nwhere the generator writes\n%.300s", line+1, at(got, line), at(want, line))
	}
}

func at(lines [][]byte, i int) []byte {
	if i < len(lines) {
		return lines[i]
	}
	return []byte("(the end)")
}

// A listing's query parameters in the document come from models/query.go:
// the source's {"$listing": name} among an operation's parameters becomes
// a reference to each parameter models.ListParams gives that listing, in
// its order, in its place among the others. A listing models does not
// know, or a parameter with no components.parameters entry, is an error
// that names what to edit.
func TestListingParametersFromModels(t *testing.T) {
	source := func(listing string, components ...string) *Obj {
		var b bytes.Buffer
		b.WriteString(`{"paths": {"/x": {"get": {"parameters": [{"name": "format", "in": "query"}, {"$listing": "` + listing + `"}, {"$ref": "#/components/parameters/If-None-Match"}]}}}, "components": {"parameters": {"If-None-Match": {}`)
		for _, c := range components {
			b.WriteString(`, "` + c + `": {}`)
		}
		b.WriteString(`}}}`)
		v, err := decode(b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		return v.(*Obj)
	}
	today := models.ListParams(models.ListToday)
	doc := source("today", today...)
	if err := listingParams(doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range doc.Obj("paths").Obj("/x").Obj("get").Get("parameters").([]any) {
		p := p.(*Obj)
		if _, ok := p.Get(keyListing).(string); ok {
			t.Fatalf("%s is still there: %v", keyListing, p.Keys())
		}
		name, _ := p.Get("name").(string)
		if ref, ok := p.Get("$ref").(string); ok {
			name = strings.TrimPrefix(ref, "#/components/parameters/")
		}
		got = append(got, name)
	}
	want := append(append([]string{"format"}, today...), "If-None-Match")
	if !slices.Equal(got, want) {
		t.Errorf("the parameters are %v, want %v", got, want)
	}
	if err := listingParams(source("no-such-listing", today...)); err == nil || !strings.Contains(err.Error(), "models/query.go") {
		t.Errorf("an unknown listing: %v, want an error naming models/query.go", err)
	}
	if err := listingParams(source("today", today[1:]...)); err == nil || !strings.Contains(err.Error(), "components.parameters has no "+today[0]) {
		t.Errorf("a parameter without its component: %v, want an error naming it", err)
	}
}
