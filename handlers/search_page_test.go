// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestSearchPage: /events/search?q= lists the events holding every word,
// each linking to its page; every page's sidebar holds the search box (a
// GET form to it); nothing found says so; a search past a page offers
// the next one from the API; other parameters are 400.
func TestSearchPage(t *testing.T) {
	s := newServer(t)
	hit := s.create(`{"kind":"task","title":"주간 회의 준비"}`)
	s.create(`{"kind":"task","title":"Groceries"}`)

	a := s.get("/events")
	a.want(t, http.StatusOK)
	if body := string(a.Body); !strings.Contains(body, `<form class="site-search" role="search" method="get" action="/events/search">`) || !strings.Contains(body, `name="q" type="search"`) {
		t.Errorf("/events has no search box in its sidebar")
	}
	body := string(s.get("/events/search?q="+url.QueryEscape("회의")).want(t, http.StatusOK).Body)
	if !strings.Contains(body, fmt.Sprintf(`<a class="title" href="/events/%d" dir="auto">주간 회의 준비</a>`, hit.ID)) || strings.Contains(body, "Groceries") {
		t.Errorf("the results of 회의:\n%s", body)
	}
	if !strings.Contains(body, `value="회의"`) {
		t.Errorf("the search box does not hold the words searched")
	}
	body = string(s.get("/events/search?q="+url.QueryEscape("없는단어")).want(t, http.StatusOK).Body)
	if !strings.Contains(body, `<li class="empty">No event has “<bdi>없는단어</bdi>”`) || strings.Contains(body, `class="event-row"`) {
		t.Errorf("a search that finds nothing:\n%s", body)
	}
	body = string(s.get("/events/search").want(t, http.StatusOK).Body)
	if !strings.Contains(body, "Type words from an event") || strings.Contains(body, `id="search-results"`) {
		t.Errorf("the search page without words:\n%s", body)
	}
	// past a page, Show more fetches the next from the API with q
	for i := 0; i < 101; i++ {
		s.create(fmt.Sprintf(`{"kind":"task","title":"장보기 %d"}`, i))
	}
	body = string(s.get("/events/search?q="+url.QueryEscape("장보기")).want(t, http.StatusOK).Body)
	if n := strings.Count(body, `class="event-row"`); n != 100 || !strings.Contains(body, `hx-get="/api/events?cursor=`) || !strings.Contains(body, "q=%EC%9E%A5%EB%B3%B4%EA%B8%B0") {
		t.Errorf("a search with 101 results shows %d rows and no Show more from the API", n)
	}
	s.get("/events/search?tab=today").want(t, http.StatusBadRequest)
	s.get("/events/search?q="+url.QueryEscape(strings.Repeat("가", 201))).want(t, http.StatusBadRequest)
}
