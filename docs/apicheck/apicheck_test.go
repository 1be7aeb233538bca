// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package apicheck

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"events/docs"
)

// TestFormBodiesAreChecked: the form bodies, described beside content
// (x-form-content), are still what a form request is held to.
func TestFormBodiesAreChecked(t *testing.T) {
	for _, c := range []struct {
		target, body string
		ok           bool
	}{
		{"/api/events", "kind=task&title=a&priority=2", true},
		{"/api/events", "kind=task&title=a&unknown=1", false},
		{"/api/events/1/defer", "defer_until=2026-12-01T09:00", true},
		{"/api/events/1/defer", "", false}, // defer_until is required
		{"/api/events/1/complete", "title=a", false},
	} {
		req := httptest.NewRequest(http.MethodPost, c.target, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		err := RequestProblem(req, []byte(c.body))
		if (err == nil) != c.ok {
			t.Errorf("POST %s %q: the document says %v; want accepted %v", c.target, c.body, err, c.ok)
		}
	}
}

// TestExportLinesAreChecked: each line of an NDJSON export is held to
// the document's ExportedEvent, history included.
func TestExportLinesAreChecked(t *testing.T) {
	var doc struct {
		Paths map[string]struct {
			Get struct {
				Responses map[string]struct {
					Content map[string]struct {
						Example json.RawMessage `json:"example"`
					} `json:"content"`
				} `json:"responses"`
			} `json:"get"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(docs.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	var line string
	if err := json.Unmarshal(doc.Paths["/api/events/export"].Get.Responses["200"].Content["application/x-ndjson"].Example, &line); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, `"history":[{`) {
		t.Fatalf("the export's example has no history row: %s", line)
	}
	withoutHistory := regexp.MustCompile(`,"history":\[.*\]\}`).ReplaceAllString(line, "}")
	req := httptest.NewRequest(http.MethodGet, "/api/events/export?format=ndjson", nil)
	header := http.Header{"Content-Type": {"application/x-ndjson"}, "Content-Disposition": {`attachment; filename="events-2026-11-25.ndjson"`}}
	if p := Problems(req, nil, http.StatusOK, header, []byte(line+line)); len(p) > 0 {
		t.Errorf("the document's own example is refused: %q", p)
	}
	p := Problems(req, nil, http.StatusOK, header, []byte(line+withoutHistory))
	if len(p) != 1 || !strings.Contains(p[0], "line 2") || !strings.Contains(p[0], "history") {
		t.Errorf("a line without its history: problems %q; want one naming line 2 and history", p)
	}
}
