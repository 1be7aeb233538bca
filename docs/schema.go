// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package docs

import "encoding/json"

// EventKeys are the keys of an event answer, in the document's order: the
// properties of its Event schema.
func EventKeys() []string {
	var doc struct {
		Components struct {
			Schemas struct {
				Event struct {
					Required []string `json:"required"`
				} `json:"Event"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(OpenAPI, &doc); err != nil {
		panic("docs/openapi.json: " + err.Error())
	}
	return doc.Components.Schemas.Event.Required
}
