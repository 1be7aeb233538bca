// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Labels (DESIGN.md, Labels and places): any number of short names beside
// the one project_tag, each with the project tag's character rules. A
// labels field is a TypeLabels field of the table; this file is how such a
// field decodes, normalises, checks and writes itself.

// Bounds of labels.
const (
	MaxLabels = 20 // labels an event may carry
	MaxLabel  = 64 // characters of one label
)

// LabelsSeparator joins an event's labels in a CSV cell.
const LabelsSeparator = ";"

func labelsField(name string, get func(*Event) *[]string, input func(*Input) any, sets ...FieldSet) Field {
	f := newField[[]string](name, TypeLabels, false, input, sets)
	f.getLabels = get
	return f
}

// Labels reads a labels field (never nil once normalised).
func (f *Field) Labels(e *Event) []string { return *f.getLabels(e) }

// SetLabels stores a labels field.
func (f *Field) SetLabels(e *Event, l []string) { *f.getLabels(e) = l }

// NormaliseLabel is one label as it is stored: trimmed, its leading "@"
// (the capture text's marker) or "#" dropped.
func NormaliseLabel(s string) string {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "@") || strings.HasPrefix(s, "#") {
		s = strings.TrimSpace(s[1:])
	}
	return s
}

// NormaliseLabels normalises each label, drops the empty ones and the
// repeats (the first stays, in the given order).
func NormaliseLabels(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		s = NormaliseLabel(s)
		if s == "" || containsString(out, s) {
			continue
		}
		out = append(out, s)
	}
	return out
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// checkLabels normalises the labels field f of e and checks them.
func checkLabels(e *Event, f *Field, fe *FieldErrors) {
	for _, s := range f.Labels(e) {
		if checkSent(fe, f.Name, s) {
			return
		}
	}
	l := NormaliseLabels(f.Labels(e))
	f.SetLabels(e, l)
	if len(l) > MaxLabels {
		fe.add(f.Name, CodeTooLong, "must hold at most %d labels (it has %d)", MaxLabels, len(l))
		return
	}
	for _, s := range l {
		if n := utf8.RuneCountInString(s); n > MaxLabel {
			fe.add(f.Name, CodeTooLong, "each label must be at most %d characters (%q has %d)", MaxLabel, clipLabel(s), n)
			return
		}
		before := len(*fe)
		checkText(fe, f.Name, s, MaxLabel, false)
		if len(*fe) > before {
			return
		}
	}
}

func clipLabel(s string) string {
	if r := []rune(s); len(r) > 20 {
		return string(r[:20]) + "…"
	}
	return s
}

// appendJSONLabels appends labels as a JSON array of strings.
func appendJSONLabels(b []byte, l []string) []byte {
	b = append(b, '[')
	for i, s := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, s)
	}
	return append(b, ']')
}

// setJSONLabels decodes a JSON array of strings.
func setJSONLabels(t *Opt[[]string], raw json.RawMessage) (Code, string) {
	if raw[0] != '[' {
		return CodeBadFormat, "must be an array of strings, such as [\"회의\", \"client-acme\"]"
	}
	var l []string
	if err := json.Unmarshal(raw, &l); err != nil {
		return CodeBadFormat, "must be an array of strings, such as [\"회의\", \"client-acme\"]"
	}
	if l == nil {
		l = []string{}
	}
	t.V, t.Set = l, true
	return Code{}, ""
}

// SplitLabels reads a form's labels: names separated by commas, each
// with or without its "@" (`회의, client-acme` or `@회의 @client-acme`
// when no comma is there: then spaces separate).
func SplitLabels(v string) []string {
	if !strings.Contains(v, ",") && strings.Contains(v, "@") {
		return strings.Fields(v)
	}
	return strings.Split(v, ",")
}

// JoinLabels is labels as a form shows them.
func JoinLabels(l []string) string { return strings.Join(l, ", ") }

// labelsValue is the labels' value where a comparable value is needed
// (a PATCH's change test): their JSON.
func labelsValue(l []string) string { return string(appendJSONLabels(nil, l)) }

// ParseLabelArray reads PostgreSQL's text form of a one-dimensional text[]
// ({a,"b c","d\"e"}), as a row's text holds it.
func ParseLabelArray(s string) ([]string, error) {
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return nil, fmt.Errorf("%q is not an array", s)
	}
	s = s[1 : len(s)-1]
	out := []string{}
	if s == "" {
		return out, nil
	}
	for i := 0; ; {
		var b strings.Builder
		if i < len(s) && s[i] == '"' {
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
					if i == len(s) {
						break
					}
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("an array element does not end")
			}
			i++ // the closing quote
		} else {
			j := strings.IndexByte(s[i:], ',')
			if j < 0 {
				j = len(s) - i
			}
			elem := s[i : i+j]
			if elem == "NULL" {
				return nil, fmt.Errorf("a label is NULL")
			}
			b.WriteString(elem)
			i += j
		}
		out = append(out, b.String())
		if i == len(s) {
			return out, nil
		}
		if s[i] != ',' {
			return nil, fmt.Errorf("an array element is followed by %q", s[i])
		}
		i++
	}
}
