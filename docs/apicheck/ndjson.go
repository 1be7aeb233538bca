// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package apicheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
)

// The export's NDJSON is read as text (the document describes it as a
// string); lineProblems checks each of its lines against the schema the
// document names for one (itemSchema, the extension of the media type).
func init() {
	openapi3filter.RegisterBodyDecoder("application/x-ndjson", openapi3filter.FileBodyDecoder)
}

// itemSchema is the extension of a media type of lines that names the
// schema of one line (OpenAPI 3.2's itemSchema).
const itemSchema = "x-item-schema"

// lineProblems are the lines of an answer of JSON lines that are not what
// the document's itemSchema says, by line number.
func lineProblems(op *openapi3.Operation, status int, header http.Header, answer []byte) []string {
	ctype, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
	if ctype != "application/x-ndjson" || op.Responses == nil {
		return nil
	}
	r := op.Responses.Status(status)
	if r == nil || r.Value == nil || r.Value.Content.Get(ctype) == nil {
		return nil
	}
	m := r.Value.Content.Get(ctype)
	x, _ := m.Extensions[itemSchema].(map[string]any)
	ref, _ := x["$ref"].(string)
	s, err := schemaRef(doc.doc, ref)
	if err != nil {
		return []string{fmt.Sprintf("%s of %s: %v", itemSchema, ctype, err)}
	}
	var problems []string
	for i, line := range bytes.Split(bytes.TrimSuffix(answer, []byte("\n")), []byte("\n")) {
		if len(answer) == 0 {
			break
		}
		var v any
		if err := json.Unmarshal(line, &v); err != nil {
			problems = append(problems, "line "+strconv.Itoa(i+1)+" of the answer is not JSON: "+err.Error())
			continue
		}
		if err := s.Value.VisitJSON(v); err != nil {
			problems = append(problems, "line "+strconv.Itoa(i+1)+" of the answer is not the document's "+ref+": "+err.Error())
		}
	}
	return problems
}
