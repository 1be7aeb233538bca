// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// FindChromium returns the installed Chromium (or Chrome), or "" when
// there is none.
func FindChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

// ChromiumOptions are the options headless Chromium runs with here, the
// browser tests' and the bench's: exe, and nothing of its own on the
// network (no background fetches, component updates or sync), and no
// /dev/shm (small in containers).
func ChromiumOptions(exe string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
}

// Transfer is one response as a browser's network layer saw it.
type Transfer struct {
	URL       string
	Kind      network.ResourceType
	Status    int64
	Headers   map[string]string // lower-case names
	FromCache bool              // served from the memory or disk cache: nothing went over the wire
	Bytes     float64           // encodedDataLength: head and body as transferred
	finished  bool
}

// Traffic records the responses of one Chromium tab, through the DevTools
// protocol, between Reset and Settle.
type Traffic struct {
	mu   sync.Mutex
	byID map[network.RequestID]*Transfer
	ids  []network.RequestID
}

// WatchTraffic starts recording the responses of the tab of ctx.
func WatchTraffic(ctx context.Context) (*Traffic, error) {
	tr := &Traffic{byID: map[network.RequestID]*Transfer{}}
	if err := chromedp.Listen(ctx, tr.onEvent); err != nil {
		return nil, fmt.Errorf("listening to the network: %w", err)
	}
	return tr, nil
}

func (tr *Traffic) get(id network.RequestID) *Transfer {
	x, ok := tr.byID[id]
	if !ok {
		x = &Transfer{Headers: map[string]string{}}
		tr.byID[id] = x
		tr.ids = append(tr.ids, id)
	}
	return x
}

func (tr *Traffic) onEvent(ev any) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		x := tr.get(e.RequestID)
		x.URL, x.Kind = e.Request.URL, e.Type
	case *network.EventRequestServedFromCache:
		tr.get(e.RequestID).FromCache = true
	case *network.EventResponseReceived:
		x := tr.get(e.RequestID)
		x.URL, x.Kind, x.Status = e.Response.URL, e.Type, e.Response.Status
		if e.Response.FromDiskCache || e.Response.FromPrefetchCache {
			x.FromCache = true
		}
		for k, v := range e.Response.Headers {
			x.Headers[strings.ToLower(k)] = fmt.Sprint(v)
		}
	case *network.EventLoadingFinished:
		x := tr.get(e.RequestID)
		x.Bytes, x.finished = e.EncodedDataLength, true
	}
}

// Reset forgets what was recorded.
func (tr *Traffic) Reset() {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.byID, tr.ids = map[network.RequestID]*Transfer{}, nil
}

// Settle waits until every response seen has finished loading and nothing
// new came for 300 ms, and returns them in the order they began.
func (tr *Traffic) Settle(timeout time.Duration) ([]Transfer, error) {
	deadline := time.Now().Add(timeout)
	quiet, last := 0, -1
	for {
		tr.mu.Lock()
		done := len(tr.ids) > 0
		for _, id := range tr.ids {
			if x := tr.byID[id]; !x.finished && !x.FromCache {
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
		if quiet >= 6 {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the page's requests did not settle within %s", timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var out []Transfer
	for _, id := range tr.ids {
		out = append(out, *tr.byID[id])
	}
	return out, nil
}

// OverWire is the responses that came over the network, and their total.
func OverWire(ts []Transfer) (wire []Transfer, total float64) {
	for _, x := range ts {
		if !x.FromCache && strings.HasPrefix(x.URL, "http") {
			wire = append(wire, x)
			total += x.Bytes
		}
	}
	return wire, total
}

// Describe lists the responses, one a line.
func Describe(ts []Transfer) string {
	var b strings.Builder
	for _, x := range ts {
		fmt.Fprintf(&b, "\n  %-9s %6.0f B  %d  cache=%-5v enc=%-4s %s", x.Kind, x.Bytes, x.Status, x.FromCache, x.Headers["content-encoding"], x.URL)
	}
	return b.String()
}
