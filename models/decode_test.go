// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"
)

var fieldSets = []struct {
	name string
	set  FieldSet
}{{"create", CreateFields}, {"patch", PatchFields}, {"defer", DeferFields}, {"none", NoFields}}

// accepted are the fields each request may carry, from the field table;
// TestFieldSetsKeepTheSpecification holds the table to the specification.
var accepted = func() map[FieldSet][]string {
	m := map[FieldSet][]string{NoFields: {}}
	for _, fs := range fieldSets {
		for _, f := range tableFields(func(f *Field) bool { return f.Accepted(fs.set) }) {
			m[fs.set] = append(m[fs.set], f.Name)
		}
	}
	return m
}()

// TestFieldSetsKeepTheSpecification: the specification's and DESIGN.md's
// fields of each request are accepted, and the fields only the server or
// the lifecycle sets are refused, whatever else the table adds.
func TestFieldSetsKeepTheSpecification(t *testing.T) {
	t.Parallel()
	editable := []string{"title", "description", "start_at", "end_at", "all_day", "due_at", "started_at", "ended_at", "priority", "project_tag"}
	cases := []struct {
		set           FieldSet
		must, mustNot []string
	}{
		{CreateFields, append([]string{"kind", "status", "source", "source_ref"}, editable...),
			[]string{"id", "completed_at", "cancelled_at", "defer_until", "reactivate_to", "created_at", "updated_at",
				"zone", "start_date", "end_date", "due_date"}},
		{PatchFields, editable,
			[]string{"id", "kind", "status", "source", "source_ref", "completed_at", "cancelled_at", "defer_until", "reactivate_to", "created_at", "updated_at",
				"zone", "start_date", "end_date", "due_date"}},
		{DeferFields, []string{"defer_until"}, editable},
		{NoFields, nil, append([]string{"defer_until"}, editable...)},
	}
	for _, c := range cases {
		for _, name := range c.must {
			if !slices.Contains(accepted[c.set], name) {
				t.Errorf("set %d does not accept %s", c.set, name)
			}
		}
		for _, name := range c.mustNot {
			if slices.Contains(accepted[c.set], name) {
				t.Errorf("set %d accepts %s", c.set, name)
			}
		}
	}
}

// sample is a valid JSON value and a valid form value of every name a
// client might send: each field of the table, by its type, and names that
// are none.
var sample = func() map[string][2]string {
	m := map[string][2]string{
		"undo_status": {`"planned"`, "planned"}, "foo": {`1`, "1"}, "Title": {`"t"`, "t"},
		"": {`"x"`, "x"}, "event_id": {`1`, "1"},
	}
	enums := map[string]string{"kind": "task", "status": "planned", "source": "email", "reactivate_to": "planned"}
	for _, f := range tableFields(func(*Field) bool { return true }) {
		switch f.Type {
		case TypeText:
			m[f.Name] = [2]string{`"t"`, "t"}
		case TypeEnum:
			m[f.Name] = [2]string{`"` + enums[f.Name] + `"`, enums[f.Name]}
		case TypeTime:
			m[f.Name] = [2]string{`"2026-11-25T09:00:00+09:00"`, "2026-11-25T09:00"}
		case TypeBool:
			m[f.Name] = [2]string{`true`, "on"}
		case TypeDate:
			m[f.Name] = [2]string{`"2026-11-25"`, "2026-11-25"}
		case TypeLabels:
			m[f.Name] = [2]string{`["t"]`, "t"}
		case TypeInt:
			n := strconv.Itoa(max(f.Max, 1))
			m[f.Name] = [2]string{n, n}
		}
	}
	return m
}()

func TestDecodeJSONFieldSets(t *testing.T) {
	t.Parallel()
	for _, fs := range fieldSets {
		for name, v := range sample {
			t.Run(fs.name+"/"+name, func(t *testing.T) {
				body := fmt.Sprintf(`{%q: %s}`, name, v[0])
				in, err := DecodeJSON([]byte(body), fs.set)
				if slices.Contains(accepted[fs.set], name) {
					if err != nil {
						t.Fatalf("%s: %v", body, err)
					}
					if !present(in, name) {
						t.Errorf("%s: the field is not set in the input", body)
					}
					return
				}
				if got := fieldsOf(err); !reflect.DeepEqual(got, []string{name}) {
					t.Errorf("%s: got %v (%v), want a 422 naming [%s]", body, got, err, name)
				}
			})
		}
	}
}

// present reports whether the field name is set in in.
func present(in Input, name string) bool {
	f, ok := requestField(name)
	if !ok {
		return false
	}
	set, _ := optOf(&in, f)
	return set
}

func TestDecodeJSONValues(t *testing.T) {
	t.Parallel()
	body := `{"kind":"calendar_event","status":"tentative","title":"Standup","description":"line 1\nline 2",
		"start_at":"2026-11-25T09:00:00+09:00","end_at":null,"all_day":false,"due_at":null,
		"started_at":null,"ended_at":null,"priority":3,"project_tag":null,"source":"calendar","source_ref":"ics-1"}`
	in, err := DecodeJSON([]byte(body), CreateFields)
	if err != nil {
		t.Fatal(err)
	}
	want := Input{
		Kind:       Opt[Kind]{Set: true, V: KindCalendarEvent},
		Status:     Opt[Status]{Set: true, V: StatusTentative},
		Title:      Opt[string]{Set: true, V: "Standup"},
		StartAt:    Opt[time.Time]{Set: true, V: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)},
		AllDay:     Opt[bool]{Set: true, V: false},
		DueAt:      Opt[time.Time]{Set: true, Null: true},
		StartedAt:  Opt[time.Time]{Set: true, Null: true},
		EndedAt:    Opt[time.Time]{Set: true, Null: true},
		Priority:   Opt[int]{Set: true, V: 3},
		ProjectTag: Opt[string]{Set: true, Null: true},
		Source:     Opt[Source]{Set: true, V: "calendar"},
		SourceRef:  Opt[string]{Set: true, V: "ics-1"},
		more: map[string]any{
			"description": &Opt[string]{Set: true, V: "line 1\nline 2"},
			"end_at":      &Opt[time.Time]{Set: true, Null: true},
		},
	}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("decoded:\ngot  %+v\nwant %+v", in, want)
	}
	if in.StartAt.V.Location() != time.UTC {
		t.Errorf("start_at zone: got %s, want UTC", in.StartAt.V.Location())
	}
	in, err = DecodeJSON([]byte(`{"defer_until":"2026-11-26T09:00:00.1234567-05:00"}`), DeferFields)
	if err != nil {
		t.Fatal(err)
	}
	if got := FormatTime(in.DeferUntil.V); got != "2026-11-26T14:00:00.123456Z" {
		t.Errorf("defer_until: got %s", got)
	}
	if in.FromForm {
		t.Errorf("a JSON body is marked FromForm")
	}
}

func TestDecodeJSONFieldProblems(t *testing.T) {
	t.Parallel()
	cases := []struct {
		set  FieldSet
		body string
		want []string // the fields named, in order
	}{
		// null for a field that is not nullable
		{CreateFields, `{"kind":null}`, []string{"kind"}},
		{CreateFields, `{"status":null}`, []string{"status"}},
		{CreateFields, `{"title":null}`, []string{"title"}},
		{PatchFields, `{"description":null}`, []string{"description"}},
		{PatchFields, `{"all_day":null}`, []string{"all_day"}},
		{PatchFields, `{"priority":null}`, []string{"priority"}},
		{DeferFields, `{"defer_until":null}`, []string{"defer_until"}},
		// wrong types
		{PatchFields, `{"priority":"2"}`, []string{"priority"}},
		{PatchFields, `{"priority":2.5}`, []string{"priority"}},
		{PatchFields, `{"priority":2.0}`, []string{"priority"}},
		{PatchFields, `{"priority":1e400}`, []string{"priority"}},
		{PatchFields, `{"priority":1e0}`, []string{"priority"}},
		{PatchFields, `{"priority":-1}`, []string{"priority"}},
		{PatchFields, `{"priority":4}`, []string{"priority"}},
		{PatchFields, `{"priority":99999999999999999999999}`, []string{"priority"}},
		{PatchFields, `{"priority":true}`, []string{"priority"}},
		{PatchFields, `{"priority":[1]}`, []string{"priority"}},
		{PatchFields, `{"title":5}`, []string{"title"}},
		{PatchFields, `{"title":true}`, []string{"title"}},
		{PatchFields, `{"title":["x"]}`, []string{"title"}},
		{PatchFields, `{"title":{"x":1}}`, []string{"title"}},
		{PatchFields, `{"project_tag":7}`, []string{"project_tag"}},
		{PatchFields, `{"start_at":{}}`, []string{"start_at"}},
		{PatchFields, `{"start_at":{"time":"2026-11-25T09:00:00Z"}}`, []string{"start_at"}},
		{PatchFields, `{"start_at":1764028800}`, []string{"start_at"}},
		{PatchFields, `{"start_at":"tomorrow"}`, []string{"start_at"}},
		{PatchFields, `{"start_at":"2026-11-25T09:00"}`, []string{"start_at"}},
		{PatchFields, `{"start_at":"2026-11-25"}`, []string{"start_at"}},
		{PatchFields, `{"start_at":"2026-13-25T09:00:00Z"}`, []string{"start_at"}},
		{PatchFields, `{"start_at":"0000-12-31T23:00:00Z"}`, []string{"start_at"}},
		{PatchFields, `{"start_at":"0001-01-01T00:00:00+01:00"}`, []string{"start_at"}},
		{PatchFields, `{"start_at":"9999-12-31T23:00:00-02:00"}`, []string{"start_at"}},
		{PatchFields, `{"all_day":"true"}`, []string{"all_day"}},
		{PatchFields, `{"all_day":1}`, []string{"all_day"}},
		{CreateFields, `{"kind":"note"}`, []string{"kind"}},
		{CreateFields, `{"kind":"Task"}`, []string{"kind"}},
		{CreateFields, `{"status":"open"}`, []string{"status"}},
		{CreateFields, `{"source":"web"}`, []string{"source"}},
		{CreateFields, `{"source":1}`, []string{"source"}},
		{DeferFields, `{"defer_until":"soon"}`, []string{"defer_until"}},
		// repeated keys
		{PatchFields, `{"title":"a","title":"b"}`, []string{"title"}},
		{PatchFields, `{"title":"a","title":"a"}`, []string{"title"}},
		// several problems, each named once, in body order
		{PatchFields, `{"kind":"task","title":5,"status":"done","foo":1,"priority":9,"title":"x"}`, []string{"kind", "title", "status", "foo", "priority"}},
	}
	for _, c := range cases {
		_, err := DecodeJSON([]byte(c.body), c.set)
		if got := fieldsOf(err); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v (%s: %v), want a 422 naming %v", c.body, got, class(err), err, c.want)
		}
	}
	// The boundary values that are fine.
	for _, body := range []string{`{"priority":0}`, `{"priority":3}`, `{"priority":-0}`, `{"start_at":"0001-01-01T00:00:00Z"}`,
		`{"start_at":"9999-12-31T23:59:59.999999Z"}`, `{"title":"\u00e9\u0000"}`} {
		if _, err := DecodeJSON([]byte(body), PatchFields); err != nil {
			t.Errorf("%s: %v", body, err)
		}
	}
}

func TestDecodeJSONBadRequest(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		``, ` `, "\n\t", // empty, where a body is needed
		`{`, `{"title":`, `{"title":"x"`, `{"title":}`, `{"title":"x",}`, `{"title" "x"}`, `{title:"x"}`, `{'title':'x'}`,
		`{"title":"x"}}`, `{}{}`, `{} {}`, `{} x`, `{}]`, `{},`, `{} null`,
		`[]`, `[{"title":"x"}]`, `"x"`, `1`, `null`, `true`,
		"{\"title\":\"\xff\"}", "\xef\xbb\xbf{}", "{\"\xc3\":1}",
		`{"title":"x` + "\n" + `"}`, `{"title":"\x"}`, `{"a":[}`, `{"a":tru}`, `{"a":01}`,
	} {
		for _, fs := range fieldSets {
			if body == "" || body == " " || body == "\n\t" {
				if fs.set == NoFields || fs.set == DeferFields {
					// the lifecycle operations accept an empty body
					in, err := DecodeJSON([]byte(body), fs.set)
					if err != nil || !reflect.DeepEqual(in, Input{}) {
						t.Errorf("%s %q: got %+v, %v; want an empty input", fs.name, body, in, err)
					}
					continue
				}
			}
			_, err := DecodeJSON([]byte(body), fs.set)
			var bad *BadRequestError
			if !errors.As(err, &bad) {
				t.Errorf("%s %q: got %s (%v), want a *BadRequestError", fs.name, body, class(err), err)
			} else if bad.Field != "" {
				t.Errorf("%s %q: a body problem names %q", fs.name, body, bad.Field)
			}
		}
	}
	for _, fs := range fieldSets {
		if in, err := DecodeJSON([]byte(" {} \n"), fs.set); err != nil || !reflect.DeepEqual(in, Input{}) {
			t.Errorf("%s {}: got %+v, %v", fs.name, in, err)
		}
	}
}

// form builds a url.Values from name, value pairs (a name may repeat).
func form(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}

func TestDecodeFormFieldSets(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	for _, fs := range fieldSets {
		for name, v := range sample {
			t.Run(fs.name+"/"+name, func(t *testing.T) {
				in, err := DecodeForm(form(name, v[1], CSRFField, "token"), fs.set, seoul)
				if slices.Contains(accepted[fs.set], name) {
					if err != nil {
						t.Fatalf("%s=%s: %v", name, v[1], err)
					}
					if !present(in, name) || !in.FromForm {
						t.Errorf("%s=%s: the field is not set, or FromForm is false", name, v[1])
					}
					return
				}
				if got := fieldsOf(err); !reflect.DeepEqual(got, []string{name}) {
					t.Errorf("%s=%s: got %v (%v), want a 422 naming [%s]", name, v[1], got, err, name)
				}
			})
		}
	}
}

func TestDecodeForm(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	ny := mustZone(t, "America/New_York")

	t.Run("desc is the description", func(t *testing.T) {
		for _, set := range []FieldSet{CreateFields, PatchFields} {
			in, err := DecodeForm(form("desc", "notes\r\nmore"), set, seoul)
			if d := optValue[string](&in, "description"); err != nil || !d.Set || d.V != "notes\r\nmore" {
				t.Errorf("set %d: got %+v, %v", set, d, err)
			}
			_, err = DecodeForm(form("desc", "a", "description", "b"), set, seoul)
			if got := fieldsOf(err); !reflect.DeepEqual(got, []string{"description"}) {
				t.Errorf("set %d, desc and description: got %v, want [description]", set, got)
			}
		}
		for _, set := range []FieldSet{DeferFields, NoFields} {
			_, err := DecodeForm(form("desc", "a"), set, seoul)
			if got := fieldsOf(err); !reflect.DeepEqual(got, []string{"desc"}) {
				t.Errorf("set %d, desc: got %v, want [desc]", set, got)
			}
		}
	})

	t.Run("an empty value of a nullable field is null", func(t *testing.T) {
		nullable := tableFields(func(f *Field) bool { return f.acceptsNull() && f.Accepted(CreateFields) })
		if names := namesOf(nullable); !slices.Contains(names, "project_tag") || !slices.Contains(names, "start_at") {
			t.Fatalf("nullable fields of a create: %v", names)
		}
		empty := url.Values{}
		for _, f := range nullable {
			empty.Set(f.Form(), "")
		}
		in, err := DecodeForm(empty, CreateFields, seoul)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range nullable {
			if set, null := optOf(&in, f); !set || !null {
				t.Errorf("%s=: got set %v, null %v; want null", f.Name, set, null)
			}
		}
		// Empty text of a field that is not nullable is the empty string.
		in, err = DecodeForm(form("title", "", "desc", ""), PatchFields, seoul)
		if d := optValue[string](&in, "description"); err != nil || !in.Title.Set || in.Title.Null || in.Title.V != "" || !d.Set || d.V != "" {
			t.Errorf("empty title and desc: got %+v %+v, %v", in.Title, d, err)
		}
		// Empty values that cannot be empty.
		for _, c := range []struct {
			set  FieldSet
			name string
		}{
			{CreateFields, "kind"}, {CreateFields, "status"}, {PatchFields, "priority"}, {DeferFields, "defer_until"},
		} {
			_, err := DecodeForm(form(c.name, ""), c.set, seoul)
			wantFieldError(t, err, c.name)
		}
	})

	t.Run("all_day", func(t *testing.T) {
		in, err := DecodeForm(form("title", "t"), PatchFields, seoul)
		if err != nil || in.AllDay != (Opt[bool]{Set: true, V: false}) {
			t.Errorf("PATCH without all_day: got %+v, %v; want set false", in.AllDay, err)
		}
		in, err = DecodeForm(form("title", "t"), CreateFields, seoul)
		if err != nil || in.AllDay.Set {
			t.Errorf("create without all_day: got %+v, %v; want absent", in.AllDay, err)
		}
		for _, v := range []string{"on", "true", "1", "yes", "ON", "True"} {
			in, err := DecodeForm(form("all_day", v), PatchFields, seoul)
			if err != nil || in.AllDay != (Opt[bool]{Set: true, V: true}) {
				t.Errorf("all_day=%s: got %+v, %v", v, in.AllDay, err)
			}
		}
		for _, v := range []string{"off", "false", "0", "no", ""} {
			in, err := DecodeForm(form("all_day", v), PatchFields, seoul)
			if err != nil || in.AllDay != (Opt[bool]{Set: true, V: false}) {
				t.Errorf("all_day=%s: got %+v, %v", v, in.AllDay, err)
			}
		}
		_, err = DecodeForm(form("all_day", "maybe"), PatchFields, seoul)
		wantFieldError(t, err, "all_day")
	})

	t.Run("_csrf is ignored", func(t *testing.T) {
		for _, fs := range fieldSets {
			in, err := DecodeForm(form(CSRFField, "a", CSRFField, "b"), fs.set, seoul)
			want := Input{FromForm: true}
			if fs.set == PatchFields {
				want.AllDay = Opt[bool]{Set: true}
			}
			if err != nil || !reflect.DeepEqual(in, want) {
				t.Errorf("%s: got %+v, %v", fs.name, in, err)
			}
		}
	})

	t.Run("times read in the zone given", func(t *testing.T) {
		cases := []struct {
			loc  *time.Location
			v    string
			want string
		}{
			{seoul, "2026-11-25T09:00", "2026-11-25T00:00:00Z"},
			{seoul, "2026-11-25T09:00:30", "2026-11-25T00:00:30Z"},
			{seoul, "2026-11-25 09:00", "2026-11-25T00:00:00Z"},
			{seoul, "2026-11-25", "2026-11-25T14:59:59.999999Z"}, // a day-only due: the day's last microsecond
			{ny, "2026-11-25T09:00", "2026-11-25T14:00:00Z"},
			{ny, "2026-07-01T09:00", "2026-07-01T13:00:00Z"},
			{ny, "2026-11-25T09:00:00+09:00", "2026-11-25T00:00:00Z"}, // an offset wins
			{ny, "2026-11-25T09:00:00Z", "2026-11-25T09:00:00Z"},
		}
		for _, c := range cases {
			in, err := DecodeForm(form("due_at", c.v), PatchFields, c.loc)
			if err != nil {
				t.Errorf("%s in %s: %v", c.v, c.loc, err)
				continue
			}
			if got := in.DueAt.V; !got.Equal(ts(t, c.want)) || got.Location() != time.UTC {
				t.Errorf("%s in %s: got %s, want %s", c.v, c.loc, got, c.want)
			}
		}
		for _, v := range []string{"tomorrow", "25/11/2026", "2026-11-25T09", "2026-11-25T09:00:00.5+9", "2026-11-25T24:00", "0000-01-01", "2026-11-25T09:00+09"} {
			_, err := DecodeForm(form("due_at", v), PatchFields, seoul)
			wantFieldError(t, err, "due_at")
		}
	})

	t.Run("values", func(t *testing.T) {
		in, err := DecodeForm(form("kind", "activity_log", "status", "in_progress", "title", " x ", "priority", " 2 ", "source", "shell", "source_ref", "r"), CreateFields, seoul)
		if err != nil {
			t.Fatal(err)
		}
		want := Input{Kind: Opt[Kind]{Set: true, V: KindActivityLog}, Status: Opt[Status]{Set: true, V: StatusInProgress},
			Title: Opt[string]{Set: true, V: " x "}, Priority: Opt[int]{Set: true, V: 2},
			Source: Opt[Source]{Set: true, V: "shell"}, SourceRef: Opt[string]{Set: true, V: "r"}, FromForm: true}
		if !reflect.DeepEqual(in, want) {
			t.Errorf("got  %+v\nwant %+v", in, want)
		}
		for _, c := range [][2]string{{"priority", "2.5"}, {"priority", "4"}, {"priority", "-1"}, {"priority", "two"},
			{"kind", "note"}, {"status", "open"}, {"source", "web"}, {"title", "\xff"}, {"desc", "a\xc3"}} {
			_, err := DecodeForm(form(c[0], c[1]), CreateFields, seoul)
			name := c[0]
			if name == "desc" {
				name = "description"
			}
			wantFieldError(t, err, name)
		}
	})

	t.Run("repeated and refused fields", func(t *testing.T) {
		for _, c := range []struct {
			set  FieldSet
			f    url.Values
			want []string
		}{
			{PatchFields, form("title", "a", "title", "b"), []string{"title"}},
			{PatchFields, form("title", "a", "title", "a"), []string{"title"}},
			{CreateFields, form("kind", "task", "kind", "task"), []string{"kind"}},
			{PatchFields, form("kind", "task", "status", "done", "source", "email", "completed_at", "x", "cancelled_at", "x", "defer_until", "x", "id", "1", "foo", "1"),
				[]string{"cancelled_at", "completed_at", "defer_until", "foo", "id", "kind", "source", "status"}},
		} {
			_, err := DecodeForm(c.f, c.set, seoul)
			got := fieldsOf(err)
			sort.Strings(got)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%v: got %v (%v), want a 422 naming %v", c.f, got, err, c.want)
			}
		}
	})
}

// TestAppendTimeMatchesTheLayout: the hand-written formatter writes what
// time's own AppendFormat writes, for every precision and zone and the
// ends of the stored years.
func TestAppendTimeMatchesTheLayout(t *testing.T) {
	t.Parallel()
	zones := []*time.Location{time.UTC, time.FixedZone("x", -9*3600-30*60), mustZone(t, "Asia/Seoul")}
	for _, tm := range []time.Time{
		time.Date(2026, 11, 22, 3, 4, 5, 0, time.UTC),
		time.Date(2026, 11, 22, 3, 4, 5, 123456789, time.UTC),
		time.Date(2026, 1, 2, 23, 59, 59, 999999999, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 1000, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC),
		time.Date(999, 6, 30, 12, 0, 0, 10000, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		for _, z := range zones {
			in := tm.In(z)
			if got, want := string(AppendTime(nil, in)), in.UTC().Format(TimeLayout); got != want {
				t.Errorf("AppendTime(%v) = %s, want %s", in, got, want)
			}
		}
	}
}
