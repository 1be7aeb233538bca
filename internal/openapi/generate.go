// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package openapi writes docs/openapi.json: the hand-written source
// (docs/openapi-source.json: the paths, their prose, the problems and every
// schema that is not an event's) with the parts that follow from the field
// table (models.EventFields, models.RequestOnlyFields) and the listings'
// query parameters (models.ListParams) filled in. `go generate ./docs` runs it; a test fails when
// the checked-in document is not what it writes. See docs/contributing.md,
// "The API document".
package openapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"events/models"
)

// What the generator writes, by schema name, over whatever the source
// says of them: the source's object of the same name is merged over the
// generated one (its description, a property's prose, a property that is
// no field such as capture_note), key by key.
const (
	schemaEvent   = "Event"
	schemaCreated = "CreatedEvent"
	schemaCreate  = "EventCreate"
	schemaPatch   = "EventPatch"
	// schemaExported is a line of the NDJSON export: an event and its
	// history (models.AppendExportJSON).
	schemaExported = "ExportedEvent"
)

// The source's own keys, read by the generator and never written out.
const (
	// keyFields holds hand-written words about request fields, by field
	// name: merged over each JSON request body's property of that name; in
	// its description, {rule} stands for the generated one (the bounds and
	// characters the field table gives).
	keyFields = "x-fields"
	// keyFormFields is the same for the form bodies.
	keyFormFields = "x-form-fields"
	// keyEvent is an example event: the fields it sets, the others
	// written by the service's own encoder (models.Event.AppendJSON).
	keyEvent = "$event"
	// keyNDJSON is an example NDJSON export: its events as keyEvent.
	keyNDJSON = "$ndjson"
	// keyListing, an item of an operation's parameters, stands for the
	// query parameters of the listing it names (models.ListParams), each
	// a reference to the components.parameters of its name, in the order
	// models/query.go gives them.
	keyListing = "$listing"
)

// Generate writes the document from its source.
func Generate(source []byte) ([]byte, error) {
	v, err := decode(source)
	if err != nil {
		return nil, fmt.Errorf("docs/openapi-source.json: %w", err)
	}
	doc, ok := v.(*Obj)
	if !ok || doc.Obj("components") == nil || doc.Obj("components").Obj("schemas") == nil {
		return nil, fmt.Errorf("docs/openapi-source.json: no components.schemas")
	}
	g := generator{fields: take(doc, keyFields), formFields: take(doc, keyFormFields)}
	schemas := doc.Obj("components").Obj("schemas")
	for _, s := range g.schemas() {
		if s.name == schemaCreated || s.name == schemaExported { // the Event, words and all, and more
			merge(s.schema, clone(schemas.Obj(schemaEvent)).(*Obj))
		}
		if hand := schemas.Obj(s.name); hand != nil {
			merge(s.schema, hand)
		}
		if s.name == schemaExported { // the Event's list, which the merge wrote, and history
			required, _ := s.schema.Get("required").([]any)
			s.schema.Set("required", append(slices.Clone(required), "history"))
		}
		schemas.Set(s.name, s.schema)
	}
	if params := doc.Obj("components").Obj("parameters"); params != nil {
		filters(params)
	}
	if err := listingParams(doc); err != nil {
		return nil, fmt.Errorf("docs/openapi-source.json: %w", err)
	}
	queryPatterns(doc)
	out, err := examples(doc)
	if err != nil {
		return nil, err
	}
	return marshal(out)
}

// take removes key from doc and answers its object (empty when absent).
func take(doc *Obj, key string) *Obj {
	o := doc.Obj(key)
	doc.Delete(key)
	if o == nil {
		return obj()
	}
	return o
}

// merge writes hand over gen: objects key by key, anything else replaced.
func merge(gen, hand *Obj) {
	for _, k := range hand.Keys() {
		h := hand.Get(k)
		if ho, ok := h.(*Obj); ok {
			if g := gen.Obj(k); g != nil {
				merge(g, ho)
				continue
			}
		}
		gen.Set(k, h)
	}
}

type namedSchema struct {
	name   string
	schema *Obj
}

type generator struct {
	fields, formFields *Obj // keyFields and keyFormFields of the source
}

// schemas are the generated schemas, in the order they are written when
// the source does not place them.
func (g generator) schemas() []namedSchema {
	out := []namedSchema{
		{schemaEvent, eventSchema()},
		{schemaCreated, eventSchema()},
		{schemaExported, exportedSchema()},
		{schemaCreate, createSchema()},
		{schemaPatch, g.patchSchema()},
	}
	for _, k := range models.Kinds {
		out = append(out, namedSchema{kindSchemaName(k), g.kindCreateSchema(k)})
	}
	for _, f := range forms {
		out = append(out, namedSchema{f.name, g.formSchema(f.set, f.required)})
	}
	return out
}

// kindSchemaName is the name of kind's create body: TaskCreate.
func kindSchemaName(k models.Kind) string {
	var b strings.Builder
	for _, w := range strings.Split(string(k), "_") {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String() + "Create"
}

// typ is the JSON type t, with null when null is allowed.
func typ(t string, null bool) any {
	if null {
		return []any{t, "null"}
	}
	return t
}

// eventSchema is an event in an answer: every field of the table.
func eventSchema() *Obj {
	props := obj()
	var required []any
	for i := range models.EventFields {
		f := &models.EventFields[i]
		props.Set(f.Name, eventProperty(f))
		required = append(required, f.Name)
	}
	return obj("type", "object", "additionalProperties", false, "required", required, "properties", props)
}

// exportedSchema is a line of the NDJSON export: every field of the
// table and the event's history rows.
func exportedSchema() *Obj {
	s := eventSchema()
	s.Obj("properties").Set("history", obj("type", "array", "items", obj("$ref", "#/components/schemas/History"),
		"description", "the event's history rows, oldest first"))
	return s
}

// eventProperty is a field as an answer holds it.
func eventProperty(f *models.Field) *Obj {
	switch f.Type {
	case models.TypeInt:
		p := obj("type", "integer")
		if f.Max > f.Min {
			p.Set("minimum", f.Min)
			p.Set("maximum", f.Max)
		}
		return p
	case models.TypeBool:
		return obj("type", "boolean")
	case models.TypeEnum:
		return obj("type", typ("string", f.Nullable), "enum", enumValues(f, f.Nullable))
	case models.TypeTime:
		if f.Nullable {
			return obj("type", typ("string", true), "format", "date-time", "description", "RFC 3339 in UTC at microsecond precision, or null")
		}
		return obj("type", "string", "format", "date-time", "description", "RFC 3339 in UTC at microsecond precision, e.g. 2026-11-25T00:00:00.000000Z")
	case models.TypeDate:
		return obj("type", typ("string", true), "format", "date", "readOnly", true)
	case models.TypeLabels:
		return obj("type", "array", "maxItems", models.MaxLabels,
			"items", obj("type", "string", "minLength", 1, "maxLength", models.MaxLabel))
	}
	p := obj("type", typ("string", f.Nullable))
	if f.MaxLen > 0 {
		p.Set("maxLength", f.MaxLen)
	}
	return p
}

func enumValues(f *models.Field, null bool) []any {
	var out []any
	for _, v := range f.Values {
		out = append(out, v)
	}
	if null {
		out = append(out, nil)
	}
	return out
}

// The characters a checked text may hold (models.checkText): prose keeps
// tabs, newlines and bidirectional controls, a line none of them.
const (
	prosePattern = "^([^\u0000-\b\u000b-\u001f\u007f-\u009f]|\r\n)*$"
	linePattern  = "^[^\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$"
)

// textRule says a checked text's bounds and characters in words.
func textRule(f *models.Field) string {
	s := fmt.Sprintf("at most %d characters", f.MaxLen)
	switch {
	case f.Trim && f.Prefix != "":
		s += fmt.Sprintf(" after trimming and dropping a leading %s", f.Prefix)
	case f.Trim:
		s += " after white space around it is trimmed"
	case f.Multiline:
		s += " (a CRLF counts as one)"
	}
	if f.EmptyIsNull {
		s += "; empty or null: none"
	}
	if f.Multiline {
		return s + "; no control characters but tabs and newlines"
	}
	return s + "; one line: no control or bidirectional control characters"
}

func pattern(f *models.Field) string {
	if f.Multiline {
		return prosePattern
	}
	return linePattern
}

// requestProperty is a field as a JSON request body sends it.
func (g generator) requestProperty(f *models.Field) *Obj {
	null := f.AcceptsNull()
	var p *Obj
	switch f.Type {
	case models.TypeInt:
		p = obj("type", "integer")
		if f.Max > f.Min {
			p.Set("minimum", f.Min)
			p.Set("maximum", f.Max)
		}
	case models.TypeBool:
		p = obj("type", "boolean")
	case models.TypeEnum:
		p = obj("type", typ("string", null), "enum", enumValues(f, null))
	case models.TypeLabels:
		p = obj("type", "array", "maxItems", models.MaxLabels, "items", obj("type", "string", "pattern", linePattern),
			"description", fmt.Sprintf("at most %d labels of at most %d characters; one line each: no control or bidirectional control characters", models.MaxLabels, models.MaxLabel))
	case models.TypeTime:
		d := "RFC 3339 with an offset, e.g. 2026-11-25T09:00:00+09:00 (a lowercase t or z is read too)"
		if null {
			d += "; null clears it"
		}
		p = obj("type", typ("string", null), "format", "date-time", "description", d)
	default:
		p = obj("type", typ("string", null))
		if f.MaxLen > 0 && !f.Trim && !f.Multiline {
			p.Set("maxLength", f.MaxLen) // what is sent is what is counted
		}
		if f.MaxLen > 0 {
			p.Set("description", textRule(f))
			p.Set("pattern", pattern(f))
		}
	}
	if f.Kinds != nil && !f.Reschedule {
		d, _ := p.Get("description").(string)
		var kinds []string
		for _, k := range f.Kinds {
			kinds = append(kinds, string(k))
		}
		p.Set("description", strings.TrimPrefix(d+"; only for "+strings.Join(kinds, " or ")+" (another kind: not_allowed_for_kind)", "; "))
	}
	return mergeWords(p, g.fields.Obj(f.Name))
}

// mergeWords merges a hand-written property over a generated one; {rule}
// in its description stands for the generated description.
func mergeWords(p, hand *Obj) *Obj {
	if hand == nil {
		return p
	}
	rule, _ := p.Get("description").(string)
	merge(p, clone(hand).(*Obj))
	if d, ok := p.Get("description").(string); ok && strings.Contains(d, "{rule}") {
		p.Set("description", strings.ReplaceAll(d, "{rule}", rule))
	}
	return p
}

// createSchema is the create body: one of the kinds' bodies.
func createSchema() *Obj {
	var oneOf []any
	mapping := obj()
	for _, k := range models.Kinds {
		ref := "#/components/schemas/" + kindSchemaName(k)
		oneOf = append(oneOf, obj("$ref", ref))
		mapping.Set(string(k), ref)
	}
	return obj("oneOf", oneOf, "discriminator", obj("propertyName", "kind", "mapping", mapping),
		"description", "One of the kinds' bodies, told apart by kind.")
}

// requestFields are the fields a request of set accepts from an event of
// kind k ("" for any kind), the table's first, then the request-only ones.
func requestFields(set models.FieldSet, k models.Kind) []*models.Field {
	var out []*models.Field
	for _, fields := range [][]models.Field{models.EventFields, models.RequestOnlyFields} {
		for i := range fields {
			if f := &fields[i]; f.Accepted(set) && (k == "" || f.ForKind(k)) {
				out = append(out, f)
			}
		}
	}
	return out
}

// kindCreateSchema is the create body of kind k: its own fields only.
func (g generator) kindCreateSchema(k models.Kind) *Obj {
	props := obj()
	for _, f := range requestFields(models.CreateFields, k) {
		switch f.Name {
		case "kind":
			props.Set("kind", obj("type", "string", "enum", []any{string(k)}))
		case "status":
			var statuses []any
			for _, s := range models.InitialStatuses(k) {
				statuses = append(statuses, string(s))
			}
			// the default in words only: a schema's default makes
			// openapi-typescript type the property as required
			props.Set("status", obj("type", "string", "enum", statuses,
				"description", fmt.Sprintf("the status it starts in (default %s)", statuses[0])))
		default:
			props.Set(f.Name, g.requestProperty(f))
		}
	}
	return obj("type", "object", "additionalProperties", false, "required", []any{"kind"}, "properties", props,
		"description", fmt.Sprintf("A new %s: only its own time fields (%s); unknown or repeated fields are refused (422) by name.",
			k, strings.Join(models.KindTimeFields(k), ", ")))
}

// patchSchema is the PATCH body: the editable fields.
func (g generator) patchSchema() *Obj {
	props := obj()
	for _, f := range requestFields(models.PatchFields, "") {
		props.Set(f.Name, g.requestProperty(f))
	}
	var times []string
	for _, k := range models.Kinds {
		times = append(times, fmt.Sprintf("%s: %s", k, strings.Join(models.KindTimeFields(k), ", ")))
	}
	return obj("type", "object", "additionalProperties", false, "properties", props,
		"description", "Only the editable fields, and of the times only the event's kind's own ("+strings.Join(times, "; ")+
			"); a field of other kinds only is refused (422) by name.")
}

// forms are the form bodies, by the request they stand for.
var forms = []struct {
	name     string
	set      models.FieldSet
	required []any
}{
	{"EventCreateForm", models.CreateFields, nil},
	{"EventPatchForm", models.PatchFields, nil},
	{"DeferForm", models.DeferFields, []any{"defer_until"}},
	{"OperationForm", models.NoFields, nil},
}

// formSchema is the form body of a request: every value text, by the
// field's name and its form's name, and the CSRF token.
func (g generator) formSchema(set models.FieldSet, required []any) *Obj {
	props := obj()
	for _, f := range requestFields(set, "") {
		props.Set(f.Name, mergeWords(formProperty(f, set), g.formFields.Obj(f.Name)))
		if f.Form() != f.Name && set != models.DeferFields {
			q := obj("type", "string", "description", fmt.Sprintf("the %s, as the edit form names it", f.Name))
			if f.MaxLen > 0 {
				q.Set("pattern", pattern(f))
			}
			props.Set(f.Form(), q)
		}
	}
	props.Set(models.CSRFField, obj("type", "string", "description", "the CSRF token of the session, when a page sends the form with authentication on"))
	s := obj("type", "object", "additionalProperties", false)
	if required != nil {
		s.Set("required", required)
	}
	s.Set("properties", props)
	return s
}

// formProperty is a field as a form sends it.
func formProperty(f *models.Field, set models.FieldSet) *Obj {
	p := obj("type", "string")
	switch {
	case f.Type == models.TypeTime:
		d := "a time: RFC 3339, or without an offset (2026-11-25T09:00, as a datetime-local input sends it) read in EVENTS_TIMEZONE"
		if f.AcceptsNull() && set != models.DeferFields {
			d += "; empty: null"
		}
		p.Set("description", d)
	case f.Type == models.TypeBool:
		p.Set("description", "on, true, 1 or yes; off, false, 0, no or empty")
	case f.Type == models.TypeInt && f.Max > f.Min:
		p.Set("description", fmt.Sprintf("%d to %d", f.Min, f.Max))
	default:
		p.Set("description", "as in the JSON body; empty: null where the field may be null")
	}
	if f.MaxLen > 0 {
		p.Set("pattern", pattern(f))
	}
	return p
}

// filters writes the values of each listing parameter that filters an
// enum field of the table (kind, status, source).
func filters(params *Obj) {
	for i := range models.EventFields {
		f := &models.EventFields[i]
		p := params.Obj(f.Name)
		if f.Type != models.TypeEnum || p == nil || p.Obj("schema") == nil {
			continue
		}
		s := p.Obj("schema")
		if s.Obj("items") == nil {
			s.Set("enum", enumValues(f, false))
			continue
		}
		// an array filter takes repeated keys (one value each) and the
		// comma form (several in one) alike: an item is one value or
		// several joined by commas (an anyOf of the enum and the
		// pattern is exact too, but oapi-codegen's client does not
		// compile from it)
		one := "(" + strings.Join(f.Values, "|") + ")"
		s.Set("items", obj("type", "string", "pattern", "^"+one+"(,"+one+")*$",
			"description", "one of "+strings.Join(f.Values, ", ")+", or several joined by commas"))
	}
}

// listingParams replaces each keyListing among an operation's parameters
// by the listing's query parameters.
func listingParams(doc *Obj) error {
	paths := doc.Obj("paths")
	if paths == nil {
		return nil
	}
	components := doc.Obj("components").Obj("parameters")
	for _, path := range paths.Keys() {
		ops := paths.Obj(path)
		if ops == nil {
			continue
		}
		for _, method := range ops.Keys() {
			op := ops.Obj(method)
			if op == nil {
				continue
			}
			params, _ := op.Get("parameters").([]any)
			var out []any
			for _, p := range params {
				po, _ := p.(*Obj)
				if po == nil || po.Get(keyListing) == nil {
					out = append(out, p)
					continue
				}
				name, _ := po.Get(keyListing).(string)
				names := models.ListParams(models.Listing(name))
				if names == nil {
					return fmt.Errorf("%s %s: %s %q is no listing of models/query.go", method, path, keyListing, name)
				}
				for _, n := range names {
					if components == nil || components.Obj(n) == nil {
						return fmt.Errorf("%s %s: the listing %s takes %s (models/query.go), and components.parameters has no %s", method, path, name, n, n)
					}
					out = append(out, obj("$ref", "#/components/parameters/"+n))
				}
			}
			if params != nil {
				op.Set("parameters", out)
			}
		}
	}
	return nil
}

// queryPatterns writes the server's pattern into every query parameter
// named tz (models.ZonePattern, which models.LoadZone checks first) or
// project_tag (the field's own characters: a control character anywhere,
// around the tag included, is refused), in the components and in each
// operation.
func queryPatterns(doc *Obj) {
	tag := &models.EventFields[slices.IndexFunc(models.EventFields, func(f models.Field) bool { return f.Name == "project_tag" })]
	set := func(list any) {
		params, _ := list.([]any)
		for _, x := range params {
			p, _ := x.(*Obj)
			if p == nil || p.Get("in") != "query" || p.Obj("schema") == nil {
				continue
			}
			switch p.Get("name") {
			case "tz":
				p.Obj("schema").Set("pattern", models.ZonePattern)
			case "project_tag":
				p.Obj("schema").Set("pattern", pattern(tag))
			}
		}
	}
	if params := doc.Obj("components").Obj("parameters"); params != nil {
		var list []any
		for _, k := range params.Keys() {
			list = append(list, params.Get(k))
		}
		set(list)
	}
	paths := doc.Obj("paths")
	if paths == nil {
		return
	}
	for _, path := range paths.Keys() {
		item := paths.Obj(path)
		if item == nil {
			continue
		}
		for _, k := range item.Keys() {
			if k == "parameters" {
				set(item.Get(k))
			} else if op := item.Obj(k); op != nil {
				set(op.Get("parameters"))
			}
		}
	}
}

// examples replaces each keyEvent and keyNDJSON of v by what the service
// writes for it.
func examples(v any) (any, error) {
	switch v := v.(type) {
	case *Obj:
		if len(v.Keys()) == 1 {
			switch k := v.Keys()[0]; k {
			case keyEvent:
				return exampleEvent(v.Obj(k))
			case keyNDJSON:
				return exampleNDJSON(v.Get(k))
			}
		}
		for _, k := range v.Keys() {
			x, err := examples(v.Get(k))
			if err != nil {
				return nil, err
			}
			v.Set(k, x)
		}
	case []any:
		for i := range v {
			x, err := examples(v[i])
			if err != nil {
				return nil, err
			}
			v[i] = x
		}
	}
	return v, nil
}

// exampleJSON is the event whose fields set says, as the API writes it.
func exampleJSON(set *Obj) ([]byte, error) {
	e, err := exampleOf(set)
	if err != nil {
		return nil, err
	}
	return e.AppendJSON(nil), nil
}

// exampleOf is the event whose fields set says.
func exampleOf(set *Obj) (models.Event, error) {
	var e models.Event
	if set == nil {
		return e, fmt.Errorf("%s is not an object of fields", keyEvent)
	}
	for _, name := range set.Keys() {
		i := slices.IndexFunc(models.EventFields, func(f models.Field) bool { return f.Name == name })
		if i < 0 {
			return e, fmt.Errorf("%s: %s is no field of models.EventFields", keyEvent, name)
		}
		if err := setField(&e, &models.EventFields[i], set.Get(name)); err != nil {
			return e, fmt.Errorf("%s: %s: %w", keyEvent, name, err)
		}
	}
	return e, nil
}

func exampleEvent(set *Obj) (any, error) {
	b, err := exampleJSON(set)
	if err != nil {
		return nil, err
	}
	return decode(b)
}

func exampleNDJSON(v any) (any, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s is not a list of events", keyNDJSON)
	}
	var b []byte
	for _, x := range list {
		set, _ := x.(*Obj)
		if set == nil {
			return nil, fmt.Errorf("%s is not a list of events", keyNDJSON)
		}
		set = clone(set).(*Obj)
		rows, _ := set.Get("history").([]any)
		set.Delete("history")
		e, err := exampleOf(set)
		if err != nil {
			return nil, err
		}
		history, err := exampleHistory(e.ID, rows)
		if err != nil {
			return nil, err
		}
		if b, err = models.AppendExportJSON(b, &e, history); err != nil {
			return nil, err
		}
	}
	return string(b), nil
}

// exampleHistory is an example's history rows of event id: each row's
// id, change_kind, actor, status_after and occurred_at as given.
func exampleHistory(id int64, rows []any) ([]models.History, error) {
	var out []models.History
	for _, x := range rows {
		row, _ := x.(*Obj)
		if row == nil {
			return nil, fmt.Errorf("%s: a history row is not an object", keyNDJSON)
		}
		h := models.History{EventID: id}
		for _, k := range row.Keys() {
			v := row.Get(k)
			s, _ := v.(string)
			switch k {
			case "id":
				n, _ := v.(json.Number)
				i, err := n.Int64()
				if err != nil {
					return nil, fmt.Errorf("%s: history id: %w", keyNDJSON, err)
				}
				h.ID = i
			case "change_kind":
				h.ChangeKind = models.ChangeKind(s)
			case "actor":
				h.Actor = models.Actor(s)
			case "status_after":
				h.StatusAfter = models.Status(s)
			case "occurred_at":
				t, err := time.Parse(time.RFC3339Nano, s)
				if err != nil {
					return nil, fmt.Errorf("%s: history occurred_at: %w", keyNDJSON, err)
				}
				h.OccurredAt = t.UTC()
			default:
				return nil, fmt.Errorf("%s: history %s is not written by the example", keyNDJSON, k)
			}
		}
		out = append(out, h)
	}
	return out, nil
}

// setField sets one field of an example from its JSON value.
func setField(e *models.Event, f *models.Field, v any) error {
	if v == nil {
		return nil // every field's zero value is written as the API writes it
	}
	switch f.Type {
	case models.TypeText, models.TypeEnum:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("not a string")
		}
		f.SetText(e, &s)
	case models.TypeTime:
		s, _ := v.(string)
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return err
		}
		t = t.UTC()
		f.SetTime(e, &t)
	case models.TypeBool:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("not a boolean")
		}
		f.SetBool(e, b)
	case models.TypeLabels:
		list, _ := v.([]any)
		var labels []string
		for _, x := range list {
			s, ok := x.(string)
			if !ok {
				return fmt.Errorf("not a list of strings")
			}
			labels = append(labels, s)
		}
		f.SetLabels(e, labels)
	case models.TypeInt:
		n, ok := v.(json.Number)
		if !ok {
			return fmt.Errorf("not a number")
		}
		i, err := n.Int64()
		if err != nil {
			return err
		}
		f.SetInt(e, i)
	default:
		return fmt.Errorf("is computed from the other fields")
	}
	return nil
}
