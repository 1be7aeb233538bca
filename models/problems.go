// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

// The codes of a problem's errors, declared once: each entry of a
// problem's "errors" carries one beside its field and its sentence, so a
// client tells one refusal from another without reading English. The
// OpenAPI document lists them (an enum on FieldError.code), docs/api.md
// explains them and so does the page of the problem types that carry them;
// a test compares all three with this table. A code is part of the API:
// add one here when no code says what a new refusal means, never rename
// one.

// Code is the stable, machine-readable reason of a field error. Only this
// package makes codes (the vars below), so a field error gets its code
// from the table, and the constructors of field errors (Invalid,
// BadRequest, FieldErrors.add) take one.
type Code struct{ name string }

// String is the code as the API writes it ("too_long").
func (c Code) String() string { return c.name }

// MarshalText writes the code as a JSON string.
func (c Code) MarshalText() ([]byte, error) { return []byte(c.name), nil }

// CodeInfo is one code and what it means, for the documentation.
type CodeInfo struct {
	Code  Code
	Means string // one sentence, for the problem pages and docs/api.md
}

var codes []CodeInfo

func code(name, means string) Code {
	c := Code{name}
	codes = append(codes, CodeInfo{Code: c, Means: means})
	return c
}

// Codes are every code, in the order they are declared.
func Codes() []CodeInfo { return codes }

// The codes.
var (
	CodeRequired          = code("required", "A value is needed and none was sent (or it was empty): the field is required, for this kind or because of another field.")
	CodeUnknownField      = code("unknown_field", "The name is not a field of this request, or not a parameter of this address.")
	CodeNotEditable       = code("not_editable", "The field exists but this request may not set it: the server sets it, or only a lifecycle operation does.")
	CodeNotAllowedForKind = code("not_allowed_for_kind", "The field, value or operation does not apply to an event of this kind.")
	CodeRepeated          = code("repeated", "The field, parameter or header was sent more than once.")
	CodeBadFormat         = code("bad_format", "The value does not read as its type: not a time, a number, true or false, a known name, UTF-8 text or a valid token.")
	CodeOutOfRange        = code("out_of_range", "The value reads well but lies outside its bounds, or on the wrong side of another field (an end before its start).")
	CodeTooLong           = code("too_long", "The text is longer than its field takes.")
	CodeControlCharacter  = code("control_character", "The text holds a control character (or a bidirectional control in a one-line field).")
	CodeInThePast         = code("in_the_past", "The time must lie after now.")
	CodeInTheFuture       = code("in_the_future", "The time must not lie after now.")
	CodeConflictingFields = code("conflicting_fields", "The field cannot be sent together with another one, or with the status the event has.")
	CodeAmbiguousText     = code("ambiguous_text", "The capture text could not be read as one day, time, duration, tag or title.")
	CodeStorageRule       = code("storage_rule", "The database refused the value by one of its rules.")
	CodeKeyReused         = code("key_reused", "The Idempotency-Key was sent in the last 24 hours with another request.")
	CodeIllegalStep       = code("illegal_step", "The lifecycle operation does not apply to the event's status now; the answer names the status and the operations that do.")
)
