// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// Light and cached (README, Caching and compression): what a browser
// transfers for /events, measured by Chromium itself through the DevTools
// protocol (the encodedDataLength of every response: headers and body as
// they came over the wire), what a reload fetches again, the charset of
// the stylesheet and the script, and the Defer button's text. Run them
// alone with
//
//	go test -run TestBrowserLight ./cmd/events

import (
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"events/cmd/internal/harness"
)

// firstLoadBudget is the most a first load of /events may transfer. The
// first load (page, styles, htmx, app.js, offline loader, icon) is about
// 41 KB with the language links, labels, the calendar line's hints, the
// session-bound offline shell, the record line's suggestions and the page
// words the scripts say; 42 KiB leaves room for small changes and still
// catches a new library or an uncompressed file.
const firstLoadBudget = 42 << 10

func TestBrowserLight(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"FirstAndRepeatLoad", testFirstAndRepeatLoad},
		{"NoMojibake", testNoMojibake},
	})
}

func watchTraffic(t *testing.T, p *tab) *harness.Traffic {
	t.Helper()
	tr, err := harness.WatchTraffic(p.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func settle(t *testing.T, tr *harness.Traffic) []harness.Transfer {
	t.Helper()
	ts, err := tr.Settle(waitTimeout)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

var hashedStatic = regexp.MustCompile(`/static/[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.[0-9a-f]{8,}\.(?:css|js|svg)$`)

func testFirstAndRepeatLoad(t *testing.T, b *browser) {
	s := startWeb(t)
	seedVariety(t, s.base)
	p := b.newTab(t, s.base)
	tr := watchTraffic(t, p)

	// The first load, with an empty cache (the tab is a fresh browser context).
	p.open("/events")
	p.waitFor("htmx and app.js ran", `window.htmx && document.querySelector('#list li.event-row')`)
	first := settle(t, tr)
	wire, total := harness.OverWire(first)
	t.Logf("first load of /events: %.0f bytes in %d requests (Chromium's encodedDataLength):%s", total, len(wire), harness.Describe(first))
	if total >= firstLoadBudget {
		t.Errorf("the first load of /events transferred %.0f bytes; want under %d", total, firstLoadBudget)
	}
	var static []harness.Transfer
	for _, x := range wire {
		if x.Kind == network.ResourceTypeDocument {
			if enc := x.Headers["content-encoding"]; enc != "gzip" && enc != "br" {
				t.Errorf("the page %s came with Content-Encoding %q; want gzip or br", x.URL, enc)
			}
			if !strings.Contains(strings.ToLower(x.Headers["vary"]), "accept-encoding") {
				t.Errorf("the page %s came with Vary %q; want Accept-Encoding in it", x.URL, x.Headers["vary"])
			}
			continue
		}
		if strings.Contains(x.URL, "/static/") {
			static = append(static, x)
		}
	}
	if len(static) < 3 {
		t.Fatalf("the first load fetched %d static files; want the stylesheet, htmx and app.js at least:%s", len(static), harness.Describe(first))
	}
	for _, x := range static {
		if !hashedStatic.MatchString(x.URL) {
			t.Errorf("%s: want a content-hashed address such as /static/events.3f2a9c1d.css", x.URL)
		}
		if got := x.Headers["cache-control"]; got != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q; want public, max-age=31536000, immutable", x.URL, got)
		}
		if x.Headers["etag"] == "" {
			t.Errorf("%s: no ETag", x.URL)
		}
		ctype := x.Headers["content-type"]
		if strings.HasSuffix(x.URL, ".css") || strings.HasSuffix(x.URL, ".js") {
			if enc := x.Headers["content-encoding"]; enc != "gzip" && enc != "br" {
				t.Errorf("%s came with Content-Encoding %q; want gzip or br", x.URL, enc)
			}
			if !strings.Contains(x.Headers["vary"], "Accept-Encoding") {
				t.Errorf("%s: Vary %q; want Accept-Encoding", x.URL, x.Headers["vary"])
			}
		}
		switch {
		case strings.HasSuffix(x.URL, ".css") && ctype != "text/css; charset=utf-8":
			t.Errorf("%s: Content-Type %q; want text/css; charset=utf-8", x.URL, ctype)
		case strings.HasSuffix(x.URL, ".js") && ctype != "text/javascript; charset=utf-8":
			t.Errorf("%s: Content-Type %q; want text/javascript; charset=utf-8", x.URL, ctype)
		}
	}

	// A reload, and a second visit by following the sidebar's link: each
	// fetches the page alone; every static file comes from the cache.
	for _, again := range []struct {
		what string
		act  chromedp.Action[chromedp.Void]
	}{
		{"a reload", chromedp.Reload()},
		{"a second visit", chromedp.Click(chromedp.CSS(`nav.sidebar a[href="/events"][aria-current]`))},
	} {
		tr.Reset()
		p.markWindow()
		p.do(again.what, again.act)
		p.waitFor(again.what+" loaded", `window.__noReload === undefined && window.htmx && document.querySelector('#list li.event-row')`)
		ts := settle(t, tr)
		wire, total := harness.OverWire(ts)
		t.Logf("%s of /events: %.0f bytes in %d requests over the network:%s", again.what, total, len(wire), harness.Describe(ts))
		if len(wire) != 1 || wire[0].Kind != network.ResourceTypeDocument {
			t.Errorf("%s fetched %d responses over the network; want the page alone:%s", again.what, len(wire), harness.Describe(ts))
		}
		var cached []string
		for _, x := range ts {
			if strings.Contains(x.URL, "/static/") && x.FromCache {
				cached = append(cached, x.URL)
			}
		}
		sort.Strings(cached)
		if len(cached) < 3 {
			t.Errorf("%s took %d static files from the cache (%q); want the stylesheet, htmx and app.js at least", again.what, len(cached), cached)
		}
	}
}

// testNoMojibake: the stylesheet and the script say they are UTF-8, and the
// Defer button reads exactly what the row's writer (handlers/rowhtml.go) and
// the stylesheet (.defer summary::after) say, after an ordinary load and
// after a load from the cache.
func testNoMojibake(t *testing.T, b *browser) {
	s := startWeb(t)
	loc := seoul(t)
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "Call the bank", "due_at": rfc(day(time.Now(), loc, 0).Add(20 * time.Hour))})
	p := b.newTab(t, s.base)
	tr := watchTraffic(t, p)
	for _, load := range []string{"first load", "load from the cache"} {
		tr.Reset()
		p.open("/events")
		p.waitFor("a row with its Defer menu", `document.querySelector('#list details.defer > summary')`)
		ts := settle(t, tr)
		if load == "first load" {
			seen := 0
			for _, x := range ts {
				ctype := x.Headers["content-type"]
				switch {
				case strings.Contains(x.URL, "/static/") && strings.HasSuffix(x.URL, ".css"):
					seen++
					if ctype != "text/css; charset=utf-8" {
						t.Errorf("%s: Content-Type %q; want text/css; charset=utf-8", x.URL, ctype)
					}
				case strings.Contains(x.URL, "/static/") && strings.HasSuffix(x.URL, ".js"):
					seen++
					if ctype != "text/javascript; charset=utf-8" {
						t.Errorf("%s: Content-Type %q; want text/javascript; charset=utf-8", x.URL, ctype)
					}
				}
			}
			if seen < 3 {
				t.Errorf("saw %d stylesheets and scripts load; want 3:%s", seen, harness.Describe(ts))
			}
		}
		got := eval[[]string](p, `(() => {
			const s = document.querySelector('#list details.defer > summary');
			return [s.textContent, getComputedStyle(s, '::after').content, document.characterSet];
		})()`)
		if got[0] != "Defer" {
			t.Errorf("%s: the Defer button's text is %q; want %q", load, got[0], "Defer")
		}
		if got[1] != `" ▾"` {
			t.Errorf("%s: the Defer button's marker (summary::after) is %s; want \" ▾\" (mojibake reads \" â–¾\")", load, got[1])
		}
		if got[2] != "UTF-8" {
			t.Errorf("%s: document.characterSet is %q; want UTF-8", load, got[2])
		}
	}
}
