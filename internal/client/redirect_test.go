// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestClientFollowsNoRedirect: a redirect, to another port, from https://
// to http://, or to another host, is an error naming where it pointed, and
// nothing (no token, no body) reaches where it points; an answer with the
// expected status that is not the API's JSON is not a success. Before,
// the client followed redirects: an https:// URL's redirect to http://
// sent the bearer token in clear, and another host's 200 printed OK
// though nothing was stored.
func TestClientFollowsNoRedirect(t *testing.T) {
	var mu sync.Mutex
	var reached []string
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		reached = append(reached, r.Method+" "+r.Header.Get("Authorization")+" "+string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, "<p>welcome</p>")
	}))
	defer elsewhere.Close()
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for _, tls := range []bool{false, true} {
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, elsewhere.URL+r.URL.Path, status)
			})
			var srv *httptest.Server
			if tls {
				srv = httptest.NewTLSServer(h)
			} else {
				srv = httptest.NewServer(h)
			}
			c, err := New(srv.URL, "secret-token", false)
			if err != nil {
				t.Fatal(err)
			}
			if tls {
				c.http.Transport = srv.Client().Transport
			}
			_, err = c.Create(context.Background(), []byte(`{"kind":"task","title":"private words"}`), "k")
			var r *Redirected
			if !errors.As(err, &r) || r.Status != status || !strings.HasPrefix(r.To, elsewhere.URL) || !strings.Contains(err.Error(), "not followed") {
				t.Errorf("%d (tls %v): %v, want a Redirected to %s", status, tls, err, elsewhere.URL)
			}
			if _, err := c.Get(context.Background(), 1); !errors.As(err, &r) {
				t.Errorf("GET after %d: %v, want a Redirected", status, err)
			}
			srv.Close()
		}
	}
	mu.Lock()
	if len(reached) != 0 {
		t.Errorf("the redirect's target got %q", reached)
	}
	mu.Unlock()

	// the right status without the API's JSON is no success
	c, err := New(elsewhere.URL, "secret-token", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(context.Background(), 1); err == nil || !strings.Contains(err.Error(), "not the API's JSON") {
		t.Errorf("a 200 HTML page: %v, want an error", err)
	}
}

// TestClientRefusesPlainHTTPToAnotherMachine: http:// is for this machine
// only, unless --insecure-http.
func TestClientRefusesPlainHTTPToAnotherMachine(t *testing.T) {
	for _, base := range []string{"http://events.example.org", "http://192.0.2.10:3000", "http://[2001:db8::1]:3000"} {
		if _, err := New(base, "t", false); err == nil || !strings.Contains(err.Error(), "--insecure-http") {
			t.Errorf("%s: %v, want a refusal naming --insecure-http", base, err)
		}
		if _, err := New(base, "t", true); err != nil {
			t.Errorf("%s with --insecure-http: %v", base, err)
		}
	}
	for _, base := range []string{"", "http://127.0.0.1:3000", "http://localhost:3000", "http://[::1]:3000", "https://events.example.org"} {
		if _, err := New(base, "t", false); err != nil {
			t.Errorf("%q: %v", base, err)
		}
	}
}
