// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"html/template"
	"net/url"
	"time"
)

// tab is one tab of /events: a listing of the API and its query. The
// tabs are declared with their listings, in listings.go.
type tab struct {
	Name, Label string // Label: the id of its words in the catalogue, or a tag ("#work")
	Listing     listing
	Path        string                     // the API's address of the listing
	Empty       string                     // what an empty tab says: an id of the catalogue
	EmptyArgs   []any                      // the placeholders Empty fills
	Query       func(time.Time) url.Values // the listing's query at now; nil: none
}

// query is the tab's listing query at now.
func (t tab) query(now time.Time) url.Values {
	if t.Query == nil {
		return url.Values{}
	}
	return t.Query(now)
}

// tabLink is one entry of the tab bar (partials/tab_bar).
type tabLink struct {
	Name, Label string
	Selected    bool
}

// tabLinks is the tab bar with the tab named selected selected ("": none).
func tabLinks(selected string) []tabLink {
	out := make([]tabLink, len(tabs))
	for i, t := range tabs {
		out[i] = tabLink{Name: t.Name, Label: t.Label, Selected: t.Name == selected}
	}
	return out
}

// tabBarKey is the key of the tab bar drawn with selected selected
// (drawnOnce).
func tabBarKey(selected string) string { return "partials/tab_bar " + selected }

// tabbedView is the tab bar and the open tab's rows.
type tabbedView struct {
	TabBar   string // the key of its tab bar, drawn once (drawnOnce)
	Current  tab
	List     listView
	Tag      string         // a tag's listing (tagview.go): no tab is selected
	TagMark  string         // "#" for a project tag's listing, "@" for a label's
	TagVerb  string         // "tagged" or "labelled"
	Sections []todaySection // Today's (today.go); nil on the other tabs
	Days     *dayGroupsView // Upcoming's and Activity's rows by day (daygroups.go)
	Notice   template.HTML  // what the task line just did, when the tab does not show it (captureplace.go)
}

func newTabbed(current tab, rows template.HTML, more string) tabbedView {
	selected := ""
	if _, ok := findTab(current.Name); ok {
		selected = current.Name
	}
	return tabbedView{TabBar: tabBarKey(selected), Current: current, List: listView{Rows: rows, More: more}}
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
