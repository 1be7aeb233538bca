// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"events/models"
)

// formNames are the names of the inputs of kind's form, as the field table
// (models.FormFields) gives them.
func formNames(kind models.Kind) []string {
	var out []string
	for _, f := range models.FormFields(kind) {
		out = append(out, f.Form())
	}
	return out
}

// formTexts are the texts a form edits, from the field table.
func formTexts() []*models.Field {
	var out []*models.Field
	for i := range models.EventFields {
		if f := &models.EventFields[i]; f.Editable() && f.Type == models.TypeText && f.Label != "" {
			out = append(out, f)
		}
	}
	return out
}

// rowIDs lists the event rows of a page or fragment, in order.
func rowIDs(body string) []int64 {
	var out []int64
	for _, m := range regexp.MustCompile(`<li\b[^>]*\bid="event-(\d+)"`).FindAllStringSubmatch(body, -1) {
		id, _ := strconv.ParseInt(m[1], 10, 64)
		out = append(out, id)
	}
	return out
}

// fieldNames lists the names of the visible fields of the edit or new form
// in body, in order.
func fieldNames(body string) []string {
	var out []string
	if m := regexp.MustCompile(`(?s)<form id="(edit|new)-form".*?</form>`).FindString(body); m != "" {
		body = m
	}
	for _, m := range regexp.MustCompile(`<(input|textarea|select)\b([^>]*)>`).FindAllStringSubmatch(body, -1) {
		if strings.Contains(m[2], `type="hidden"`) {
			continue
		}
		if n := regexp.MustCompile(`\bname="([^"]+)"`).FindStringSubmatch(m[2]); n != nil {
			out = append(out, n[1])
		}
	}
	return out
}

// page checks a whole HTML page of the status and returns its body.
func (a answer) pageHTML(t *testing.T, status int) string {
	t.Helper()
	a.want(t, status)
	if ct := a.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("%s: Content-Type = %q, want text/html", a, ct)
	}
	body := string(a.Body)
	if !strings.HasPrefix(body, "<!doctype html>") || !strings.Contains(body, `<a href="/events" aria-current="page">Events</a>`) {
		t.Errorf("%s: want a whole page with the sidebar, got:\n%s", a, body)
	}
	return body
}

func TestEventsPageTabs(t *testing.T) {
	s := newServer(t)                                                                                                                   // now is 12:00 on 2026-11-22 in Seoul
	today := s.create(`{"kind":"task","title":"Call the bank","due_at":"2026-11-22T01:00:00Z"}`)                                        // 10:00 today
	inbox := s.create(`{"kind":"task","title":"Sort photos"}`)                                                                          // no date
	upcoming := s.create(`{"kind":"calendar_event","title":"Dentist","start_at":"2026-11-25T01:00:00Z"}`)                               // in three days
	activity := s.create(`{"kind":"activity_log","title":"Ran","started_at":"2026-11-21T00:00:00Z","ended_at":"2026-11-21T01:00:00Z"}`) // yesterday
	s.create(`{"kind":"calendar_event","title":"Far off","start_at":"2026-12-20T01:00:00Z"}`)                                           // beyond 14 days

	for _, tt := range []struct {
		tab  string
		want int64
	}{{"", today.ID}, {"today", today.ID}, {"inbox", inbox.ID}, {"upcoming", upcoming.ID}, {"activity", activity.ID}} {
		target := "/events"
		if tt.tab != "" {
			target += "?tab=" + tt.tab
		}
		name := tt.tab
		if name == "" {
			name = "today"
		}
		body := s.get(target).pageHTML(t, http.StatusOK)
		if got := rowIDs(body); !slices.Equal(got, []int64{tt.want}) {
			t.Errorf("%s: rows %v, want [%d]", target, got, tt.want)
		}
		if !strings.Contains(body, `id="tab-`+name+`" href="/events?tab=`+name+`" hx-get="/events?tab=`+name+`" aria-controls="panel" aria-selected="true"`) {
			t.Errorf("%s: the %s tab is not the selected one", target, name)
		}
		if strings.Count(body, `aria-selected="true"`) != 1 {
			t.Errorf("%s: want exactly one selected tab", target)
		}
		// A tab click asks for the tab list and the list only.
		frag := s.get(target, hx...).html(t, http.StatusOK)
		if !strings.HasPrefix(frag, `<div id="tabbed">`) || !slices.Equal(rowIDs(frag), []int64{tt.want}) {
			t.Errorf("%s as a fragment = %s", target, frag)
		}
	}

	// A plain load of a page carries Vary too: the same address answers both.
	if a := s.get("/events?tab=inbox"); !varies(a) {
		t.Errorf("/events: Vary = %q, want HX-Request", a.Header.Values("Vary"))
	}
	// A back-button restore gets the whole page.
	if body := string(s.get("/events?tab=inbox", "HX-Request", "true", "HX-History-Restore-Request", "true").Body); !strings.HasPrefix(body, "<!doctype html>") {
		t.Errorf("a history restore got a fragment: %s", body)
	}
}

func TestEventsPageEmptyTabAndBadQuery(t *testing.T) {
	s := newServer(t)
	for _, tab := range []string{"today", "inbox", "upcoming", "activity"} {
		body := s.get("/events?tab="+tab).pageHTML(t, http.StatusOK)
		m := regexp.MustCompile(`<(?:li|p) class="empty">([^<]+)</(?:li|p)>`).FindStringSubmatch(body)
		if m == nil || len(strings.Fields(m[1])) < 4 {
			t.Errorf("empty %s tab: want a sentence saying so, got %v", tab, m)
		}
	}
	for _, target := range []string{"/events?tab=later", "/events?tab=today&tab=inbox", "/events?sort=title", "/events?tab=today%00", "/events?tab=%FF"} {
		body := s.get(target).pageHTML(t, http.StatusBadRequest)
		if !strings.Contains(body, "400") || !strings.Contains(body, "tab") {
			t.Errorf("%s: want a 400 page naming the parameter, got:\n%s", target, body)
		}
	}
}

func TestTabShowsMoreFromTheAPI(t *testing.T) {
	s := newServer(t)
	var all []int64
	for i := 0; i < 101; i++ {
		all = append(all, s.create(`{"kind":"task","title":"t`+strconv.Itoa(i)+`"}`).ID)
	}
	body := s.get("/events?tab=inbox").pageHTML(t, http.StatusOK)
	if got := rowIDs(body); !slices.Equal(got, all[:100]) {
		t.Fatalf("first page of the inbox: %d rows, want the first 100", len(got))
	}
	m := regexp.MustCompile(`<li class="more"><button type="button" hx-get="([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("inbox of 101 tasks: no Show more button")
	}
	more := html.UnescapeString(m[1])
	if !strings.HasPrefix(more, "/api/events/inbox?cursor=") {
		t.Errorf("Show more fetches %q, want the API's inbox listing", more)
	}
	frag := s.get(more, hx...).html(t, http.StatusOK)
	if got := rowIDs(frag); !slices.Equal(got, all[100:]) || strings.Contains(frag, `class="more"`) {
		t.Errorf("the next page = %v (more: %v), want [%d] and no more", got, strings.Contains(frag, `class="more"`), all[100])
	}
}

// TestPagesEscapeWhatTheUserTyped: every stored string a page shows (title,
// description, project tag), and what a refused form sends back, is escaped
// in the whole pages and in the fragments htmx swaps in, whichever context
// it lands in (text, attribute value, textarea).
func TestPagesEscapeWhatTheUserTyped(t *testing.T) {
	s := newServer(t)
	// what was typed into each text a form edits (the field table's), each
	// a different attack; the rows show title and project_tag
	attacks := []string{`<script>alert("%s")</script>`, `</textarea><img src=x onerror=alert("%s")>`, `"><svg onload=alert("%s")>`}
	texts := formTexts()
	typed := map[string]string{}
	create := map[string]string{"kind": "task", "source": "chat", "source_ref": `<iframe src="javascript:alert(2)">`}
	refused := url.Values{"priority": {"9"}}
	var all []string
	for i, f := range texts {
		typed[f.Name] = strings.Replace(attacks[i%len(attacks)], "%s", f.Name, 1)
		create[f.Name] = typed[f.Name]
		refused.Set(f.Form(), typed[f.Name])
		all = append(all, f.Name)
	}
	if !slices.Contains(all, "title") || !slices.Contains(all, "description") || !slices.Contains(all, "project_tag") {
		t.Fatalf("the texts of the forms: %v", all)
	}
	body, _ := json.Marshal(create)
	e := s.create(string(body))
	id := strconv.FormatInt(e.ID, 10)
	raw := []string{"<script>alert", "<img src=x", "<svg", "<iframe", "</textarea><img"}
	check := func(name, body string, shown ...string) {
		t.Helper()
		for _, r := range raw {
			if strings.Contains(body, r) {
				t.Errorf("%s holds %q unescaped", name, r)
			}
		}
		for _, f := range shown {
			if escaped := html.EscapeString(typed[f]); !strings.Contains(body, escaped) {
				t.Errorf("%s does not show the %s escaped (%s)", name, f, escaped)
			}
		}
	}
	check("the inbox", s.get("/events?tab=inbox").pageHTML(t, http.StatusOK), "title", "project_tag")
	check("the inbox tab fragment", s.get("/events?tab=inbox", hx...).html(t, http.StatusOK), "title", "project_tag")
	check("the detail page", s.get("/events/"+id).pageHTML(t, http.StatusOK), all...)
	check("the row fragment", s.get(path(e.ID), hx...).html(t, http.StatusOK), "title", "project_tag")
	check("the API list fragment", s.get("/api/events", hx...).html(t, http.StatusOK), "title", "project_tag")
	// A refused save sends back what was typed.
	check("a refused save", s.form("PATCH", path(e.ID), refused, toDetail...).html(t, http.StatusUnprocessableEntity), all...)
	refused.Set("kind", "task")
	check("a refused new form", s.form("POST", "/api/events", refused, "HX-Request", "true", "HX-Target", "form#new-form").html(t, http.StatusUnprocessableEntity), all...)
	// A problem naming a field the client made up.
	check("a problem fragment", s.json("POST", "/api/events", `{"kind":"task","title":"x","<img src=x onerror=alert(3)>":1}`, hx...).html(t, http.StatusUnprocessableEntity))
	check("an error page", s.get("/events?tab=<script>alert(4)</script>").pageHTML(t, http.StatusBadRequest))
	// The history shows stored times and statuses only; a reschedule of the
	// escaped event renders too.
	s.json("PATCH", path(e.ID), `{"due_at":"2026-11-30T00:00:00Z"}`).want(t, http.StatusOK)
	check("the history fragment", s.get(path(e.ID, "history"), hx...).html(t, http.StatusOK))
}

func TestDetailPage(t *testing.T) {
	s := newServer(t)
	task := s.create(`{"kind":"task","title":"Pay rent","due_at":"2026-11-25T00:00:00Z","priority":2,"project_tag":"home"}`)
	s.op(task.ID, "complete", "")
	body := s.get("/events/"+strconv.FormatInt(task.ID, 10)).pageHTML(t, http.StatusOK)
	if got, want := fieldNames(body), formNames(models.KindTask); !slices.Equal(got, want) {
		t.Errorf("task edit form fields = %v, want %v", got, want)
	}
	for _, want := range []string{
		`value="2026-11-25 09:00"`, // due_at in the page's zone, a 24-hour time at the form's precision
		`<option value="2" selected>`,
		`value="home"`,
		`<dd id="status" class="status status-done">done</dd>`,
		`data-op="reactivate"`,
		`<li data-change="create">`, `<li data-change="complete">`,
		`hx-trigger="event-changed from:body"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("detail page lacks %s", want)
		}
	}
	for _, kind := range []string{
		`{"kind":"calendar_event","title":"c","start_at":"2026-11-25T00:00:00Z"}`,
		`{"kind":"activity_log","title":"l"}`,
	} {
		e := s.create(kind)
		body := s.get("/events/"+strconv.FormatInt(e.ID, 10)).pageHTML(t, http.StatusOK)
		if got, want := fieldNames(body), formNames(models.Kind(e.Kind)); !slices.Equal(got, want) {
			t.Errorf("%s edit form fields = %v, want %v", e.Kind, got, want)
		}
		if e.Kind == "activity_log" && strings.Contains(body, `data-op=`) {
			t.Errorf("an activity log's detail has lifecycle buttons")
		}
	}
	for _, target := range []string{"/events/999999", "/events/abc", "/events/01"} {
		body := s.get(target).pageHTML(t, http.StatusNotFound)
		if !strings.Contains(body, "404") {
			t.Errorf("%s: want a 404 page, got:\n%s", target, body)
		}
	}
}

var toDetail = []string{"HX-Request", "true", "HX-Target", "section#detail"}

func TestDetailFormSaves(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"Pay rent","due_at":"2026-11-25T00:00:30.5Z"}`)
	form := url.Values{"title": {"Pay rent"}, "desc": {""}, "due_at": {"2026-11-25T09:00"}, "start_at": {""}, "priority": {"0"}, "project_tag": {""}}

	// The unchanged form: the seconds the form cannot show stay, and no
	// reschedule is written.
	a := s.form("PATCH", path(e.ID), form, toDetail...)
	body := a.html(t, http.StatusOK)
	if !strings.HasPrefix(body, `<section id="detail"`) || !strings.Contains(body, `class="form-message"`) {
		t.Errorf("saved detail = %s", body)
	}
	if got := a.Header.Get("HX-Trigger"); !strings.Contains(got, "event-changed") {
		t.Errorf("HX-Trigger = %q, want event-changed for the history", got)
	}
	if got := s.get(path(e.ID)).event(t, http.StatusOK); str(got.DueAt) != "2026-11-25T00:00:30.500000Z" {
		t.Errorf("due_at after an unchanged save = %s", str(got.DueAt))
	}
	if kinds := changeKinds(s.history(e.ID)); !slices.Equal(kinds, []string{"create"}) {
		t.Errorf("history after an unchanged save = %v, want only create", kinds)
	}

	// A time change is a reschedule.
	form.Set("due_at", "2026-11-26T09:00")
	s.form("PATCH", path(e.ID), form, toDetail...).html(t, http.StatusOK)
	if kinds := changeKinds(s.history(e.ID)); !slices.Equal(kinds, []string{"create", "reschedule"}) {
		t.Errorf("history after moving the due time = %v", kinds)
	}
	hist := s.get(path(e.ID, "history"), hx...).html(t, http.StatusOK)
	if !strings.Contains(hist, `<li data-change="reschedule">`) || !strings.Contains(hist, "Due: Wed 25 Nov"+year2026()+", 09:00 → Thu 26 Nov"+year2026()+", 09:00") {
		t.Errorf("history fragment = %s", hist)
	}

	// A refused form comes back with each error by its field and the typed
	// values kept; nothing is written.
	events, rows := s.counts()
	for field, value := range map[string]string{"title": "", "due_at": "someday"} {
		bad := url.Values{"title": {"typed title"}, "desc": {"typed text"}, "due_at": {"2026-11-27T10:00"}, "start_at": {""}, "priority": {"2"}, "project_tag": {"typed-tag"}}
		bad.Set(field, value)
		body = s.form("PATCH", path(e.ID), bad, toDetail...).html(t, http.StatusUnprocessableEntity)
		for _, want := range []string{`<p class="field-error" id="f-` + field + `-error" data-field="` + field + `">`, `>typed text</textarea>`, `value="typed-tag"`, `<option value="2" selected>`, `value="` + value + `"`} {
			if !strings.Contains(body, want) {
				t.Errorf("edit form refused for %s lacks %s:\n%s", field, want, body)
			}
		}
	}
	if e2, r2 := s.counts(); e2 != events || r2 != rows {
		t.Errorf("a refused save wrote: %d/%d rows, want %d/%d", e2, r2, events, rows)
	}
	if got := s.get(path(e.ID)).event(t, http.StatusOK); got.Title != "Pay rent" {
		t.Errorf("title after a refused save = %q", got.Title)
	}
}

func TestDetailLifecycleButtons(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	a := s.json("POST", path(e.ID, "complete"), "", toDetail...)
	body := a.html(t, http.StatusOK)
	if !strings.Contains(body, `<section id="detail" class="detail" data-status="done"`) || !strings.Contains(body, `hx-target="#detail"`) {
		t.Errorf("complete from the detail = %s", body)
	}
	if !strings.Contains(a.Header.Get("HX-Trigger"), "event-changed") {
		t.Errorf("HX-Trigger = %q", a.Header.Get("HX-Trigger"))
	}
	// The same click again (a stale tab): the detail as it is, with the reason.
	body = s.json("POST", path(e.ID, "complete"), "", toDetail...).html(t, http.StatusConflict)
	if !strings.Contains(body, `data-status="done"`) || !strings.Contains(body, "A done event cannot be completed") {
		t.Errorf("409 from the detail = %s", body)
	}
}

func TestNewPage(t *testing.T) {
	s := newServer(t)
	body := s.get("/events/new").pageHTML(t, http.StatusOK)
	for _, kind := range []string{"task", "calendar_event", "activity_log"} {
		if !strings.Contains(body, `<a data-kind="`+kind+`" href="/events/new?kind=`+kind+`"`) {
			t.Errorf("/events/new lacks the %s choice", kind)
		}
	}
	if strings.Contains(body, `id="new-form"`) {
		t.Errorf("/events/new shows a form before a kind is chosen")
	}
	for _, k := range models.Kinds {
		kind, want := string(k), formNames(k)
		body := s.get("/events/new?kind="+kind).pageHTML(t, http.StatusOK)
		if got := fieldNames(body); !slices.Equal(got, want) {
			t.Errorf("%s form fields = %v, want %v", kind, got, want)
		}
		if !strings.Contains(body, `<input type="hidden" name="kind" value="`+kind+`">`) {
			t.Errorf("%s form does not carry its kind", kind)
		}
	}
	s.get("/events/new?kind=meeting").pageHTML(t, http.StatusBadRequest)
}

var toNewForm = []string{"HX-Request", "true", "HX-Target", "form#new-form"}

func TestNewFormCreates(t *testing.T) {
	s := newServer(t)
	events, rows := s.counts()
	body := s.form("POST", "/api/events", url.Values{"kind": {"calendar_event"}, "title": {"Dentist"}, "start_at": {""}, "end_at": {""}}, toNewForm...).html(t, http.StatusUnprocessableEntity)
	if !strings.HasPrefix(body, `<form id="new-form"`) || !strings.Contains(body, `<p class="field-error" id="f-start_at-error" data-field="start_at">`) || !strings.Contains(body, `value="Dentist"`) {
		t.Errorf("refused new calendar entry = %s", body)
	}
	if e2, r2 := s.counts(); e2 != events || r2 != rows {
		t.Errorf("a refused create wrote")
	}

	a := s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "title": {"Read"}, "desc": {"a chapter"}, "started_at": {""}, "ended_at": {""}, "priority": {"0"}, "project_tag": {""}}, toNewForm...)
	a.want(t, http.StatusCreated)
	loc := a.Header.Get("HX-Redirect")
	if !strings.HasPrefix(loc, "/events/") {
		t.Fatalf("HX-Redirect = %q, want the new event's page", loc)
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(loc, "/events/"), 10, 64)
	e := s.get(path(id)).event(t, http.StatusOK)
	if e.Title != "Read" || e.Description != "a chapter" || e.Status != "done" || e.EndedAt == nil {
		t.Errorf("created from the form: %+v", e)
	}
	if h := s.history(id); len(h) != 1 || h[0].Actor != "user" {
		t.Errorf("history of a page's create = %+v, want one row by user", h)
	}
}

func TestServerErrorGoesToTheFlash(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"x"}`)
	if err := s.db.Close(); err != nil {
		t.Fatal(err)
	}
	a := s.json("POST", path(e.ID, "complete"), "", hx...)
	if a.Status < 500 {
		t.Fatalf("complete with the database closed = %d", a.Status)
	}
	if a.Header.Get("HX-Retarget") != "#flash" || a.Header.Get("HX-Reswap") != "innerHTML" {
		t.Errorf("5xx fragment headers: HX-Retarget %q, HX-Reswap %q; want the page's flash", a.Header.Get("HX-Retarget"), a.Header.Get("HX-Reswap"))
	}
	body := string(s.get("/events").Body)
	if !strings.Contains(body, "<!doctype html>") || !strings.Contains(body, `class="error-page"`) {
		t.Errorf("/events with the database closed: want a friendly page, got:\n%s", body)
	}
}

// TestListRowsAreNeverStale: a changed event, or a new day that makes a
// task overdue, is drawn anew (every answer draws every row, DESIGN.md,
// Drawing rows).
func TestListRowsAreNeverStale(t *testing.T) {
	s := newServer(t)                                                                 // 12:00 on 2026-11-22 in Seoul
	e := s.create(`{"kind":"task","title":"Before","due_at":"2026-11-22T09:00:00Z"}`) // 18:00 today
	if body := s.get("/events").pageHTML(t, http.StatusOK); !strings.Contains(body, ">Before</a>") || strings.Contains(body, `data-overdue`) {
		t.Fatalf("first draw: want Before, not overdue")
	}
	s.json("PATCH", path(e.ID), `{"title":"After"}`).want(t, http.StatusOK)
	body := s.get("/events").pageHTML(t, http.StatusOK)
	if !strings.Contains(body, ">After</a>") || strings.Contains(body, ">Before</a>") {
		t.Errorf("after a rename the list still shows the old row")
	}
	s.op(e.ID, "complete", "")
	s.op(e.ID, "reactivate", "")
	if frag := s.get("/api/events/today", hx...).html(t, http.StatusOK); !strings.Contains(frag, `data-status="planned"`) || !strings.Contains(frag, `data-op="complete"`) {
		t.Errorf("after complete and reactivate the row is stale: %s", frag)
	}
	s.clock.Add(24 * time.Hour) // tomorrow: the task is overdue
	if body := s.get("/events").pageHTML(t, http.StatusOK); !strings.Contains(body, `data-overdue="true"`) {
		t.Errorf("a task due yesterday is not drawn overdue")
	}
}

// History past a page of 100 steps is reachable from the detail page: a
// button fetches the later steps after the rows shown, until the end.
func TestDetailPageReachesHistoryPastOnePage(t *testing.T) {
	s := newServer(t)
	id := s.create(`{"kind":"task","title":"Long-lived"}`).ID
	if _, err := s.db.Exec(`INSERT INTO event_history (event_id, change_kind, actor, status_before, status_after, changes, occurred_at)
		SELECT ?, 'reschedule', 'api', 'planned', 'planned', '{}'::jsonb, ?::timestamptz + g * interval '1 minute'
		FROM generate_series(1, 150) g`, id, t0); err != nil {
		t.Fatal(err)
	}
	page := string(s.get("/events/"+strconv.FormatInt(id, 10), "Accept", "text/html").want(t, http.StatusOK).Body)
	steps := strings.Count(page, `<li data-change=`)
	next := regexp.MustCompile(`<li class="more"><button type="button" hx-get="([^"]+)"`).FindStringSubmatch(page)
	for next != nil {
		more := s.get(html.UnescapeString(next[1]), "HX-Request", "true").html(t, http.StatusOK)
		if strings.Contains(more, "<ol") {
			t.Fatalf("a later page of history repeats the list: %s", more)
		}
		steps += strings.Count(more, `<li data-change=`)
		next = regexp.MustCompile(`<li class="more"><button type="button" hx-get="([^"]+)"`).FindStringSubmatch(more)
	}
	if steps != 151 {
		t.Errorf("the detail page reaches %d history steps, want 151", steps)
	}
}

// year2026 is how the pages write the year 2026: not at all while it is
// this year (the pages show a date's year only when it is not this year).
func year2026() string {
	if time.Now().Year() == 2026 {
		return ""
	}
	return " 2026"
}

// TestPagesPartsDrawnOnce: the parts every page shares and that are drawn
// once when the templates load (drawnOnce) are on every page once, in their
// place, and each page's skip link is its own: to the quick-record line on
// /events and a tag's listing, to the content elsewhere.
func TestPagesPartsDrawnOnce(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"Call the bank","project_tag":"home","due_at":"2026-11-22T01:00:00Z"}`)
	for _, tt := range []struct {
		target, skip string
		capture      bool
	}{
		{"/events", `<a class="skip" href="#quick-title">Skip to the quick record</a>`, true},
		{"/events?project_tag=home", `<a class="skip" href="#quick-title">Skip to the quick record</a>`, true},
		{"/events/" + strconv.FormatInt(e.ID, 10), `<a class="skip" href="#main">Skip to content</a>`, false},
		{"/events/new", `<a class="skip" href="#main">Skip to content</a>`, false},
		{"/events/review", `<a class="skip" href="#main">Skip to content</a>`, false},
		{"/events/search?q=bank", `<a class="skip" href="#main">Skip to content</a>`, false},
	} {
		a := s.get(tt.target)
		a.want(t, http.StatusOK)
		body := string(a.Body)
		head, _, _ := strings.Cut(body, "</head>")
		for _, want := range []string{`<meta charset="utf-8">`, `<meta name="page-contract" content="`, `<link rel="stylesheet" href="/static/events.`, `<title>`} {
			if strings.Count(head, want) != 1 {
				t.Errorf("%s: the head holds %q %d times, want once:\n%s", tt.target, want, strings.Count(head, want), head)
			}
		}
		if !strings.HasPrefix(head, "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">") {
			t.Errorf("%s: the charset is not the head's first line:\n%s", tt.target, head)
		}
		if strings.Count(body, tt.skip) != 1 || strings.Count(body, `class="skip"`) != 1 {
			t.Errorf("%s: want one skip link, %s", tt.target, tt.skip)
		}
		if n := strings.Count(body, `<template id="defer-menu-template">`); n != 1 {
			t.Errorf("%s: the defer menu is on the page %d times, want once", tt.target, n)
		}
		forms := strings.Count(body, `<form id="quick-record"`) + strings.Count(body, `<form id="task-capture"`)
		if tt.capture && forms != 2 || !tt.capture && forms != 0 {
			t.Errorf("%s: %d capture lines", tt.target, forms)
		}
	}
}

// A log's detail page names the way out of a wrong record: the exact
// terminal command that cancels it, and the API call (it said "an API
// operation (see the README)", which the README did not explain).
func TestDetailPageNamesTheWayOut(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"activity_log","title":"wrong","started_at":"2026-11-22T09:00:00+09:00","ended_at":"2026-11-22T09:20:00+09:00"}`)
	id := strconv.FormatInt(e.ID, 10)
	body := s.get("/events/"+id).pageHTML(t, http.StatusOK)
	for _, want := range []string{"<code>events cancel " + id + "</code>", "<code>POST /api/events/" + id + "/cancel</code>", "<code>events undo " + id + "</code>"} {
		if !strings.Contains(body, want) {
			t.Errorf("the detail page lacks %s", want)
		}
	}
	if strings.Contains(body, "see the README") {
		t.Errorf("the detail page still points at the README")
	}
}
