package handlers

import (
	"html/template"
	"net/url"
	"strings"
	"time"

	"events/models"
)

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

func findTab(name string) (tab, bool) {
	for _, t := range tabs {
		if t.Name == name {
			return t, true
		}
	}
	return tab{}, false
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
