// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"context"
	"net/url"
	"strings"
	"time"

	"events/app"
	"events/models"
)

// listing is one listing of the API, declared once: its name (which
// names its query parameters in models), its address under /api/events,
// its use case, and the tab of /events that shows it, if any. The routes
// (each before /api/events/{id}, which would otherwise take its name for
// an id), the tabs, the tab list's error sentence and the one load path
// are all read from listings.
type listing struct {
	Name models.Listing
	Path string // under /api/events: "" is /api/events itself
	Run  func(s *app.Service, ctx context.Context, q models.ListQuery) (app.Page[models.Event], error)
	Tab  *tab // nil: no tab shows it
}

// listings are the listings of the API, in the order of the tabs.
var listings = []listing{
	{Name: models.ListToday, Path: "/today", Run: (*app.Service).Today,
		Tab: &tab{Name: "today", Label: "tab_today", Empty: "tab_empty_today"}},
	{Name: models.ListInbox, Path: "/inbox", Run: (*app.Service).Inbox,
		Tab: &tab{Name: "inbox", Label: "tab_inbox", Empty: "tab_empty_inbox"}},
	{Name: models.ListEvents, Path: "", Run: (*app.Service).List,
		Tab: &tab{Name: "upcoming", Label: "tab_upcoming", Empty: "tab_empty_upcoming", Query: upcoming}},
	{Name: models.ListActivity, Path: "/activity", Run: (*app.Service).Activity,
		Tab: &tab{Name: "activity", Label: "tab_activity", Empty: "tab_empty_activity"}},
}

// apiPath is the listing's full address.
func (l listing) apiPath() string { return "/api/events" + l.Path }

// tabs are the tabs of /events, from listings.
var tabs = func() []tab {
	var out []tab
	for _, l := range listings {
		if l.Tab != nil {
			t := *l.Tab
			t.Listing, t.Path = l, l.apiPath()
			out = append(out, t)
		}
	}
	return out
}()

// tabNames is the tab names in words: "today, inbox, upcoming or activity".
func tabNames() string {
	names := make([]string, len(tabs))
	for i, t := range tabs {
		names[i] = t.Name
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// upcomingDays is how far the Upcoming tab looks ahead.
const upcomingDays = 14

// upcoming is the Upcoming tab's query at now: what is not cancelled in the
// next upcomingDays days. Deferred events are left out here and placed at
// their defer_until by the page (withDeferred, upcoming.go).
func upcoming(now time.Time) url.Values {
	var statuses []string
	for _, s := range models.Statuses {
		if s != models.StatusCancelled && s != models.StatusDeferred {
			statuses = append(statuses, string(s))
		}
	}
	return url.Values{
		"from":   {models.FormatTime(now)},
		"to":     {models.FormatTime(now.AddDate(0, 0, upcomingDays))},
		"status": {strings.Join(statuses, ",")},
	}
}
