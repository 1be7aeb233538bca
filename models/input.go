// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Opt is one field of a request: absent, present as null, or present with a value.
type Opt[T any] struct {
	Set  bool // the field is in the request
	Null bool // it is null (JSON null, or an empty form value)
	V    T
}

// Ptr returns the value, or nil when the field is absent or null.
func (o Opt[T]) Ptr() *T {
	if !o.Set || o.Null {
		return nil
	}
	v := o.V
	return &v
}

// FieldSet names which fields a request may carry.
type FieldSet int

const (
	CreateFields FieldSet = iota // POST /api/events
	PatchFields                  // PATCH /api/events/{id}
	DeferFields                  // POST /api/events/{id}/defer
	NoFields                     // complete, cancel, reactivate: at most "at" (complete and cancel)
)

// CSRFField is the form field that carries the CSRF token; forms may always send it.
const CSRFField = "_csrf"

// KnownName reports whether name is a field, a form field or a query
// parameter the API knows. A log may show such a name; any other name came
// from the client and may hold anything.
func KnownName(name string) bool {
	if _, ok := fieldIndex[name]; ok {
		return true
	}
	if _, ok := formAliases[name]; ok {
		return true
	}
	for _, params := range listParams {
		if slices.Contains(params, name) {
			return true
		}
	}
	switch name {
	case "tab", CSRFField:
		return true
	}
	return false
}

// refusal says why a field is refused in a request of this set, with its
// code, or "" when it is accepted.
func refusal(name string, set FieldSet) (string, Code, bool) {
	f, known := requestField(name)
	if !known {
		switch name {
		case "completed_at", "cancelled_at":
			return "is set only by the lifecycle operations", CodeNotEditable, true
		}
		if _, ok := fieldIndex[name]; ok {
			// id, created_at, updated_at, reactivate_to, zone and the dates
			return "is set by the server", CodeNotEditable, true
		}
		return "is not a known field", CodeUnknownField, true
	}
	if f.Accepted(set) {
		return "", Code{}, false
	}
	switch {
	case name == "defer_until":
		return "is set only by the lifecycle operations (POST /api/events/{id}/defer)", CodeNotEditable, true
	case set == PatchFields:
		return "is not editable", CodeNotEditable, true
	}
	return "is not accepted here", CodeNotEditable, true
}

// DecodeJSON decodes a JSON object body. Syntax errors are a
// *BadRequestError; unknown, refused, repeated or mistyped fields are
// FieldErrors naming each field.
func DecodeJSON(body []byte, set FieldSet) (Input, error) {
	var in Input
	if !utf8.Valid(body) {
		return in, BadRequest("", CodeBadFormat, "the body is not valid UTF-8")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if set == NoFields || set == DeferFields {
			return in, nil
		}
		return in, BadRequest("", CodeBadFormat, "the body is empty: send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return in, BadRequest("", CodeBadFormat, "the body is not valid JSON: %s", jsonReason(err))
	}
	if tok != json.Delim('{') {
		return in, BadRequest("", CodeBadFormat, "the body must be a JSON object")
	}
	var fe FieldErrors
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return in, BadRequest("", CodeBadFormat, "the body is not valid JSON: %s", jsonReason(err))
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return in, BadRequest("", CodeBadFormat, "the body is not valid JSON: %s", jsonReason(err))
		}
		if seen[name] {
			fe.add(name, CodeRepeated, "appears more than once")
			continue
		}
		seen[name] = true
		if why, code, refused := refusal(name, set); refused {
			fe.add(name, code, "%s", why)
			continue
		}
		if loneSurrogate(raw) {
			// encoding/json would store U+FFFD in its place: a change of
			// the text nobody asked for
			fe.add(name, CodeBadFormat, "holds a \\u escape of half a UTF-16 surrogate pair (such as \\ud800) without its other half; send the character itself or the whole pair")
			continue
		}
		if code, msg := setJSON(fieldIndex[name], fieldIndex[name].input(&in), raw); msg != "" {
			fe.add(name, code, "%s", msg)
		}
	}
	if _, err := dec.Token(); err != nil {
		return in, BadRequest("", CodeBadFormat, "the body is not valid JSON: %s", jsonReason(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return in, BadRequest("", CodeBadFormat, "the body has data after its JSON object")
	}
	return in, fe.err()
}

// loneSurrogate reports whether the JSON value raw holds a \u escape of a
// UTF-16 surrogate that is not half of a pair: a high one (D800-DBFF) not
// followed at once by a low one's escape, or a low one (DC00-DFFF) that
// does not follow a high one. raw is valid JSON, so a backslash is always
// the start of an escape inside a string.
func loneSurrogate(raw []byte) bool {
	pendingHigh := false
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			if pendingHigh {
				return true
			}
			continue
		}
		i++ // the escaped character
		if raw[i] != 'u' {
			if pendingHigh {
				return true
			}
			continue
		}
		r, err := strconv.ParseUint(string(raw[i+1:i+5]), 16, 16)
		if err != nil {
			return true // cannot happen in valid JSON; refused if it does
		}
		i += 4
		switch {
		case r >= 0xD800 && r <= 0xDBFF:
			if pendingHigh {
				return true
			}
			pendingHigh = true
		case r >= 0xDC00 && r <= 0xDFFF:
			if !pendingHigh {
				return true
			}
			pendingHigh = false
		default:
			if pendingHigh {
				return true
			}
		}
	}
	return pendingHigh
}

func jsonReason(err error) string {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "it ends too soon"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// setJSON decodes raw into target (an *Opt[...]) and returns a problem
// with its code, or "".
func setJSON(f *Field, target any, raw json.RawMessage) (Code, string) {
	if string(raw) == "null" {
		if !f.acceptsNull() {
			return CodeRequired, "must not be null"
		}
		setNull(target)
		return Code{}, ""
	}
	switch t := target.(type) {
	case *Opt[[]string]:
		return setJSONLabels(t, raw)
	case *Opt[string]:
		if raw[0] != '"' || json.Unmarshal(raw, &t.V) != nil {
			return CodeBadFormat, "must be a string"
		}
		t.Set = true
	case *Opt[bool]:
		if json.Unmarshal(raw, &t.V) != nil {
			return CodeBadFormat, "must be true or false"
		}
		t.Set = true
	case *Opt[int]:
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			if raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9') {
				code := CodeBadFormat // 1.5, 1e3
				if errors.Is(err, strconv.ErrRange) {
					code = CodeOutOfRange
				}
				return code, fmt.Sprintf("must be a whole number from %d to %d", f.Min, f.Max)
			}
			return CodeBadFormat, "must be a number"
		}
		if n < int64(f.Min) || n > int64(f.Max) {
			return CodeOutOfRange, fmt.Sprintf("must be from %d to %d", f.Min, f.Max)
		}
		t.V, t.Set = int(n), true
	default:
		var s string
		if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			if f.Type == TypeTime {
				return CodeBadFormat, "must be an RFC 3339 time string, such as 2026-11-25T09:00:00+09:00"
			}
			return CodeBadFormat, "must be a string"
		}
		return setText(f, target, s, nil)
	}
	return Code{}, ""
}

func setNull(target any) { target.(interface{ setNull() }).setNull() }

func (o *Opt[T]) setNull() { o.Set, o.Null = true, true }

// setText parses a textual value of an enum or time field; loc reads form
// times that carry no offset (nil: an offset is required).
func setText(f *Field, target any, s string, loc *time.Location) (Code, string) {
	switch t := target.(type) {
	case *Opt[Kind]:
		if !Kind(s).Valid() {
			return CodeBadFormat, "must be one of task, calendar_event, activity_log"
		}
		t.V, t.Set = Kind(s), true
	case *Opt[Status]:
		if !Status(s).Valid() {
			return CodeBadFormat, "must be one of " + joinStatuses(Statuses)
		}
		t.V, t.Set = Status(s), true
	case *Opt[Source]:
		if !Source(s).Valid() {
			return CodeBadFormat, "must be one of calendar, issue_tracker, email, chat, shell, import, other"
		}
		t.V, t.Set = Source(s), true
	case *Opt[time.Time]:
		v, code, msg := ParseTime(s, loc)
		if msg != "" {
			return code, msg
		}
		t.V, t.Set = v, true
	case *Opt[string]:
		t.V, t.Set = s, true
	}
	return Code{}, ""
}

// formLayouts are the offset-less layouts a form may send (datetime-local
// and date inputs), read in the page's time zone.
var formLayouts = []string{"2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02"}

// ParseTime reads an RFC 3339 time; with loc, also the offset-less layouts of
// form inputs, in loc. It returns the time in UTC at microsecond precision, or
// a problem and its code.
func ParseTime(s string, loc *time.Location) (time.Time, Code, string) {
	s = upperTZ(s)
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil && loc != nil {
		for _, layout := range formLayouts {
			if t, err = time.ParseInLocation(layout, s, loc); err == nil {
				break
			}
		}
	}
	if err != nil {
		if loc != nil {
			return time.Time{}, CodeBadFormat, "must be a date and time, such as 2026-11-25T09:00"
		}
		return time.Time{}, CodeBadFormat, "must be an RFC 3339 time, such as 2026-11-25T09:00:00+09:00"
	}
	if y := t.UTC().Year(); y < 1 || y > 9999 {
		return time.Time{}, CodeOutOfRange, "must be between the years 0001 and 9999"
	}
	return t.UTC().Truncate(time.Microsecond), Code{}, ""
}

// upperTZ spells RFC 3339's separator and its UTC designator in capitals:
// RFC 3339 (5.6) lets them be lowercase, "2026-11-25t09:00:00z", which Go's
// parser refuses. Only those two places change.
func upperTZ(s string) string {
	if len(s) > 10 && s[10] == 't' {
		s = s[:10] + "T" + s[11:]
	}
	if n := len(s); n > 11 && s[n-1] == 'z' {
		s = s[:n-1] + "Z"
	}
	return s
}

// formAliases are the form names that are not the API's (desc for the
// description), from EventFields.
var formAliases = func() map[string]string {
	m := map[string]string{}
	for _, f := range EventFields {
		if f.FormName != "" {
			m[f.FormName] = f.Name
		}
	}
	return m
}()

// DecodeForm decodes a form body. In a form, an empty value of a nullable
// field is null; in a PATCH, an absent all_day checkbox is false. The
// description may be sent as desc, the name the edit form uses.
func DecodeForm(form url.Values, set FieldSet, loc *time.Location) (Input, error) {
	in := Input{FromForm: true}
	var fe FieldErrors
	for name, values := range form {
		if name == CSRFField {
			continue
		}
		key := name
		if f, ok := formAliases[name]; ok && set != DeferFields && set != NoFields {
			key = f
		}
		if len(values) > 1 || (key != name && form.Has(key)) {
			fe.add(key, CodeRepeated, "appears more than once")
			continue
		}
		if why, code, refused := refusal(key, set); refused {
			fe.add(key, code, "%s", why)
			continue
		}
		v := values[0]
		if !utf8.ValidString(v) {
			fe.add(key, CodeBadFormat, "is not valid UTF-8")
			continue
		}
		if code, msg := setForm(fieldIndex[key], fieldIndex[key].input(&in), v, loc); msg != "" {
			fe.add(key, code, "%s", msg)
		}
	}
	if set == PatchFields && !in.AllDay.Set {
		in.AllDay = Opt[bool]{Set: true}
	}
	formDays(form, &in, loc, &fe)
	return in, fe.err()
}

// formDays reads the date-only values of a form's time inputs, which the
// pages send for days (issue 47): an all-day entry's end_at given as a
// day is its last day, stored as the midnight after it (end_at is
// exclusive), so "29 Nov" as the end covers the 29th; a task's due_at
// given as a day is due any time that day, stored as the day's last
// microsecond (DueDayOnly), as a capture text's day is. A start given as
// a day is its midnight, as ParseTime reads it.
func formDays(form url.Values, in *Input, loc *time.Location, fe *FieldErrors) {
	if loc == nil {
		return
	}
	set := func(name string, o *Opt[time.Time], t time.Time) {
		if y := t.UTC().Year(); y < 1 || y > 9999 { // the last day of 9999, east of UTC
			fe.add(name, CodeOutOfRange, "must be between the years 0001 and 9999")
			return
		}
		o.V = t.UTC()
	}
	if d, ok := formDate(form, "end_at", loc); ok && in.AllDay.V {
		if end, _ := fieldIndex["end_at"].input(in).(*Opt[time.Time]); end != nil && end.Set && !end.Null {
			set("end_at", end, dayStart(d.Year(), d.Month(), d.Day()+1, loc))
		}
	}
	if d, ok := formDate(form, "due_at", loc); ok && in.DueAt.Set && !in.DueAt.Null {
		set("due_at", &in.DueAt, EndOfDay(d.Year(), d.Month(), d.Day(), loc))
	}
}

// formDate is the form's value of name when it is a date alone
// (2026-11-29), as a date input sends it.
func formDate(form url.Values, name string, loc *time.Location) (time.Time, bool) {
	v := form[name]
	if len(v) != 1 || len(v[0]) != len("2006-01-02") {
		return time.Time{}, false
	}
	d, err := time.ParseInLocation("2006-01-02", v[0], loc)
	return d, err == nil
}

func setForm(f *Field, target any, v string, loc *time.Location) (Code, string) {
	if v == "" && f.acceptsNull() {
		setNull(target)
		return Code{}, ""
	}
	switch t := target.(type) {
	case *Opt[[]string]:
		t.V, t.Set = SplitLabels(v), true
	case *Opt[bool]:
		switch strings.ToLower(v) {
		case "on", "true", "1", "yes":
			t.V = true
		case "off", "false", "0", "no", "":
			t.V = false
		default:
			return CodeBadFormat, "must be true or false"
		}
		t.Set = true
	case *Opt[int]:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < f.Min || n > f.Max {
			code := CodeOutOfRange
			if err != nil {
				code = CodeBadFormat
			}
			return code, fmt.Sprintf("must be a whole number from %d to %d", f.Min, f.Max)
		}
		t.V, t.Set = n, true
	default:
		if v == "" && f.Type != TypeText {
			return CodeRequired, "is required"
		}
		return setText(f, target, v, loc)
	}
	return Code{}, ""
}

func joinStatuses(ss []Status) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = string(s)
	}
	return strings.Join(parts, ", ")
}
