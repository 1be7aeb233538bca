// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"io"
	"net/http"
	"strings"
	"sync"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// The Today page drawn cold: the scenario "page". GET /events shows the
// Today tab: the day's listing read whole (up to 1,000 events) and drawn in
// its five sections. No row is drawn from a cache: the service keeps no
// rendered rows (handlers/rowhtml.go draws every row of every answer), so
// each request draws every row anew, as for rows never drawn before. The
// pgbench equivalent is the page's statements, captured as for every
// scenario. At 1,000,000 seeded events (about 270 a day) Today holds a few
// hundred rows (the day's logs, tasks and meetings, and the overdue tasks);
// the first request says how many.

var todayRowsSaid sync.Once

// todayPage is the request of the cold Today page; the first call says how
// many rows the page draws in how many sections.
func todayPage(e *env) []vegeta.Target {
	t := vegeta.Target{Method: "GET", URL: e.service.Base + "/events", Header: pageHeader}
	todayRowsSaid.Do(func() {
		req, err := http.NewRequest("GET", t.URL, nil)
		if err != nil {
			say("today-cold: %v", err)
			return
		}
		req.Header = pageHeader.Clone()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			say("today-cold: %v", err)
			return
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		page := string(body)
		say("today-cold: GET /events is %d, %d KiB, %d rows in %d sections",
			res.StatusCode, len(body)>>10, strings.Count(page, `<li class="event-row"`), strings.Count(page, `<section class="today-section"`))
	})
	return []vegeta.Target{t}
}
