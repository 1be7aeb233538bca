package handlers_test

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
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
