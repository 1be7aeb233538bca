// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"events/docs"
	"events/models"
)

// schema is the part of a JSON Schema the contract tests read.
type schema struct {
	Ref                  string             `json:"$ref"`
	Type                 any                `json:"type"`
	Format               string             `json:"format"`
	Enum                 []any              `json:"enum"`
	Required             []string           `json:"required"`
	Properties           map[string]*schema `json:"properties"`
	AdditionalProperties any                `json:"additionalProperties"`
	OneOf                []*schema          `json:"oneOf"`
	Discriminator        *struct {
		PropertyName string            `json:"propertyName"`
		Mapping      map[string]string `json:"mapping"`
	} `json:"discriminator"`
	Minimum   *float64 `json:"minimum"`
	Maximum   *float64 `json:"maximum"`
	MaxLength *int     `json:"maxLength"`
	MinLength *int     `json:"minLength"`
	Pattern   string   `json:"pattern"`
	Items     *schema  `json:"items"`
}

type mediaType struct {
	Schema   *schema        `json:"schema"`
	Example  any            `json:"example"`
	Examples map[string]any `json:"examples"`
}

type parameter struct {
	Ref     string  `json:"$ref"`
	Name    string  `json:"name"`
	In      string  `json:"in"`
	Schema  *schema `json:"schema"`
	Example any     `json:"example"`
}

type operation struct {
	OperationID string      `json:"operationId"`
	Tags        []string    `json:"tags"`
	Parameters  []parameter `json:"parameters"`
	RequestBody *struct {
		Content orderedContent `json:"content"`
	} `json:"requestBody"`
	Responses map[string]struct {
		Ref     string               `json:"$ref"`
		Content map[string]mediaType `json:"content"`
	} `json:"responses"`
}

// orderedContent keeps the media types of a body in the document's order.
type orderedContent struct {
	Types  []string
	ByType map[string]mediaType
}

func (o *orderedContent) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &o.ByType); err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' || tok == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				if _, ok := o.ByType[tok]; ok && !slices.Contains(o.Types, tok) {
					o.Types = append(o.Types, tok)
				}
			}
		}
	}
}

type openAPIDoc struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas    map[string]*schema    `json:"schemas"`
		Parameters map[string]*parameter `json:"parameters"`
	} `json:"components"`
}

func loadDoc(t *testing.T) openAPIDoc {
	t.Helper()
	var d openAPIDoc
	if err := json.Unmarshal(docs.OpenAPI, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// operations are the document's operations by "METHOD path".
func (d openAPIDoc) operations(t *testing.T) map[string]operation {
	t.Helper()
	ops := map[string]operation{}
	for p, item := range d.Paths {
		var shared []parameter
		if raw, ok := item["parameters"]; ok {
			if err := json.Unmarshal(raw, &shared); err != nil {
				t.Fatal(err)
			}
		}
		for m, raw := range item {
			if m == "parameters" {
				continue
			}
			var op operation
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s %s: %v", m, p, err)
			}
			op.Parameters = append(shared, op.Parameters...)
			ops[strings.ToUpper(m)+" "+p] = op
		}
	}
	return ops
}

func (d openAPIDoc) param(p parameter) parameter {
	if p.Ref != "" {
		return *d.Components.Parameters[strings.TrimPrefix(p.Ref, "#/components/parameters/")]
	}
	return p
}

func (d openAPIDoc) resolve(s *schema) *schema {
	if s != nil && s.Ref != "" {
		return d.Components.Schemas[strings.TrimPrefix(s.Ref, "#/components/schemas/")]
	}
	return s
}

// types is a schema's type as a sorted list.
func types(s *schema) []string {
	var out []string
	switch v := s.Type.(type) {
	case string:
		out = []string{v}
	case []any:
		for _, x := range v {
			out = append(out, x.(string))
		}
	}
	sort.Strings(out)
	return out
}

// wantType is the JSON type of a field, and its format, from models.
func wantType(f *models.Field, nullable bool) (typ []string, format string) {
	switch f.Type {
	case models.TypeText, models.TypeEnum:
		typ = []string{"string"}
	case models.TypeTime:
		typ, format = []string{"string"}, "date-time"
	case models.TypeDate:
		typ, format = []string{"string"}, "date"
	case models.TypeBool:
		typ = []string{"boolean"}
	case models.TypeLabels:
		typ = []string{"array"}
	case models.TypeInt:
		typ = []string{"integer"}
		if f.Name == "id" {
			format = "int64"
		}
	}
	if nullable {
		typ = append(typ, "null")
		sort.Strings(typ)
	}
	return typ, format
}

// enumOf is the values an enum field takes, from the field table.
func enumOf(name string) []string {
	for i := range models.EventFields {
		if f := &models.EventFields[i]; f.Name == name {
			return f.Values
		}
	}
	return nil
}

// checkField compares one property of the document with the field of
// models.EventFields it stands for.
func checkField(t *testing.T, where string, f *models.Field, s *schema, nullable bool) {
	t.Helper()
	if s == nil {
		t.Errorf("%s: no property %s", where, f.Name)
		return
	}
	typ, format := wantType(f, nullable)
	if got := types(s); !slices.Equal(got, typ) {
		t.Errorf("%s.%s: type %v, want %v", where, f.Name, got, typ)
	}
	if s.Format != format {
		t.Errorf("%s.%s: format %q, want %q", where, f.Name, s.Format, format)
	}
	if f.Type == models.TypeEnum {
		var got []string
		for _, v := range s.Enum {
			if v != nil {
				got = append(got, v.(string))
			} else if !nullable {
				t.Errorf("%s.%s: null among the values of a field that is never null", where, f.Name)
			}
		}
		if want := enumOf(f.Name); !(slices.Equal(got, want) || ((f.Name == "status" || f.Name == "kind") && where != "Event" && len(got) > 0 && isSubset(got, want))) {
			t.Errorf("%s.%s: enum %v, want %v", where, f.Name, got, want)
		}
	}
	if f.Max > 0 && (s.Minimum == nil || s.Maximum == nil || int(*s.Minimum) != f.Min || int(*s.Maximum) != f.Max) {
		t.Errorf("%s.%s: bounds are not %d to %d", where, f.Name, f.Min, f.Max)
	}
	if f.MaxLen > 0 && where == "Event" && (s.MaxLength == nil || *s.MaxLength != f.MaxLen) {
		t.Errorf("%s.%s: maxLength is not %d", where, f.Name, f.MaxLen)
	}
}

func isSubset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// The event schemas of the document are models.EventFields, field by field:
// the answer's Event (every field, its type, nullability, enum, bounds), each
// kind's create body (the fields a create accepts, of the times only the
// kind's own), and the PATCH body (the editable fields); every body is closed.
func TestOpenAPIEventSchemasAreEventFields(t *testing.T) {
	t.Parallel()
	d := loadDoc(t)
	ev := d.Components.Schemas["Event"]
	var names []string
	for i := range models.EventFields {
		f := &models.EventFields[i]
		names = append(names, f.Name)
		checkField(t, "Event", f, ev.Properties[f.Name], f.Nullable)
	}
	if !slices.Equal(ev.Required, names) {
		t.Errorf("Event.required = %v, want models.EventFields %v", ev.Required, names)
	}
	for name := range ev.Properties {
		if !slices.Contains(names, name) && name != "capture_note" {
			t.Errorf("Event.%s: no field of models.EventFields", name)
		}
	}

	create := d.Components.Schemas["EventCreate"]
	if create.Discriminator == nil || create.Discriminator.PropertyName != "kind" || len(create.OneOf) != len(models.Kinds) {
		t.Fatalf("EventCreate is not a oneOf over the %d kinds with kind as discriminator", len(models.Kinds))
	}
	for _, k := range models.Kinds {
		ref, ok := create.Discriminator.Mapping[string(k)]
		if !ok {
			t.Errorf("EventCreate: the discriminator does not map %s", k)
			continue
		}
		v := d.resolve(&schema{Ref: ref})
		where := strings.TrimPrefix(ref, "#/components/schemas/")
		if v.AdditionalProperties != false {
			t.Errorf("%s: additionalProperties is not false", where)
		}
		if !slices.Equal(v.Required, []string{"kind"}) {
			t.Errorf("%s: required = %v, want [kind]", where, v.Required)
		}
		if kp := v.Properties["kind"]; kp == nil || len(kp.Enum) != 1 || kp.Enum[0] != string(k) {
			t.Errorf("%s: kind is not the one value %s", where, k)
		}
		want := map[string]bool{}
		for i := range models.EventFields {
			f := &models.EventFields[i]
			if !f.Accepted(models.CreateFields) || !f.ForKind(k) {
				continue // not in a create, or another kind's (a time, say)
			}
			want[f.Name] = true
			checkField(t, where, f, v.Properties[f.Name], f.Nullable)
		}
		for i := range models.RequestOnlyFields { // a capture text, a log's options
			if f := &models.RequestOnlyFields[i]; f.Accepted(models.CreateFields) && f.ForKind(k) {
				want[f.Name] = true
			}
		}
		for name := range v.Properties {
			if !want[name] {
				t.Errorf("%s.%s: a create of a %s does not accept it", where, name, k)
			}
			delete(want, name)
		}
		for name := range want {
			t.Errorf("%s: no property %s", where, name)
		}
	}

	patch := d.Components.Schemas["EventPatch"]
	if patch.AdditionalProperties != false {
		t.Errorf("EventPatch: additionalProperties is not false")
	}
	n := 0
	for i := range models.EventFields {
		if f := &models.EventFields[i]; f.Editable() {
			n++
			checkField(t, "EventPatch", f, patch.Properties[f.Name], f.Nullable)
		}
	}
	if len(patch.Properties) != n {
		t.Errorf("EventPatch has %d properties, models.EventFields %d editable fields", len(patch.Properties), n)
	}
	// The form bodies: every field the request accepts, by its API name
	// and its form name, and the CSRF token; nothing else.
	for name, set := range map[string]models.FieldSet{"EventCreateForm": models.CreateFields, "EventPatchForm": models.PatchFields,
		"DeferForm": models.DeferFields, "OperationForm": models.NoFields} {
		want := map[string]bool{models.CSRFField: true}
		for _, fields := range [][]models.Field{models.EventFields, models.RequestOnlyFields} {
			for i := range fields {
				if f := &fields[i]; f.Accepted(set) {
					want[f.Name] = true
					if set != models.DeferFields {
						want[f.Form()] = true
					}
				}
			}
		}
		form := d.Components.Schemas[name]
		if form == nil || form.AdditionalProperties != false {
			t.Errorf("%s: not a closed object", name)
			continue
		}
		for p := range form.Properties {
			if !want[p] {
				t.Errorf("%s.%s: the form does not accept it", name, p)
			}
			delete(want, p)
		}
		for p := range want {
			t.Errorf("%s: no property %s", name, p)
		}
	}
	if def := d.Components.Schemas["Defer"]; def.AdditionalProperties != false || types(def.Properties["defer_until"])[0] != "string" || def.Properties["defer_until"].Format != "date-time" {
		t.Errorf("Defer: not a closed object with a date-time defer_until")
	}
}

// Every address of the route table that the document covers (the JSON API
// and the health checks), with every method it serves, is in the document,
// and the document has nothing the route table lacks. The methods are read
// from the service itself: the Allow header of a method it does not serve.
func TestOpenAPICoversTheRouteTable(t *testing.T) {
	s := newServer(t)
	served := map[string]bool{}
	param := regexp.MustCompile(`:([a-z]+)`)
	for _, r := range s.f.GetRoutes(true) {
		if !strings.HasPrefix(r.Path, "/api/") && r.Path != "/healthz" && r.Path != "/readyz" && !strings.HasPrefix(r.Path, "/problems/") {
			continue
		}
		if r.Method != "GET" && r.Method != "POST" && r.Method != "PATCH" {
			continue
		}
		probe := strings.ReplaceAll(strings.ReplaceAll(r.Path, ":id", "1"), ":type", "validation")
		a := s.do("DELETE", probe, "", "")
		if a.Status == http.StatusMethodNotAllowed && !strings.Contains(a.Header.Get("Allow"), r.Method) {
			continue // the route that answers 405 to every method
		}
		served[r.Method+" "+param.ReplaceAllString(r.Path, "{$1}")] = true
	}
	ops := loadDoc(t).operations(t)
	for k := range served {
		if _, ok := ops[k]; !ok {
			t.Errorf("the route table serves %s; docs/openapi.json lacks it", k)
		}
	}
	for k := range ops {
		if !served[k] {
			t.Errorf("docs/openapi.json has %s; the route table does not serve it", k)
		}
	}
	if len(served) < 18 {
		t.Errorf("only %d routes read from the route table: %v", len(served), served)
	}
}

// The parts of the document generators read: every operation has a tag,
// an operationId in lowerCamelCase, an example answer and, when it takes a
// body, an example request; every parameter an example; POST bodies are
// JSON first and never merge-patch; ids, limits, times and the
// precondition headers have their types and syntax.
func TestOpenAPIOperationsAreGeneratorReady(t *testing.T) {
	t.Parallel()
	d := loadDoc(t)
	ops := d.operations(t)
	want := map[string]string{
		"GET /api/events": "listEvents", "POST /api/events": "createEvent", "GET /api/events/{id}": "getEvent",
		"PATCH /api/events/{id}": "updateEvent", "POST /api/events/{id}/complete": "completeEvent",
		"POST /api/events/{id}/cancel": "cancelEvent", "POST /api/events/{id}/defer": "deferEvent",
		"POST /api/events/{id}/reactivate": "reactivateEvent", "GET /api/events/{id}/history": "getEventHistory",
		"GET /api/events/export": "exportEvents", "GET /api/events/summary": "getSummary", "GET /api/events/today": "listToday",
		"GET /api/events/inbox": "listInbox", "GET /api/events/activity": "listActivity",
	}
	camel := regexp.MustCompile(`^[a-z]+([A-Z][a-z]*|API)*$`)
	seen := map[string]bool{}
	for k, op := range ops {
		if w, ok := want[k]; ok && op.OperationID != w {
			t.Errorf("%s: operationId %q, want %q", k, op.OperationID, w)
		}
		if !camel.MatchString(op.OperationID) || seen[op.OperationID] {
			t.Errorf("%s: operationId %q is not a unique lowerCamelCase name", k, op.OperationID)
		}
		seen[op.OperationID] = true
		if len(op.Tags) == 0 {
			t.Errorf("%s: no tag", k)
		}
		examples := 0
		for status, r := range op.Responses {
			for _, mt := range r.Content {
				if status[0] == '2' && (mt.Example != nil || len(mt.Examples) > 0) {
					examples++
				}
			}
		}
		if examples == 0 {
			t.Errorf("%s: no example answer", k)
		}
		if op.RequestBody != nil {
			c := op.RequestBody.Content
			if len(c.Types) == 0 || c.Types[0] != "application/json" {
				t.Errorf("%s: the body's first type is not application/json: %v", k, c.Types)
			}
			if strings.HasPrefix(k, "POST ") && slices.Contains(c.Types, "application/merge-patch+json") {
				t.Errorf("%s: a POST body offered as merge-patch", k)
			}
			if js := c.ByType["application/json"]; js.Example == nil && len(js.Examples) == 0 {
				t.Errorf("%s: no example request", k)
			}
			if js := d.resolve(c.ByType["application/json"].Schema); js != nil && js.OneOf == nil && js.AdditionalProperties != false {
				t.Errorf("%s: the JSON body is not closed (additionalProperties: false)", k)
			}
		}
		for _, p := range op.Parameters {
			p := d.param(p)
			if p.Example == nil {
				t.Errorf("%s: parameter %s has no example", k, p.Name)
			}
			switch p.Name {
			case "id", "limit":
				if got := types(p.Schema); len(got) != 1 || got[0] != "integer" || p.Schema.Minimum == nil {
					t.Errorf("%s: %s is not a bounded integer", k, p.Name)
				}
			case "from", "to", "updated_since":
				if p.Schema.Format != "date-time" {
					t.Errorf("%s: %s is not a date-time", k, p.Name)
				}
			case "If-Match", "If-None-Match", "Idempotency-Key":
				if p.Schema.Pattern == "" {
					t.Errorf("%s: %s has no syntax", k, p.Name)
				}
			}
		}
	}
	if lim := d.Components.Parameters["limit"].Schema; lim.Maximum == nil || *lim.Maximum != 1000 || *lim.Minimum != 1 {
		t.Errorf("limit is not bounded 1 to 1000")
	}
}
