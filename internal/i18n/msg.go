// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package i18n

// Msg is a sentence not yet put in words: a catalogue id and its
// arguments (name and value pairs, as T takes them). A package that says
// something a page shows, such as the capture grammar's notes and
// refusals, returns a Msg; the page writes it in its language (In), the
// JSON API in English (or in the language Accept-Language asks for).
// As an error it reads in English.
type Msg struct {
	ID   string
	Args []any
}

// M is the Msg of id with its arguments.
func M(id string, args ...any) Msg { return Msg{ID: id, Args: args} }

// In is m in l; "" for the zero Msg.
func (m Msg) In(l *Lang) string {
	if m.ID == "" {
		return ""
	}
	return l.T(m.ID, m.Args...)
}

// IsZero tells whether m says nothing.
func (m Msg) IsZero() bool { return m.ID == "" }

// Error is m in English.
func (m Msg) Error() string { return m.In(English) }

// String is m in English.
func (m Msg) String() string { return m.In(English) }
