// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"events/docs/apicheck"
	"events/static"
)

// Caching and compression (README): static files under hashed addresses,
// immutable, one ETag per encoding, 304 on If-None-Match, charset on text;
// pages, fragments and JSON gzipped above a size; Vary: Accept-Encoding.

// decoded is the body of an answer with its Content-Encoding undone.
func decoded(t *testing.T, a answer) []byte {
	t.Helper()
	var out []byte
	var err error
	switch enc := a.Header.Get("Content-Encoding"); {
	case enc == "" || len(a.Body) == 0 && a.method == "HEAD":
		return a.Body
	case enc == "gzip":
		out, err = fasthttp.AppendGunzipBytes(nil, a.Body)
	case enc == "br":
		out, err = fasthttp.AppendUnbrotliBytes(nil, a.Body)
	default:
		t.Fatalf("%s: Content-Encoding %q", a, enc)
	}
	if err != nil {
		t.Fatalf("%s: decoding %s: %v", a.method+" "+a.target, a.Header.Get("Content-Encoding"), err)
	}
	return out
}

// fetch sends a GET (or HEAD) with header pairs, without decoding, and
// checks an API answer against the OpenAPI document once decoded.
func (s *server) fetch(method, target string, headers ...string) answer {
	s.t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := s.f.Test(req, -1)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, target, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	a := answer{method: method, target: target, Status: res.StatusCode, Header: res.Header, Body: b}
	plain := res.Header.Clone()
	plain.Del("Content-Encoding")
	for _, p := range apicheck.Problems(req, nil, a.Status, plain, decoded(s.t, a)) {
		s.t.Errorf("%s: %s", a, p)
	}
	return a
}

func variesOn(a answer, name string) bool {
	for _, v := range a.Header.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), name) {
				return true
			}
		}
	}
	return false
}

var staticRef = regexp.MustCompile(`(?:href|src)="(/static/[^"]+)"`)

// staticAddresses are the static files a page names.
func staticAddresses(t *testing.T, page []byte) map[string]string {
	t.Helper()
	out := map[string]string{} // file name -> address
	for _, m := range staticRef.FindAllSubmatch(page, -1) {
		addr := string(m[1])
		parts := strings.Split(strings.TrimPrefix(addr, "/static/"), ".")
		if len(parts) < 3 || !regexp.MustCompile(`^[0-9a-f]{12}$`).MatchString(parts[len(parts)-2]) {
			t.Errorf("the page names %s, not a content-hashed address", addr)
			continue
		}
		name := strings.Join(append(parts[:len(parts)-2:len(parts)-2], parts[len(parts)-1]), ".")
		out[name] = addr
	}
	for _, want := range []string{"events.css", "htmx.min.js", "app.js", "favicon.svg"} {
		if out[want] == "" {
			t.Errorf("the page does not name %s: %v", want, out)
		}
	}
	return out
}

func TestStaticFilesUnderHashedAddresses(t *testing.T) {
	s := newServer(t)
	page := s.fetch("GET", "/events").want(t, http.StatusOK)
	for name, addr := range staticAddresses(t, page.Body) {
		want, err := static.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		ctype := map[string]string{"events.css": "text/css; charset=utf-8", "htmx.min.js": "text/javascript; charset=utf-8",
			"app.js": "text/javascript; charset=utf-8", "favicon.svg": "image/svg+xml",
			"offline.js": "text/javascript; charset=utf-8", "manifest.webmanifest": "application/manifest+json"}[name]
		etags := map[string]string{}
		for _, accept := range []string{"gzip, deflate, br, zstd", "gzip, deflate", "", "br;q=0, gzip;q=0"} {
			a := s.fetch("GET", addr, "Accept-Encoding", accept).want(t, http.StatusOK)
			checkSecurityHeaders(t, a)
			enc := a.Header.Get("Content-Encoding")
			wantEnc := map[string]string{"gzip, deflate, br, zstd": "br", "gzip, deflate": "gzip"}[accept]
			if enc != wantEnc {
				t.Errorf("%s with Accept-Encoding %q: Content-Encoding %q, want %q", addr, accept, enc, wantEnc)
			}
			if got := decoded(t, a); !bytes.Equal(got, want) {
				t.Errorf("%s (%s): the body is not static/%s", addr, enc, name)
			}
			if enc != "" && len(a.Body) >= len(want) {
				t.Errorf("%s (%s): %d bytes, no smaller than the file's %d", addr, enc, len(a.Body), len(want))
			}
			for h, v := range map[string]string{"Cache-Control": "public, max-age=31536000, immutable", "Content-Type": ctype} {
				if got := a.Header.Get(h); got != v {
					t.Errorf("%s: %s %q, want %q", addr, h, got, v)
				}
			}
			if !variesOn(a, "Accept-Encoding") {
				t.Errorf("%s: Vary %q, want Accept-Encoding", addr, a.Header.Values("Vary"))
			}
			tag := a.Header.Get("ETag")
			if !regexp.MustCompile(`^"[0-9a-f]{12}(\.(br|gzip))?"$`).MatchString(tag) {
				t.Errorf("%s: ETag %q", addr, tag)
			}
			if other, seen := etags[tag]; seen && other != enc {
				t.Errorf("%s: the ETag %s names both %q and %q", addr, tag, other, enc)
			}
			etags[tag] = enc

			// The tag the client holds gives 304, in whatever encoding it
			// asks for now; the tag of another content does not.
			for _, held := range []string{tag, `W/` + tag, `"ffffffffffff", ` + tag} {
				nm := s.fetch("GET", addr, "Accept-Encoding", "gzip, deflate, br", "If-None-Match", held).want(t, http.StatusNotModified)
				if len(nm.Body) != 0 || nm.Header.Get("ETag") != strings.TrimPrefix(held, `"ffffffffffff", `) ||
					nm.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || !variesOn(nm, "Accept-Encoding") {
					t.Errorf("%s with If-None-Match %s: 304 with ETag %q, Cache-Control %q, Vary %q, %d bytes", addr, held,
						nm.Header.Get("ETag"), nm.Header.Get("Cache-Control"), nm.Header.Values("Vary"), len(nm.Body))
				}
			}
			s.fetch("GET", addr, "Accept-Encoding", accept, "If-None-Match", `"ffffffffffff"`).want(t, http.StatusOK)
			head := s.fetch("HEAD", addr, "Accept-Encoding", accept).want(t, http.StatusOK)
			if len(head.Body) != 0 || head.Header.Get("ETag") != tag || head.Header.Get("Content-Length") != fmt.Sprint(len(a.Body)) {
				t.Errorf("HEAD %s: ETag %q Content-Length %q, %d bytes; want %s, %d, none", addr, head.Header.Get("ETag"), head.Header.Get("Content-Length"), len(head.Body), tag, len(a.Body))
			}
		}
		if name != "favicon.svg" && len(etags) != 3 {
			t.Errorf("%s: ETags %v; want one for each of br, gzip and none", addr, etags)
		}
	}
}

func TestStaticPlainAndOtherAddresses(t *testing.T) {
	s := newServer(t)
	addrs := staticAddresses(t, s.fetch("GET", "/events").want(t, http.StatusOK).Body)
	css, _ := static.FS.ReadFile("events.css")
	plain := s.fetch("GET", "/static/events.css", "Accept-Encoding", "gzip").want(t, http.StatusOK)
	if plain.Header.Get("Cache-Control") != "public, max-age=300" || plain.Header.Get("Content-Type") != "text/css; charset=utf-8" ||
		plain.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(decoded(t, plain), css) {
		t.Errorf("GET /static/events.css: Cache-Control %q, Content-Type %q, Content-Encoding %q", plain.Header.Get("Cache-Control"),
			plain.Header.Get("Content-Type"), plain.Header.Get("Content-Encoding"))
	}
	// The 304 of the plain address answers the tag of the hashed one: same content.
	hashed := s.fetch("GET", addrs["events.css"]).want(t, http.StatusOK)
	s.fetch("GET", "/static/events.css", "If-None-Match", hashed.Header.Get("ETag")).want(t, http.StatusNotModified)
	s.fetch("GET", "/static/events.css?v=1.2.3").want(t, http.StatusOK)

	// A page drawn by another version names another hash: the current
	// content, not to be kept under that address.
	other := s.fetch("GET", "/static/events.0123456789ab.css").want(t, http.StatusOK)
	if other.Header.Get("Cache-Control") != "no-cache" || !bytes.Equal(other.Body, css) {
		t.Errorf("GET /static/events.0123456789ab.css: Cache-Control %q", other.Header.Get("Cache-Control"))
	}
	for _, target := range []string{"/static/no.such.file.css", "/static/events.css.map", "/static/static.go", "/static/", "/static"} {
		a := s.fetch("GET", target).want(t, http.StatusNotFound)
		checkSecurityHeaders(t, a)
	}
	a := s.do("POST", "/static/events.css", "", "").want(t, http.StatusMethodNotAllowed)
	if a.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("%s: Allow %q", a, a.Header.Get("Allow"))
	}
}

func TestAnswersCompressedAboveTheThreshold(t *testing.T) {
	s := newServer(t)
	var ids []int64
	for i := range 12 {
		ids = append(ids, s.create(fmt.Sprintf(`{"kind":"task","title":"Task %d of the day","due_at":"2026-11-22T0%d:00:00Z"}`, i, i%9)).ID)
	}
	for _, c := range []struct {
		what    string
		target  string
		headers []string
		ctype   string
	}{
		{"the page", "/events", nil, "text/html"},
		{"a tab's fragment", "/api/events/today", hx, "text/html"},
		{"a JSON list", "/api/events", nil, "application/json"},
		{"an error page", "/nothing/here", []string{"Accept", "text/html"}, "text/html"},
	} {
		plain := s.fetch("GET", c.target, c.headers...)
		if len(plain.Body) < 1024 || plain.Header.Get("Content-Encoding") != "" || !variesOn(plain, "Accept-Encoding") {
			t.Errorf("%s without Accept-Encoding: %d bytes, Content-Encoding %q, Vary %q; want 1024 or more, none, Accept-Encoding",
				c.what, len(plain.Body), plain.Header.Get("Content-Encoding"), plain.Header.Values("Vary"))
		}
		for accept, want := range map[string]string{"gzip, deflate, br, zstd": "gzip", "br": "", "gzip, deflate": "gzip", "identity": "", "gzip;q=0, br;q=0": ""} {
			a := s.fetch("GET", c.target, append([]string{"Accept-Encoding", accept}, c.headers...)...)
			if a.Status != plain.Status || !strings.HasPrefix(a.Header.Get("Content-Type"), c.ctype) {
				t.Errorf("%s (%s): %d %q", c.what, accept, a.Status, a.Header.Get("Content-Type"))
			}
			if got := a.Header.Get("Content-Encoding"); got != want {
				t.Errorf("%s with Accept-Encoding %q: Content-Encoding %q, want %q", c.what, accept, got, want)
			}
			if body := decoded(t, a); !bytes.Equal(body, plain.Body) {
				t.Errorf("%s (%s): the decoded body differs from the plain one", c.what, accept)
			}
			if want != "" && len(a.Body)*4 > len(plain.Body)*3 {
				t.Errorf("%s (%s): %d bytes for %d; want at most three quarters", c.what, want, len(a.Body), len(plain.Body))
			}
			if !variesOn(a, "Accept-Encoding") || strings.Count(strings.ToLower(strings.Join(a.Header.Values("Vary"), ",")), "accept-encoding") != 1 {
				t.Errorf("%s (%s): Vary %q, want Accept-Encoding once", c.what, accept, a.Header.Values("Vary"))
			}
			if c.target != "/api/events" && !variesOn(a, "HX-Request") {
				t.Errorf("%s (%s): Vary %q, want HX-Request kept", c.what, accept, a.Header.Values("Vary"))
			}
			checkSecurityHeaders(t, a)
		}
	}

	// Below the threshold the answer goes out as it is, still saying it varies.
	for _, target := range []string{path(ids[0]), "/healthz"} {
		a := s.fetch("GET", target, "Accept-Encoding", "gzip, deflate, br")
		a.want(t, http.StatusOK)
		if len(a.Body) >= 1024 || a.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s: %d bytes, Content-Encoding %q; want under 1024, none", a.target, len(a.Body), a.Header.Get("Content-Encoding"))
		}
		if !variesOn(a, "Accept-Encoding") {
			t.Errorf("%s: Vary %q, want Accept-Encoding", a.target, a.Header.Values("Vary"))
		}
	}
	// A 304 or a HEAD is never given a compressed body.
	head := s.fetch("HEAD", "/events", "Accept-Encoding", "gzip")
	if len(head.Body) != 0 || head.Status != http.StatusOK {
		t.Errorf("HEAD /events: %d, %d bytes", head.Status, len(head.Body))
	}
	if !slices.Contains([]string{"", "gzip"}, head.Header.Get("Content-Encoding")) {
		t.Errorf("HEAD /events: Content-Encoding %q", head.Header.Get("Content-Encoding"))
	}
}
