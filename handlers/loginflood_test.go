// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
)

// loginServer is the real app with a password (hashed at cost), a token and
// the options opts sets, over a fresh database, served on a loopback port
// through the listener events serve uses. 127.0.0.1 is a trusted proxy, so
// X-Forwarded-For names the client, as nginx's does.
func loginServer(t *testing.T, cost int, opts func(*handlers.Options)) (*server, string) {
	t.Helper()
	hash := hashOnce()
	if cost != bcrypt.MinCost {
		h, err := bcrypt.GenerateFromPassword([]byte(ownerPassword), cost)
		if err != nil {
			t.Fatal(err)
		}
		hash = string(h)
	}
	auth, err := app.NewAuth(hash, []string{apiToken}, sessionSecret, false)
	if err != nil {
		t.Fatal(err)
	}
	dsn := dbtest.NewURL(t)
	db, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := &server{t: t, db: db, clock: dbtest.NewClock(t0), dsn: dsn}
	s.svc = app.NewService(db, seoul, s.clock.Now)
	o := handlers.Options{Logger: quiet, RequestTimeout: requestTimeout, Auth: auth, TrustedProxies: []string{"127.0.0.1"}}
	if opts != nil {
		opts(&o)
	}
	if s.f, err = handlers.New(s.svc, o); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.f.Listener(handlers.Listener(ln)) }()
	t.Cleanup(func() { _ = s.f.ShutdownWithTimeout(2 * time.Second) })
	return s, "http://" + ln.Addr().String()
}

// loginFrom posts a login with password from the client address from.
func loginFrom(client *http.Client, base, from, password string) flooded {
	return hit(client, "POST", base+"/login", "application/x-www-form-urlencoded",
		url.Values{"password": {password}}.Encode(), "X-Forwarded-For", from)
}

// noRedirect is a client that reads a 303 as it is.
func noRedirect() *http.Client {
	return &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// TestLoginLimitCountsAnIPv6NetworkAsOneClient: a client with an IPv6 /64
// has 2^64 addresses, so the limit counts the /64: five failures from five
// addresses of one /64 limit a sixth address of it (429, the right
// password unchecked), while the next /64 and an IPv4 address are not.
func TestLoginLimitCountsAnIPv6NetworkAsOneClient(t *testing.T) {
	t.Parallel()
	s, base := loginServer(t, bcrypt.MinCost, nil)
	client := noRedirect()
	for i := range handlers.LoginAttempts {
		if a := loginFrom(client, base, fmt.Sprintf("2001:db8:1:2::%x", i+1), "wrong"); a.status != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d %v", i+1, a.status, a.err)
		}
	}
	if a := loginFrom(client, base, "2001:db8:1:2:ffff:ffff:ffff:ffff", ownerPassword); a.status != http.StatusTooManyRequests {
		t.Errorf("the right password from a sixth address of the /64: %d, want 429", a.status)
	}
	for _, from := range []string{"2001:db8:1:3::1", "192.0.2.1"} {
		if a := loginFrom(client, base, from, ownerPassword); a.status != http.StatusSeeOther {
			t.Errorf("the right password from %s: %d, want 303", from, a.status)
		}
	}
	var rows []string
	if err := s.db.NewRaw("SELECT client FROM login_attempts ORDER BY client").Scan(t.Context(), &rows); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rows, "2001:db8:1:2::/64") {
		t.Errorf("login_attempts rows %q, want one for 2001:db8:1:2::/64", rows)
	}
}

// TestLoginsWaitTheirTurnBeyondTheGlobalLimit: across all clients, the
// failed logins a minute beyond LoginsPerMinute wait their turn. With 2 a
// minute, two failures from two addresses pass; a third address's first
// login is checked ahead of the queue (once a window, LoginAheadEvery
// apart); its next, though its own count is low, is refused at once with
// 503, Retry-After
// (its turn is 30 s away, beyond the 5 s a login waits) and a sentence, its
// password unchecked: the right password too. Those refusals do not count
// against the address. A turn a second or so away is waited for, and then
// the password is checked: that address logs in.
func TestLoginsWaitTheirTurnBeyondTheGlobalLimit(t *testing.T) {
	t.Parallel()
	s, base := loginServer(t, bcrypt.MinCost, func(o *handlers.Options) { o.LoginsPerMinute = 2 })
	client := noRedirect()
	for i, from := range []string{"192.0.2.1", "192.0.2.2"} {
		if a := loginFrom(client, base, from, "wrong"); a.status != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d %v", i+1, a.status, a.err)
		}
	}
	for _, from := range []string{"192.0.2.3", "192.0.2.4"} {
		if a := loginFrom(client, base, from, "wrong"); a.status != http.StatusUnauthorized {
			t.Fatalf("the first login of %s, checked ahead of the queue: %d %v", from, a.status, a.err)
		}
	}
	// LoginAttempts refusals from one address: none counts against it,
	// since no password was checked.
	for _, password := range append(slices.Repeat([]string{"wrong"}, handlers.LoginAttempts-1), ownerPassword) {
		a := loginFrom(client, base, "192.0.2.3", password)
		if a.status != http.StatusServiceUnavailable || a.retryAfter == "" || a.retryAfter == "0" || a.took > 3*time.Second {
			t.Errorf("a login beyond the pace (%q): %d, Retry-After %q after %v; want 503 at once with Retry-After", password, a.status, a.retryAfter, a.took)
		}
	}
	res, err := client.Do(func() *http.Request {
		r, _ := http.NewRequest("POST", base+"/login", strings.NewReader("password=wrong"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("X-Forwarded-For", "192.0.2.4")
		r.Header.Set("Accept", "text/html")
		return r
	}())
	if err != nil {
		t.Fatal(err)
	}
	page := bodyOf(t, res)
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(page, "waits its turn") {
		t.Errorf("the refused login's page: %d, want 503 saying each login waits its turn:\n%s", res.StatusCode, page)
	}

	// The next turn 1.5 s away: the login waits for it, then is checked.
	if _, err := s.db.NewRaw("UPDATE login_pace SET tat = now() + interval '31.5 seconds'").Exec(t.Context()); err != nil {
		t.Fatal(err)
	}
	a := loginFrom(client, base, "192.0.2.3", ownerPassword)
	if a.status != http.StatusSeeOther || a.took < time.Second {
		t.Errorf("a login whose turn is 1.5 s away: %d after %v, want 303 after waiting its turn", a.status, a.took)
	}
}

// TestLoginFloodLeavesTheOwnerServed: wrong passwords from many addresses,
// each within its limits (4 attempts an address, fewer than the edge's
// burst and the service's five), hashed at a real cost, while the owner
// reads with a token and with a session. The logins check passwords in
// slots of their own and are paced across addresses, so the owner's
// requests keep their work slots: at least 95% of them answer 200. (Before,
// each attempt ran bcrypt in a work slot, and most of the owner's requests
// were refused with 503.)
func TestLoginFloodLeavesTheOwnerServed(t *testing.T) {
	t.Parallel()
	const (
		floodClients = 32
		perAddress   = 4
		duration     = 4 * time.Second
	)
	_, base := loginServer(t, 8, func(o *handlers.Options) { o.MaxInFlight, o.QueueWait = 4, 250*time.Millisecond })
	// The owner's session, made before the flood.
	res, err := noRedirect().PostForm(base+"/login", url.Values{"password": {ownerPassword}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cookie := ""
	for _, c := range res.Cookies() {
		if c.Name == "events_session" {
			cookie = c.Name + "=" + c.Value
		}
	}
	if res.StatusCode != http.StatusSeeOther || cookie == "" {
		t.Fatalf("the owner's login: %s, cookies %v", res.Status, res.Header.Values("Set-Cookie"))
	}

	var (
		attempts atomic.Int64
		mu       sync.Mutex
		floodBy  = map[int]int{}
		ownerBy  = map[string]map[int]int{"token": {}, "session": {}}
		ownerLat []time.Duration
		wg       sync.WaitGroup
	)
	stop := time.Now().Add(duration)
	address := func(i int64) string {
		n := i / perAddress
		switch {
		case n < 256:
			return fmt.Sprintf("198.51.100.%d", n)
		case n < 512:
			return fmt.Sprintf("203.0.113.%d", n-256)
		}
		return fmt.Sprintf("2001:db8:%x::1", n) // a /64 each
	}
	for range floodClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			defer client.CloseIdleConnections()
			for time.Now().Before(stop) {
				a := loginFrom(client, base, address(attempts.Add(1)-1), "not the password")
				mu.Lock()
				floodBy[a.status]++
				mu.Unlock()
			}
		}()
	}
	for _, kind := range []string{"token", "session"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Timeout: 30 * time.Second}
			defer client.CloseIdleConnections()
			headers := []string{"Authorization", "Bearer " + apiToken}
			if kind == "session" {
				headers = []string{"Cookie", cookie}
			}
			for time.Now().Before(stop) {
				a := hit(client, "GET", base+"/api/events/today", "", "", headers...)
				mu.Lock()
				ownerBy[kind][a.status]++
				ownerLat = append(ownerLat, a.took)
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	wg.Wait()

	ok, total := 0, 0
	for _, by := range ownerBy {
		for status, n := range by {
			total += n
			if status == http.StatusOK {
				ok += n
			}
		}
	}
	slices.Sort(ownerLat)
	pct := func(p float64) time.Duration {
		if len(ownerLat) == 0 {
			return 0
		}
		return ownerLat[int(p*float64(len(ownerLat)-1))]
	}
	var flood []string
	for _, status := range slices.Sorted(maps.Keys(floodBy)) {
		flood = append(flood, fmt.Sprintf("%d×%d", floodBy[status], status))
	}
	t.Logf("login flood: %d attempts in %v from %d clients, %d addresses of %d attempts each; answers %s",
		attempts.Load(), duration, floodClients, (attempts.Load()+perAddress-1)/perAddress, perAddress, strings.Join(flood, ", "))
	t.Logf("owner during the flood: %d of %d answers 200 (%.1f%%); by token %v, by session %v; p50 %v, p95 %v, max %v",
		ok, total, 100*float64(ok)/float64(max(total, 1)), ownerBy["token"], ownerBy["session"], pct(0.5), pct(0.95), pct(1))
	if attempts.Load() < 50 {
		t.Errorf("only %d login attempts: the flood did not run", attempts.Load())
	}
	if total < 20 {
		t.Fatalf("only %d owner requests answered: the owner did not run", total)
	}
	if float64(ok) < 0.95*float64(total) {
		t.Errorf("the owner got %d of %d answers 200 during the login flood, want at least 95%%", ok, total)
	}
}

func bodyOf(t *testing.T, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
