// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"golang.org/x/crypto/bcrypt"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
)

// instance is one more `events serve` on the database db, with the owner's
// password hash given: a second instance, or the same one restarted.
func instance(t *testing.T, db *bun.DB, hash string) *server {
	t.Helper()
	auth, err := app.NewAuth(hash, []string{apiToken}, sessionSecret, false)
	if err != nil {
		t.Fatal(err)
	}
	c := dbtest.NewClock(t0)
	svc := app.NewService(db, seoul, c.Now)
	f, err := handlers.New(svc, handlers.Options{
		Logger: quiet, RequestTimeout: requestTimeout, Auth: auth, TrustedProxies: []string{"0.0.0.0"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &server{t: t, f: f, svc: svc, db: db, clock: c}
}

func TestSessionsEndOnTheServer(t *testing.T) {
	first, _ := authServer(t, true)
	second := instance(t, first.db, hashOnce())
	cookie := login(t, first)
	jar := []string{"Cookie", "events_session=" + cookie.Value}
	// Two instances on one database agree on a session.
	first.get("/api/events", jar...).want(t, http.StatusOK)
	second.get("/api/events", jar...).want(t, http.StatusOK)

	// A logout on one instance ends the session on both.
	page := second.get("/events", jar...).pageHTML(t, http.StatusOK)
	csrf := csrfOf(t, page)
	second.form("POST", "/logout", url.Values{"_csrf": {csrf}}, jar...).want(t, http.StatusSeeOther)
	first.get("/api/events", jar...).problem(t, http.StatusUnauthorized)
	second.get("/api/events", jar...).problem(t, http.StatusUnauthorized)
	if a := first.get("/events", jar...); a.Status != http.StatusSeeOther || a.Header.Get("Location") != "/login?next=%2Fevents" {
		t.Errorf("a page with the replayed cookie: %s, want the login page", a)
	}
	var rows int
	if err := first.db.NewRaw("SELECT count(*) FROM sessions").Scan(t.Context(), &rows); err != nil || rows != 0 {
		t.Errorf("sessions left after the logout: %d (%v)", rows, err)
	}
}

func TestChangedPasswordEndsEverySession(t *testing.T) {
	s, _ := authServer(t, true)
	cookie := login(t, s)
	jar := []string{"Cookie", "events_session=" + cookie.Value}
	s.get("/api/events", jar...).want(t, http.StatusOK)
	// The same instance restarted with the same password: the session holds.
	instance(t, s.db, hashOnce()).get("/api/events", jar...).want(t, http.StatusOK)
	// Restarted with a new password (the same session key): it has ended.
	newHash, err := bcrypt.GenerateFromPassword([]byte("a new password entirely"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	restarted := instance(t, s.db, string(newHash))
	restarted.get("/api/events", jar...).problem(t, http.StatusUnauthorized)
	if a := restarted.get("/events", jar...); a.Status != http.StatusSeeOther {
		t.Errorf("a page with a cookie of the old password: %s, want the login page", a)
	}
}

func TestLoginLimitHoldsAcrossInstancesAndRestarts(t *testing.T) {
	first, _ := authServer(t, true)
	second := instance(t, first.db, hashOnce())
	wrong := url.Values{"password": {"wrong"}}
	from := []string{"X-Forwarded-For", "198.51.100.9"}
	for i := 0; i < handlers.LoginAttempts; i++ {
		srv := first
		if i%2 == 1 {
			srv = second
		}
		srv.form("POST", "/login", wrong, from...).want(t, http.StatusUnauthorized)
	}
	// Both instances, and a third started now, see the same five failures.
	for _, srv := range []*server{first, second, instance(t, first.db, hashOnce())} {
		a := srv.form("POST", "/login", url.Values{"password": {ownerPassword}}, from...)
		if a.Status != http.StatusTooManyRequests || a.Header.Get("Set-Cookie") != "" {
			t.Errorf("login after five failures on two instances: %s, want 429 without a cookie", a)
		}
	}
	login(t, second, "X-Forwarded-For", "198.51.100.10") // another address is not limited
}

func TestExpiredSessionAndAttemptRowsAreCleanedUp(t *testing.T) {
	s, _ := authServer(t, true)
	ctx := t.Context()
	old := time.Now().Add(-40 * 24 * time.Hour)
	if _, err := s.db.NewRaw(`INSERT INTO sessions (id, issued_at, last_seen, expires_at) VALUES
		(decode(repeat('ab', 32), 'hex'), ?0, ?0, ?1)`, old, old.Add(app.SessionIdle)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.NewRaw(`INSERT INTO login_attempts (client, window_start, failures) VALUES ('203.0.113.1', ?, 3)`, old).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	login(t, s)
	var sessions, attempts int
	if err := s.db.NewRaw("SELECT (SELECT count(*) FROM sessions), (SELECT count(*) FROM login_attempts WHERE client = '203.0.113.1')").Scan(ctx, &sessions, &attempts); err != nil {
		t.Fatal(err)
	}
	if sessions != 1 || attempts != 0 {
		t.Errorf("after a login: %d sessions (want only the new one) and %d stale attempt rows (want 0)", sessions, attempts)
	}
}

// csrfOf is the CSRF token a logged-in page holds.
func csrfOf(t *testing.T, page string) string {
	t.Helper()
	m := regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the page holds no CSRF token")
	}
	return m[1]
}
