package handlers

import (
	"bytes"
	"fmt"
	"net/http"
	"time"

	"github.com/gofiber/template/html/v2"

	"events/models"
	"events/views"
)

// newEngine loads every template and renders each fragment once, so a
// template error stops the process at start rather than on a request.
func newEngine(loc *time.Location) (*html.Engine, error) {
	engine := html.NewFileSystem(http.FS(views.FS), ".html")
	if err := engine.Load(); err != nil {
		return nil, fmt.Errorf("load templates: %w", err)
	}
	now := time.Now().UTC()
	sample := rowView{Event: models.Event{ID: 1, Kind: models.KindTask, Status: models.StatusPlanned, Title: "t", DueAt: &now}, Loc: loc}
	sample.Ops = models.Available(&sample.Event)
	for name, data := range map[string]any{
		"partials/event_row":  sample,
		"partials/event_rows": []rowView{sample},
		"partials/problem":    problemFor(models.ErrNotFound),
		"partials/history":    historyView{Items: []models.History{{ChangeKind: models.ChangeCreate, OccurredAt: now}}, Loc: loc},
	} {
		if err := engine.Render(&bytes.Buffer{}, name, data); err != nil {
			return nil, fmt.Errorf("render %s: %w", name, err)
		}
	}
	return engine, nil
}

// rowView is one event as a row of a list.
type rowView struct {
	models.Event
	Ops     []models.Op // the lifecycle buttons the row offers
	Loc     *time.Location
	Message string // a short note, such as why an operation was refused
}

func (h *Handlers) row(e models.Event, message string) rowView {
	r := rowView{Event: e, Loc: h.svc.Location(), Message: message}
	if e.Kind != models.KindActivityLog { // logs are not lifecycle targets in the UI
		r.Ops = models.Available(&e)
	}
	return r
}

// localTime is a time shown on a page: the text in the page's zone and the
// machine-readable attribute.
type localTime struct{ Text, Attr string }

func showTime(t *time.Time, loc *time.Location) *localTime {
	if t == nil {
		return nil
	}
	return &localTime{Text: t.In(loc).Format("2006-01-02 15:04"), Attr: models.FormatTime(*t)}
}

// When is where the row sits in time, in the page's zone.
func (r rowView) When() *localTime { return showTime(r.SpanStart(), r.Loc) }

// historyView is the history timeline of one event.
type historyView struct {
	Items []models.History
	Loc   *time.Location
}

type historyRow struct {
	models.History
	At localTime
}

// Rows are the history rows with their times in the page's zone.
func (v historyView) Rows() []historyRow {
	rows := make([]historyRow, len(v.Items))
	for i, h := range v.Items {
		rows[i] = historyRow{History: h, At: *showTime(&h.OccurredAt, v.Loc)}
	}
	return rows
}
