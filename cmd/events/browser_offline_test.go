// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// The record line offline (DESIGN.md, "The record line offline"): the
// pages are an installable web app whose service worker keeps the shell and
// the static files, never an API answer; lines typed without a network wait
// in the browser, marked "waiting to send", and are sent once each, in
// order, with the instant they were typed, when the network returns. Run
// them alone with
//
//	go test -run TestBrowserOffline ./cmd/events

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/bcrypt"
)

func TestBrowserOffline(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"LinesWaitAndSendOnce", testLinesWaitAndSendOnce},
		{"InstallableManifest", testInstallableManifest},
		{"ShellEndsWithTheSession", testShellEndsWithTheSession},
	})
}

// network takes the tab's network down (offline) or brings it back, as a
// phone losing its signal: requests of the page and of its service worker
// fail, and navigator.onLine follows (the online event fires).
func (p *tab) network(offline bool) {
	p.t.Helper()
	p.mu.Lock()
	p.offline = offline
	p.mu.Unlock()
	p.do(fmt.Sprintf("set the network offline=%v", offline), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, emulateByRule, map[string]any{
			"offline":                     offline,
			"emulateOfflineServiceWorker": offline,
			"matchedNetworkConditions": []map[string]any{{
				"urlPattern": "", "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1, "offline": offline,
			}},
		}); err != nil {
			return fmt.Errorf("emulate network conditions: %w", err)
		}
		_, err := cdp.Call(ctx, tg, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: offline, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	}))
}

// emulateByRule is Network.emulateNetworkConditionsByRule with its
// parameters as the Debian Chromium (148) reads them: offline at the top
// level (required there: cdproto's parameters, which lack it, are refused
// as "Invalid parameters"), beside the per-rule field newer protocols read.
var emulateByRule = cdp.Command[map[string]any, json.RawMessage]{Method: network.CommandEmulateNetworkConditionsByRule}

// queued is the waiting items of the page, top first: "title | state".
func (p *tab) queued() []string {
	return eval[[]string](p, `Array.from(document.querySelectorAll('li.queued')).map(li =>
		li.querySelector('.row-title').textContent + ' | ' + li.querySelector('.queue-state').textContent)`)
}

func testLinesWaitAndSendOnce(t *testing.T, b *browser) {
	s := startWeb(t)
	p := b.newTab(t, s.base)
	p.open("/events")
	// online first, so that the worker installs and keeps the shell
	p.waitFor("the service worker ready, the shell kept", `document.documentElement.dataset.offlineReady === 'true' && navigator.serviceWorker.controller`)
	if banner := eval[bool](p, `!!document.querySelector('#offline-banner:not([hidden])')`); banner {
		t.Errorf("online, the page shows the offline banner")
	}

	p.network(true)
	p.waitFor("the offline banner", `document.querySelector('#offline-banner:not([hidden])')?.textContent.includes('only the record and task lines work')`)
	// A failure message now says why the page holds its writes.
	if note := p.snapshot(); !strings.HasPrefix(note, "Chromium is offline (navigator.onLine is false): this test took the network down\n") {
		t.Errorf("with the network down, a failure's snapshot begins:\n%.200s", note)
	}
	p.markWindow()

	// Two records, a task and a line the server will refuse, a second
	// apart: each is kept with the instant its Enter was pressed.
	// typed[text] is when its Enter went: between these two instants,
	// however long a busy machine takes over the keys.
	typed := map[string][2]time.Time{}
	line := func(input, text string) {
		t.Helper()
		p.setValue(input, text)
		before := time.Now()
		p.click(input)
		p.keys("\r")
		p.waitFor(text+" waiting", fmt.Sprintf(`Array.from(document.querySelectorAll('li.queued .row-title')).some(e => e.textContent === %s)`, jsString(text)))
		typed[text] = [2]time.Time{before, time.Now()}
		time.Sleep(time.Second)
	}
	line("#quick-title", "standup 15m #work")
	line("#quick-title", "lunch")
	line("#task-text", "pay rent today 23:59 #home")
	line("#quick-title", "x #a #b") // two tags: 422 once sent
	if v := eval[string](p, `document.querySelector('#quick-title').value`); v != "" {
		t.Errorf("after a line was kept the input holds %q; want it cleared for the next one", v)
	}
	if got, want := p.queued(), []string{"pay rent today 23:59 #home | waiting to send", "x #a #b | waiting to send", "lunch | waiting to send", "standup 15m #work | waiting to send"}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("waiting items, To do then Done & logged, top first:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if hidden := eval[[]string](p, `Array.from(document.querySelectorAll('li.queued')).filter(li => !li.checkVisibility()).map(li => li.textContent)`); len(hidden) != 0 {
		t.Errorf("waiting items not shown: %q", hidden)
	}
	if empty := eval[bool](p, `Array.from(document.querySelectorAll('.empty')).some(e => e.checkVisibility())`); empty {
		t.Errorf("the list says it is empty above its waiting items")
	}
	if top := eval[string](p, `document.querySelector('[data-records] > li')?.className ?? ''`); top != "queued" {
		t.Errorf("the first item of the records list is %q; want a waiting one", top)
	}
	// nothing reached the server
	if n := len(listAll(t, s.base)); n != 0 {
		t.Fatalf("%d events stored while the browser was offline; want 0", n)
	}
	// the worker keeps no API answer: the API offline fails
	if got := eval[string](p, `fetch('/api/events').then(r => 'answered ' + r.status, e => 'failed')`); got != "failed" {
		t.Errorf("fetch /api/events offline: %s; want it to fail (the worker keeps no API answer)", got)
	}
	if got := eval[[]string](p, `caches.keys().then(ns => Promise.all(ns.map(n => caches.open(n).then(c => c.keys())))).then(ks => ks.flat().map(r => new URL(r.url).pathname).filter(p => p.startsWith('/api/')))`); len(got) != 0 {
		t.Errorf("the worker's caches hold API answers: %q", got)
	}
	// another action says it needs the network instead of failing silently
	p.assertNoReload("keeping lines offline")
	shoot(t, p, "offline")

	// The shell is kept for a start without a network: the page, with its
	// two lines. (A reload offline is not tried here: Chromium 148's
	// emulation takes the page offline, not its worker's own requests.)
	if ok := eval[bool](p, `caches.match('/events').then(r => r ? r.text() : '').then(t => t.includes('id="quick-record"') && t.includes('id="task-capture"'))`); !ok {
		t.Errorf("the worker keeps no /events shell with the two lines")
	}

	time.Sleep(time.Second) // the send is well after the typing
	back := time.Now()
	p.allow(422)
	p.network(false)
	p.waitFor("every waiting item sent", `!Array.from(document.querySelectorAll('li.queued .queue-state')).some(e => e.textContent.startsWith('waiting'))`)
	p.waitFor("the refusal on its item", `document.querySelector('li.queued[data-state="refused"] .queue-problem')?.textContent.includes('text')`)
	if got := p.queued(); len(got) != 1 || got[0] != "x #a #b | not recorded" {
		t.Errorf("after the network returned the waiting items are %q; want only the refused one", got)
	}
	shoot(t, p, "offline-refused")
	p.waitFor("the banner gone", `!document.querySelector('#offline-banner:not([hidden])')`)
	p.waitFor("the stored rows in the lists", `Array.from(document.querySelectorAll('li.event-row a.title')).map(a => a.textContent.trim()).filter(x => x === 'standup' || x === 'lunch' || x === 'pay rent').length === 3`)
	// a second online event sends nothing again
	eval[bool](p, `window.dispatchEvent(new Event('online')), true`)
	time.Sleep(500 * time.Millisecond)

	stored := listAll(t, s.base)
	byTitle := map[string]apiEvent{}
	for _, e := range stored {
		if _, twice := byTitle[e.Title]; twice {
			t.Errorf("%q stored twice", e.Title)
		}
		byTitle[e.Title] = e
	}
	if len(stored) != 3 {
		t.Fatalf("%d events stored; want 3 (standup, lunch, pay rent): %+v", len(stored), stored)
	}
	if !(byTitle["standup"].ID < byTitle["lunch"].ID && byTitle["lunch"].ID < byTitle["pay rent"].ID) {
		t.Errorf("stored out of order: standup %d, lunch %d, pay rent %d", byTitle["standup"].ID, byTitle["lunch"].ID, byTitle["pay rent"].ID)
	}
	// the typed instant is the create's now: standup 15m ends when it was
	// typed, not when it was sent
	// (a second of slack each side, for the browser's clock against ours)
	near := func(what string, got *time.Time, want [2]time.Time) {
		t.Helper()
		if got == nil {
			t.Errorf("%s: none", what)
			return
		}
		if got.Before(want[0].Add(-time.Second)) || got.After(want[1].Add(time.Second)) {
			t.Errorf("%s = %s; want the typed instant, from %s to %s (sent at %s)", what, got.Format(time.RFC3339Nano),
				want[0].Format(time.RFC3339Nano), want[1].Format(time.RFC3339Nano), back.Format(time.RFC3339Nano))
		}
	}
	st := byTitle["standup"]
	near("standup's ended_at", st.EndedAt, typed["standup 15m #work"])
	if st.StartedAt == nil || st.EndedAt == nil || st.EndedAt.Sub(*st.StartedAt) != 15*time.Minute {
		t.Errorf("standup spans %v to %v; want 15 minutes", st.StartedAt, st.EndedAt)
	}
	near("lunch's ended_at", byTitle["lunch"].EndedAt, typed["lunch"])
	if st.EndedAt != nil && !st.EndedAt.Before(back.Add(-2*time.Second)) {
		t.Errorf("standup ended at %s, not well before the send at %s", st.EndedAt, back)
	}
	if pr := byTitle["pay rent"]; pr.Kind != "task" || pr.ProjectTag == nil || *pr.ProjectTag != "home" {
		t.Errorf("pay rent stored as %s #%v; want a task #home", pr.Kind, pr.ProjectTag)
	}

	// the refused line goes back into its line for fixing
	p.click(`li.queued[data-state="refused"] .ops button`)
	p.waitFor("the refused text back in the line", `document.querySelector('#quick-title').value === 'x #a #b' && !document.querySelector('li.queued')`)
	p.do("reload", chromedp.Reload())
	p.waitFor("the page again", `document.querySelector('#quick-title')`)
	if n := eval[int](p, `document.querySelectorAll('li.queued').length`); n != 0 {
		t.Errorf("after a reload %d waiting items are drawn; want none", n)
	}
}

// The manifest is served as a manifest, names /events and icons that are
// there with the sizes they claim; the worker controls the events pages.
func testInstallableManifest(t *testing.T, b *browser) {
	s := startWeb(t)
	get := func(u string) (*http.Response, []byte) {
		t.Helper()
		resp, err := http.Get(s.base + u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", u, resp.StatusCode)
		}
		return resp, body
	}
	_, page := get("/events")
	m := regexp.MustCompile(`<link rel="manifest" href="(/static/manifest\.[0-9a-f]+\.webmanifest)">`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("/events links no hashed manifest")
	}
	resp, body := get(string(m[1]))
	if ct := resp.Header.Get("Content-Type"); ct != "application/manifest+json" {
		t.Errorf("the manifest's Content-Type is %q; want application/manifest+json", ct)
	}
	var man struct {
		Name, StartURL, Scope, Display string
		Icons                          []struct{ Src, Sizes, Type, Purpose string }
	}
	if err := json.Unmarshal(body, &man); err != nil {
		t.Fatalf("the manifest: %v", err)
	}
	var raw map[string]any
	_ = json.Unmarshal(body, &raw)
	if raw["start_url"] != "/events" || raw["scope"] != "/" || man.Display != "standalone" || man.Name == "" {
		t.Errorf("manifest start_url %v scope %v display %q name %q; want /events, /, standalone and a name", raw["start_url"], raw["scope"], man.Display, man.Name)
	}
	var svg, pngs int
	for _, ic := range man.Icons {
		resp, body := get("/static/" + ic.Src)
		if ct := resp.Header.Get("Content-Type"); ct != ic.Type {
			t.Errorf("icon %s: Content-Type %q; want %q", ic.Src, ct, ic.Type)
		}
		switch ic.Type {
		case "image/svg+xml":
			svg++
		case "image/png":
			pngs++
			cfg, err := png.DecodeConfig(strings.NewReader(string(body)))
			if err != nil {
				t.Errorf("icon %s: %v", ic.Src, err)
				continue
			}
			if got := fmt.Sprintf("%dx%d", cfg.Width, cfg.Height); got != ic.Sizes {
				t.Errorf("icon %s is %s; the manifest says %s", ic.Src, got, ic.Sizes)
			}
		}
	}
	if svg == 0 || pngs < 2 {
		t.Errorf("the manifest names %d SVG and %d PNG icons; want an SVG and PNGs of 192 and 512", svg, pngs)
	}
	resp, _ = get("/static/sw.js")
	if got := resp.Header.Get("Service-Worker-Allowed"); got != "/events" {
		t.Errorf("/static/sw.js: Service-Worker-Allowed %q; want /events", got)
	}

	// Chromium reads the manifest as installable: its icons and start.
	p := b.newTab(t, s.base)
	p.open("/events")
	p.waitFor("the worker controls the page", `document.documentElement.dataset.offlineReady === 'true' && navigator.serviceWorker.controller`)
	if scope := eval[string](p, `navigator.serviceWorker.getRegistration().then(r => new URL(r.scope).pathname)`); scope != "/events" {
		t.Errorf("the worker's scope is %q; want /events", scope)
	}
}

// testShellEndsWithTheSession: the shell the worker keeps holds the two
// lines but no event and no CSRF token, so a page opened offline after
// the session ended elsewhere shows no title; the worker answers the
// events pages only; and the first answer that says the session ended
// (here the login a page goes to) drops the shell and the lines waiting
// in IndexedDB. Before, the worker kept the whole Today page, titles and
// token, for anyone who opened it offline, and answered every page of
// the origin.
func testShellEndsWithTheSession(t *testing.T, b *browser) {
	const password, token = "correct horse battery", "browser-test-token-0123456789"
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	s := startWeb(t, "EVENTS_PASSWORD_HASH="+string(hash), "EVENTS_SESSION_KEY=browser-test-session-key-0123456789abcdef", "EVENTS_API_TOKENS="+token)
	const secret = "Secret dentist 비밀 진료"
	body, _ := json.Marshal(map[string]any{"kind": "task", "title": secret})
	req, _ := http.NewRequest("POST", s.base+"/api/events", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("create with the token: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	p := b.newTab(t, s.base)
	p.open("/events?tab=inbox")
	p.waitFor("the password field", `document.activeElement?.id === 'f-password'`)
	p.keys(password + "\r")
	p.waitFor("the task on the page", `document.body.textContent.includes(`+jsString(secret)+`)`)
	p.waitFor("the service worker ready, the shell kept", `document.documentElement.dataset.offlineReady === 'true' && navigator.serviceWorker.controller`)
	p.waitFor("the shell in the cache", `caches.match('/events').then(r => !!r)`)
	shell := eval[string](p, `caches.match('/events').then(r => r.text())`)
	csrf := eval[string](p, `document.querySelector('meta[name="csrf-token"]').content`)
	if strings.Contains(shell, secret) || strings.Contains(shell, "csrf-token") || csrf == "" || strings.Contains(shell, csrf) {
		t.Errorf("the kept shell holds an event title or the CSRF token:\n%s", shell)
	}
	if !strings.Contains(shell, `id="quick-record"`) || !strings.Contains(shell, "data-records") {
		t.Errorf("the kept shell lacks the record line or its list:\n%s", shell)
	}
	if scope := eval[string](p, `navigator.serviceWorker.getRegistration().then(r => new URL(r.scope).pathname)`); scope != "/events" {
		t.Errorf("the worker's scope is %q; want /events", scope)
	}
	if other := eval[bool](p, `navigator.serviceWorker.getRegistration('/notes').then(r => !!r)`); other {
		t.Errorf("a worker is registered for /notes; want none outside /events")
	}

	// endSession logs the browser's session out from a second client.
	endSession := func() {
		t.Helper()
		var cookie string
		p.do("read the session cookie", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			cs, err := cdp.Call(ctx, tg, network.GetCookies, network.GetCookiesParams{URLs: []string{s.base}})
			if err != nil {
				return err
			}
			for _, c := range cs.Cookies {
				if c.Name == "events_session" {
					cookie = c.Name + "=" + c.Value
				}
			}
			return nil
		}))
		csrf := eval[string](p, `document.querySelector('meta[name="csrf-token"]').content`)
		out, _ := http.NewRequest("POST", s.base+"/logout", strings.NewReader("_csrf="+csrf))
		out.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		out.Header.Set("Cookie", cookie)
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		if resp, err := client.Do(out); err != nil || resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("logout from a second client: %v %v", resp, err)
		} else {
			resp.Body.Close()
		}
	}

	// The session ends elsewhere, with a line waiting in IndexedDB: the
	// next page, which goes to the login, drops the line and the shell.
	endSession()
	eval[bool](p, `new Promise(ok => { const o = indexedDB.open('events-offline', 1);
		o.onupgradeneeded = () => o.result.createObjectStore('lines', { keyPath: 'id', autoIncrement: true });
		o.onsuccess = () => { const t = o.result.transaction('lines', 'readwrite');
			t.objectStore('lines').put({ form: 'quick-record', key: 'k-waiting', typedAt: new Date().toISOString(), fields: [['text', 'waiting line']], text: 'waiting line', sent: false, state: 'waiting' });
			t.oncomplete = () => { o.result.close(); ok(true); }; }; })`)
	p.open("/events")
	if got := p.path(); !strings.HasPrefix(got, "/login") {
		t.Fatalf("/events after the session ended landed on %q, want the login page", got)
	}
	p.waitFor("the shell dropped", `caches.match('/events').then(r => !r)`)
	p.waitFor("the waiting lines dropped", `new Promise(ok => { const o = indexedDB.open('events-offline', 1);
		o.onupgradeneeded = () => o.result.createObjectStore('lines', { keyPath: 'id', autoIncrement: true });
		o.onsuccess = () => { const c = o.result.transaction('lines').objectStore('lines').count(); c.onsuccess = () => { o.result.close(); ok(c.result === 0); }; }; })`)

	// Logged in again, the shell kept; the session ends elsewhere and the
	// network goes (the server stops: the worker's own fetch fails, which
	// Chromium's offline emulation does not do): the page the worker
	// answers has the lines and no event.
	p.open("/events?tab=inbox")
	p.waitFor("the password field", `document.activeElement?.id === 'f-password'`)
	p.keys(password + "\r")
	p.waitFor("the task on the page", `document.body.textContent.includes(`+jsString(secret)+`)`)
	p.waitFor("the shell kept again", `caches.match('/events').then(r => !!r)`)
	endSession()
	p.mu.Lock()
	p.offline = true // the loads that fail now fail on purpose
	p.mu.Unlock()
	if err := s.stop(t, syscall.SIGTERM); err != nil {
		t.Logf("stopping the service: %v", err)
	}
	p.open("/events")
	p.waitFor("the shell, offline", `!!document.getElementById('quick-record')`)
	if text := eval[string](p, `document.documentElement.outerHTML`); strings.Contains(text, secret) || strings.Contains(text, "csrf-token") {
		t.Errorf("offline after the session ended, the page shows an event or a token:\n%s", text)
	}
}
