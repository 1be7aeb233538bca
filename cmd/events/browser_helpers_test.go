// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// The harness of the real-browser tests (browser_test.go): it finds the
// installed Chromium, starts it once for TestBrowser, opens one tab per
// subtest against its own `events serve` on its own database, collects the
// console errors and the requests of the tab, seeds data through the JSON
// API, injects axe-core and writes screenshots. Nothing here downloads a
// browser.

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"events/cmd/internal/harness"
	"events/docs/apicheck"
	"events/internal/dbtest"
	"events/models"
)

// zone is the page's time zone (EVENTS_TIMEZONE) in these tests. The
// browser itself runs in browserZone, another zone, so a page that reads
// or resolves times in the browser's zone instead of its own is caught.
const (
	zone        = "Asia/Seoul"
	browserZone = "America/New_York"
)

// waitTimeout bounds every wait for the page; it is generous on purpose:
// a wait ends as soon as its condition holds, so only a failure waits this
// long.
const waitTimeout = 15 * time.Second

//go:embed testdata/axe/axe.min.js
var axeSource string

// needBrowser skips loudly without a browser, and fails in CI.
func needBrowser(t *testing.T) string {
	t.Helper()
	exe := harness.FindChromium()
	if exe == "" {
		msg := "no Chromium found (looked for chromium, chromium-browser, google-chrome on PATH and /usr/bin/chromium): install the chromium package to run the browser tests"
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI: %s", msg)
		}
		t.Skipf("SKIPPED LOUDLY: %s", msg)
	}
	return exe
}

// browser is one headless Chromium shared by the subtests of TestBrowser.
// browserCase is one subtest of a browser suite.
type browserCase struct {
	name string
	run  func(*testing.T, *browser)
}

// runBrowserSuite starts one Chromium (with extra options) for the cases and
// runs each as a parallel subtest with a server of its own; the binary is
// built once first, before the subtests start their servers.
func runBrowserSuite(t *testing.T, cases []browserCase, extra ...chromedp.ExecAllocatorOption) {
	exe := needBrowser(t)
	needPostgres(t)
	build(t)
	b := startBrowser(t, exe, extra...)
	b.checkOnline(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, b)
		})
	}
}

type browser struct {
	ctx context.Context // the browser's first tab; new tabs derive from it
}

// startBrowser starts Chromium for t and its subtests; it stops in t.Cleanup.
// Options in extra come last, so they override the ones here (such as
// chromedp.Flag("hide-scrollbars", false) for a browser as people run it).
func startBrowser(t *testing.T, exe string, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	opts := append(harness.ChromiumOptions(exe),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("lang", "en-US"),
		// chromedp removes its temporary user data folder when the browser stops.
	)
	if os.Getenv("EVENTS_BROWSER_SCROLLBARS") != "" {
		// scrollbars as people see them: EVENTS_BROWSER_SCROLLBARS=1 go test -run TestBrowser ./cmd/events
		opts = append(opts, chromedp.Flag("hide-scrollbars", false))
	}
	opts = append(opts, extra...)
	// Chromium now and then crashes as it starts on a loaded machine
	// ("chrome failed to start", its crash reporter's lines): a second
	// and a third start are tried before the suite fails.
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		var b *browser
		if b, err = launchBrowser(t, exe, opts); err == nil {
			return b
		}
		t.Logf("starting %s, attempt %d: %v", exe, attempt, err)
		time.Sleep(time.Second)
	}
	t.Fatalf("starting %s: %v", exe, err)
	return nil
}

// launchBrowser starts one Chromium with opts; it is stopped when t ends,
// or at once when it fails to start.
func launchBrowser(t *testing.T, exe string, opts []chromedp.ExecAllocatorOption) (*browser, error) {
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	stopBrowser := func() {
		cancel()
		cancelAlloc()
	}
	startCtx, stop := context.WithTimeout(ctx, time.Minute)
	defer stop()
	// The first Run starts the browser; its context must not carry a
	// deadline (that would end the browser), so wait for it on the side.
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(ctx) }()
	select {
	case err := <-done:
		if err != nil {
			stopBrowser()
			return nil, err
		}
	case <-startCtx.Done():
		stopBrowser()
		return nil, fmt.Errorf("%s did not start within a minute", exe)
	}
	t.Cleanup(stopBrowser)
	return &browser{ctx: ctx}, nil
}

// startWeb starts the real binary on a fresh migrated database for t.
func startWeb(t *testing.T, env ...string) *server {
	t.Helper()
	return start(t, append([]string{
		"DATABASE_URL=" + dbtest.NewURL(t),
		"HOST=127.0.0.1",
		"EVENTS_TIMEZONE=" + zone,
	}, env...)...)
}

// tab is one browser tab of a subtest, on one server.
type tab struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu       sync.Mutex
	problems []string       // console errors, exceptions, unexpected failed loads
	allowed  map[int]bool   // HTTP statuses the test provokes on purpose
	requests []string       // "METHOD path?query" of each request, in order
	statuses map[string]int // request id -> status, for the failed-load log entries
	// favicon404: the browser's own /favicon.ico request failed (a
	// console error on each page load).
	favicon404 bool
	// offline: the test stops the server on purpose, so failed loads and
	// the error logs about them are expected (exceptions still count).
	offline bool
}

// newTab opens a tab on base for t; the tab closes in t.Cleanup, which
// first fails the test on any console error or uncaught exception.
func (b *browser) newTab(t *testing.T, base string) *tab {
	t.Helper()
	// Its own browser context (like a private window): no shared cookies
	// or cache, and closing it closes its connections to the server, which
	// then stops at once.
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	p := &tab{t: t, ctx: ctx, base: base, allowed: map[int]bool{}, statuses: map[string]int{}}
	t.Cleanup(func() {
		p.checkConsole()
		cancel()
	})
	if err := chromedp.Listen(ctx, p.onEvent); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	p.do("set the browser's zone and focus emulation", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: browserZone}); err != nil {
			return err
		}
		// Parallel tabs are all "focused", so focus checks mean something.
		_, err := cdp.Call(ctx, tg, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	}), chromedp.EmulateViewport(1280, 900))
	return p
}

// onEvent runs on the tab's reading goroutine: it only records.
func (p *tab) onEvent(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		p.problems = append(p.problems, fmt.Sprintf("uncaught exception: %s (%s:%d)", msg, d.URL, d.LineNumber+1))
	case *runtime.EventConsoleAPICalled:
		if (e.Type == runtime.ConsoleAPICalledTypeError && !p.offline) || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var parts []string
			for _, a := range e.Args {
				switch {
				case len(a.Value) > 0:
					parts = append(parts, string(a.Value))
				case a.Description != "":
					parts = append(parts, a.Description)
				}
			}
			p.problems = append(p.problems, "console."+string(e.Type)+": "+strings.Join(parts, " "))
		}
	case *log.EventEntryAdded:
		en := e.Entry
		if en.Level != log.EntryLevelError {
			return
		}
		if en.Source == log.EntrySourceNetwork && strings.HasSuffix(en.URL, "/favicon.ico") {
			p.favicon404 = true // reported once, by the Accessibility subtest
			return
		}
		if en.Source == log.EntrySourceNetwork {
			if p.offline {
				return
			}
			if st, ok := p.statuses[string(en.NetworkRequestID)]; ok && p.allowed[st] {
				return // a status the test provokes on purpose
			}
		}
		p.problems = append(p.problems, fmt.Sprintf("browser log (%s): %s %s", en.Source, en.Text, en.URL))
	case *network.EventRequestWillBeSent:
		u, err := url.Parse(e.Request.URL)
		if err != nil || !strings.HasPrefix(e.Request.URL, p.base) {
			p.requests = append(p.requests, e.Request.Method+" "+e.Request.URL)
			return
		}
		p.requests = append(p.requests, e.Request.Method+" "+u.RequestURI())
	case *network.EventResponseReceived:
		p.statuses[string(e.RequestID)] = int(e.Response.Status)
	}
}

// allow accepts failed loads with these statuses, which the test provokes.
func (p *tab) allow(statuses ...int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range statuses {
		p.allowed[s] = true
	}
}

func (p *tab) checkConsole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.problems) > 0 {
		p.t.Errorf("the page wrote %d error(s) to the console:\n  %s", len(p.problems), strings.Join(p.problems, "\n  "))
	}
}

// requestsSince returns the requests since mark (a count from requestCount).
func (p *tab) requestsSince(mark int) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.requests[mark:]...)
}

func (p *tab) requestCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.requests)
}

// do runs actions with a deadline, failing the test with what on error.
func (p *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v\n%s", what, err, p.snapshot())
	}
}

// open navigates to path (relative to the server) and waits for the load.
func (p *tab) open(path string) {
	p.t.Helper()
	p.do("open "+path, chromedp.Navigate(p.base+path))
}

// click clicks the first element matching sel with the mouse (it waits for
// the element to be visible). A node that went away between finding it and
// clicking it is found again: after a navigation the page started itself (a
// form sent with Enter), chromedp can still hold nodes of the page before,
// and the click then fails at once with "Could not find node with given
// id" although the element is there. Such a failure comes before any mouse
// event is sent, so trying again never clicks twice.
func (p *tab) click(sel string) {
	p.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		ctx, cancel := context.WithDeadline(p.ctx, deadline)
		err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel)))
		cancel()
		if err == nil {
			return
		}
		if !staleNode(err) || time.Now().After(deadline) {
			p.t.Fatalf("click %s: %v\n%s", sel, err, p.snapshot())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// follow clicks a link that loads another page and waits until that page
// has loaded. Waiting for what the new page shows is not enough when the
// page before shows it too (a language link to the language already set):
// the wait then ends at once, and what comes next reads a page still
// arriving. A mark on the window is gone only from a new page.
func (p *tab) follow(sel string) {
	p.t.Helper()
	eval[bool](p, `window.__beforeFollow = true`)
	p.click(sel)
	p.waitFor("the page "+sel+" leads to", `window.__beforeFollow !== true`)
}

// tabShown is true when the panel of the tab name is shown and htmx has
// processed it. A swapped #tabbed is in the page a timer before it works
// (a tab clicked then loads the whole page, a row's button does nothing);
// app.js sets the tabs' roving tabindex attribute only once it does.
func tabShown(name string) string {
	return `(document.querySelector('#panel')?.dataset.tab === ` + jsString(name) +
		` && document.querySelector(` + jsString("#tab-"+name) + `)?.getAttribute('tabindex') === '0')`
}

// staleNode reports an error of the browser about a node it no longer has
// or cannot place (the page it belonged to was replaced, or is being laid
// out anew), as opposed to a missing element or a failed click.
func staleNode(err error) bool {
	msg := err.Error()
	for _, s := range []string{"Could not find node with given id", "No node with given id", "does not belong to the document", "Node is detached",
		"Node does not have a layout object", "Could not compute content quads", "Cannot find context with specified id", "Execution context was destroyed"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// keys types into whatever has the focus, without focusing anything first.
func (p *tab) keys(s string) {
	p.t.Helper()
	p.do(fmt.Sprintf("type %q", s), chromedp.KeyEvent(s))
}

// setValue sets a form field's value as a script would and fires input and
// change (for values that typing cannot give reliably: datetime-local
// fields, very long text).
func (p *tab) setValue(sel, value string) {
	p.t.Helper()
	js := fmt.Sprintf(`(() => {
		const el = document.querySelector(%s);
		if (!el) return false;
		el.value = %s;
		el.dispatchEvent(new Event('input', {bubbles: true}));
		el.dispatchEvent(new Event('change', {bubbles: true}));
		return true;
	})()`, jsString(sel), jsString(value))
	if !eval[bool](p, js) {
		p.t.Fatalf("set the value of %s: no such element\n%s", sel, p.snapshot())
	}
}

// eval evaluates js in the page and decodes its value.
func eval[T any](p *tab, js string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// waitFor waits until the expression js is true of a page that has
// loaded; what says what the test waits for when it never is. Evaluation
// errors (a page being replaced) are retried. The page must have loaded
// because a page still arriving already answers for what it has parsed:
// on a busy machine a form's first fields, or a tab's panel, are there
// before the rest of the page and its scripts.
func (p *tab) waitFor(what, js string) {
	p.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	var last error
	for {
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("document.readyState === 'complete' && !!("+js+")"))
		cancel()
		if err == nil && ok {
			return
		}
		last = err
		if time.Now().After(deadline) {
			if last != nil {
				p.t.Fatalf("waited %s for %s (%s); last error: %v\n%s", waitTimeout, what, js, last, p.snapshot())
			}
			p.t.Fatalf("waited %s for %s (%s)\n%s", waitTimeout, what, js, p.snapshot())
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// snapshot is the address and the main element of the page, for failure
// messages, after a sentence when the browser believes it is offline.
func (p *tab) snapshot() string {
	ctx, cancel := context.WithTimeout(p.ctx, 3*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + (document.querySelector('main') || document.body || document.documentElement).outerHTML`))
	if err != nil {
		return p.offlineNote() + "(no page snapshot: " + err.Error() + ")"
	}
	const max = 6000
	if len(s) > max {
		s = s[:max] + "\n…(cut)"
	}
	return p.offlineNote() + "page now: " + s
}

// offlineNote is a sentence (with its newline) when the page's
// navigator.onLine is false, else "": an offline page keeps its writes for
// later, so a test that waits for them would only say that it waited.
func (p *tab) offlineNote() string {
	ctx, cancel := context.WithTimeout(p.ctx, 3*time.Second)
	defer cancel()
	online, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`navigator.onLine`))
	if err != nil || online {
		return ""
	}
	p.mu.Lock()
	onPurpose := p.offline
	p.mu.Unlock()
	if onPurpose {
		return "Chromium is offline (navigator.onLine is false): this test took the network down\n"
	}
	return "Chromium is offline (navigator.onLine is false), and this test did not take the network down: " + offlineAdvice + "\n"
}

// offlineAdvice says what to do when Chromium believes the machine is offline.
const offlineAdvice = "Chromium counts a machine without a network route as offline, and its pages then keep their writes for later, so every wait fails; give the machine a default route (ip route), or run the browser tests where one exists"

// checkOnline fails the suite at once, saying so, when the browser
// believes the machine is offline, instead of letting every test wait.
func (b *browser) checkOnline(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	online, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`navigator.onLine`))
	if err != nil {
		t.Fatalf("asking the browser whether it is online: %v", err)
	}
	if !online {
		t.Fatalf("Chromium is offline (navigator.onLine is false on a blank page): %s", offlineAdvice)
	}
}

// path is the page's path and query.
func (p *tab) path() string {
	return eval[string](p, `location.pathname + location.search`)
}

// markWindow stores a property on the page's window: it survives a
// fragment swap, not a page load.
func (p *tab) markWindow() {
	eval[bool](p, `window.__noReload = true`)
}

// assertNoReload fails when the page was loaded again since markWindow.
func (p *tab) assertNoReload(what string) {
	p.t.Helper()
	if !eval[bool](p, `window.__noReload === true`) {
		p.t.Errorf("%s reloaded the whole page; want a fragment swap", what)
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// axeViolation is what axe-core reports for one rule.
type axeViolation struct {
	ID      string `json:"id"`
	Impact  string `json:"impact"`
	Help    string `json:"help"`
	HelpURL string `json:"helpUrl"`
	Nodes   []struct {
		Target         []any  `json:"target"`
		HTML           string `json:"html"`
		FailureSummary string `json:"failureSummary"`
	} `json:"nodes"`
}

// audit injects axe-core into the page and fails on each serious or
// critical violation.
func (p *tab) audit(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	// Runtime.evaluate runs as the debugger, outside the page's CSP.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](axeSource+"\n;undefined")); err != nil {
		p.t.Fatalf("%s: injecting axe-core: %v", name, err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](`axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: axe.run: %v", name, err)
	}
	var vs []axeViolation
	if err := json.Unmarshal(raw, &vs); err != nil {
		p.t.Fatalf("%s: axe's answer: %v", name, err)
	}
	var serious, minor []string
	for _, v := range vs {
		var b strings.Builder
		fmt.Fprintf(&b, "[%s] %s: %s (%s)", v.Impact, v.ID, v.Help, v.HelpURL)
		for _, n := range v.Nodes {
			fmt.Fprintf(&b, "\n      at %v: %s\n        %s", n.Target, n.HTML, strings.ReplaceAll(n.FailureSummary, "\n", "\n        "))
		}
		if v.Impact == "serious" || v.Impact == "critical" {
			serious = append(serious, b.String())
		} else {
			minor = append(minor, b.String())
		}
	}
	if len(minor) > 0 {
		p.t.Logf("%s: axe-core reports %d minor or moderate violation(s):\n  %s", name, len(minor), strings.Join(minor, "\n  "))
	}
	if len(serious) > 0 {
		p.t.Errorf("%s: axe-core reports %d serious or critical violation(s):\n  %s", name, len(serious), strings.Join(serious, "\n  "))
	}
}

// screenshotDir is $EVENTS_SCREENSHOTS, else a folder under the temporary
// directory.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("EVENTS_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "events-screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// screenshot writes a PNG of the whole page (beyond the viewport) at the
// given width; mobile emulates a phone (its viewport meta tag counts).
func (p *tab) screenshot(file string, width int64, mobile bool) {
	p.t.Helper()
	var opts []chromedp.EmulateViewportOption
	if mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait)
	}
	height := int64(900)
	if mobile {
		height = 780
	}
	var png []byte
	p.do("screenshot "+file, chromedp.EmulateViewport(width, height, opts...), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		m, err := cdp.Call(ctx, tg, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return err
		}
		w, h := float64(width), float64(height)
		if m.CSSContentSize != nil {
			w = math.Max(w, math.Ceil(m.CSSContentSize.Width))
			h = math.Max(h, math.Ceil(m.CSSContentSize.Height))
		}
		r, err := cdp.Call(ctx, tg, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format:                page.CaptureScreenshotFormatPng,
			CaptureBeyondViewport: ptr(true),
			FromSurface:           ptr(true),
			Clip:                  &page.Viewport{X: 0, Y: 0, Width: w, Height: h, Scale: 1},
		})
		if err != nil {
			return err
		}
		png = r.Data
		return nil
	}))
	if len(png) == 0 {
		p.t.Fatalf("screenshot %s: empty", file)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		// Older protocol versions send base64 text.
		if dec, err := base64.StdEncoding.DecodeString(string(png)); err == nil {
			png = dec
		}
	}
	if err := os.WriteFile(filepath.Join(screenshotDir(p.t), file), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	// Back to the desktop viewport for whatever follows.
	p.do("reset the viewport", chromedp.EmulateViewport(1280, 900))
}

func ptr[T any](v T) *T { return &v }

// ---- the JSON API, to seed and to check ----

// apiEvent is an event as the API answers it (models.Event reads itself
// from the field table).
type apiEvent = models.Event

type apiHistoryRow struct {
	ChangeKind   string `json:"change_kind"`
	Actor        string `json:"actor"`
	StatusBefore string `json:"status_before"`
	StatusAfter  string `json:"status_after"`
}

func apiCall(t *testing.T, method, u string, body any, want int, out any) {
	t.Helper()
	var rd io.Reader
	var sent []byte
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd, sent = bytes.NewReader(b), b
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, p := range apicheck.Problems(req, sent, resp.StatusCode, resp.Header, b) {
		t.Errorf("%s %s -> %d: %s", method, u, resp.StatusCode, p)
	}
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %d %s, want %d", method, u, resp.StatusCode, b, want)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, u, err, b)
		}
	}
}

func createEvent(t *testing.T, base string, fields map[string]any) apiEvent {
	t.Helper()
	var e apiEvent
	apiCall(t, "POST", base+"/api/events", fields, 201, &e)
	return e
}

func getEvent(t *testing.T, base string, id int64) apiEvent {
	t.Helper()
	var e apiEvent
	apiCall(t, "GET", fmt.Sprintf("%s/api/events/%d", base, id), nil, 200, &e)
	return e
}

func operate(t *testing.T, base string, id int64, op string, body any) apiEvent {
	t.Helper()
	var e apiEvent
	apiCall(t, "POST", fmt.Sprintf("%s/api/events/%d/%s", base, id, op), body, 200, &e)
	return e
}

func history(t *testing.T, base string, id int64) []string {
	t.Helper()
	var page struct {
		Items []apiHistoryRow `json:"items"`
	}
	apiCall(t, "GET", fmt.Sprintf("%s/api/events/%d/history", base, id), nil, 200, &page)
	var kinds []string
	for _, r := range page.Items {
		kinds = append(kinds, r.ChangeKind)
	}
	return kinds
}

func listAll(t *testing.T, base string) []apiEvent {
	t.Helper()
	var page struct {
		Items []apiEvent `json:"items"`
	}
	apiCall(t, "GET", base+"/api/events?limit=1000", nil, 200, &page)
	return page.Items
}

// seoul is the page's zone.
func seoul(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// rfc formats a time for the API.
func rfc(tm time.Time) string { return tm.Format(time.RFC3339) }

// rowIDs is the ids of the rows in #list, top to bottom.
func (p *tab) rowIDs() []string {
	return eval[[]string](p, `[...document.querySelectorAll('#list li.event-row')].map(li => li.id)`)
}
