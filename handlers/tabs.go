package handlers

import (
	"html/template"
	"net/url"
	"time"
)

// tab is one tab of /events: a listing of the API and its query. The
// tabs are declared with their listings, in listings.go.
type tab struct {
	Name, Label string
	Listing     listing
	Path        string                     // the API's address of the listing
	Empty       string                     // what an empty tab says
	Query       func(time.Time) url.Values // the listing's query at now; nil: none
}

// query is the tab's listing query at now.
func (t tab) query(now time.Time) url.Values {
	if t.Query == nil {
		return url.Values{}
	}
	return t.Query(now)
}

// tabLink is one entry of the tab list.
type tabLink struct {
	tab
	Selected bool
}

// tabbedView is the tab list and the open tab's rows.
type tabbedView struct {
	Tabs     []tabLink
	Current  tab
	List     listView
	Tag      string         // a tag's listing (tagview.go): no tab is selected
	Sections []todaySection // Today's (today.go); nil on the other tabs
}

func newTabbed(current tab, rows template.HTML, more string) tabbedView {
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
