// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
)

func init() { statusTitles[http.StatusPreconditionFailed] = "Precondition Failed" }

// etag is the ETag of an answer, failing the test when it is missing or
// not a strong entity tag.
func etag(t *testing.T, a answer) string {
	t.Helper()
	tag := a.Header.Get("ETag")
	if !regexp.MustCompile(`^"[\x21\x23-\x7e]+"$`).MatchString(tag) {
		t.Fatalf("%s: ETag = %q, want a strong entity tag", a, tag)
	}
	return tag
}

// snapshot is what is stored about one event: its JSON and its history.
func (s *server) snapshot(id int64) string {
	s.t.Helper()
	a := s.get(path(id)).want(s.t, http.StatusOK)
	h := s.get(path(id, "history")).want(s.t, http.StatusOK)
	return string(a.Body) + string(h.Body)
}

func TestETagOnEveryAnswerWithOneEvent(t *testing.T) {
	s := newServer(t) // its clock stands still: the validator must move anyway
	c := s.json("POST", "/api/events", `{"kind": "task", "title": "Pay rent"}`).want(t, http.StatusCreated)
	e := c.event(t, http.StatusCreated)
	created := etag(t, c)

	g := s.get(path(e.ID)).want(t, http.StatusOK)
	if got := etag(t, g); got != created {
		t.Errorf("GET ETag = %s, want the create's %s", got, created)
	}
	if got := etag(t, s.do("HEAD", path(e.ID), "", "").want(t, http.StatusOK)); got != created {
		t.Errorf("HEAD ETag = %s, want %s", got, created)
	}
	if got := etag(t, s.get(path(e.ID), hx...).want(t, http.StatusOK)); got != created {
		t.Errorf("ETag of the row fragment = %s, want %s", got, created)
	}

	seen := map[string]string{created: "create"}
	step := func(what string, a answer) string {
		t.Helper()
		a.want(t, http.StatusOK)
		tag := etag(t, a)
		if prev, ok := seen[tag]; ok {
			t.Errorf("ETag after %s = %s, the same as after %s: it must change with every change", what, tag, prev)
		}
		seen[tag] = what
		if got := etag(t, s.get(path(e.ID))); got != tag {
			t.Errorf("GET after %s: ETag %s, the answer's was %s", what, got, tag)
		}
		return tag
	}
	step("a title PATCH", s.json("PATCH", path(e.ID), `{"title": "Pay the rent"}`))
	last := step("a due PATCH", s.json("PATCH", path(e.ID), `{"due_at": "2026-11-25T09:00:00+09:00"}`))
	if got := etag(t, s.json("PATCH", path(e.ID), `{"title": "Pay the rent"}`).want(t, http.StatusOK)); got != last {
		t.Errorf("a PATCH that changes nothing moved the ETag from %s to %s", last, got)
	}
	step("complete", s.json("POST", path(e.ID, "complete"), ""))
	step("reactivate", s.json("POST", path(e.ID, "reactivate"), ""))
	step("defer", s.json("POST", path(e.ID, "defer"), `{"defer_until": "2026-11-30T09:00:00+09:00"}`))
	step("cancel", s.json("POST", path(e.ID, "cancel"), ""))
	step("a form PATCH from the page", s.form("PATCH", path(e.ID), url.Values{"title": {"Rent"}, "desc": {""}, "priority": {"0"}}, toDetail...))
}

func TestIfMatchRefusesAStaleWriteAndWritesNothing(t *testing.T) {
	s := newServer(t)
	c := s.json("POST", "/api/events", `{"kind": "task", "title": "Report"}`).want(t, http.StatusCreated)
	id := c.event(t, http.StatusCreated).ID
	stale := etag(t, c)
	current := etag(t, s.json("PATCH", path(id), `{"title": "Report v2"}`, "If-Match", stale).want(t, http.StatusOK))
	before := s.snapshot(id)
	events, rows := s.counts()

	writes := []struct{ method, target, body string }{
		{"PATCH", path(id), `{"due_at": "2026-11-25T09:00:00+09:00"}`},
		{"PATCH", path(id), `{"title": 5}`}, // stale first: the body is not looked at
		{"POST", path(id, "complete"), ""},
		{"POST", path(id, "cancel"), ""},
		{"POST", path(id, "defer"), `{"defer_until": "2026-11-30T09:00:00+09:00"}`},
		{"POST", path(id, "reactivate"), ""},
	}
	for _, w := range writes {
		for _, cond := range []string{stale, `W/` + current, `"nope", ` + stale, `W/` + current + `, ` + stale} {
			a := s.json(w.method, w.target, w.body, "If-Match", cond)
			p := a.problem(t, http.StatusPreconditionFailed)
			if !strings.Contains(p.Detail, "changed") {
				t.Errorf("%s: detail %q does not say the event changed", a, p.Detail)
			}
			if got := a.Header.Get("ETag"); got != current {
				t.Errorf("%s: the 412 carries ETag %q, want the current %s", a, got, current)
			}
		}
	}
	if after := s.snapshot(id); after != before {
		t.Errorf("stale writes changed the event or its history:\nbefore %s\nafter  %s", before, after)
	}
	if e, r := s.counts(); e != events || r != rows {
		t.Errorf("after stale writes: %d events, %d history rows; want %d, %d", e, r, events, rows)
	}

	// Any tag of a list that matches; "*"; and no If-Match at all behave as before.
	next := etag(t, s.json("PATCH", path(id), `{"title": "Report v3"}`, "If-Match", `"x", `+current+`,"y"`).want(t, http.StatusOK))
	// Empty list elements are ignored, at the start as in the middle.
	next = etag(t, s.json("PATCH", path(id), `{"title": "Report v4"}`, "If-Match", `,"x", , `+next+` ,`).want(t, http.StatusOK))
	next = etag(t, s.json("PATCH", path(id), `{"title": "Report v5"}`, "If-Match", ` , ,`+next).want(t, http.StatusOK))
	s.json("PATCH", path(id), `{"title": "Report v6"}`, "If-Match", `, "x", , "y"`).problem(t, http.StatusPreconditionFailed)
	next = etag(t, s.json("POST", path(id, "complete"), "", "If-Match", next).want(t, http.StatusOK))
	s.json("POST", path(id, "reactivate"), "", "If-Match", "*").want(t, http.StatusOK)
	// Several If-Match lines make one list (RFC 9110, 5.3).
	cur := etag(t, s.get(path(id)))
	req := httptest.NewRequest("PATCH", path(id), strings.NewReader(`{"description": "two lines"}`))
	req.Header.Set("Content-Type", jsonType)
	req.Header.Add("If-Match", stale)
	req.Header.Add("If-Match", ` "other" , `+cur)
	if res, err := s.f.Test(req, -1); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("If-Match over two lines naming the current tag: %v %v, want 200", res.StatusCode, err)
	}
	s.json("PATCH", path(id), `{"priority": 2}`).want(t, http.StatusOK)
	// The statuses before the precondition stay: 404 for no event; a
	// header that is not entity tags is 400 naming it.
	s.json("PATCH", path(id+100), `{"title": "x"}`, "If-Match", "*").problem(t, http.StatusNotFound)
	s.json("POST", path(id+100, "complete"), "", "If-Match", current).problem(t, http.StatusNotFound)
	for _, bad := range []string{"", ",", " , ,", ",*", "abc", `"unclosed`, `"a" "b"`, `W/`, "\"a b\""} {
		s.json("PATCH", path(id), `{"title": "x"}`, "If-Match", bad).problem(t, http.StatusBadRequest, "If-Match")
	}
	if got := s.get(path(id)); strings.Contains(string(got.Body), `"title":"x"`) {
		t.Errorf("a refused If-Match wrote the title: %s", got.Body)
	}
}

// Two writes holding the same validator race: the check runs after the row
// lock, so exactly one wins and the other is refused; none is lost silently.
func TestIfMatchRaceHasOneWinner(t *testing.T) {
	s := newServer(t)
	for round := 0; round < 10; round++ {
		c := s.json("POST", "/api/events", `{"kind": "task", "title": "Race"}`).want(t, http.StatusCreated)
		id, tag := c.event(t, http.StatusCreated).ID, etag(t, c)
		const n = 6
		codes := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				body := `{"title": "writer ` + string(rune('A'+i)) + `"}`
				if i%2 == 1 {
					body = `{"due_at": "2026-11-2` + string(rune('3'+i/2)) + `T09:00:00+09:00"}`
				}
				codes[i] = send(t, s.f, "PATCH", path(id), jsonType, body, "If-Match", tag).Status
			}()
		}
		wg.Wait()
		won := 0
		for _, code := range codes {
			switch code {
			case http.StatusOK:
				won++
			case http.StatusPreconditionFailed:
			default:
				t.Fatalf("round %d: a racing PATCH answered %d", round, code)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d of %d PATCHes with the same If-Match won, want exactly 1 (%v)", round, won, n, codes)
		}
	}
}

func TestStaleWritesFromThePageAreDrawnAgain(t *testing.T) {
	s := newServer(t)
	c := s.json("POST", "/api/events", `{"kind": "task", "title": "Report", "priority": 1}`).want(t, http.StatusCreated)
	id, stale := c.event(t, http.StatusCreated).ID, etag(t, c)
	current := etag(t, s.json("PATCH", path(id), `{"title": "Report (by tab A)"}`).want(t, http.StatusOK))
	_, rows := s.counts()

	// The edit form: 412, the detail drawn as the event now is (its new
	// validator), the typed values kept, a sentence saying why.
	typed := url.Values{"title": {"Report"}, "desc": {"typed in tab B"}, "due_at": {"2026-11-26T18:00"}, "priority": {"1"}}
	body := s.form("PATCH", path(id), typed, append(toDetail, "If-Match", stale)...).html(t, http.StatusPreconditionFailed)
	for _, want := range []string{
		`data-etag="` + strings.ReplaceAll(current, `"`, "&#34;") + `"`,
		`<h1 id="detail-title" dir="auto">Report (by tab A)</h1>`,
		`changed elsewhere`,
		`>typed in tab B</textarea>`,
		`name="due_at" value="2026-11-26 18:00"`,
		`Differs from the stored value now: Title, Description, Due.`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the stale form's answer lacks %q:\n%s", want, body)
		}
	}
	// A lifecycle button of a row: the row as it is now, with the sentence.
	body = s.json("POST", path(id, "complete"), "", append(hx, "If-Match", stale)...).html(t, http.StatusPreconditionFailed)
	if rowID(t, body) != id || !strings.Contains(body, `data-status="planned"`) || !strings.Contains(body, "changed elsewhere") ||
		!strings.Contains(body, "Report (by tab A)") {
		t.Errorf("the stale click's row = %s, want the planned row as it is now with the sentence", body)
	}
	// ... and of the detail.
	body = s.json("POST", path(id, "cancel"), "", append(toDetail, "If-Match", stale)...).html(t, http.StatusPreconditionFailed)
	if !strings.Contains(body, `id="detail"`) || !strings.Contains(body, "changed elsewhere") {
		t.Errorf("the stale click on the detail = %s", body)
	}
	if e := s.get(path(id)).event(t, http.StatusOK); e.Title != "Report (by tab A)" || e.Status != "planned" || e.DueAt != nil {
		t.Errorf("after stale writes from the page the event is %+v", e)
	}
	if _, r := s.counts(); r != rows {
		t.Errorf("stale writes from the page added %d history rows", r-rows)
	}
	// With the validator drawn now, the same save goes through.
	s.form("PATCH", path(id), typed, append(toDetail, "If-Match", current)...).html(t, http.StatusOK)

	// A time typed as the 24-hour field shows it, at the stored instant, is
	// not named as differing.
	c2 := s.json("POST", "/api/events", `{"kind": "task", "title": "Plan", "due_at": "2026-11-26T18:00:00+09:00"}`).want(t, http.StatusCreated)
	id2, stale2 := c2.event(t, http.StatusCreated).ID, etag(t, c2)
	s.json("PATCH", path(id2), `{"description": "by tab A"}`).want(t, http.StatusOK)
	typed2 := url.Values{"title": {"Plan B"}, "desc": {"by tab A"}, "due_at": {"2026-11-26 18:00"}, "priority": {"0"}}
	body = s.form("PATCH", path(id2), typed2, append(toDetail, "If-Match", stale2)...).html(t, http.StatusPreconditionFailed)
	if !strings.Contains(body, `Differs from the stored value now: Title.`) {
		t.Errorf("a stale save that changed only the title names other fields:\n%s", body)
	}
}
