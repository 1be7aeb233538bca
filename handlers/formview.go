// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/internal/i18n"
	"events/models"
)

// formField is one field of the new and edit forms.
type formField struct {
	Name     string // the form's name (desc for the description)
	Field    string // the API's name, which errors carry
	Label    string
	Type     string // text, textarea, datetime-local, date, checkbox or priority
	Required bool
	// Autofocus marks the first field of the new-event form: the person
	// starts typing at once.
	Autofocus bool
	// DayToggle draws, beside a task's Due, the "No clock time" switch
	// (app.js turns the input into a date-only one); DayOnly is its state.
	DayToggle, DayOnly bool
	// Time24: a time field of the detail page, a text field of 24-hour
	// times that also takes capture words (edittimes.go)
	Time24    bool
	Hint      string // the id of its words in the catalogue
	HintArgs  []any  // the placeholders Hint fills, names and values
	Value     string
	Checked   bool
	Error     string // the English message; the page's words come from ErrorCode and ErrorSays (fieldErrorIn)
	ErrorCode models.Code
	ErrorSays i18n.Msg
}

// formView is the fields of one kind's form with their values and errors,
// and the errors no field of the form shows.
type formView struct {
	Kind   models.Kind
	Zone   string // in which the form's times are read
	Fields []formField
	Other  []otherError
}

// KindName is the id of the form's kind in words ("task", "calendar
// entry"): kind_name_ and the kind in the catalogue.
func (f formView) KindName() string { return "kind_name_" + string(f.Kind) }

// HasErrors reports whether the form shows any error.
func (f formView) HasErrors() bool {
	if len(f.Other) > 0 {
		return true
	}
	for _, ff := range f.Fields {
		if ff.Error != "" {
			return true
		}
	}
	return false
}

// newForm builds the form of kind from values (nil: empty) and errs.
func newForm(kind models.Kind, values url.Values, errs models.FieldErrors, loc *time.Location) formView {
	f := formView{Kind: kind, Zone: loc.String()}
	shown := map[string]bool{}
	for _, fd := range models.FormFields(kind) {
		name := fd.Form()
		ff := formField{Name: name, Field: fd.Name, Label: fd.Label, Type: fd.FormType}
		switch fd.Name {
		case "all_day":
			ff.Hint = "field_hint_all_day"
		case "start_at":
			if kind == models.KindTask {
				ff.Hint = "field_hint_task_start_at"
			}
		case "started_at":
			ff.Hint = "field_hint_started_at"
		}
		ff.Required = (name == "title" && kind != models.KindActivityLog) || (name == "start_at" && kind == models.KindCalendarEvent)
		ff.Value = values.Get(name)
		ff.Checked = ff.Type == "checkbox" && ff.Value != "" && ff.Value != "false" && ff.Value != "0"
		if ff.Type == "priority" && ff.Value == "" {
			ff.Value = "0"
		}
		for _, e := range errs {
			if e.Field == ff.Field {
				ff.Error, ff.ErrorCode, ff.ErrorSays = inLabels(e.Message), e.Code, e.Says
			}
		}
		shown[ff.Field] = true
		f.Fields = append(f.Fields, ff)
	}
	dateOnly(&f)
	for _, e := range errs {
		if !shown[e.Field] {
			f.Other = append(f.Other, otherError{Field: e.Field, Label: fieldLabel(e.Field), Message: inLabels(e.Message), Code: e.Code, Says: e.Says})
		}
	}
	return f
}

// newEventForm is the new-event page's form of kind: newForm with the
// detail's 24-hour time fields (edittimes.go).
func newEventForm(kind models.Kind, values url.Values, errs models.FieldErrors, loc *time.Location) formView {
	f := newForm(kind, values, errs, loc)
	time24Fields(&f, loc)
	return f
}

// dateLayout is a date input's value: a day without a clock time.
const dateLayout = "2006-01-02"

// isDate reports whether a form value is a date without a clock time.
func isDate(v string) bool {
	_, err := time.Parse(dateLayout, v)
	return err == nil
}

// dateOnly turns the time inputs that hold days into date inputs (issue
// 47): an all-day calendar entry's Starts and Ends (the first and the last
// day, both inclusive; models.DecodeForm stores the exclusive midnight
// after the last), and a task's Due given as a day (stored as the day's
// last microsecond, models.DueDayOnly). app.js switches them as the person
// ticks All day or No clock time.
func dateOnly(f *formView) {
	allDay := false
	for _, ff := range f.Fields {
		allDay = allDay || (ff.Field == "all_day" && ff.Checked)
	}
	for i := range f.Fields {
		ff := &f.Fields[i]
		switch {
		case f.Kind == models.KindCalendarEvent && allDay && (ff.Field == "start_at" || ff.Field == "end_at"):
			ff.Type = "date"
			if len(ff.Value) > len(dateLayout) {
				ff.Value = ff.Value[:len(dateLayout)]
			}
		case f.Kind == models.KindTask && ff.Field == "due_at":
			ff.DayToggle = true
			if isDate(ff.Value) {
				ff.Type, ff.DayOnly = "date", true
			}
		}
	}
}

// PriorityOptions are the choices of the priority field.
func (ff formField) PriorityOptions() []struct{ Value, Label string } {
	return []struct{ Value, Label string }{{"0", "priority_0"}, {"1", "priority_1"}, {"2", "priority_2"}, {"3", "priority_3"}} // ids of the catalogue
}

// formValues are an event's values as its form shows them.
func formValues(e models.Event, loc *time.Location) url.Values {
	v := url.Values{}
	for _, f := range models.EventFields {
		if !f.Editable() {
			continue
		}
		switch f.Type {
		case models.TypeTime:
			t := f.Time(&e)
			switch {
			case t == nil:
			case e.AllDay && f.Name == "start_at":
				v.Set(f.Form(), t.In(loc).Format(dateLayout))
			case e.AllDay && f.Name == "end_at": // the last day, not the exclusive midnight after it
				v.Set(f.Form(), t.In(loc).Add(-time.Nanosecond).Format(dateLayout))
			case e.Kind == models.KindTask && f.Name == "due_at" && models.DueDayOnly(*t, loc):
				v.Set(f.Form(), t.In(loc).Format(dateLayout))
			default:
				v.Set(f.Form(), t.In(loc).Format(inputLayout))
			}
		case models.TypeBool:
			if f.Bool(&e) {
				v.Set(f.Form(), "on")
			}
		case models.TypeInt:
			v.Set(f.Form(), strconv.FormatInt(f.Int(&e), 10))
		case models.TypeLabels:
			v.Set(f.Form(), models.JoinLabels(f.Labels(&e)))
		default:
			if s, ok := f.Text(&e); ok {
				v.Set(f.Form(), s)
			}
		}
	}
	return v
}

// detailView is the detail section of one event: its edit form, its state
// and its lifecycle buttons.
type detailView struct {
	Row   rowView
	Form  formView
	Saved string // what the last save did
	// Confirm: the save changed the times this much and waits for its
	// second click (edittimes.go); nil otherwise
	Confirm *timesConfirm
}

// newDetail builds the detail of e; values and errs are a refused form's.
func newDetail(e models.Event, loc *time.Location, values url.Values, errs models.FieldErrors, saved, message string) detailView {
	if values == nil {
		values = formValues(e, loc)
	}
	form := newForm(e.Kind, values, errs, loc)
	dueDayHint(&form, e, loc) // capture.go
	for i := range form.Fields {
		if form.Fields[i].Field == "started_at" {
			form.Fields[i].Hint = "" // "leave both times empty" is for a new log
		}
	}
	runningForm(&form, e)    // timers.go
	time24Fields(&form, loc) // edittimes.go
	return detailView{Row: newRow(&e, loc, time.Time{}, targetDetail, message), Form: form, Saved: saved}
}

// detail is newDetail in the service's zone, with what a log overlaps
// read (markRow): the detail names those logs and offers the move.
func (h *Handlers) detail(c *fiber.Ctx, e models.Event, values url.Values, errs models.FieldErrors, saved, message string) detailView {
	d := newDetail(e, h.svc.Zone(), values, errs, saved, message)
	h.markRow(c, &d.Row)
	return d
}

// stateItem is one read-only field of the detail.
type stateItem struct {
	ID, Label string
	Time      *localTime
}

// State is the read-only part of the detail: fields only the lifecycle changes.
func (d detailView) State() []stateItem {
	l := d.Row.lang()
	return []stateItem{
		{ID: "completed_at", Label: l.T("state_completed"), Time: showTimeIn(l, d.Row.CompletedAt, d.Row.Loc)},
		{ID: "cancelled_at", Label: l.T("state_cancelled"), Time: showTimeIn(l, d.Row.CancelledAt, d.Row.Loc)},
		{ID: "defer_until", Label: l.T("field_defer_until"), Time: showTimeIn(l, d.Row.DeferUntil, d.Row.Loc)},
	}
}

// Created is when the event was recorded.
func (d detailView) Created() *localTime {
	return showTimeIn(d.Row.lang(), &d.Row.CreatedAt, d.Row.Loc)
}

// ReactivateTo names the status a reactivate would restore.
func (d detailView) ReactivateTo() string {
	if d.Row.UndoStatus == nil {
		return ""
	}
	return statusLabel(d.Row.lang(), *d.Row.UndoStatus)
}

// otherError is a field error the form shows above its fields: the API's
// field name (Field), the form's word for it (Label), the message in the
// form's words.
type otherError struct {
	Field, Label, Message string
	Code                  models.Code
	Says                  i18n.Msg // the message from the catalogue, when it is one
}

// pageDate is a date a message fills in, written in the page's language
// when the template runs (the ta function, templates.go).
type pageDate struct {
	t    time.Time // in the page's zone
	year bool      // with the year
}

// fieldLabelIn is fieldLabel in l: the catalogue's field_ and the name.
func fieldLabelIn(l *i18n.Lang, name string) string {
	if l != i18n.English && l.Has("field_"+name) {
		return l.T("field_" + name)
	}
	return fieldLabel(name)
}

// fieldErrorIn is a field error's message msg (its English, in the form's
// words, inLabels) in l: English keeps the message as the API wrote it;
// another language writes the catalogue message says when the error has
// one (the capture grammar's refusals), else says what its code means
// (error_ and the code).
func fieldErrorIn(l *i18n.Lang, code models.Code, msg string, says i18n.Msg) string {
	if l != i18n.English && !says.IsZero() {
		return says.In(l)
	}
	if l == i18n.English || !l.Has("error_"+code.String()) {
		return msg
	}
	return l.T("error_" + code.String())
}

// fieldLabel is a field's name as the form labels it ("Start" for
// start_at), else the name itself.
func fieldLabel(name string) string {
	for _, f := range models.EventFields {
		if f.Name == name && f.Label != "" {
			return f.Label
		}
	}
	return name
}

// inLabels is an error message in the words of the form: each field name
// it mentions ("must not be before start_at") becomes the field's label
// ("must not be before Start"). The API keeps the field names.
func inLabels(msg string) string {
	for _, f := range models.EventFields {
		if f.Label != "" && strings.Contains(msg, f.Name) {
			msg = labelPattern(f.Name).ReplaceAllString(msg, "${1}"+f.Label)
		}
	}
	return msg
}

// labelPattern matches a field name as a word of its own.
func labelPattern(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^a-z_])` + regexp.QuoteMeta(name) + `\b`)
}
