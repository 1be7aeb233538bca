// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"events/internal/i18n"
)

// This file is the one place an event field is declared: the row
// (Event) and the table (EventFields) from which the column list, the
// listing scanner, the JSON encoding, the request decoding and its
// normalisation and bounds, the PATCH update set and change test, the
// constraint-to-field mapping, the forms and the tests' lists of fields
// are all derived. Adding an editable field means a migration (its column
// and the CHECK constraints its line declares), a field of Event and a
// line in EventFields (which says how a list row shows it: RowPart), the
// row template and handlers/rowhtml.go only for a field the row draws in
// markup of its own, and the documentation (go generate ./docs writes docs/openapi.json
// from this table; docs/DESIGN.md "Fields and JSON"). Only a field the code reads by name in a request needs a
// field of Input too.

// Event is one row of the events table.
type Event struct {
	bun.BaseModel `bun:"table:events,alias:e"`

	ID          int64      `bun:"id,pk,autoincrement"`
	Kind        Kind       `bun:"kind,notnull"`
	Status      Status     `bun:"status,notnull"`
	Title       string     `bun:"title,notnull"`
	Description string     `bun:"description,notnull"`
	StartAt     *time.Time `bun:"start_at"`
	EndAt       *time.Time `bun:"end_at"`
	AllDay      bool       `bun:"all_day,notnull"`
	DueAt       *time.Time `bun:"due_at"`
	StartedAt   *time.Time `bun:"started_at"`
	EndedAt     *time.Time `bun:"ended_at"`
	Priority    int        `bun:"priority,notnull"`
	ProjectTag  *string    `bun:"project_tag"`
	Labels      []string   `bun:"labels,array"`
	Location    *string    `bun:"location"`
	CompletedAt *time.Time `bun:"completed_at"`
	CancelledAt *time.Time `bun:"cancelled_at"`
	DeferUntil  *time.Time `bun:"defer_until"`
	Source      *Source    `bun:"source"`
	SourceRef   *string    `bun:"source_ref"`
	// UndoStatus is the status reactivate would restore, nil when there is
	// no step to undo. Every operation keeps it current, so a row can offer
	// its buttons without reading the history.
	UndoStatus *Status `bun:"undo_status"`
	// UndoTop is the history row of the step reactivate would undo (not in
	// the API; read only while UndoStatus is set). Each step's row names the
	// step beneath it (History.UndoNext). See app.undoStack.
	UndoTop   *int64    `bun:"undo_top"`
	CreatedAt time.Time `bun:"created_at,notnull"`
	UpdatedAt time.Time `bun:"updated_at,notnull"`

	// CaptureNote says how a create's capture text read a word that could
	// mean more than one thing (Capture.Note), in English. Never stored:
	// only the answer to that create carries it, as "capture_note".
	// CaptureSays is the same sentence as a catalogue message, which a
	// page writes in its language (zero when CaptureNote is "").
	CaptureNote string   `bun:"-"`
	CaptureSays i18n.Msg `bun:"-"`

	// Zone is the IANA name of the zone the all-day span and the day-only
	// due were fixed in (zone.go): the service's zone (a task's create
	// with ?tz=, that zone) when the event was created or its times last
	// moved. Nil only for a row stored before zones were, until the
	// service's start fills it in (app.FillZones).
	Zone *string `bun:"zone"`
}

// Input is the decoded body of a create, a PATCH or a lifecycle operation.
// A JSON body and a form body fill the same struct and go through the same
// validation. The fields named here are those the code reads by name; the
// others of EventFields are kept in more.
type Input struct {
	Kind       Opt[Kind]
	Status     Opt[Status]
	Title      Opt[string]
	StartAt    Opt[time.Time]
	AllDay     Opt[bool]
	DueAt      Opt[time.Time]
	StartedAt  Opt[time.Time]
	EndedAt    Opt[time.Time]
	Priority   Opt[int]
	ProjectTag Opt[string]
	Labels     Opt[[]string]
	Source     Opt[Source]
	SourceRef  Opt[string]
	DeferUntil Opt[time.Time]

	// Text is a capture text (create only, see capture_input.go), read into
	// the fields above that the body does not give; TextZone is the zone it
	// is read in (the request's ?tz=), nil for the service's zone.
	Text     Opt[string]
	TextZone *time.Location
	// captureNote is Capture.Note of Text, for the new event.
	captureNote i18n.Msg

	// StopRunning and Overlap are options of a log's create, never stored
	// (overlap.go, DESIGN.md "Running logs and overlaps").
	StopRunning Opt[bool]
	Overlap     Opt[string]

	// TypedAt is the instant a line was typed (a create sent later by a
	// page that was offline, DESIGN.md "The record line offline"): the
	// create takes it as now for Text and a log's defaults. Never stored.
	TypedAt Opt[time.Time]

	// At is the moment a complete or cancel happened, when it is not now:
	// an imported to-do's own COMPLETED: time (DESIGN.md, Labels and
	// places). Never after now. Never stored as such: it is completed_at
	// or cancelled_at and the history row's time.
	At Opt[time.Time]

	// FromForm is set for a form body: its times carry minutes only, and a
	// PATCH compares them at that precision.
	FromForm bool

	// more holds the values of the fields of EventFields that have no
	// field above (no code reads them by name), each an *Opt of the
	// field's type, by the field's name: such a field is declared by its
	// line in EventFields alone.
	more map[string]any
}

// moreOpt is the value of the field name in in.more, made by mk when the
// field is first touched.
func (in *Input) moreOpt(name string, mk func() any) any {
	if in.more == nil {
		in.more = map[string]any{}
	}
	o, ok := in.more[name]
	if !ok {
		o = mk()
		in.more[name] = o
	}
	return o
}

// EventFields are the fields of an event in the order of the API's JSON
// and of the listing's columns.
var EventFields = []Field{
	integer("id", func(e *Event) *int64 { return &e.ID }, nil).onRow(),
	enum("kind", Kinds, func(e *Event) *Kind { return &e.Kind }, func(in *Input) any { return &in.Kind }, CreateFields).onRow().
		constraints("time_fields_of_kind"),
	enum("status", Statuses, func(e *Event) *Status { return &e.Status }, func(in *Input) any { return &in.Status }, CreateFields).onRow().
		constraints("cancelled_iff_cancelled_at", "deferred_iff_defer_until", "completed_at_when_finished", "undo_from_finished"),
	text("title", func(e *Event) *string { return &e.Title }, func(in *Input) any { return &in.Title }, editable...).
		form("Title", "text", "").onRow().searched().prose(MaxTitle).trim().constraints("title_required", "title_length", "title_without_controls"),
	text("description", func(e *Event) *string { return &e.Description }, nil, editable...).
		form("Description", "textarea", "desc").offRow().searched().prose(MaxDescription).constraints("description_length", "description_without_controls"),
	timeField("start_at", func(e *Event) **time.Time { return &e.StartAt }, func(in *Input) any { return &in.StartAt }, editable...).
		form("Starts", "datetime-local", "").onRow().reschedule().constraints("calendar_event_has_start"),
	timeField("end_at", func(e *Event) **time.Time { return &e.EndAt }, nil, editable...).
		form("Ends", "datetime-local", "").onRow().reschedule().constraints("end_at_after_start_at"),
	boolean("all_day", func(e *Event) *bool { return &e.AllDay }, func(in *Input) any { return &in.AllDay }, editable...).
		form("All day", "checkbox", "").onRow().reschedule(),
	timeField("due_at", func(e *Event) **time.Time { return &e.DueAt }, func(in *Input) any { return &in.DueAt }, editable...).
		form("Due", "datetime-local", "").onRow().reschedule(),
	timeField("started_at", func(e *Event) **time.Time { return &e.StartedAt }, func(in *Input) any { return &in.StartedAt }, editable...).
		form("Started", "datetime-local", "").onRow().reschedule(),
	timeField("ended_at", func(e *Event) **time.Time { return &e.EndedAt }, func(in *Input) any { return &in.EndedAt }, editable...).
		form("Ended", "datetime-local", "").onRow().reschedule().
		constraints("activity_log_has_a_time", "running_log_has_no_end", "ended_at_after_started_at"),
	integer("priority", func(e *Event) *int { return &e.Priority }, func(in *Input) any { return &in.Priority }, editable...).
		form("Priority", "priority", "").onRow().between(0, 3).constraints("priority_range"),
	text("project_tag", func(e *Event) **string { return &e.ProjectTag }, func(in *Input) any { return &in.ProjectTag }, editable...).
		form("Project tag", "text", "").onRow().line(MaxProjectTag).trim().dropPrefix("#").emptyIsNull().visible().
		constraints("project_tag_length", "project_tag_without_controls", "project_tag_without_bidi", "project_tag_without_hash"),
	labelsField("labels", func(e *Event) *[]string { return &e.Labels }, func(in *Input) any { return &in.Labels }, editable...).
		form("Labels", "text", "").onRow().searched().constraints("labels_count", "labels_each_valid", "labels_without_controls", "labels_without_bidi"),
	text("location", func(e *Event) **string { return &e.Location }, nil, editable...).
		form("Place", "text", "").rowText("row_place").searched().line(MaxLocation).trim().emptyIsNull().of(KindTask, KindCalendarEvent).constraints("location_length", "location_without_controls", "location_without_bidi"),
	timeField("completed_at", func(e *Event) **time.Time { return &e.CompletedAt }, nil).offRow(),
	timeField("cancelled_at", func(e *Event) **time.Time { return &e.CancelledAt }, nil).offRow(),
	timeField("defer_until", func(e *Event) **time.Time { return &e.DeferUntil }, func(in *Input) any { return &in.DeferUntil }, DeferFields).
		form("Deferred until", "datetime-local", "").onRow().notNullInRequests(),
	enum("source", Sources, func(e *Event) **Source { return &e.Source }, func(in *Input) any { return &in.Source }, CreateFields).offRow(),
	text("source_ref", func(e *Event) **string { return &e.SourceRef }, func(in *Input) any { return &in.SourceRef }, CreateFields).offRow().
		line(MaxSourceRef).constraints("source_ref_iff_source", "source_ref_length", "source_ref_without_controls", "source_ref_without_bidi"),
	enum("reactivate_to", Statuses, func(e *Event) **Status { return &e.UndoStatus }, nil).column("undo_status").onRow(),
	timeField("created_at", func(e *Event) *time.Time { return &e.CreatedAt }, nil).offRow(),
	timeField("updated_at", func(e *Event) *time.Time { return &e.UpdatedAt }, nil).onRow(),
	// read-only, after the fields above so that an export's columns keep
	// their order: the zone and the local dates of zone.go, which are no
	// columns of their own
	text("zone", func(e *Event) **string { return &e.Zone }, nil).offRow().constraints("zone_named"),
	date("start_date", (*Event).StartDate).offRow(),
	date("end_date", (*Event).EndDate).offRow(),
	date("due_date", (*Event).DueDate).offRow(),
}

// FieldType is how a field is stored and written.
type FieldType int

const (
	TypeText FieldType = iota // a string; a nullable one is *string
	TypeEnum                  // a string of a PostgreSQL enum
	TypeTime                  // a time; a nullable one is *time.Time
	TypeBool
	TypeInt
	TypeDate   // a local date (YYYY-MM-DD) computed from the row: no column, never in a request
	TypeLabels // a list of short names (labels.go), a text[] column
)

// Field is one field of an event. The accessors are set by the
// constructors below, one set per type: no reflection on the path of a
// listing.
type Field struct {
	Name        string // the API's name, in JSON, forms and errors
	Column      string // the column of the events table; "" for a computed field (TypeDate)
	Type        FieldType
	Nullable    bool
	Sets        []FieldSet // the requests that accept it
	Reschedule  bool       // a change through PATCH writes a reschedule row
	Constraints []string   // the CHECK constraints about this field
	Label       string     // on the forms and the detail page; "" for none
	FormType    string     // the form input: text, textarea, datetime-local, checkbox or priority
	FormName    string     // the form's name, when it is not Name
	Min, Max    int        // a whole number's bounds
	Values      []string   // an enum's values
	MaxLen      int        // a text's bound in characters; 0: not a checked text
	// Kinds are the kinds of event that carry the field; nil: every kind.
	// A request that sets it on another kind is refused naming it (422).
	// The time fields' kinds are kindTimeFields'.
	Kinds []Kind
	// Row is how a list row shows the field; every field says (a test
	// fails on RowUndeclared). RowLabel is the message id of a RowText
	// field's label.
	Row      RowPart
	RowLabel string
	// Searched: a search's words are looked for in the field (DESIGN.md,
	// Search). The database's events_search_text takes the searched
	// columns as arguments of the same names (SearchColumns), and the
	// trigram index is over it.
	Searched bool

	// How a checked text (MaxLen > 0) is normalised before it is checked,
	// in this order, and which characters it may hold. A nullable text that
	// is not EmptyIsNull must not be empty: null says "none".
	Multiline   bool   // prose: may hold newlines (a CRLF is stored as LF), tabs and bidirectional controls; else one line with no control character at all
	Trim        bool   // white space around the text is dropped
	Prefix      string // a leading marker dropped ("#" of a project tag)
	EmptyIsNull bool   // an empty text is stored as null
	// Visible: a name that must look like what it is, so no invisible
	// character (IsInvisible: zero-width spaces and joiners, other format
	// characters, Hangul fillers): "a\u200bb" would show as "ab" and be
	// another tag.
	Visible bool

	refuseNull bool   // a request may not send null, though the column may hold it
	jsonKey    []byte // ,"name":
	input      func(in *Input) any

	getText   func(e *Event) (string, bool)
	setText   func(e *Event, s *string)
	getTime   func(e *Event) *time.Time
	setTime   func(e *Event, t *time.Time)
	getBool   func(e *Event) *bool
	getInt    func(e *Event) int64
	setInt    func(e *Event, v int64)
	getDate   func(e *Event) (time.Time, bool)
	getLabels func(e *Event) *[]string
}

var editable = []FieldSet{CreateFields, PatchFields}

// RowPart is how a list row (the row template views/partials/
// event_row.html and its Go writer handlers/rowhtml.go) shows a field.
// handlers' TestRowShowsWhatTheTableSays draws rows both ways with each
// field changed and holds both writers to it.
type RowPart int

const (
	RowUndeclared RowPart = iota
	// RowOwn: the row's own markup draws the field, in the template and
	// in the Go writer alike.
	RowOwn
	// RowText: a text the row draws at the end of its meta line, after
	// its label (RowLabel, a message id), as <span class="NAME">: both
	// writers loop over these fields (RowTextFields), so such a field
	// needs no edit of the row.
	RowText
	// RowOff: a list row does not show the field (the detail page does).
	RowOff
)

// newField makes a field. input is where a request's value of it is
// decoded, for the requests of sets; nil for a field of sets keeps it in
// Input.more, made by mk.
func newField[O any](name string, t FieldType, nullable bool, input func(*Input) any, sets []FieldSet) Field {
	if input == nil && len(sets) > 0 {
		input = func(in *Input) any { return in.moreOpt(name, func() any { return new(Opt[O]) }) }
	}
	return Field{Name: name, Column: name, Type: t, Nullable: nullable, Sets: sets, input: input,
		jsonKey: []byte(`,"` + name + `":`)}
}

func text[P *string | **string](name string, get func(*Event) P, input func(*Input) any, sets ...FieldSet) Field {
	f := newField[string](name, TypeText, false, input, sets)
	switch get := any(get).(type) {
	case func(*Event) *string:
		f.getText = func(e *Event) (string, bool) { return *get(e), true }
		f.setText = func(e *Event, s *string) {
			if s != nil {
				*get(e) = *s
			} else {
				*get(e) = ""
			}
		}
	case func(*Event) **string:
		f.Nullable = true
		f.getText = func(e *Event) (string, bool) {
			if p := *get(e); p != nil {
				return *p, true
			}
			return "", false
		}
		f.setText = func(e *Event, s *string) { *get(e) = s }
	}
	return f
}

func enum[T ~string, P *T | **T](name string, values []T, get func(*Event) P, input func(*Input) any, sets ...FieldSet) Field {
	f := newField[T](name, TypeEnum, false, input, sets)
	for _, v := range values {
		f.Values = append(f.Values, string(v))
	}
	switch get := any(get).(type) {
	case func(*Event) *T:
		f.getText = func(e *Event) (string, bool) { return string(*get(e)), true }
		f.setText = func(e *Event, s *string) {
			if s != nil {
				*get(e) = T(*s)
			} else {
				*get(e) = ""
			}
		}
	case func(*Event) **T:
		f.Nullable = true
		f.getText = func(e *Event) (string, bool) {
			if p := *get(e); p != nil {
				return string(*p), true
			}
			return "", false
		}
		f.setText = func(e *Event, s *string) {
			if s != nil {
				v := T(*s)
				*get(e) = &v
			} else {
				*get(e) = nil
			}
		}
	}
	return f
}

func timeField[P *time.Time | **time.Time](name string, get func(*Event) P, input func(*Input) any, sets ...FieldSet) Field {
	f := newField[time.Time](name, TypeTime, false, input, sets)
	// every time column holds the years the API writes (bounds.go)
	f.Constraints = []string{name + "_in_years_1_to_9999"}
	switch get := any(get).(type) {
	case func(*Event) *time.Time:
		f.getTime = get
		f.setTime = func(e *Event, t *time.Time) {
			if t != nil {
				*get(e) = *t
			} else {
				*get(e) = time.Time{}
			}
		}
	case func(*Event) **time.Time:
		f.Nullable = true
		f.getTime = func(e *Event) *time.Time { return *get(e) }
		f.setTime = func(e *Event, t *time.Time) { *get(e) = t }
	}
	return f
}

func boolean(name string, get func(*Event) *bool, input func(*Input) any, sets ...FieldSet) Field {
	f := newField[bool](name, TypeBool, false, input, sets)
	f.getBool = get
	return f
}

func integer[T int | int64](name string, get func(*Event) *T, input func(*Input) any, sets ...FieldSet) Field {
	f := newField[int](name, TypeInt, false, input, sets)
	f.getInt = func(e *Event) int64 { return int64(*get(e)) }
	f.setInt = func(e *Event, v int64) { *get(e) = T(v) }
	return f
}

// date is a read-only local date computed from the row by get (its wall
// date; false: null).
func date(name string, get func(*Event) (time.Time, bool)) Field {
	f := newField[string](name, TypeDate, true, nil, nil)
	f.Column = ""
	f.getDate = get
	return f
}

func (f Field) form(label, formType, formName string) Field {
	f.Label, f.FormType, f.FormName = label, formType, formName
	return f
}

// prose is a free text of at most max characters: lines, tabs, any script.
func (f Field) prose(max int) Field { f.MaxLen, f.Multiline = max, true; return f }

// line is an identifier of at most max characters on one line: no control
// character (not even a tab) and no bidirectional control.
func (f Field) line(max int) Field { f.MaxLen, f.Multiline = max, false; return f }

func (f Field) trim() Field { f.Trim = true; return f }

func (f Field) visible() Field { f.Visible = true; return f }

func (f Field) dropPrefix(p string) Field { f.Prefix = p; return f }

func (f Field) emptyIsNull() Field { f.EmptyIsNull = true; return f }

func (f Field) between(min, max int) Field { f.Min, f.Max = min, max; return f }

func (f Field) reschedule() Field { f.Reschedule = true; return f }

func (f Field) constraints(names ...string) Field {
	f.Constraints = append(slices.Clip(f.Constraints), names...)
	return f
}

func (f Field) column(name string) Field { f.Column = name; return f }

// onRow: the row's own markup shows the field (RowOwn).
func (f Field) onRow() Field { f.Row = RowOwn; return f }

// rowText: the row shows the text after the label of message id label
// (RowText).
func (f Field) rowText(label string) Field { f.Row, f.RowLabel = RowText, label; return f }

// offRow: a list row does not show the field (RowOff).
func (f Field) offRow() Field { f.Row = RowOff; return f }

// searched: a search looks for its words in the field (Searched).
func (f Field) searched() Field { f.Searched = true; return f }

// SearchColumns are the columns of the fields a search reads (Searched),
// in the table's order: the arguments, by name, of the database's
// events_search_text.
func SearchColumns() []string {
	var out []string
	for i := range EventFields {
		if EventFields[i].Searched {
			out = append(out, EventFields[i].Column)
		}
	}
	return out
}

// RowTextFields are the fields a list row draws as texts after their
// labels (RowText), in the table's order.
func RowTextFields() []*Field {
	var out []*Field
	for i := range EventFields {
		if EventFields[i].Row == RowText {
			out = append(out, &EventFields[i])
		}
	}
	return out
}

// of restricts the field to the kinds given.
func (f Field) of(kinds ...Kind) Field { f.Kinds = kinds; return f }

// ForKind reports whether an event of kind k carries the field.
func (f *Field) ForKind(k Kind) bool { return f.Kinds == nil || slices.Contains(f.Kinds, k) }

// AcceptsNull reports whether a request may send null for the field.
func (f *Field) AcceptsNull() bool { return f.acceptsNull() }

func (f Field) notNullInRequests() Field { f.refuseNull = true; return f }

// acceptsNull reports whether a request may send null for the field.
func (f *Field) acceptsNull() bool { return f.Nullable && !f.refuseNull }

// Accepted reports whether requests of set may carry the field.
func (f *Field) Accepted(set FieldSet) bool {
	for _, s := range f.Sets {
		if s == set {
			return true
		}
	}
	return false
}

// Stored reports whether the field is a column of the events table, not
// computed from the others.
func (f *Field) Stored() bool { return f.Column != "" }

// Editable reports whether a PATCH may change the field.
func (f *Field) Editable() bool { return f.Accepted(PatchFields) }

// Form is the field's name in a form.
func (f *Field) Form() string {
	if f.FormName != "" {
		return f.FormName
	}
	return f.Name
}

// normalise is the text s as the field stores it, before its checks: a
// CRLF of prose as LF, trimmed, its Prefix dropped (every leading one, so
// that a stored text normalises to itself). An empty result of an
// EmptyIsNull field is stored as null.
func (f *Field) normalise(s string) string {
	if f.Multiline {
		s = normaliseNewlines(s)
	}
	if f.Trim {
		s = strings.TrimSpace(s)
	}
	for f.Prefix != "" && strings.HasPrefix(s, f.Prefix) {
		s = s[len(f.Prefix):]
		if f.Trim {
			s = strings.TrimSpace(s)
		}
	}
	return s
}

// SetText stores a text or enum value (nil: null). A nullable text keeps s
// itself (KeepsText), as SetTime keeps a nullable time; every other field
// copies *s.
func (f *Field) SetText(e *Event, s *string) { f.setText(e, s) }

// KeepsText reports whether SetText keeps the string it is given rather
// than copying it: a nullable text's does.
func (f *Field) KeepsText() bool { return f.Nullable && f.Type == TypeText }

// Text reads a text or enum value (false: null).
func (f *Field) Text(e *Event) (string, bool) { return f.getText(e) }

// SetTime stores a time value (nil: null).
func (f *Field) SetTime(e *Event, t *time.Time) { f.setTime(e, t) }

// Time reads a time value (nil: null).
func (f *Field) Time(e *Event) *time.Time { return f.getTime(e) }

// SetBool stores a bool value.
func (f *Field) SetBool(e *Event, v bool) { *f.getBool(e) = v }

// Bool reads a bool value.
func (f *Field) Bool(e *Event) bool { return *f.getBool(e) }

// SetInt stores a whole number.
func (f *Field) SetInt(e *Event, v int64) { f.setInt(e, v) }

// Int reads a whole number.
func (f *Field) Int(e *Event) int64 { return f.getInt(e) }

// Empty reports whether e holds nothing in the field: null, "", false or 0.
func (f *Field) Empty(e *Event) bool {
	switch f.Type {
	case TypeText, TypeEnum:
		s, _ := f.getText(e)
		return s == ""
	case TypeTime:
		return f.getTime(e) == nil
	case TypeBool:
		return !*f.getBool(e)
	case TypeDate:
		_, ok := f.getDate(e)
		return !ok
	case TypeLabels:
		return len(*f.getLabels(e)) == 0
	}
	return f.getInt(e) == 0
}

// Date reads a computed local date: its wall date (false: null).
func (f *Field) Date(e *Event) (time.Time, bool) { return f.getDate(e) }

// appendJSON appends the field's JSON value.
func (f *Field) appendJSON(b []byte, e *Event) []byte {
	switch f.Type {
	case TypeText, TypeEnum:
		s, ok := f.getText(e)
		if !ok {
			return append(b, "null"...)
		}
		return AppendJSONString(b, s)
	case TypeTime:
		return appendJSONTime(b, f.getTime(e))
	case TypeBool:
		return strconv.AppendBool(b, *f.getBool(e))
	case TypeDate:
		d, ok := f.getDate(e)
		if !ok {
			return append(b, "null"...)
		}
		b = append(b, '"')
		b = AppendDate(b, d)
		return append(b, '"')
	case TypeLabels:
		return appendJSONLabels(b, *f.getLabels(e))
	}
	return strconv.AppendInt(b, f.getInt(e), 10)
}

// value is the field's value as a history row's Change holds it: a time as
// text in TimeLayout, null as nil.
func (f *Field) value(e *Event) any {
	switch f.Type {
	case TypeText, TypeEnum:
		if s, ok := f.getText(e); ok {
			return s
		}
		return nil
	case TypeTime:
		return timeValue(f.getTime(e))
	case TypeBool:
		return *f.getBool(e)
	case TypeDate:
		if d, ok := f.getDate(e); ok {
			return string(AppendDate(nil, d))
		}
		return nil
	case TypeLabels:
		return labelsValue(*f.getLabels(e))
	}
	return f.getInt(e)
}

// copyFrom copies the field's value in the input onto e, when it is there.
func (f *Field) copyFrom(in *Input, e *Event) {
	switch o := f.input(in).(type) {
	case *Opt[string]:
		if o.Set {
			f.setText(e, o.Ptr())
		}
	case *Opt[time.Time]:
		if o.Set {
			f.setTime(e, o.Ptr())
		}
	case *Opt[bool]:
		if o.Set {
			*f.getBool(e) = o.V
		}
	case *Opt[int]:
		if o.Set {
			f.setInt(e, int64(o.V))
		}
	case *Opt[[]string]:
		if o.Set {
			*f.getLabels(e) = append([]string{}, o.V...)
		}
	}
}

// RequestOnlyFields are fields a request may carry that are no column of
// an event: text, the capture text of a create (capture_input.go),
// stop_running and overlap, the options of a log's create (overlap.go), and
// typed_at, the create's now (TypedNow). They decode like the others but
// are never stored, listed or shown.
var RequestOnlyFields = []Field{
	newField[string]("text", TypeText, false, func(in *Input) any { return &in.Text }, []FieldSet{CreateFields}),
	newField[bool]("stop_running", TypeBool, false, func(in *Input) any { return &in.StopRunning }, []FieldSet{CreateFields}).of(KindActivityLog),
	newField[string]("overlap", TypeText, false, func(in *Input) any { return &in.Overlap }, []FieldSet{CreateFields}).of(KindActivityLog),
	newField[time.Time]("typed_at", TypeTime, false, func(in *Input) any { return &in.TypedAt }, []FieldSet{CreateFields}),
	newField[time.Time]("at", TypeTime, false, func(in *Input) any { return &in.At }, []FieldSet{NoFields}),
}

// fieldIndex finds a field by its API name: the event's fields and the
// request-only ones. Each time field's Kinds are read from kindTimeFields
// here, where the kinds' times are declared in their forms' order.
var fieldIndex = indexFields()

func indexFields() map[string]*Field {
	m := make(map[string]*Field, len(EventFields)+len(RequestOnlyFields))
	for i := range EventFields {
		m[EventFields[i].Name] = &EventFields[i]
	}
	for _, k := range Kinds {
		for _, name := range kindTimeFields[k] {
			if !slices.Contains(m[name].Kinds, k) {
				m[name].Kinds = append(m[name].Kinds, k)
			}
		}
	}
	for i := range RequestOnlyFields {
		m[RequestOnlyFields[i].Name] = &RequestOnlyFields[i]
	}
	return m
}

// requestField returns the field of name when some request accepts it.
func requestField(name string) (*Field, bool) {
	f, ok := fieldIndex[name]
	if !ok || f.input == nil {
		return nil, false
	}
	return f, true
}

// EditableColumns are the columns a PATCH writes: the editable fields,
// zone (a PATCH that moves the times fixes them in the service's zone) and
// updated_at.
func EditableColumns() []string {
	var cols []string
	for i := range EventFields {
		if EventFields[i].Editable() {
			cols = append(cols, EventFields[i].Column)
		}
	}
	return append(cols, "zone", "updated_at")
}

// ConstraintField names the field a CHECK constraint is about, or "".
func ConstraintField(constraint string) string {
	for i := range EventFields {
		for _, c := range EventFields[i].Constraints {
			if c == constraint {
				return EventFields[i].Name
			}
		}
	}
	return ""
}

// FormFields are the fields of kind's form, in order: the editable fields
// of the table that have a label, in its order, except that the time
// fields (those a change of reschedules) are the kind's own
// (kindTimeFields), in that order, where the first of them stands: the
// form rules of the specification.
func FormFields(kind Kind) []*Field {
	if !kind.Valid() {
		return nil
	}
	var out []*Field
	timesDone := false
	for i := range EventFields {
		f := &EventFields[i]
		switch {
		case !f.Editable() || f.Label == "" || !KindHasField(kind, f.Name):
		case !f.Reschedule:
			out = append(out, f)
		case !timesDone:
			timesDone = true
			for _, name := range kindTimeFields[kind] {
				out = append(out, fieldIndex[name])
			}
		}
	}
	return out
}
