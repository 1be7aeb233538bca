// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"errors"
	"fmt"
	"strings"

	"events/internal/i18n"
)

// ErrNotFound: no such event (or an id that is not a number).
var ErrNotFound = errors.New("no such event")

// BadRequestError is a body or a query value that does not parse (400).
type BadRequestError struct {
	Field  string // the query parameter (or header), when one is at fault
	Code   Code   // why the Field is at fault: the code of the problem's error entry
	Reason string
}

func (e *BadRequestError) Error() string {
	if e.Field != "" {
		return e.Field + ": " + e.Reason
	}
	return e.Reason
}

// BadRequest returns a *BadRequestError. A field names a parameter (or a
// header) at fault, and the answer lists it with the code; without one
// ("", the body or the request as a whole) the code is not sent: pass
// CodeBadFormat.
func BadRequest(field string, code Code, format string, args ...any) error {
	return &BadRequestError{Field: field, Code: code, Reason: fmt.Sprintf(format, args...)}
}

// ErrUnsupportedMediaType: a body that is neither JSON nor a form (415).
var ErrUnsupportedMediaType = errors.New("the body must be JSON (application/json) or a form (application/x-www-form-urlencoded)")

// ConflictError is an operation the current status does not allow (409).
type ConflictError struct {
	Reason string
	// Event, when set, is the event as it is: a lifecycle step its status
	// does not allow, whose answer names the status and the operations it
	// does allow.
	Event *Event
	// Field is the field whose value makes the step impossible, which the
	// answer names with CodeIllegalStep: status when empty.
	Field string
}

func (e *ConflictError) Error() string { return e.Reason }

// DuplicateError is a create whose (source, source_ref) is already stored (409).
type DuplicateError struct{ ExistingID int64 }

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("an event with this source and source_ref is already stored (id %d)", e.ExistingID)
}

// FieldError is one field's problem: its stable code (models/problems.go)
// and a sentence. Make it with Invalid or FieldErrors.add; a literal must
// name its Code (TestEveryFieldErrorHasACode reads the source for one
// without).
type FieldError struct {
	Field   string `json:"field"`
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// Says is Message as a catalogue message, when it is one (the capture
	// grammar's refusals): a page, or an API client that asks for
	// another language, writes it in its language. Not in the JSON.
	Says i18n.Msg `json:"-"`
}

// FieldErrors is a request refused for its fields (422), naming each field.
type FieldErrors []FieldError

func (fe FieldErrors) Error() string {
	parts := make([]string, len(fe))
	for i, e := range fe {
		parts[i] = e.Field + ": " + e.Message
	}
	return strings.Join(parts, "; ")
}

// add appends a problem; a field keeps only its first problem.
func (fe *FieldErrors) add(field string, code Code, format string, args ...any) {
	for _, e := range *fe {
		if e.Field == field {
			return
		}
	}
	*fe = append(*fe, FieldError{Field: field, Code: code, Message: fmt.Sprintf(format, args...)})
}

// addMsg appends a problem whose message is a catalogue message m (in
// English as Message); a field keeps only its first problem.
func (fe *FieldErrors) addMsg(field string, code Code, m i18n.Msg) {
	if fe.has(field) {
		return
	}
	*fe = append(*fe, FieldError{Field: field, Code: code, Message: m.Error(), Says: m})
}

// has reports whether field already has a problem.
func (fe FieldErrors) has(field string) bool {
	for _, e := range fe {
		if e.Field == field {
			return true
		}
	}
	return false
}

// err returns fe as an error, or nil when it is empty.
func (fe FieldErrors) err() error {
	if len(fe) == 0 {
		return nil
	}
	return fe
}

// Invalid returns a FieldErrors with one problem.
func Invalid(field string, code Code, format string, args ...any) error {
	var fe FieldErrors
	fe.add(field, code, format, args...)
	return fe
}
