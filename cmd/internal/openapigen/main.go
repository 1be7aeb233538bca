// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Command openapigen writes docs/openapi.json from docs/openapi-source.json
// and the field table (package internal/openapi). `go generate ./docs`
// runs it in docs/.
package main

import (
	"flag"
	"fmt"
	"os"

	"events/internal/openapi"
)

func main() {
	source := flag.String("source", "openapi-source.json", "the hand-written source")
	out := flag.String("out", "openapi.json", "the document to write")
	flag.Parse()
	src, err := os.ReadFile(*source)
	if err == nil {
		var doc []byte
		if doc, err = openapi.Generate(src); err == nil {
			err = os.WriteFile(*out, doc, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapigen:", err)
		os.Exit(1)
	}
}
