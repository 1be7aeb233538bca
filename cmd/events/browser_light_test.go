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
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// firstLoadBudget is the most a first load of /events may transfer.
const firstLoadBudget = 30 << 10

func TestBrowserLight(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"FirstAndRepeatLoad", testFirstAndRepeatLoad},
		{"NoMojibake", testNoMojibake},
	})
}

// transfer is one response as the browser's network layer saw it.
type transfer struct {
	url       string
	kind      network.ResourceType
	status    int64
	headers   map[string]string // lower-case names
	fromCache bool              // served from the memory or disk cache: nothing went over the wire
	bytes     float64           // encodedDataLength: head and body as transferred
	finished  bool
}

// traffic records the responses of one tab between reset and wait.
type traffic struct {
	mu   sync.Mutex
	byID map[network.RequestID]*transfer
	ids  []network.RequestID
}

func watchTraffic(t *testing.T, p *tab) *traffic {
	t.Helper()
	tr := &traffic{byID: map[network.RequestID]*transfer{}}
	if err := chromedp.Listen(p.ctx, tr.onEvent); err != nil {
		t.Fatalf("listening to the network: %v", err)
	}
	return tr
}

func (tr *traffic) get(id network.RequestID) *transfer {
	x, ok := tr.byID[id]
	if !ok {
		x = &transfer{headers: map[string]string{}}
		tr.byID[id] = x
		tr.ids = append(tr.ids, id)
	}
	return x
}

func (tr *traffic) onEvent(ev any) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		x := tr.get(e.RequestID)
		x.url, x.kind = e.Request.URL, e.Type
	case *network.EventRequestServedFromCache:
		tr.get(e.RequestID).fromCache = true
	case *network.EventResponseReceived:
		x := tr.get(e.RequestID)
		x.url, x.kind, x.status = e.Response.URL, e.Type, e.Response.Status
		if e.Response.FromDiskCache || e.Response.FromPrefetchCache {
			x.fromCache = true
		}
		for k, v := range e.Response.Headers {
			x.headers[strings.ToLower(k)] = fmt.Sprint(v)
		}
	case *network.EventLoadingFinished:
		x := tr.get(e.RequestID)
		x.bytes, x.finished = e.EncodedDataLength, true
	}
}

func (tr *traffic) reset() {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.byID, tr.ids = map[network.RequestID]*transfer{}, nil
}

// settle waits until every response seen has finished loading and nothing
// new came for a moment, and returns them in the order they began.
func (tr *traffic) settle(t *testing.T) []transfer {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	quiet, last := 0, -1
	for {
		tr.mu.Lock()
		done := len(tr.ids) > 0
		for _, id := range tr.ids {
			if x := tr.byID[id]; !x.finished && !x.fromCache {
				done = false
			}
		}
		n := len(tr.ids)
		tr.mu.Unlock()
		if done && n == last {
			quiet++
		} else {
			quiet = 0
		}
		last = n
		if quiet >= 6 { // 300 ms without a new request
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page's requests did not settle within %s", waitTimeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var out []transfer
	for _, id := range tr.ids {
		out = append(out, *tr.byID[id])
	}
	return out
}

// overWire is the responses that came over the network, and their total.
func overWire(ts []transfer) (wire []transfer, total float64) {
	for _, x := range ts {
		if !x.fromCache && strings.HasPrefix(x.url, "http") {
			wire = append(wire, x)
			total += x.bytes
		}
	}
	return wire, total
}

func describe(ts []transfer) string {
	var b strings.Builder
	for _, x := range ts {
		fmt.Fprintf(&b, "\n  %-9s %6.0f B  %d  cache=%-5v enc=%-4s %s", x.kind, x.bytes, x.status, x.fromCache, x.headers["content-encoding"], x.url)
	}
	return b.String()
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
	first := tr.settle(t)
	wire, total := overWire(first)
	t.Logf("first load of /events: %.0f bytes in %d requests (Chromium's encodedDataLength):%s", total, len(wire), describe(first))
	if total >= firstLoadBudget {
		t.Errorf("the first load of /events transferred %.0f bytes; want under %d", total, firstLoadBudget)
	}
	var static []transfer
	for _, x := range wire {
		if x.kind == network.ResourceTypeDocument {
			if enc := x.headers["content-encoding"]; enc != "gzip" && enc != "br" {
				t.Errorf("the page %s came with Content-Encoding %q; want gzip or br", x.url, enc)
			}
			if !strings.Contains(strings.ToLower(x.headers["vary"]), "accept-encoding") {
				t.Errorf("the page %s came with Vary %q; want Accept-Encoding in it", x.url, x.headers["vary"])
			}
			continue
		}
		if strings.Contains(x.url, "/static/") {
			static = append(static, x)
		}
	}
	if len(static) < 3 {
		t.Fatalf("the first load fetched %d static files; want the stylesheet, htmx and app.js at least:%s", len(static), describe(first))
	}
	for _, x := range static {
		if !hashedStatic.MatchString(x.url) {
			t.Errorf("%s: want a content-hashed address such as /static/events.3f2a9c1d.css", x.url)
		}
		if got := x.headers["cache-control"]; got != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q; want public, max-age=31536000, immutable", x.url, got)
		}
		if x.headers["etag"] == "" {
			t.Errorf("%s: no ETag", x.url)
		}
		ctype := x.headers["content-type"]
		if strings.HasSuffix(x.url, ".css") || strings.HasSuffix(x.url, ".js") {
			if enc := x.headers["content-encoding"]; enc != "gzip" && enc != "br" {
				t.Errorf("%s came with Content-Encoding %q; want gzip or br", x.url, enc)
			}
			if !strings.Contains(x.headers["vary"], "Accept-Encoding") {
				t.Errorf("%s: Vary %q; want Accept-Encoding", x.url, x.headers["vary"])
			}
		}
		switch {
		case strings.HasSuffix(x.url, ".css") && ctype != "text/css; charset=utf-8":
			t.Errorf("%s: Content-Type %q; want text/css; charset=utf-8", x.url, ctype)
		case strings.HasSuffix(x.url, ".js") && ctype != "text/javascript; charset=utf-8":
			t.Errorf("%s: Content-Type %q; want text/javascript; charset=utf-8", x.url, ctype)
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
		tr.reset()
		p.markWindow()
		p.do(again.what, again.act)
		p.waitFor(again.what+" loaded", `window.__noReload === undefined && window.htmx && document.querySelector('#list li.event-row')`)
		ts := tr.settle(t)
		wire, total := overWire(ts)
		t.Logf("%s of /events: %.0f bytes in %d requests over the network:%s", again.what, total, len(wire), describe(ts))
		if len(wire) != 1 || wire[0].kind != network.ResourceTypeDocument {
			t.Errorf("%s fetched %d responses over the network; want the page alone:%s", again.what, len(wire), describe(ts))
		}
		var cached []string
		for _, x := range ts {
			if strings.Contains(x.url, "/static/") && x.fromCache {
				cached = append(cached, x.url)
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
		tr.reset()
		p.open("/events")
		p.waitFor("a row with its Defer menu", `document.querySelector('#list details.defer > summary')`)
		ts := tr.settle(t)
		if load == "first load" {
			seen := 0
			for _, x := range ts {
				ctype := x.headers["content-type"]
				switch {
				case strings.Contains(x.url, "/static/") && strings.HasSuffix(x.url, ".css"):
					seen++
					if ctype != "text/css; charset=utf-8" {
						t.Errorf("%s: Content-Type %q; want text/css; charset=utf-8", x.url, ctype)
					}
				case strings.Contains(x.url, "/static/") && strings.HasSuffix(x.url, ".js"):
					seen++
					if ctype != "text/javascript; charset=utf-8" {
						t.Errorf("%s: Content-Type %q; want text/javascript; charset=utf-8", x.url, ctype)
					}
				}
			}
			if seen < 3 {
				t.Errorf("saw %d stylesheets and scripts load; want 3:%s", seen, describe(ts))
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
