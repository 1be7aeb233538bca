// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package apicheck

import "github.com/getkin/kin-openapi/openapi3filter"

// The export's NDJSON is read as text (the document describes it as a
// string); the export's own tests read its lines.
func init() {
	openapi3filter.RegisterBodyDecoder("application/x-ndjson", openapi3filter.FileBodyDecoder)
}
