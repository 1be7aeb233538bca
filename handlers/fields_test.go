// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"events/models"
)

// TestEveryEditableFieldRoundTrips walks each editable field of the field
// table through a PATCH, then reads it back through GET, a listing and the
// detail page: a field stored or read by one path and not another fails
// here by its name.
func TestEveryEditableFieldRoundTrips(t *testing.T) {
	s := newServer(t)
	seen := 0
	for i := range models.EventFields {
		f := &models.EventFields[i]
		if !f.Editable() {
			continue
		}
		seen++
		t.Run(f.Name, func(t *testing.T) {
			s := *s
			s.t = t // the helpers fail this subtest, not its parent
			kind := kindShowing(f)
			if kind == "" {
				t.Fatalf("no kind's form shows the editable field %s", f.Name)
			}
			id := s.create(newEventOf(kind)).ID
			value, onPage := sample(f, kind)
			body, _ := json.Marshal(map[string]any{f.Name: value})
			want := jsonValue(t, body, f.Name)

			for _, a := range []struct {
				how string
				res answer
			}{
				{"PATCH", s.json("PATCH", path(id), string(body)).want(t, http.StatusOK)},
				{"GET", s.get(path(id)).want(t, http.StatusOK)},
			} {
				if got := jsonValue(t, a.res.Body, f.Name); got != want {
					t.Errorf("%s: %s = %s, want %s", a.how, f.Name, got, want)
				}
			}

			var list struct {
				Items      []map[string]json.RawMessage `json:"items"`
				NextCursor *string                      `json:"next_cursor"`
			}
			decode(t, s.get("/api/events?kind="+string(kind)+"&limit=1000").want(t, http.StatusOK), &list)
			found := false
			for _, item := range list.Items {
				if string(item["id"]) == fmt.Sprint(id) {
					found = true
					if got := jsonValue(t, []byte(item[f.Name]), ""); got != want {
						t.Errorf("listing: %s = %s, want %s", f.Name, item[f.Name], want)
					}
				}
			}
			if !found {
				t.Errorf("listing: event %d is not listed", id)
			}

			page := string(s.get("/events/"+fmt.Sprint(id), "Accept", "text/html").want(t, http.StatusOK).Body)
			at := strings.Index(page, `id="f-`+f.Form()+`"`)
			if at < 0 {
				t.Fatalf("the detail page has no input for %s", f.Name)
			}
			input := page[at:]
			input = input[:strings.Index(input, "</div>")]
			if !strings.Contains(input, onPage) {
				t.Errorf("the detail page's %s shows %q, want it to hold %q", f.Name, input, onPage)
			}
		})
	}
	if seen < 9 {
		t.Fatalf("only %d editable fields in the table", seen)
	}
}

// kindShowing is a kind whose form shows f.
func kindShowing(f *models.Field) models.Kind {
	for _, k := range models.Kinds {
		if slices.Contains(models.FormFields(k), f) {
			return k
		}
	}
	return ""
}

// newEventOf is the smallest create body of a kind.
func newEventOf(kind models.Kind) string {
	switch kind {
	case models.KindCalendarEvent:
		return `{"kind":"calendar_event","title":"Meeting","start_at":"2026-11-23T01:00:00Z"}`
	case models.KindActivityLog:
		return `{"kind":"activity_log","title":"Worked","started_at":"2026-11-22T01:00:00Z","ended_at":"2026-11-22T02:00:00Z"}`
	}
	return `{"kind":"task","title":"Task"}`
}

// sample is a value to PATCH into f and what the detail page shows of it.
func sample(f *models.Field, kind models.Kind) (value any, onPage string) {
	switch f.Type {
	case models.TypeTime:
		at := time.Date(2026, 11, 23, 2, 30, 0, 0, time.UTC) // after every start above
		if f.Name == "started_at" {
			at = time.Date(2026, 11, 22, 0, 30, 0, 0, time.UTC)
		}
		return models.FormatTime(at), at.In(seoul).Format("2006-01-02 15:04") // the detail's 24-hour field
	case models.TypeBool:
		return true, "checked"
	case models.TypeInt:
		return 2, `value="2" selected`
	case models.TypeLabels:
		return []string{"label of " + f.Name, "<&>"}, html.EscapeString("label of " + f.Name + ", <&>")
	}
	v := "value of " + f.Name + " <&>"
	return v, html.EscapeString(v)
}

// jsonValue is the value of name in a JSON object ("": b itself), as text.
func jsonValue(t *testing.T, b []byte, name string) string {
	t.Helper()
	var v any
	if name != "" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		b = m[name]
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return fmt.Sprintf("%#v", v)
}
