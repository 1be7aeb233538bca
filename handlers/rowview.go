package handlers

import (
	"html/template"
	"strings"
	"time"

	"events/models"
)

// The targets of a lifecycle button: its own row in a list, or the whole
// detail section on the detail page.
const (
	targetSelf   = "closest li"
	targetDetail = "#" + idDetail
)

// rowView is one event as a row of a list.
type rowView struct {
	models.Event
	Ops     []models.Op // the lifecycle operations the row offers
	Loc     *time.Location
	Message string    // a short note, such as why an operation was refused
	Note    string    // what a capture text was read as, on a new row (capture.go)
	Target  string    // where the answer to a lifecycle button goes
	Today   time.Time // the start of the service's day: an open task due before it is overdue

	// UndoNote is the message after a complete, cancel or defer that offers
	// the undo, "" otherwise (undoview.go).
	UndoNote string
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

// DeferPresets are the quick choices of the defer menu (contract.go).
func (r rowView) DeferPresets() []deferPreset { return deferPresets }

var kindLabels = map[models.Kind]string{
	models.KindTask:          "Task",
	models.KindCalendarEvent: "Calendar",
	models.KindActivityLog:   "Log",
}

// statusLabel is a status in words: "in progress" for in_progress.
func statusLabel(s models.Status) string { return strings.ReplaceAll(string(s), "_", " ") }

func (r rowView) KindLabel() string { return kindLabels[r.Kind] }

func (r rowView) StatusLabel() string { return statusLabel(r.Status) }

func (r rowView) Tag() string {
	if r.ProjectTag == nil {
		return ""
	}
	return shown(*r.ProjectTag)
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
		if r.DueAt != nil && models.DueDayOnly(*r.DueAt, r.Loc) {
			w.Text = "due " + r.DueAt.In(r.Loc).Format(dayLayout) // a day without a time (capture text)
		} else if r.DueAt != nil {
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
