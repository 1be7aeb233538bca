// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
	"events/internal/i18n"
)

// TestPagesLanguage: the pages' language is the sidebar's cookie, else
// Accept-Language with its q-values, else EVENTS_LANGUAGE; <html lang>
// follows, and a fragment htmx swaps is in the same language as its page.
func TestPagesLanguage(t *testing.T) {
	s := newServer(t)
	s.create(`{"kind":"task","title":"rent","due_at":"2026-11-22T18:00:00+09:00","priority":3}`)
	for _, c := range []struct {
		name    string
		headers []string
		want    string
	}{
		{"nothing asked", nil, "en"},
		{"Korean asked", []string{"Accept-Language", "ko-KR,ko;q=0.9,en;q=0.8"}, "ko"},
		{"English first by q", []string{"Accept-Language", "ko;q=0.4, en-US;q=0.8"}, "en"},
		{"neither", []string{"Accept-Language", "fr-FR, de;q=0.5"}, "en"},
		{"cookie over header", []string{"Accept-Language", "en-US", "Cookie", "events_lang=ko"}, "ko"},
		{"English cookie", []string{"Accept-Language", "ko", "Cookie", "events_lang=en"}, "en"},
	} {
		body := string(s.get("/events", c.headers...).want(t, http.StatusOK).Body)
		if !strings.Contains(body, `<html lang="`+c.want+`">`) {
			t.Errorf("%s: not <html lang=%q>", c.name, c.want)
		}
		korean := strings.Contains(body, "할 일 추가") && strings.Contains(body, "높음")
		english := strings.Contains(body, "Add task") && strings.Contains(body, "High priority")
		if korean != (c.want == "ko") || english != (c.want == "en") {
			t.Errorf("%s: Korean words %v, English words %v, want %s", c.name, korean, english, c.want)
		}
		// the tab a click swaps in, and a row's answer, say the same
		tab := s.get("/events?tab=today", append([]string{"HX-Request", "true"}, c.headers...)...).html(t, http.StatusOK)
		if c.want == "ko" && (!strings.Contains(tab, "마감 오늘 18:00") || strings.Contains(tab, "due ")) ||
			c.want == "en" && !strings.Contains(tab, "due today 18:00") {
			t.Errorf("%s: the today fragment is not in %s:\n%s", c.name, c.want, tab)
		}
	}
}

// TestDeploymentLanguage: EVENTS_LANGUAGE (Options.Language) is the
// language of a browser that asks for none of the catalogue's.
func TestDeploymentLanguage(t *testing.T) {
	t.Parallel()
	svc := app.NewService(dbtest.New(t), seoul, dbtest.NewClock(t0).Now)
	f, err := handlers.New(svc, handlers.Options{Logger: quiet, RequestTimeout: requestTimeout, Language: i18n.Korean})
	if err != nil {
		t.Fatal(err)
	}
	for header, want := range map[string]string{"": "ko", "fr": "ko", "en-GB": "en"} {
		a := send(t, f, "GET", "/events", "", "", "Accept-Language", header)
		if !strings.Contains(string(a.Body), `<html lang="`+want+`">`) {
			t.Errorf("Accept-Language %q: not <html lang=%q>", header, want)
		}
	}
}

// TestLanguageLink: the sidebar's link per language keeps the choice in a
// cookie and goes back to the page it was chosen on.
func TestLanguageLink(t *testing.T) {
	s := newServer(t)
	body := string(s.get("/events/review").want(t, http.StatusOK).Body)
	for _, link := range []string{`href="/language/ko" lang="ko" hreflang="ko">한국어</a>`, `href="/language/en" lang="en" hreflang="en" aria-current="true">English</a>`} {
		if !strings.Contains(body, link) {
			t.Errorf("the sidebar has no %s", link)
		}
	}
	a := s.get("/language/ko", "Referer", "http://example.com/events/review?week=2026-11-23")
	if a.Status != http.StatusSeeOther || a.Header.Get("Location") != "/events/review?week=2026-11-23" {
		t.Errorf("GET /language/ko: %d to %q, want 303 to the page it was chosen on", a.Status, a.Header.Get("Location"))
	}
	if c := a.Header.Get("Set-Cookie"); !strings.Contains(c, "events_lang=ko") || !strings.Contains(c, "SameSite=Lax") {
		t.Errorf("Set-Cookie %q", c)
	}
	if a := s.get("/language/ko", "Referer", "http://evil.example/x"); a.Header.Get("Location") != "/events" {
		t.Errorf("another site's Referer: back to %q", a.Header.Get("Location"))
	}
	s.get("/language/fr").want(t, http.StatusNotFound)
}

// TestErrorsInPageLanguage: a refusal shown on a page is in the page's
// language; the JSON API keeps its English detail and codes unless the
// client asks for Korean with Accept-Language.
func TestErrorsInPageLanguage(t *testing.T) {
	s := newServer(t)
	ko := []string{"Accept-Language", "ko-KR,ko;q=0.9"}
	body := s.form("POST", "/api/events", map[string][]string{"kind": {"task"}, "title": {""}}, append([]string{"HX-Request", "true"}, ko...)...).Body
	if !strings.Contains(string(body), "제목") || !strings.Contains(string(body), "값을 입력해야 합니다") {
		t.Errorf("the refused task line's answer is not in Korean:\n%s", body)
	}
	page := string(s.get("/events/999", ko...).Body)
	if !strings.Contains(page, `<html lang="ko">`) || !strings.Contains(page, "그런 이벤트가 없거나") {
		t.Errorf("the 404 page is not in Korean:\n%s", page)
	}
	var p struct {
		Detail string `json:"detail"`
		Errors []struct {
			Field, Code, Message string
		} `json:"errors"`
	}
	a := s.json("POST", "/api/events", `{"kind":"task","title":""}`)
	decode(t, a, &p)
	if !strings.Contains(p.Detail, "The request has a problem") || len(p.Errors) != 1 || p.Errors[0].Code != "required" {
		t.Errorf("the API's English: %+v", p)
	}
	a = s.json("POST", "/api/events", `{"kind":"task","title":""}`, "Accept-Language", "ko")
	decode(t, a, &p)
	if !strings.Contains(p.Detail, "요청의 항목에 문제가") || len(p.Errors) != 1 || p.Errors[0].Code != "required" || p.Errors[0].Field != "title" || !strings.Contains(p.Errors[0].Message, "입력해야") {
		t.Errorf("the API's Korean on Accept-Language: ko: %+v", p)
	}
	a = s.json("POST", "/api/events", `{"kind":"task","title":""}`, "Accept-Language", "en, ko;q=0.5")
	decode(t, a, &p)
	if !strings.Contains(p.Detail, "The request has a problem") {
		t.Errorf("English first: %+v", p)
	}
}

// TestNotesInPageLanguage: the notes a row carries after a change (the
// undo note, a stale refusal) come in the page's language.
func TestNotesInPageLanguage(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"rent"}`)
	row := string(s.do("POST", path(e.ID, "complete"), "", "", "HX-Request", "true", "Accept-Language", "ko").Body)
	for _, w := range []string{"완료함", ">실행 취소</button>", "완료</span>"} {
		if !strings.Contains(row, w) {
			t.Errorf("the completed row has no %q:\n%s", w, row)
		}
	}
	row = string(s.do("POST", path(e.ID, "reactivate"), "", "", "HX-Request", "true", "Accept-Language", "ko", "If-Match", `"0.0"`).Body)
	if !strings.Contains(row, "다른 곳에서 바뀌어서") {
		t.Errorf("the stale refusal is not in Korean:\n%s", row)
	}
	saved := s.form("PATCH", path(e.ID), url.Values{"title": {"월세"}}, "HX-Request", "true", "HX-Target", "section#detail", "Accept-Language", "ko").html(t, http.StatusOK)
	if !strings.Contains(saved, "저장했습니다.") || strings.Contains(saved, "Saved.") {
		t.Errorf("the detail's save note is not in Korean:\n%s", saved)
	}
	page := string(s.get(path(e.ID)[len("/api"):], "Accept-Language", "ko").Body)
	for _, w := range []string{`<span class="actor">웹 화면</span>`, `<span class="actor">API</span>`} {
		if !strings.Contains(page, w) {
			t.Errorf("the Korean history lacks %s:\n%s", w, page)
		}
	}
}

// TestCaptureWordsInPageLanguage: the capture grammar's note ("Read “8-9”
// as 08:00–09:00."), its refusals and the overlap's length come in the
// page's language; the JSON API keeps English, and writes Korean for a
// client that asks for it with Accept-Language.
func TestCaptureWordsInPageLanguage(t *testing.T) {
	s := newServer(t)
	ko := []string{"HX-Request", "true", "Accept-Language", "ko"}
	s.create(`{"kind":"activity_log","text":"회의 30분"}`)
	row := s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {"breakfast 8-9"}}, ko...).html(t, http.StatusCreated)
	row += s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {"code review 45m"}, "stop_running": {"true"}}, ko...).html(t, http.StatusCreated)
	for _, want := range []string{"“8-9”: 08:00부터 09:00까지로 읽었습니다.", "“회의” 30분"} {
		if !strings.Contains(row, want) {
			t.Errorf("the Korean row lacks %q:\n%s", want, row)
		}
	}
	if strings.Contains(row, "Read “") || strings.Contains(row, " min") {
		t.Errorf("the Korean row has English:\n%s", row)
	}
	refused := string(s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "text": {"reading 30 mns"}}, ko...).Body)
	if !strings.Contains(refused, "“30 mns”: 길이로 읽을 수 없습니다") || strings.Contains(refused, "cannot read") {
		t.Errorf("the near miss is not refused in Korean:\n%s", refused)
	}
	var p struct {
		Errors []struct{ Field, Code, Message string } `json:"errors"`
	}
	decode(t, s.json("POST", "/api/events", `{"kind":"task","text":"rent #a #b"}`), &p)
	if len(p.Errors) != 1 || p.Errors[0].Code != "ambiguous_text" || !strings.HasPrefix(p.Errors[0].Message, "holds two #tags (#a and #b)") {
		t.Errorf("the API's English refusal: %+v", p)
	}
	decode(t, s.json("POST", "/api/events", `{"kind":"task","text":"rent #a #b"}`, "Accept-Language", "ko"), &p)
	if len(p.Errors) != 1 || p.Errors[0].Code != "ambiguous_text" || !strings.HasPrefix(p.Errors[0].Message, "#태그가 둘입니다(#a, #b)") {
		t.Errorf("the API's Korean refusal: %+v", p)
	}
	for lang, want := range map[string]string{"": `"capture_note":"Read “12-1” as 12:00–13:00."`, "ko": `"capture_note":"“12-1”: 12:00부터 13:00까지로 읽었습니다."`} {
		a := s.json("POST", "/api/events", `{"kind":"calendar_event","text":"lunch tue 12-1"}`, "Accept-Language", lang)
		if !strings.Contains(string(a.Body), want) {
			t.Errorf("Accept-Language %q: no %s in %s", lang, want, a.Body)
		}
	}
}
