// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package docs holds the documents kept with the code: docs/DESIGN.md, the
// decisions the code follows, and openapi.json, the description of the
// JSON API, which the service serves at GET /api/openapi.json and which
// the API tests check every request and answer against.
package docs

import _ "embed"

// OpenAPI is the OpenAPI 3.1 document of the JSON API.
//
//go:embed openapi.json
var OpenAPI []byte
