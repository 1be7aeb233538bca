package handlers

import (
	"errors"
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// The pages: /events with its tabs, /events/{id} and /events/new. They read
// through the same listings and use cases as the API, and their buttons and
// forms post to the API, which answers them with fragments.

// tab is one tab of /events: a listing of the API and its query.
type tab struct {
	Name, Label string
	Listing     models.Listing
	Path        string // the API's address of the listing
	Empty       string // what an empty tab says
}

var tabs = []tab{
	{Name: "today", Label: "Today", Listing: models.ListToday, Path: "/api/events/today",
		Empty: "Nothing for today: no entries, no tasks due or overdue."},
	{Name: "inbox", Label: "Inbox", Listing: models.ListInbox, Path: "/api/events/inbox",
		Empty: "The inbox is empty: every open task has a date."},
	{Name: "upcoming", Label: "Upcoming", Listing: models.ListEvents, Path: "/api/events",
		Empty: "Nothing planned in the next 14 days."},
	{Name: "activity", Label: "Activity", Listing: models.ListActivity, Path: "/api/events/activity",
		Empty: "No activity recorded in the last seven days. Record one above."},
}

// upcomingDays is how far the Upcoming tab looks ahead.
const upcomingDays = 14

// query is the tab's listing query at now.
func (t tab) query(now time.Time) url.Values {
	if t.Name != "upcoming" {
		return url.Values{}
	}
	var statuses []string
	for _, s := range models.Statuses {
		if s != models.StatusCancelled {
			statuses = append(statuses, string(s))
		}
	}
	return url.Values{
		"from":   {models.FormatTime(now)},
		"to":     {models.FormatTime(now.AddDate(0, 0, upcomingDays))},
		"status": {strings.Join(statuses, ",")},
	}
}

// tabLink is one entry of the tab list.
type tabLink struct {
	tab
	Selected bool
}

// tabbedView is the tab list and the open tab's rows.
type tabbedView struct {
	Tabs    []tabLink
	Current tab
	List    listView
}

func newTabbed(current tab, rows []template.HTML, more string) tabbedView {
	v := tabbedView{Current: current, List: listView{Rows: rows, More: more}}
	for _, t := range tabs {
		v.Tabs = append(v.Tabs, tabLink{tab: t, Selected: t.Name == current.Name})
	}
	return v
}

type eventsPage struct {
	chrome
	Tabbed tabbedView
}

type detailPage struct {
	chrome
	Detail  detailView
	History historyView
}

// kindChoice is one entry of /events/new's kind chooser.
type kindChoice struct {
	Kind     models.Kind
	Label    string
	Hint     string
	Selected bool
}

func kindChoices(selected models.Kind) []kindChoice {
	var choices []kindChoice
	for _, c := range []struct {
		kind models.Kind
		hint string
	}{
		{models.KindTask, "something to do, with a due time or none"},
		{models.KindCalendarEvent, "something at a time: a meeting, a day off"},
		{models.KindActivityLog, "something done, now or earlier"},
	} {
		choices = append(choices, kindChoice{Kind: c.kind, Label: sentence(kindNames[c.kind]), Hint: c.hint, Selected: c.kind == selected})
	}
	return choices
}

type newPage struct {
	chrome
	Kinds []kindChoice
	Form  *formView
}

type errorPage struct {
	chrome
	Problem problem
}

// eventsPage: GET /events?tab=today|inbox|upcoming|activity. A tab click
// asks for the tab list and the rows only.
func (h *Handlers) eventsPage(c *fiber.Ctx) error {
	values, err := queryValues(c)
	if err != nil {
		return err
	}
	name := "today"
	for key, v := range values {
		if key != "tab" || len(v) != 1 {
			return models.BadRequest(key, "is not a parameter of this page; it takes tab once")
		}
		name = v[0]
	}
	current, ok := findTab(name)
	if !ok {
		return models.BadRequest("tab", "must be one of today, inbox, upcoming or activity")
	}
	q := current.query(h.svc.Now())
	page, err := h.load(c, current.Listing, q)
	if err != nil {
		return err
	}
	rows, err := h.rows(page.Items)
	if err != nil {
		return err
	}
	view := newTabbed(current, rows, more(current.Path, q, page.NextCursor))
	c.Vary("HX-Request")
	if fragment(c) {
		return c.Render("partials/tabbed", view)
	}
	return c.Render("pages/events", eventsPage{chrome: h.chrome(c, current.Label), Tabbed: view})
}

func findTab(name string) (tab, bool) {
	for _, t := range tabs {
		if t.Name == name {
			return t, true
		}
	}
	return tab{}, false
}

// detailPage: GET /events/{id}.
func (h *Handlers) detailPage(c *fiber.Ctx) error {
	e, err := h.event(c)
	if err != nil {
		return err
	}
	id := e.ID
	q, err := models.ParseListQuery(models.ListHistory, url.Values{}, h.svc.Location())
	if err != nil {
		return err
	}
	history, err := h.svc.History(c.UserContext(), id, q)
	if err != nil {
		return err
	}
	title := e.Title
	if title == "" {
		title = "Untitled " + kindNames[e.Kind]
	}
	return c.Render("pages/detail", detailPage{
		chrome:  h.chrome(c, title),
		Detail:  h.detail(e, nil, nil, "", ""),
		History: historyView{ID: id, Items: history.Items, Loc: h.svc.Location()},
	})
}

// newPage: GET /events/new, then /events/new?kind=… for the kind's form.
func (h *Handlers) newPage(c *fiber.Ctx) error {
	values, err := queryValues(c)
	if err != nil {
		return err
	}
	var kind models.Kind
	for key, v := range values {
		if key != "kind" || len(v) != 1 {
			return models.BadRequest(key, "is not a parameter of this page; it takes kind once")
		}
		kind = models.Kind(v[0])
		if !kind.Valid() {
			return models.BadRequest("kind", "must be task, calendar_event or activity_log")
		}
	}
	page := newPage{chrome: h.chrome(c, "New event"), Kinds: kindChoices(kind)}
	if kind != "" {
		form := newForm(kind, nil, nil, h.svc.Location())
		page.Form = &form
		page.Title = "New " + kindNames[kind]
	}
	c.Vary("HX-Request")
	if fragment(c) && page.Form != nil {
		return c.Render("partials/new_form", *page.Form)
	}
	return c.Render("pages/new", page)
}

// pageTarget names the part of a page an htmx request updates, from its
// HX-Target header: the detail section, the new-event form, or (anything
// else) a row of a list.
type pageTarget int

const (
	toRow pageTarget = iota
	toDetail
	toNewForm
)

func targetOf(c *fiber.Ctx) pageTarget {
	switch c.Get("HX-Target") {
	case "section#detail":
		return toDetail
	case "form#new-form":
		return toNewForm
	}
	return toRow
}

// changed tells the page that an event changed, so its history refreshes.
// The event is sent to the body: the button that asked is gone by then.
func changed(c *fiber.Ctx) {
	if fragment(c) {
		c.Set("HX-Trigger", `{"event-changed":{"target":"body"}}`)
	}
}

// refused answers a refused write in the terms of the page part that sent
// it: the new-event form or the edit form with each error by its field and
// the typed values kept; a row or the detail, as it now is, with the reason.
// Every other refusal (and every API client's) goes to the error handler.
func (h *Handlers) refused(c *fiber.Ctx, id int64, err error) error {
	if !fragment(c) {
		return err
	}
	c.Vary("HX-Request")
	p := problemFor(err)
	var fields models.FieldErrors
	isFields := errors.As(err, &fields)
	target := targetOf(c)
	if target == toNewForm {
		if !isFields {
			return err
		}
		form, _ := url.ParseQuery(string(c.Body()))
		kind := models.Kind(form.Get("kind"))
		if !kind.Valid() {
			return err
		}
		c.Status(p.Status)
		return c.Render("partials/new_form", newForm(kind, form, fields, h.svc.Location()))
	}
	if id == 0 || (p.Status != fiber.StatusConflict && p.Status != fiber.StatusUnprocessableEntity && p.Status != fiber.StatusBadRequest) {
		return err
	}
	e, gerr := h.svc.Get(c.UserContext(), id)
	if gerr != nil {
		return err
	}
	if target == toDetail && c.Method() == fiber.MethodPatch && isFields {
		form, _ := url.ParseQuery(string(c.Body()))
		c.Status(p.Status)
		return c.Render("partials/detail", h.detail(e, form, fields, "", ""))
	}
	return h.sendEvent(c, p.Status, e, "", sentence(p.Detail))
}

// sentence starts s with a capital letter.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// more is the address of a listing's next page, or "" at its end.
func more(path string, q url.Values, next *string) string {
	if next == nil {
		return ""
	}
	v := url.Values{}
	for k, vs := range q {
		v[k] = vs
	}
	v.Set("cursor", *next)
	return path + "?" + v.Encode()
}

// queryValues parses the query string.
func queryValues(c *fiber.Ctx) (url.Values, error) {
	q, err := url.ParseQuery(string(c.Request().URI().QueryString()))
	if err != nil {
		return nil, models.BadRequest("", "the query string does not parse: %s", err)
	}
	return q, nil
}

// wantsPage reports whether an error should be an HTML page: a page's
// address, or a browser asking anywhere outside the API.
func wantsPage(c *fiber.Ctx) bool {
	path := c.Path()
	if strings.HasPrefix(path, "/api/") || path == "/api" {
		return false
	}
	return path == "/events" || strings.HasPrefix(path, "/events/") ||
		c.Accepts(fiber.MIMEApplicationJSON, fiber.MIMETextHTML) == fiber.MIMETextHTML
}

// itoa is strconv.FormatInt for ids.
func itoa(id int64) string { return strconv.FormatInt(id, 10) }
