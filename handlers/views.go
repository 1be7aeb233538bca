package handlers

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/template/html/v2"

	"events/models"
	"events/views"
)

// newEngine loads every template and renders each page and fragment once,
// so a template error stops the process at start rather than on a request.
func newEngine(loc *time.Location) (*html.Engine, error) {
	engine := html.NewFileSystem(http.FS(views.FS), ".html")
	if err := engine.Load(); err != nil {
		return nil, fmt.Errorf("load templates: %w", err)
	}
	now := time.Now().UTC()
	sample := rowView{Event: models.Event{ID: 1, Kind: models.KindTask, Status: models.StatusPlanned, Title: "t", DueAt: &now}, Loc: loc, Target: targetSelf, Today: now}
	sample.Ops = models.Available(&sample.Event)
	page := chrome{Title: "t", Zone: loc.String(), NotesURL: "/notes", CSRF: "t", LoggedIn: true}
	history := historyView{Items: []models.History{{ChangeKind: models.ChangeCreate, OccurredAt: now}}, Loc: loc}
	tabbed := newTabbed(tabs[0], []template.HTML{"<li></li>"}, "/api/events/today?cursor=x")
	detail := newDetail(sample.Event, loc, nil, nil, "", "")
	form := newForm(models.KindTask, nil, nil, loc)
	for name, data := range map[string]any{
		"partials/event_row":  sample,
		"partials/event_rows": listView{Rows: []template.HTML{"<li></li>"}, More: "/api/events?cursor=x"},
		"partials/problem":    problemFor(models.ErrNotFound),
		"partials/history":    history,
		"partials/tabbed":     tabbed,
		"partials/detail":     detail,
		"partials/new_form":   form,
		"pages/events":        eventsPage{chrome: page, Tabbed: tabbed},
		"pages/detail":        detailPage{chrome: page, Detail: detail, History: history},
		"pages/new":           newPage{chrome: page, Kinds: kindChoices(models.KindTask), Form: &form},
		"pages/error":         errorPage{chrome: page, Problem: problemFor(models.ErrNotFound)},
		"pages/login":         loginPage{chrome: page, Next: "/events", Message: "m"},
	} {
		if err := engine.Render(&bytes.Buffer{}, name, data); err != nil {
			return nil, fmt.Errorf("render %s: %w", name, err)
		}
	}
	return engine, nil
}

// chrome is what every page shows around its content.
type chrome struct {
	Title    string
	Zone     string // the page's time zone, in which times are shown and read
	NotesURL string // the sidebar's Notes entry
	CSRF     string // the session's CSRF token, which app.js sends with every change
	LoggedIn bool   // a browser session: the sidebar offers to log out
}

func (h *Handlers) chrome(c *fiber.Ctx, title string) chrome {
	ch := chrome{Title: title, Zone: h.svc.Location().String(), NotesURL: h.opts.NotesURL}
	if s, ok := session(c); ok {
		ch.CSRF, ch.LoggedIn = h.opts.Auth.CSRF(s), true
	}
	return ch
}

// The targets of a lifecycle button: its own row in a list, or the whole
// detail section on the detail page.
const (
	targetSelf   = "closest li"
	targetDetail = "#detail"
)

// rowView is one event as a row of a list.
type rowView struct {
	models.Event
	Ops     []models.Op // the lifecycle operations the row offers
	Loc     *time.Location
	Message string    // a short note, such as why an operation was refused
	Target  string    // where the answer to a lifecycle button goes
	Today   time.Time // the start of the service's day: an open task due before it is overdue
}

// newRow is e as a row whose buttons answer into target.
func newRow(e models.Event, loc *time.Location, today time.Time, target, message string) rowView {
	r := rowView{Event: e, Loc: loc, Message: message, Target: target, Today: today}
	if e.Kind != models.KindActivityLog { // logs are not lifecycle targets in the UI
		r.Ops = models.Available(&e)
	}
	return r
}

func (h *Handlers) row(e models.Event, message string) rowView {
	return newRow(e, h.svc.Location(), h.today(), targetSelf, message)
}

// rows renders the rows of a list, from the row cache where it can.
func (h *Handlers) rows(events []models.Event) ([]template.HTML, error) {
	rows := make([]template.HTML, len(events))
	loc, today := h.svc.Location(), h.today()
	for i, e := range events {
		var err error
		if rows[i], err = h.cache.html(newRow(e, loc, today, targetSelf, "")); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// today is the start of the service's current day, for overdue marks.
func (h *Handlers) today() time.Time {
	return models.DayStart(h.svc.Now(), h.svc.Location(), 0)
}

// listView is a page of rendered rows and the address of the next page, if any.
type listView struct {
	Rows []template.HTML
	More string
}

// opButton is one lifecycle button.
type opButton struct {
	Op    models.Op
	Label string
}

// Buttons are the row's lifecycle buttons, defer first among them only
// where the lifecycle table puts it.
func (r rowView) Buttons() []opButton {
	b := make([]opButton, len(r.Ops))
	for i, op := range r.Ops {
		b[i] = opButton{Op: op, Label: sentence(string(op))}
	}
	return b
}

// DeferPresets are the quick choices of the defer menu; app.js resolves each
// to a time when it is clicked, in the page's zone.
func (r rowView) DeferPresets() []opButton {
	return []opButton{{Op: "3h", Label: "In 3 hours"}, {Op: "tomorrow", Label: "Tomorrow 09:00"}, {Op: "monday", Label: "Next Monday 09:00"}}
}

var kindLabels = map[models.Kind]string{
	models.KindTask:          "Task",
	models.KindCalendarEvent: "Calendar",
	models.KindActivityLog:   "Log",
}

// statusLabel is a status in words: "in progress" for in_progress.
func statusLabel(s models.Status) string { return strings.ReplaceAll(string(s), "_", " ") }

func (r rowView) KindLabel() string   { return kindLabels[r.Kind] }
func (r rowView) StatusLabel() string { return statusLabel(r.Status) }
func (r rowView) Tag() string {
	if r.ProjectTag == nil {
		return ""
	}
	return *r.ProjectTag
}

// IsOverdue reports an open task due before today.
func (r rowView) IsOverdue() bool {
	return models.Overdue(&r.Event, r.Today)
}

// localTime is a time shown on a page: the text in the page's zone and the
// machine-readable attribute.
type localTime struct{ Text, Attr string }

const (
	dayLayout   = "Mon 2 Jan 2006"
	clockLayout = "15:04"
	inputLayout = "2006-01-02T15:04" // a datetime-local input's value
)

func showTime(t *time.Time, loc *time.Location) *localTime {
	if t == nil {
		return nil
	}
	return &localTime{Text: t.In(loc).Format(dayLayout + ", " + clockLayout), Attr: models.FormatTime(*t)}
}

// When is where the row sits in time, in the page's zone: a task's due
// time, a calendar entry's span, an activity's span.
func (r rowView) When() *localTime {
	start := r.SpanStart()
	if start == nil {
		return nil
	}
	w := showTime(start, r.Loc)
	switch r.Kind {
	case models.KindTask:
		if r.DueAt != nil {
			w.Text = "due " + w.Text
		} else {
			w.Text = "starts " + w.Text
		}
	case models.KindCalendarEvent:
		if r.AllDay {
			w.Text = start.In(r.Loc).Format(dayLayout) + ", all day"
			if r.EndAt != nil && r.EndAt.Sub(*start) > 25*time.Hour {
				w.Text = start.In(r.Loc).Format(dayLayout) + " – " + r.EndAt.Add(-time.Hour).In(r.Loc).Format(dayLayout)
			}
		} else if r.EndAt != nil {
			w.Text += "–" + until(*start, *r.EndAt, r.Loc)
		}
	case models.KindActivityLog:
		switch {
		case r.Running():
			w.Text = "since " + w.Text
		case r.StartedAt != nil && r.EndedAt != nil && !r.EndedAt.Equal(*r.StartedAt):
			w.Text += "–" + until(*r.StartedAt, *r.EndedAt, r.Loc)
		}
	}
	return w
}

// until is the end of a span: its clock time on the start's day, else its
// day and time.
func until(start, end time.Time, loc *time.Location) string {
	s, e := start.In(loc), end.In(loc)
	if s.Year() == e.Year() && s.YearDay() == e.YearDay() {
		return e.Format(clockLayout)
	}
	return e.Format(dayLayout + ", " + clockLayout)
}

// historyView is the history timeline of one event.
type historyView struct {
	ID    int64 // the event's
	Items []models.History
	Loc   *time.Location
}

type historyRow struct {
	models.History
	At      localTime
	Summary string
	loc     *time.Location
}

var changeLabels = map[models.ChangeKind]string{
	models.ChangeCreate:     "Created",
	models.ChangeComplete:   "Completed",
	models.ChangeCancel:     "Cancelled",
	models.ChangeDefer:      "Deferred",
	models.ChangeReactivate: "Reactivated",
	models.ChangeReschedule: "Rescheduled",
}

// Rows are the history rows with their times in the page's zone.
func (v historyView) Rows() []historyRow {
	rows := make([]historyRow, len(v.Items))
	for i, h := range v.Items {
		rows[i] = historyRow{History: h, At: *showTime(&h.OccurredAt, v.Loc), Summary: changeLabels[h.ChangeKind], loc: v.Loc}
		if rows[i].Summary == "" {
			rows[i].Summary = string(h.ChangeKind)
		}
	}
	return rows
}

// Transition is the status change of a history row: "planned → done", or
// the status alone when it did not change.
func (r historyRow) Transition() string {
	if r.StatusBefore == nil || *r.StatusBefore == r.StatusAfter {
		return statusLabel(r.StatusAfter)
	}
	return statusLabel(*r.StatusBefore) + " → " + statusLabel(r.StatusAfter)
}

// Changes are the fields a history row changed, old and new, in the page's zone.
func (r historyRow) Changes() []string {
	var out []string
	for _, name := range []string{"start_at", "end_at", "all_day", "due_at", "started_at", "ended_at", "defer_until"} {
		c, ok := r.History.Changes[name]
		if !ok {
			continue
		}
		out = append(out, fieldLabels[name]+": "+changeValue(c.Old, r.loc)+" → "+changeValue(c.New, r.loc))
	}
	return out
}

// changeValue shows one side of a change: a time in the page's zone, a
// flag, or "none".
func changeValue(v any, loc *time.Location) string {
	switch v := v.(type) {
	case nil:
		return "none"
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case string:
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return t.In(loc).Format(dayLayout + ", " + clockLayout)
		}
		return v
	}
	return fmt.Sprint(v)
}

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
