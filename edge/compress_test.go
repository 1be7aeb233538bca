// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package edge_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"regexp"
	"strings"
	"testing"
)

// The service compresses its answers and its static files (README, Caching
// and compression); the edge passes them through as they are: one
// encoding, never two, and the static files' caching headers and 304s
// intact.
func TestCompressedAndCachedAnswersPassTheEdge(t *testing.T) {
	t.Parallel()
	svc := startService(t)
	cfg := config(t, svc.addr)
	cfg.Rate, cfg.Burst = "1000r/s", 1000 // this test is about the answers, not the limits
	p := startEdge(t, cfg)
	const from = "127.0.0.30"

	page := p.send(t, request{from: from, target: "/events", headers: []string{"Accept-Encoding: gzip, deflate, br"}}).want(t, 200)
	page.fromService(t)
	if enc := page.Header.Get("Content-Encoding"); enc != "gzip" {
		t.Fatalf("%s: Content-Encoding %q, want the service's gzip", page.request, enc)
	}
	zr, err := gzip.NewReader(strings.NewReader(page.Body))
	if err != nil {
		t.Fatalf("%s: %v", page.request, err)
	}
	html, err := io.ReadAll(zr)
	if err != nil || !bytes.HasPrefix(html, []byte("<!doctype html>")) {
		t.Fatalf("%s: gunzipped once, the body is not the page (%v): %.80q", page.request, err, html)
	}
	if vary := strings.Join(page.Header.Values("Vary"), ", "); !strings.Contains(vary, "Accept-Encoding") || !strings.Contains(vary, "HX-Request") {
		t.Errorf("%s: Vary %q, want HX-Request and Accept-Encoding", page.request, vary)
	}

	// A small answer is not compressed, by the service or by the edge.
	small := p.send(t, request{from: from, target: "/healthz", headers: []string{"Accept-Encoding: gzip, br"}}).want(t, 200)
	if enc := small.Header.Get("Content-Encoding"); enc != "" || !strings.Contains(small.Body, `"status":"ok"`) {
		t.Errorf("%s: Content-Encoding %q; want none, and the plain JSON", small, enc)
	}

	css := regexp.MustCompile(`href="(/static/events\.[0-9a-f]{12}\.css)"`).FindSubmatch(html)
	if css == nil {
		t.Fatalf("the page names no hashed stylesheet")
	}
	addr := string(css[1])
	for accept, want := range map[string]string{"gzip, deflate, br": "br", "gzip": "gzip", "identity": ""} {
		a := p.send(t, request{from: from, target: addr, headers: []string{"Accept-Encoding: " + accept}}).want(t, 200)
		a.fromService(t)
		for h, v := range map[string]string{
			"Content-Encoding": want,
			"Cache-Control":    "public, max-age=31536000, immutable",
			"Content-Type":     "text/css; charset=utf-8",
			"Vary":             "Accept-Encoding",
		} {
			if got := strings.Join(a.Header.Values(h), ", "); got != v {
				t.Errorf("%s (%s): %s %q, want %q", a.request, accept, h, got, v)
			}
		}
		tag := a.Header.Get("ETag")
		if !strings.HasPrefix(tag, `"`) {
			t.Errorf("%s: ETag %q, want the service's strong tag", a.request, tag)
			continue
		}
		nm := p.send(t, request{from: from, target: addr, headers: []string{"Accept-Encoding: " + accept, "If-None-Match: " + tag}}).want(t, 304)
		if nm.Body != "" || nm.Header.Get("ETag") != tag || nm.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("%s with If-None-Match: ETag %q, Cache-Control %q, %d bytes", nm.request, nm.Header.Get("ETag"), nm.Header.Get("Cache-Control"), len(nm.Body))
		}
	}
}
