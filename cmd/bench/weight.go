// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"events/cmd/internal/harness"
)

// pageWeight loads /events in headless Chromium with an empty cache, then
// reloads it, and reports what each load took over the wire: the requests
// and the bytes of every response (Chromium's encodedDataLength: head and
// body as transferred), read through the DevTools protocol. Without a
// Chromium it says so and measures nothing.
func pageWeight(ctx context.Context, e *env) (string, error) {
	exe := harness.FindChromium()
	if exe == "" {
		return "## Page weight\n\nNot measured: no Chromium found (install the chromium package).\n", nil
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, harness.ChromiumOptions(exe)...)
	defer cancelAlloc()
	bctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	if err := chromedp.Do(bctx); err != nil {
		return "", fmt.Errorf("starting %s: %w", exe, err)
	}
	tr, err := harness.WatchTraffic(bctx)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("## Page weight\n\n`/events` in headless Chromium: what crossed the wire (heads and bodies, compressed as sent).\n\n")
	b.WriteString("| load | requests | bytes | of which |\n|---|--:|--:|---|\n")
	for _, load := range []struct {
		name string
		act  chromedp.Action[chromedp.Void]
	}{
		{"first (empty cache)", chromedp.Navigate(e.service.Base + "/events")},
		{"repeat (a reload)", chromedp.Reload()},
	} {
		tr.Reset()
		runCtx, stop := context.WithTimeout(bctx, time.Minute)
		err := chromedp.Do(runCtx, load.act, chromedp.WaitVisible(chromedp.CSS("#list")))
		stop()
		if err != nil {
			return "", fmt.Errorf("page weight, %s load: %w", load.name, err)
		}
		ts, err := tr.Settle(time.Minute)
		if err != nil {
			return "", err
		}
		wire, total := harness.OverWire(ts)
		var parts []string
		for _, x := range wire {
			name := x.URL[strings.LastIndexByte(x.URL, '/')+1:]
			if i := strings.IndexByte(name, '?'); i >= 0 {
				name = name[:i]
			}
			parts = append(parts, fmt.Sprintf("%s %.0f", name, x.Bytes))
		}
		say("page weight, %s load: %.0f bytes in %d requests:%s", load.name, total, len(wire), harness.Describe(ts))
		fmt.Fprintf(&b, "| %s | %d | %.0f | %s |\n", load.name, len(wire), total, strings.Join(parts, ", "))
	}
	return b.String(), nil
}
