// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// since is the updated_since query of t.
func since(t time.Time) string {
	return "updated_since=" + url.QueryEscape(t.UTC().Format(time.RFC3339Nano))
}

// TestUpdatedSinceListsWhatChanged: ?updated_since= lists the events
// written after the instant, created or changed, in (updated_at, id)
// order, page by page with a cursor bound to it; the other filters still
// apply.
func TestUpdatedSinceListsWhatChanged(t *testing.T) {
	s := newServer(t)
	a := s.create(`{"kind":"task","title":"a"}`)
	b := s.create(`{"kind":"calendar_event","title":"b","start_at":"2026-11-23T10:00:00+09:00","end_at":"2026-11-23T11:00:00+09:00"}`)
	c := s.create(`{"kind":"task","title":"c"}`)
	s.clock.Add(time.Minute)
	mark := s.clock.Now()
	s.clock.Add(time.Minute)
	d := s.create(`{"kind":"task","title":"d"}`)
	s.clock.Add(time.Minute)
	s.op(a.ID, "complete", "")
	s.clock.Add(time.Minute)
	s.json("PATCH", path(b.ID), `{"title":"b2"}`).want(t, http.StatusOK)
	_ = c // unchanged since the mark: never listed

	got := s.get("/api/events?" + since(mark)).page(t)
	if want := []int64{d.ID, a.ID, b.ID}; !slices.Equal(ids(got.Items), want) {
		t.Errorf("changed since the mark: %v, want %v (in the order they changed)", ids(got.Items), want)
	}
	// a page at a time, with the cursor
	pages := s.walk("/api/events?limit=1&" + since(mark))
	if want := [][]int64{{d.ID}, {a.ID}, {b.ID}}; !slices.EqualFunc(pages, want, slices.Equal) {
		t.Errorf("pages %v, want %v", pages, want)
	}
	// after the instant, not at it: the last change's own time lists nothing
	last := s.get(path(b.ID)).event(t, http.StatusOK)
	if p := s.get("/api/events?updated_since=" + url.QueryEscape(last.UpdatedAt)).page(t); len(p.Items) != 0 {
		t.Errorf("updated_since=%s (the newest change) lists %v, want nothing", last.UpdatedAt, ids(p.Items))
	}
	// with the other filters
	if p := s.get("/api/events?kind=task&" + since(mark)).page(t); !slices.Equal(ids(p.Items), []int64{d.ID, a.ID}) {
		t.Errorf("kind=task: %v, want %v", ids(p.Items), []int64{d.ID, a.ID})
	}
	if p := s.get("/api/events?status=done&" + since(mark)).page(t); !slices.Equal(ids(p.Items), []int64{a.ID}) {
		t.Errorf("status=done: %v, want %v", ids(p.Items), []int64{a.ID})
	}
	// RFC 3339 with lowercase t and z, as the RFC allows
	lower := strings.ToLower(mark.UTC().Format(time.RFC3339Nano))
	if p := s.get("/api/events?updated_since=" + lower).page(t); len(p.Items) != 3 {
		t.Errorf("updated_since=%s lists %v, want 3 events", lower, ids(p.Items))
	}
	// a cursor of the time-ordered listing is not one of this order, nor
	// the reverse
	first := s.get("/api/events?limit=1&" + since(mark)).page(t)
	s.get("/api/events?limit=1&cursor="+url.QueryEscape(*first.NextCursor)).problem(t, http.StatusBadRequest, "cursor")
	plain := s.get("/api/events?limit=1").page(t)
	s.get("/api/events?limit=1&"+since(mark)+"&cursor="+url.QueryEscape(*plain.NextCursor)).problem(t, http.StatusBadRequest, "cursor")
	for _, bad := range []string{"yesterday", "2026-11-22", "2026-11-22T10:00:00"} {
		s.get("/api/events?updated_since="+url.QueryEscape(bad)).problem(t, http.StatusBadRequest, "updated_since")
	}
	// the listings of a fixed membership do not take it
	s.get("/api/events/today?"+since(mark)).problem(t, http.StatusBadRequest, "updated_since")
}

// TestConditionalGetOfOneEvent: If-None-Match naming the event's current
// ETag (or *) is 304 with that ETag and no body; after a change, the old
// one gets the event.
func TestConditionalGetOfOneEvent(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"Read"}`)
	first := s.get(path(e.ID)).want(t, http.StatusOK)
	tag := first.Header.Get("ETag")
	for _, inm := range []string{tag, "*", "W/" + tag, `"other", ` + tag} {
		a := s.get(path(e.ID), "If-None-Match", inm).want(t, http.StatusNotModified)
		if len(a.Body) != 0 || a.Header.Get("ETag") != tag {
			t.Errorf("If-None-Match %s: body %q, ETag %q; want none and %s", inm, a.Body, a.Header.Get("ETag"), tag)
		}
	}
	s.get(path(e.ID), "If-None-Match", `"1.2"`).event(t, http.StatusOK)
	s.json("PATCH", path(e.ID), `{"title":"Read more"}`).want(t, http.StatusOK)
	if got := s.get(path(e.ID), "If-None-Match", tag).event(t, http.StatusOK); got.Title != "Read more" {
		t.Errorf("after a change: %q", got.Title)
	}
	s.get(path(e.ID), "If-None-Match", "not a tag").problem(t, http.StatusBadRequest, "If-None-Match")
	s.get("/api/events/999999", "If-None-Match", "*").problem(t, http.StatusNotFound)
}

// TestListingsAnswerAWeakETag: every listing's JSON answer carries a weak
// ETag, and If-None-Match with it is 304 until something listed changes.
func TestListingsAnswerAWeakETag(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"Inbox task"}`)
	s.create(`{"kind":"activity_log","title":"Walk","started_at":"2026-11-22T10:00:00+09:00","ended_at":"2026-11-22T11:00:00+09:00"}`)
	for _, target := range []string{"/api/events", "/api/events/today", "/api/events/inbox", "/api/events/activity", "/api/events?" + since(t0.Add(-time.Hour))} {
		first := s.get(target).want(t, http.StatusOK)
		tag := first.Header.Get("ETag")
		if !strings.HasPrefix(tag, `W/"`) || !strings.HasSuffix(tag, `"`) {
			t.Fatalf("GET %s: ETag %q, want a weak one", target, tag)
		}
		a := s.get(target, "If-None-Match", tag).want(t, http.StatusNotModified)
		if len(a.Body) != 0 || a.Header.Get("ETag") != tag {
			t.Errorf("GET %s with its ETag: body %q, ETag %q", target, a.Body, a.Header.Get("ETag"))
		}
		if again := s.get(target).want(t, http.StatusOK); again.Header.Get("ETag") != tag {
			t.Errorf("GET %s twice: ETag %q then %q", target, tag, again.Header.Get("ETag"))
		}
		s.get(target, "If-None-Match", `W/"other"`).page(t)
	}
	before := s.get("/api/events/inbox").Header.Get("ETag")
	s.json("PATCH", path(e.ID), `{"title":"Renamed"}`).want(t, http.StatusOK)
	after := s.get("/api/events/inbox", "If-None-Match", before).want(t, http.StatusOK)
	if after.Header.Get("ETag") == before {
		t.Errorf("the inbox's ETag did not change with its task")
	}
	s.get("/api/events", "If-None-Match", "W/x").problem(t, http.StatusBadRequest, "If-None-Match")
}
