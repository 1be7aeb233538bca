package handlers

import (
	"net/url"
	"strconv"
	"time"

	"events/models"
)

// formField is one field of the new and edit forms.
type formField struct {
	Name     string // the form's name (desc for the description)
	Field    string // the API's name, which errors carry
	Label    string
	Type     string // text, textarea, datetime-local, checkbox or priority
	Required bool
	Hint     string
	Value    string
	Checked  bool
	Error    string
}

var fieldLabels = map[string]string{
	"title": "Title", "description": "Description", "due_at": "Due", "start_at": "Starts",
	"end_at": "Ends", "all_day": "All day", "started_at": "Started", "ended_at": "Ended",
	"priority": "Priority", "project_tag": "Project tag", "defer_until": "Deferred until",
}

// kindFields are the form fields of each kind, in order: the form rules of
// the specification.
var kindFields = map[models.Kind][]string{
	models.KindTask:          {"title", "desc", "due_at", "start_at", "priority", "project_tag"},
	models.KindCalendarEvent: {"title", "desc", "start_at", "end_at", "all_day", "priority", "project_tag"},
	models.KindActivityLog:   {"title", "desc", "started_at", "ended_at", "priority", "project_tag"},
}

// formView is the fields of one kind's form with their values and errors,
// and the errors no field of the form shows.
type formView struct {
	Kind   models.Kind
	Zone   string // in which the form's times are read
	Fields []formField
	Other  []models.FieldError
}

func (f formView) KindLabel() string { return kindNames[f.Kind] }

// kindNames are the kinds in words.
var kindNames = map[models.Kind]string{
	models.KindTask:          "task",
	models.KindCalendarEvent: "calendar entry",
	models.KindActivityLog:   "activity log",
}

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
	for _, name := range kindFields[kind] {
		ff := formField{Name: name, Field: name, Type: "datetime-local"}
		switch name {
		case "title", "project_tag":
			ff.Type = "text"
		case "desc":
			ff.Field, ff.Type = "description", "textarea"
		case "all_day":
			ff.Type = "checkbox"
			ff.Hint = "From the start's midnight to the end's, or one day without an end."
		case "priority":
			ff.Type = "priority"
		case "start_at":
			if kind == models.KindTask {
				ff.Hint = "Optional: when the task starts, if it has a clock time."
			}
		case "started_at":
			ff.Hint = "Leave both times empty to record it as done now."
		}
		ff.Label = fieldLabels[ff.Field]
		ff.Required = (name == "title" && kind != models.KindActivityLog) || (name == "start_at" && kind == models.KindCalendarEvent)
		ff.Value = values.Get(name)
		ff.Checked = ff.Type == "checkbox" && ff.Value != "" && ff.Value != "false" && ff.Value != "0"
		if ff.Type == "priority" && ff.Value == "" {
			ff.Value = "0"
		}
		for _, e := range errs {
			if e.Field == ff.Field {
				ff.Error = e.Message
			}
		}
		shown[ff.Field] = true
		f.Fields = append(f.Fields, ff)
	}
	for _, e := range errs {
		if !shown[e.Field] {
			f.Other = append(f.Other, e)
		}
	}
	return f
}

// PriorityOptions are the choices of the priority field.
func (ff formField) PriorityOptions() []struct{ Value, Label string } {
	return []struct{ Value, Label string }{{"0", "None"}, {"1", "Low"}, {"2", "Medium"}, {"3", "High"}}
}

// formValues are an event's values as its form shows them.
func formValues(e models.Event, loc *time.Location) url.Values {
	v := url.Values{}
	v.Set("title", e.Title)
	v.Set("desc", e.Description)
	for name, t := range map[string]*time.Time{"due_at": e.DueAt, "start_at": e.StartAt, "end_at": e.EndAt, "started_at": e.StartedAt, "ended_at": e.EndedAt} {
		if t != nil {
			v.Set(name, t.In(loc).Format(inputLayout))
		}
	}
	if e.AllDay {
		v.Set("all_day", "on")
	}
	v.Set("priority", strconv.Itoa(e.Priority))
	if e.ProjectTag != nil {
		v.Set("project_tag", *e.ProjectTag)
	}
	return v
}

// detailView is the detail section of one event: its edit form, its state
// and its lifecycle buttons.
type detailView struct {
	Row   rowView
	Form  formView
	Saved string // what the last save did
}

// newDetail builds the detail of e; values and errs are a refused form's.
func newDetail(e models.Event, loc *time.Location, values url.Values, errs models.FieldErrors, saved, message string) detailView {
	if values == nil {
		values = formValues(e, loc)
	}
	return detailView{Row: newRow(e, loc, time.Time{}, targetDetail, message), Form: newForm(e.Kind, values, errs, loc), Saved: saved}
}

func (h *Handlers) detail(e models.Event, values url.Values, errs models.FieldErrors, saved, message string) detailView {
	return newDetail(e, h.svc.Location(), values, errs, saved, message)
}

// stateItem is one read-only field of the detail.
type stateItem struct {
	ID, Label string
	Time      *localTime
}

// State is the read-only part of the detail: fields only the lifecycle changes.
func (d detailView) State() []stateItem {
	return []stateItem{
		{ID: "completed_at", Label: "Completed", Time: showTime(d.Row.CompletedAt, d.Row.Loc)},
		{ID: "cancelled_at", Label: "Cancelled", Time: showTime(d.Row.CancelledAt, d.Row.Loc)},
		{ID: "defer_until", Label: "Deferred until", Time: showTime(d.Row.DeferUntil, d.Row.Loc)},
	}
}

// Created is when the event was recorded.
func (d detailView) Created() *localTime { return showTime(&d.Row.CreatedAt, d.Row.Loc) }

// ReactivateTo names the status a reactivate would restore.
func (d detailView) ReactivateTo() string {
	if d.Row.UndoStatus == nil {
		return ""
	}
	return statusLabel(*d.Row.UndoStatus)
}
