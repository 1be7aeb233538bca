package handlers

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/template/html/v2"

	"events/models"
	"events/views"
)

// newEngine loads every template and renders each page and fragment once,
// so a template error stops the process at start rather than on a request.
func newEngine(loc *time.Location, static *assets) (*html.Engine, error) {
	engine := html.NewFileSystem(http.FS(views.FS), ".html")
	engine.AddFuncMap(contractFuncs)
	engine.AddFuncMap(map[string]any{"fieldLabel": fieldLabel, "inLabels": inLabels}) // formview.go
	engine.AddFunc("tagHref", tagHref)                                                // a tag anywhere links to the listing of that tag
	engine.AddFunc("asset", static.url)                                               // {{asset "events.css"}}: the file's hashed address (assets.go)
	// The defer menu (partials/defer_menu) is the same on every page: it
	// is drawn once, below, and every page's foot places it as drawn
	// ({{deferMenu}}) rather than running its template again.
	var deferMenu template.HTML
	engine.AddFunc("deferMenu", func() template.HTML { return deferMenu })
	if err := engine.Load(); err != nil {
		return nil, fmt.Errorf("load templates: %w", err)
	}
	var menu bytes.Buffer
	if err := engine.Render(&menu, "partials/defer_menu", nil); err != nil {
		return nil, fmt.Errorf("render partials/defer_menu: %w", err)
	}
	deferMenu = template.HTML(menu.String())
	now := time.Now().UTC()
	sample := rowView{Event: &models.Event{ID: 1, Kind: models.KindTask, Status: models.StatusPlanned, Title: "t", DueAt: &now}, Loc: loc, Target: targetSelf, Today: now}
	sample.Ops = models.Available(sample.Event)
	page := chrome{Title: "t", Zone: loc.String(), NotesURL: "/notes", CSRF: "t", LoggedIn: true}
	history := historyView{Items: []models.History{{ChangeKind: models.ChangeCreate, OccurredAt: now}}, Loc: loc}
	tabbed := newTabbed(tabs[0], "<li></li>\n", "/api/events/today?cursor=x")
	detail := newDetail(*sample.Event, loc, nil, nil, "", "")
	form := newForm(models.KindTask, nil, nil, loc)
	for name, data := range map[string]any{
		"partials/event_rows":    listView{Rows: "<li></li>\n", More: "/api/events?cursor=x"},
		"partials/problem":       problemFor(models.ErrNotFound),
		"partials/history":       history,
		"partials/history_items": historyView{Items: history.Items, Loc: loc, More: "/api/events/1/history?cursor=x"},
		"partials/tabbed":        tabbed,
		"partials/detail":        detail,
		"partials/new_form":      form,
		"pages/events":           eventsPage{chrome: page, Tabbed: tabbed},
		"pages/detail":           detailPage{chrome: page, Detail: detail, History: history},
		"pages/new":              newPage{chrome: page, Kinds: kindChoices(models.KindTask), Form: &form},
		"pages/error":            errorPage{chrome: page, Problem: problemFor(models.ErrNotFound)},
		"pages/login":            loginPage{chrome: page, Next: "/events", Message: "m"},
		"pages/notes":            page,
		"pages/review":           sampleReview(page, loc),
		"pages/search":           searchPage{chrome: page, Q: "q", Searched: true, Count: 1, List: listView{Rows: "<li></li>\n", More: "/api/events?cursor=x"}},
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
	Nav      string // the sidebar's entry of this page: "" is Events, "review" the review page
	Search   string // the words in the sidebar's search box
}

func (h *Handlers) chrome(c *fiber.Ctx, title string) chrome {
	ch := chrome{Title: title, Zone: h.svc.Location().String(), NotesURL: h.opts.NotesURL}
	if s, ok := session(c); ok {
		ch.CSRF, ch.LoggedIn = h.opts.Auth.CSRF(s), true
	}
	return ch
}
