// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package docs holds the documents kept with the code: docs/DESIGN.md, the
// decisions the code follows, and openapi.json, the description of the
// JSON API, which the service serves at GET /api/openapi.json and which
// the API tests check every request and answer against.
package docs

import (
	_ "embed"
	"encoding/json"
)

// OpenAPI is the OpenAPI 3.1 document of the JSON API, generated from
// openapi-source.json and the field table: edit the source, then run
// go generate ./docs.
//
//go:generate go run ../cmd/internal/openapigen
//go:embed openapi.json
var OpenAPI []byte

// Enum is the list of values the document's schema gives property of
// schema, e.g. Enum("Problem", "type"): the problem types, and
// Enum("FieldError", "code"), the error codes, which tests hold to the
// service's tables.
func Enum(schema, property string) ([]string, error) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Enum []string `json:"enum"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(OpenAPI, &doc); err != nil {
		return nil, err
	}
	return doc.Components.Schemas[schema].Properties[property].Enum, nil
}
