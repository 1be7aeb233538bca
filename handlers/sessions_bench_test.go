// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
)

// BenchmarkSessionCheck measures what the server-side session check costs
// a request: GET /api/events/inbox (an empty inbox, so the listing itself
// is cheap) with an API token (no session statement) and with a session
// cookie (one primary-key SELECT of its row), and the check alone.
// /healthz, /readyz, /static and /login never check a session.
func BenchmarkSessionCheck(b *testing.B) {
	auth, err := app.NewAuth(hashOnce(), []string{apiToken}, sessionSecret, false)
	if err != nil {
		b.Fatal(err)
	}
	db := dbtest.New(b)
	svc := app.NewService(db, seoul, time.Now)
	f, err := handlers.New(svc, handlers.Options{Logger: quiet, RequestTimeout: requestTimeout, Auth: auth})
	if err != nil {
		b.Fatal(err)
	}
	req := httptest.NewRequest("POST", "/login", strings.NewReader(url.Values{"password": {ownerPassword}}.Encode()))
	req.Header.Set("Content-Type", formType)
	res, err := f.Test(req, -1)
	if err != nil || res.StatusCode != http.StatusSeeOther {
		b.Fatalf("login: %v %v", res.StatusCode, err)
	}
	var cookie string
	for _, c := range res.Cookies() {
		if c.Name == "events_session" {
			cookie = c.Value
		}
	}
	get := func(b *testing.B, header, value string) {
		for b.Loop() {
			req := httptest.NewRequest("GET", "/api/events/inbox", nil)
			req.Header.Set(header, value)
			res, err := f.Test(req, -1)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b.Fatalf("GET /api/events/inbox: %d", res.StatusCode)
			}
		}
	}
	b.Run("token", func(b *testing.B) { get(b, "Authorization", "Bearer "+apiToken) })
	b.Run("session", func(b *testing.B) { get(b, "Cookie", "events_session="+cookie) })
	b.Run("check-only", func(b *testing.B) {
		s, _, ok := auth.Decode(cookie, time.Now())
		if !ok {
			b.Fatal("the cookie does not decode")
		}
		ctx := context.Background()
		for b.Loop() {
			if live, err := svc.CheckSession(ctx, s, time.Now(), false); err != nil || !live {
				b.Fatalf("CheckSession: %v %v", live, err)
			}
		}
	})
}
