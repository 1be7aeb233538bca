// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"events/app"
	"events/cmd/internal/harness"
	"events/internal/dbtest"
	"events/migrations"
)

// TestTwoInstancesBehindTheEdge runs two `events serve` on one PostgreSQL,
// started at the same moment on an empty database, behind nginx rendered
// from the edge template with both as upstreams, and kills one with SIGKILL
// in the middle of a load of creates. What one instance decided holds on the
// other: sessions, logouts, the login limit and idempotency keys. The
// migrations ran once, and every acknowledged create is stored exactly once.
func TestTwoInstancesBehindTheEdge(t *testing.T) {
	oc := startOwnCluster(t)
	dsn := oc.direct()
	const password = "two instances, one database"
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	token := "instances-token-0123456789"
	env := []string{"DATABASE_URL=" + dsn, "EVENTS_PASSWORD_HASH=" + string(hash),
		"EVENTS_SESSION_KEY=instances-session-key-0123456789abcdef", "EVENTS_API_TOKENS=" + token,
		"EVENTS_TRUSTED_PROXIES=127.0.0.1"}

	// Both start at once on the empty database: both migrate.
	bin := build(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	var (
		wg   sync.WaitGroup
		svcs [2]*harness.Service
		errs [2]error
		logs [2]*dbtest.LogBuffer
	)
	for i := range svcs {
		logs[i] = &dbtest.LogBuffer{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			svcs[i], errs[i] = harness.Start(ctx, bin, harness.Options{Env: env, Log: logs[i], CPU: -1})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("instance %d: %v\n%s", i, err, logs[i])
		}
		s := svcs[i]
		t.Cleanup(func() {
			if s.Cmd.ProcessState == nil {
				s.Stop()
			}
		})
	}
	a, b := svcs[0], svcs[1]

	t.Run("MigrationsRanOnce", func(t *testing.T) {
		db, err := app.OpenDB(dsn, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		files, err := fs.Glob(migrations.FS, "*.up.sql")
		if err != nil {
			t.Fatal(err)
		}
		var rows, names int
		if err := db.QueryRowContext(ctx, "SELECT count(*), count(DISTINCT name) FROM bun_migrations").Scan(&rows, &names); err != nil {
			t.Fatal(err)
		}
		if rows != len(files) || names != len(files) {
			t.Fatalf("bun_migrations holds %d rows of %d names, want one row for each of the %d migrations", rows, names, len(files))
		}
	})

	plain := &http.Client{Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, u string, hdr map[string]string, body string) (int, http.Header, string) {
		t.Helper()
		req, err := http.NewRequest(method, u, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		res, err := plain.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, string(b)
	}
	login := func(base string) string {
		t.Helper()
		code, hdr, body := do("POST", base+"/login", map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
			url.Values{"password": {password}}.Encode())
		if code != http.StatusSeeOther {
			t.Fatalf("login at %s: %d %s", base, code, body)
		}
		for _, c := range (&http.Response{Header: hdr}).Cookies() {
			if c.Name == "events_session" {
				return c.Name + "=" + c.Value
			}
		}
		t.Fatalf("login at %s set no session cookie", base)
		return ""
	}

	t.Run("SessionsAndLogoutHoldAcrossBoth", func(t *testing.T) {
		cookie := login(a.Base)
		if code, _, body := do("GET", b.Base+"/api/events/inbox", map[string]string{"Cookie": cookie}, ""); code != 200 {
			t.Fatalf("a session made by one instance, used on the other: %d %s", code, body)
		}
		_, _, page := do("GET", b.Base+"/events", map[string]string{"Cookie": cookie}, "")
		m := regexp.MustCompile(`name="csrf-token" content="([^"]+)"`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("no CSRF token on the page:\n%s", page)
		}
		if code, _, body := do("POST", b.Base+"/logout", map[string]string{"Cookie": cookie, "X-CSRF-Token": m[1]}, ""); code != http.StatusSeeOther {
			t.Fatalf("logout on the other instance: %d %s", code, body)
		}
		if code, _, _ := do("GET", a.Base+"/api/events/inbox", map[string]string{"Cookie": cookie}, ""); code != http.StatusUnauthorized {
			t.Fatalf("the cookie replayed on the first instance after a logout on the other: %d, want 401", code)
		}
	})

	t.Run("IdempotencyKeysHoldAcrossBoth", func(t *testing.T) {
		hdr := map[string]string{"Authorization": "Bearer " + token, "Content-Type": "application/json", "Idempotency-Key": "across-instances-1"}
		body := `{"kind":"task","title":"stored once, whichever instance answers"}`
		code1, h1, b1 := do("POST", a.Base+"/api/events", hdr, body)
		code2, h2, b2 := do("POST", b.Base+"/api/events", hdr, body)
		if code1 != 201 || code2 != 201 || h1.Get("Location") != h2.Get("Location") || b1 != b2 {
			t.Fatalf("the same key on both instances: %d %s %q / %d %s %q", code1, h1.Get("Location"), b1, code2, h2.Get("Location"), b2)
		}
		if h2.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("the second instance did not replay the first's answer: %v", h2)
		}
	})

	t.Run("LoginLimitHoldsAcrossBoth", func(t *testing.T) {
		wrong := url.Values{"password": {"not the password"}}.Encode()
		form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
		for i := 0; i < 5; i++ { // handlers.LoginAttempts failures, alternating instances
			base := []string{a.Base, b.Base}[i%2]
			if code, _, body := do("POST", base+"/login", form, wrong); code != http.StatusUnauthorized {
				t.Fatalf("failed login %d: %d %s", i+1, code, body)
			}
		}
		for _, base := range []string{a.Base, b.Base} {
			if code, _, _ := do("POST", base+"/login", form, url.Values{"password": {password}}.Encode()); code != http.StatusTooManyRequests {
				t.Fatalf("after five failures across both instances, a login at %s: %d, want 429", base, code)
			}
		}
	})

	// The load: creates through the edge, each with its own key, retried
	// with that key as a client does when an answer is lost. One instance is
	// killed in the middle; nginx sends the rest to the other.
	ngx, err := harness.StartEdge(t.TempDir(), []string{a.Addr, b.Addr}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ngx.Stop)
	client := ngx.Client(10 * time.Second)
	var (
		acked    sync.Map // key -> Location
		attempts atomic.Int64
		failures atomic.Int64
		seq      atomic.Int64
	)
	create := func(key string) bool {
		body := fmt.Sprintf(`{"kind":"task","title":"load %s"}`, key)
		for try := 0; try < 20; try++ {
			attempts.Add(1)
			req, _ := http.NewRequest("POST", ngx.Base+"/api/events", strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Idempotency-Key", key)
			res, err := client.Do(req)
			if err == nil {
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode == http.StatusCreated {
					acked.Store(key, res.Header.Get("Location"))
					return true
				}
			}
			failures.Add(1) // a lost answer, a 502 from the edge, a 409 while the first try runs
			time.Sleep(50 * time.Millisecond)
		}
		return false
	}
	stop := time.Now().Add(4 * time.Second)
	killAt := time.Now().Add(1500 * time.Millisecond)
	var load sync.WaitGroup
	for w := 0; w < 6; w++ {
		load.Add(1)
		go func() {
			defer load.Done()
			for time.Now().Before(stop) {
				key := fmt.Sprintf("load-%d", seq.Add(1))
				if !create(key) {
					t.Errorf("create %s was never acknowledged", key)
					return
				}
			}
		}()
	}
	time.Sleep(time.Until(killAt))
	if err := a.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	load.Wait()

	// After the kill, the edge still answers through the other instance.
	res, err := client.Get(ngx.Base + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("the edge after one instance died: %v %v", res, err)
	}
	res.Body.Close()

	db, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var keys int
	acked.Range(func(any, any) bool { keys++; return true })
	var stored, distinct int
	if err := db.QueryRowContext(ctx, "SELECT count(*), count(DISTINCT title) FROM events WHERE title LIKE 'load load-%'").Scan(&stored, &distinct); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d creates acknowledged in %d attempts (%d retried); %d stored", keys, attempts.Load(), failures.Load(), stored)
	if keys < 20 {
		t.Fatalf("only %d creates were acknowledged: the load did not run", keys)
	}
	if stored != distinct {
		t.Fatalf("%d rows for %d keys: a retried create was stored twice", stored, distinct)
	}
	acked.Range(func(k, loc any) bool {
		var n int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM events WHERE title = ? AND '/api/events/' || id = ?", "load "+k.(string), loc).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Errorf("acknowledged create %s (%s) is stored %d times", k, loc, n)
		}
		return true
	})
	if stored < keys {
		t.Fatalf("%d acknowledged, %d stored: an acknowledged write was lost", keys, stored)
	}
}
