// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/template/html/v2"

	"events/app"
	"events/internal/i18n"
	"events/models"
	"events/views"
)

// newEngine loads every template in the language l and renders each page
// and fragment once, so a template error or a message id the catalogue
// lacks stops the process at start rather than on a request.
func newEngine(l *i18n.Lang, loc *time.Location, static *assets) (*html.Engine, error) {
	engine := html.NewFileSystem(http.FS(views.FS), ".html")
	if err := addFuncs(engine, l, static); err != nil {
		return nil, err
	}
	// The parts that are the same on every page (drawnOnce) are drawn once,
	// below, and the pages place them as drawn ({{drawn "partials/capture"}})
	// rather than running their templates again.
	parts := drawnOnce()
	drawn := make(map[string]template.HTML, len(parts))
	engine.AddFunc("drawn", func(key string) (template.HTML, error) {
		if h, ok := drawn[key]; ok {
			return h, nil
		}
		return "", fmt.Errorf("%s is not drawn once (drawnOnce)", key)
	})
	if err := engine.Load(); err != nil {
		return nil, fmt.Errorf("load templates: %w", err)
	}
	for _, p := range parts {
		var b bytes.Buffer
		if err := engine.Render(&b, p.name, p.data); err != nil {
			return nil, fmt.Errorf("render %s: %w", p.key, err)
		}
		drawn[p.key] = template.HTML(b.String())
	}
	if err := renderSamples(engine, l, loc); err != nil {
		return nil, err
	}
	return engine, nil
}

// addFuncs gives the templates their functions in the language l.
func addFuncs(engine *html.Engine, l *i18n.Lang, static *assets) error {
	engine.AddFuncMap(contractFuncs)
	// {{t "id"}}: the message id of the catalogue in l; {{th "id"}} one
	// that holds markup of its own; {{lang}} l's code, for <html lang>
	engine.AddFuncMap(map[string]any{"t": l.Func, "th": l.HTMLFunc, "lang": func() string { return l.Code }})
	// {{pageWords}}: the words the page's scripts show, as JSON for a
	// meta tag (scriptWords)
	words, err := scriptWords(l)
	if err != nil {
		return err
	}
	engine.AddFunc("pageWords", func() string { return words })
	// {{ta "id" .Args}}: a message whose placeholders a view model holds
	// as a list of names and values; a pageDate among them is written in l
	engine.AddFunc("ta", func(id string, args []any) (string, error) {
		out := make([]any, len(args))
		for i, a := range args {
			if d, ok := a.(pageDate); ok {
				a = l.Date(d.t, d.year)
			}
			out[i] = a
		}
		return l.Func(id, out...)
	})
	engine.AddFuncMap(map[string]any{ // formview.go
		"fieldLabel": func(name string) string { return fieldLabelIn(l, name) },
		"fieldError": func(code models.Code, msg string, says i18n.Msg) string { return fieldErrorIn(l, code, msg, says) },
		"inLabels":   inLabels,
	})
	engine.AddFunc("tagHref", tagHref)  // a tag anywhere links to the listing of that tag
	engine.AddFunc("asset", static.url) // {{asset "events.css"}}: the file's hashed address (assets.go)
	return nil
}

// renderSamples renders every page and fragment once over a sample of
// its data, so that a template error stops the start.
func renderSamples(engine *html.Engine, l *i18n.Lang, loc *time.Location) error {
	now := time.Now().UTC()
	sample := rowView{Event: &models.Event{ID: 1, Kind: models.KindTask, Status: models.StatusPlanned, Title: "t", DueAt: &now}, Loc: loc, Target: targetSelf, Today: now}
	sample.Ops = models.Available(sample.Event)
	page := chrome{Title: "t", Zone: loc.String(), NotesURL: "/notes", CSRF: "t", LoggedIn: true, Skip: skipToContent, Langs: langLinks(l)}
	history := historyView{Items: []models.History{{ChangeKind: models.ChangeCreate, OccurredAt: now}}, Loc: loc}
	tabbed := newTabbed(tabs[0], "<li></li>\n", "/api/events/today?cursor=x")
	detail := newDetail(*sample.Event, loc, nil, nil, "", "")
	form := newForm(models.KindTask, nil, nil, loc)
	for name, data := range map[string]any{
		"partials/event_rows":    listView{Rows: "<li></li>\n", More: "/api/events?cursor=x"},
		"partials/event_row":     sample, // the row's reference; lists draw rows with Go (rowhtml.go)
		"partials/problem":       problemFor(models.ErrNotFound),
		"partials/history":       history,
		"partials/history_items": historyView{Items: history.Items, Loc: loc, More: "/api/events/1/history?cursor=x"},
		"partials/tabbed":        tabbed,
		"partials/day_groups":    sampleDays(), // Upcoming and Activity (daygroups.go)
		"partials/detail":        detail,
		"partials/new_form":      form,
		"partials/names":         []app.Name{{Name: "Acme website", Events: 2}},
		"pages/events":           eventsPage{chrome: page, Tabbed: tabbed},
		"pages/detail":           detailPage{chrome: page, Detail: detail, History: history},
		"pages/new":              newPage{chrome: page, Kinds: kindChoices(models.KindTask), Form: &form},
		"pages/error":            errorPage{chrome: page, Problem: problemFor(models.ErrNotFound)},
		"pages/problem_type":     problemTypeIn(l, typeValidation),
		"pages/login":            loginPage{chrome: page, Next: "/events", Message: "m"},
		"pages/notes":            page,
		"pages/review":           sampleReview(page, loc),
		"pages/search":           searchPage{chrome: page, Q: "q", Searched: true, Count: 1, List: listView{Rows: "<li></li>\n", More: "/api/events?cursor=x"}},
	} {
		if err := engine.Render(&bytes.Buffer{}, name, data); err != nil {
			return fmt.Errorf("render %s: %w", name, err)
		}
	}
	return nil
}

// drawnPart is a part of the pages drawn once: the template name over
// data, placed by {{drawn key}}.
type drawnPart struct {
	key, name string
	data      any
}

// drawnOnce are the parts of the pages that hold nothing of a request or
// of the data: every function they call returns the same on every call,
// and the tab bar and the opening of Today's sections have one of a few
// shapes each. They are drawn once, when the
// templates load (newEngine), and placed as drawn; run on every page,
// html/template calls each of their functions and the escaper after each
// value through reflect, which was over half the time the Today page's
// templates took around its rows.
func drawnOnce() []drawnPart {
	var parts []drawnPart
	for _, name := range []string{
		"partials/head_links", // the page contract, the styles and scripts at their hashed addresses
		"partials/capture",    // the quick-record and task lines of /events
		"partials/defer_menu", // the rows' defer menu, at every page's foot
	} {
		parts = append(parts, drawnPart{key: name, name: name})
	}
	// the openings of Today's sections
	for k, hd := range todayHeadings {
		parts = append(parts, drawnPart{key: todayHeads[k], name: "partials/today_section", data: hd})
	}
	// the tab bar with each tab selected, and with none (a tag's listing)
	for _, t := range append(slices.Clone(tabs), tab{}) {
		parts = append(parts, drawnPart{key: tabBarKey(t.Name), name: "partials/tab_bar", data: tabLinks(t.Name)})
	}
	return parts
}

// chrome is what every page shows around its content.
type chrome struct {
	Title    string
	Zone     string // the page's time zone, in which times are shown and read
	NotesURL string // the sidebar's Notes entry
	CSRF     string // the session's CSRF token, which app.js sends with every change
	LoggedIn bool   // a browser session: the sidebar offers to log out
	Nav      string // the sidebar's entry of this page: "" is Events, "review" the review page, "notes" /notes
	Search   string // the words in the sidebar's search box
	Skip     skipLink
	Langs    []langLink // the sidebar's link per language (language.go)
}

// Chrome is c itself: the pages hand it to their head and foot
// ({{template "partials/head" .Chrome}}), which read its fields there
// directly. Read through a page that embeds it, each of them cost
// text/template a search of the page's fields by name, with allocations:
// a sixth of drawing a page's frame.
func (c chrome) Chrome() chrome { return c }

// chrome is the frame of c's page titled title: an id of the catalogue,
// or words of the page's own (an event's title, a tag).
func (h *Handlers) chrome(c *fiber.Ctx, title string) chrome {
	if l := h.lang(c); l.Has(title) {
		title = l.T(title)
	}
	ch := chrome{Title: title, Zone: h.svc.Zone().String(), NotesURL: h.opts.NotesURL, Skip: skipToContent, Langs: langLinks(h.lang(c))}
	if s, ok := session(c); ok {
		ch.CSRF, ch.LoggedIn = h.opts.Auth.CSRF(s), true
	}
	return ch
}

// scriptWords are the words of l that the pages' scripts show, as JSON:
// the catalogue's js_ ids without the prefix, as written (a script fills
// their {{.Name}} placeholders itself), and the words of dates that rows
// write too: "weekdays" (Sunday first), "months", "date" and "date_year"
// (their order), "clock_sep", "undo", "deferred" and "due_prefix" (what a
// row's due time begins with).
func scriptWords(l *i18n.Lang) (string, error) {
	words := map[string]any{}
	for id, forms := range l.Messages() {
		if name, ok := strings.CutPrefix(id, "js_"); ok {
			words[name] = forms[len(forms)-1]
		}
	}
	var weekdays, months []string
	for _, d := range []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"} {
		weekdays = append(weekdays, l.T("weekday_"+d))
	}
	for m := 1; m <= 12; m++ {
		months = append(months, l.T("month_"+strconv.Itoa(m)))
	}
	due, _ := l.Wrap("row_due")
	words["weekdays"], words["months"], words["clock_sep"] = weekdays, months, l.ClockSep()
	words["undo"], words["deferred"], words["due_prefix"] = l.T("undo"), l.T("undo_deferred"), due
	words["date"], words["date_year"] = l.Raw("date_pattern"), l.Raw("date_pattern_year")
	b, err := json.Marshal(words)
	return string(b), err
}
