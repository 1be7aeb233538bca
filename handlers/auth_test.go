// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"golang.org/x/crypto/bcrypt"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
)

const (
	ownerPassword = "correct horse battery"
	apiToken      = "test-token-0123456789abcdef"
	sessionSecret = "test-session-key-0123456789abcdefghijklmnop"
)

// hashOnce is the owner's password hash at bcrypt's lowest cost: a login
// checks it, and the production cost (HashPassword's) is slow on purpose.
var hashOnce = sync.OnceValue(func() string {
	h, err := bcrypt.GenerateFromPassword([]byte(ownerPassword), bcrypt.MinCost)
	if err != nil {
		panic(err)
	}
	return string(h)
})

// authServer is the real app with authentication on: a password, a token
// (or only the token when password is false).
func authServer(t *testing.T, password bool) (*server, *dbtest.LogBuffer) {
	t.Helper()
	hash := ""
	if password {
		hash = hashOnce()
	}
	auth, err := app.NewAuth(hash, []string{apiToken}, sessionSecret, false)
	if err != nil {
		t.Fatal(err)
	}
	logs := &dbtest.LogBuffer{}
	db := dbtest.New(t)
	c := dbtest.NewClock(t0)
	svc := app.NewService(db, seoul, c.Now)
	f, err := handlers.New(svc, handlers.Options{
		Logger: slog.New(slog.NewTextHandler(logs, nil)), RequestTimeout: requestTimeout, Auth: auth,
		TrustedProxies: []string{"0.0.0.0"}, // f.Test's peer: X-Forwarded-* headers are believed
	})
	if err != nil {
		t.Fatal(err)
	}
	return &server{t: t, f: f, svc: svc, db: db, clock: c}, logs
}

var bearer = []string{"Authorization", "Bearer " + apiToken}

func TestAuthAPINeedsAToken(t *testing.T) {
	t.Parallel()
	s, _ := authServer(t, true)
	a := s.get("/api/events")
	p := a.problem(t, http.StatusUnauthorized)
	if !strings.Contains(a.Header.Get("WWW-Authenticate"), "Bearer") || p.Detail == "" {
		t.Errorf("401 without credentials: WWW-Authenticate %q, detail %q", a.Header.Get("WWW-Authenticate"), p.Detail)
	}
	s.get("/api/events", "Authorization", "Bearer not-the-token-at-all").problem(t, http.StatusUnauthorized)
	s.get("/api/events", "Authorization", "Basic "+apiToken).problem(t, http.StatusUnauthorized)
	s.get("/api/events", bearer...).want(t, http.StatusOK)
	// A token needs no CSRF token.
	e := s.json("POST", "/api/events", `{"kind":"task","title":"x"}`, bearer...).event(t, http.StatusCreated)
	s.json("POST", path(e.ID, "complete"), "", bearer...).want(t, http.StatusOK)

	// These stay open.
	for _, target := range []string{"/healthz", "/readyz", "/static/events.css", "/static/app.js", "/login"} {
		s.get(target).want(t, http.StatusOK)
	}
	// The security headers hold on refusals too.
	if a.Header.Get("Content-Security-Policy") == "" || a.Header.Get("X-Content-Type-Options") != "nosniff" || a.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("401 lacks the security headers: %v", a.Header)
	}
}

func TestAuthPagesGoToTheLoginPage(t *testing.T) {
	t.Parallel()
	s, _ := authServer(t, true)
	a := s.get("/events?tab=inbox")
	a.want(t, http.StatusSeeOther)
	if got := a.Header.Get("Location"); got != "/login?next=%2Fevents%3Ftab%3Dinbox" {
		t.Errorf("Location = %q", got)
	}
	// An htmx request from a page whose session ended: 401 and the whole
	// page to the login page, never the login page in a row.
	a = s.json("POST", "/api/events/1/complete", "", "HX-Request", "true", "HX-Current-URL", "http://events.test/events?tab=today")
	a.want(t, http.StatusUnauthorized)
	if got := a.Header.Get("HX-Redirect"); got != "/login?next=%2Fevents%3Ftab%3Dtoday" {
		t.Errorf("HX-Redirect = %q", got)
	}
	if strings.Contains(string(a.Body), "password") {
		t.Errorf("the 401 fragment holds the login form: %s", a.Body)
	}
	// Only tokens: the pages say what to set.
	s2, _ := authServer(t, false)
	body := s2.get("/events").pageHTML(t, http.StatusUnauthorized)
	if !strings.Contains(body, "EVENTS_PASSWORD_HASH") {
		t.Errorf("pages with tokens only: want a sentence naming EVENTS_PASSWORD_HASH, got:\n%s", body)
	}
	s2.get("/api/events", bearer...).want(t, http.StatusOK)
}

// login logs in and returns the session cookie.
func login(t *testing.T, s *server, headers ...string) *http.Cookie {
	t.Helper()
	a := s.form("POST", "/login", url.Values{"password": {ownerPassword}, "next": {"/events?tab=inbox"}}, headers...)
	a.want(t, http.StatusSeeOther)
	if got := a.Header.Get("Location"); got != "/events?tab=inbox" {
		t.Errorf("after login Location = %q, want where the user was going", got)
	}
	for _, c := range (&http.Response{Header: a.Header}).Cookies() {
		if c.Name == "events_session" || c.Name == "__Host-events_session" {
			return c
		}
	}
	t.Fatalf("login set no session cookie: %v", a.Header)
	return nil
}

func TestAuthLoginSessionCSRFLogout(t *testing.T) {
	t.Parallel()
	s, logs := authServer(t, true)
	events, rows := s.counts()

	a := s.form("POST", "/login", url.Values{"password": {"not it"}})
	body := a.pageHTML(t, http.StatusUnauthorized)
	if !strings.Contains(body, "That is not the password.") || len(a.Header.Values("Set-Cookie")) != 0 {
		t.Errorf("failed login: %s, cookies %v", body, a.Header.Values("Set-Cookie"))
	}
	if !strings.Contains(logs.String(), `msg="login failed"`) || strings.Contains(logs.String(), "not it") {
		t.Errorf("the failed login is not logged, or its password is:\n%s", logs)
	}

	cookie := login(t, s)
	if !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Secure || cookie.Path != "/" {
		t.Errorf("session cookie over http: %+v, want HttpOnly, SameSite=Lax, not Secure, Path=/", cookie)
	}
	if left := time.Until(cookie.Expires); left < 13*24*time.Hour || left > 15*24*time.Hour {
		t.Errorf("session cookie expires in %v, want the 14-day idle expiry", left)
	}
	if secure := login(t, s, "X-Forwarded-Proto", "https"); !secure.Secure || secure.Name != "__Host-events_session" {
		t.Errorf("session cookie behind TLS: %+v, want Secure and named __Host-events_session", secure)
	}
	jar := []string{"Cookie", "events_session=" + cookie.Value}

	page := s.get("/events", jar...).pageHTML(t, http.StatusOK)
	m := regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)">`).FindStringSubmatch(page)
	if m == nil || !strings.Contains(page, `action="/logout"`) {
		t.Fatalf("logged-in page lacks the CSRF meta tag or the logout form")
	}
	csrf := m[1]

	// Without the CSRF token a change is refused and writes nothing.
	s.json("POST", "/api/events", `{"kind":"task","title":"x"}`, jar...).problem(t, http.StatusForbidden)
	s.form("POST", "/api/events", url.Values{"kind": {"task"}, "title": {"x"}, "_csrf": {"forged"}}, jar...).problem(t, http.StatusForbidden)
	if e2, r2 := s.counts(); e2 != events || r2 != rows {
		t.Fatalf("a request without the CSRF token wrote")
	}
	// With it (header or form field), it goes through.
	withCSRF := append([]string{"X-CSRF-Token", csrf, "HX-Request", "true"}, jar...)
	s.form("POST", "/api/events", url.Values{"kind": {"activity_log"}, "title": {"ran"}}, withCSRF...).html(t, http.StatusCreated)
	s.form("POST", "/api/events", url.Values{"kind": {"task"}, "title": {"y"}, "_csrf": {csrf}}, jar...).want(t, http.StatusCreated)
	// Reads need no CSRF token.
	s.get("/api/events", jar...).want(t, http.StatusOK)
	// A cookie of another key, or altered, is no session.
	s.get("/api/events", "Cookie", "events_session="+cookie.Value+"x").want(t, http.StatusUnauthorized)

	// Logging out needs the CSRF token too (no logout by a foreign page).
	s.form("POST", "/logout", url.Values{}, jar...).want(t, http.StatusForbidden)

	// Log out: the cookie is cleared.
	a = s.form("POST", "/logout", url.Values{"_csrf": {csrf}}, jar...)
	a.want(t, http.StatusSeeOther)
	cleared := false
	for _, c := range (&http.Response{Header: a.Header}).Cookies() {
		cleared = cleared || (c.Name == "events_session" && c.Value == "" && c.Expires.Before(time.Now()))
	}
	if !cleared || a.Header.Get("Location") != "/login" {
		t.Errorf("logout: cookies %v, Location %q", a.Header.Values("Set-Cookie"), a.Header.Get("Location"))
	}
	// The cookie replayed after the logout is no session: the server ended it.
	s.get("/api/events", jar...).problem(t, http.StatusUnauthorized)
	s.get("/events", jar...).want(t, http.StatusSeeOther)

	for _, secret := range []string{ownerPassword, apiToken, cookie.Value, csrf} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log holds a secret: %q", secret)
		}
	}
}

func TestAuthLoginAttemptsAreLimited(t *testing.T) {
	t.Parallel()
	s, logs := authServer(t, true)
	// A successful login does not count.
	login(t, s, "X-Forwarded-For", "192.0.2.7")
	for i := 0; i < handlers.LoginAttempts; i++ {
		s.form("POST", "/login", url.Values{"password": {"wrong"}}, "X-Forwarded-For", "192.0.2.7").want(t, http.StatusUnauthorized)
	}
	a := s.form("POST", "/login", url.Values{"password": {ownerPassword}}, "X-Forwarded-For", "192.0.2.7")
	a.want(t, http.StatusTooManyRequests)
	if a.Header.Get("Set-Cookie") != "" {
		t.Errorf("a limited login set a cookie")
	}
	if !strings.Contains(logs.String(), "login attempts limited") {
		t.Errorf("the limit is not logged")
	}
	// Another address is not limited.
	login(t, s, "X-Forwarded-For", "192.0.2.8")
}

func TestAuthOffServesEveryone(t *testing.T) {
	s := newServer(t)
	s.get("/events").pageHTML(t, http.StatusOK)
	a := s.get("/login")
	if a.Status != fiber.StatusSeeOther || a.Header.Get("Location") != "/events" {
		t.Errorf("/login without authentication: %d %q, want a redirect to /events", a.Status, a.Header.Get("Location"))
	}
}

// TestNoCredentialsServesOnlyThisMachine: with neither a password nor a
// token, a request is served only when its client address, after the
// trusted-proxy rule, is loopback. Behind nginx on the same machine the peer
// is always 127.0.0.1, so the forwarded address must decide: a request nginx
// forwards from 203.0.113.5 is 401 with a sentence naming
// EVENTS_PASSWORD_HASH, pages and /login included. EVENTS_AUTH=off (an outer
// layer authenticates) serves it.
func TestNoCredentialsServesOnlyThisMachine(t *testing.T) {
	t.Parallel()
	svc := app.NewService(dbtest.New(t), seoul, time.Now)
	serveWith := func(off bool) string {
		auth, err := app.NewAuth("", nil, "", off)
		if err != nil {
			t.Fatal(err)
		}
		f, err := handlers.New(svc, handlers.Options{Logger: quiet, RequestTimeout: requestTimeout, Auth: auth, TrustedProxies: []string{"127.0.0.1", "::1"}})
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go func() { _ = f.Listener(handlers.Listener(ln)) }()
		t.Cleanup(func() { _ = f.ShutdownWithTimeout(2 * time.Second) })
		return "http://" + ln.Addr().String()
	}
	closed, open := serveWith(false), serveWith(true)
	get := func(base, target, xff string, accept string) (int, string) {
		t.Helper()
		req, err := http.NewRequest("GET", base+target, nil)
		if err != nil {
			t.Fatal(err)
		}
		if xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, tt := range []struct {
		target, xff, accept string
		want                int
	}{
		{"/api/events", "", "", http.StatusOK},                      // curl on the machine itself
		{"/api/events", "127.0.0.1", "", http.StatusOK},             // a browser on the machine, through nginx
		{"/api/events", "::1", "", http.StatusOK},                   // the same over IPv6
		{"/api/events", "203.0.113.5", "", http.StatusUnauthorized}, // anyone else, through nginx
		{"/api/events", "2001:db8::5", "", http.StatusUnauthorized},
		{"/api/events", "127.0.0.1, 203.0.113.5", "", http.StatusUnauthorized}, // a forged entry does not help
		{"/events", "203.0.113.5", "text/html", http.StatusUnauthorized},
		{"/login", "203.0.113.5", "text/html", http.StatusUnauthorized},
		{"/", "203.0.113.5", "text/html", http.StatusUnauthorized},
		{"/healthz", "203.0.113.5", "", http.StatusOK}, // what is open with a password stays open
	} {
		status, body := get(closed, tt.target, tt.xff, tt.accept)
		if status != tt.want {
			t.Errorf("GET %s from %q without credentials: %d, want %d\n%s", tt.target, tt.xff, status, tt.want, body)
		}
		if status == http.StatusUnauthorized && !strings.Contains(body, "EVENTS_PASSWORD_HASH") {
			t.Errorf("GET %s from %q: the 401 does not say to set EVENTS_PASSWORD_HASH:\n%s", tt.target, tt.xff, body)
		}
	}
	if status, body := get(open, "/api/events", "203.0.113.5", ""); status != http.StatusOK {
		t.Errorf("EVENTS_AUTH=off, from 203.0.113.5: %d, want 200\n%s", status, body)
	}
}

// TestCSRFTokenNeverFromTheURL: the CSRF token counts from the X-CSRF-Token
// header or a form's body, never from the query string (a URL is logged,
// kept in history and sent on as Referer). A form whose token is only in
// its URL is refused and writes nothing; so is a login whose password is
// only in its URL.
func TestCSRFTokenNeverFromTheURL(t *testing.T) {
	t.Parallel()
	s, _ := authServer(t, true)
	cookie := login(t, s)
	jar := []string{"Cookie", "events_session=" + cookie.Value}
	csrf := csrfOf(t, s.get("/events", jar...).pageHTML(t, http.StatusOK))
	events, rows := s.counts()
	s.form("POST", "/api/events?_csrf="+url.QueryEscape(csrf), url.Values{"kind": {"task"}, "title": {"x"}}, jar...).problem(t, http.StatusForbidden)
	s.json("POST", "/api/events?_csrf="+url.QueryEscape(csrf), `{"kind":"task","title":"x"}`, jar...).problem(t, http.StatusForbidden)
	s.form("POST", "/logout?_csrf="+url.QueryEscape(csrf), url.Values{}, jar...).want(t, http.StatusForbidden)
	if e, r := s.counts(); e != events || r != rows {
		t.Errorf("a token in the URL wrote: %d events and %d history rows, want %d and %d", e, r, events, rows)
	}
	s.get("/api/events", jar...).want(t, http.StatusOK) // the logout was refused
	// In the body or the header, the same token goes through.
	s.form("POST", "/api/events", url.Values{"kind": {"task"}, "title": {"x"}, "_csrf": {csrf}}, jar...).want(t, http.StatusCreated)
	s.json("POST", "/api/events", `{"kind":"task","title":"y"}`, append([]string{"X-CSRF-Token", csrf}, jar...)...).want(t, http.StatusCreated)

	a := s.form("POST", "/login?password="+url.QueryEscape(ownerPassword), url.Values{})
	if a.Status != http.StatusUnauthorized || a.Header.Get("Set-Cookie") != "" {
		t.Errorf("a password in the URL: %d, cookies %v; want 401 and no session", a.Status, a.Header.Values("Set-Cookie"))
	}
}

// TestSessionCookieIsHostPrefixedOverHTTPS: behind a trusted proxy that
// says the request came over HTTPS (X-Forwarded-Proto, which also decides
// Secure), the session cookie is __Host-events_session: Secure, Path=/, no
// Domain. Over HTTPS only that name is a session: a cookie of the plain
// name, which a sibling host or a plain-HTTP answer could have set, is not
// read. Logout clears the __Host- cookie.
func TestSessionCookieIsHostPrefixedOverHTTPS(t *testing.T) {
	t.Parallel()
	s, _ := authServer(t, true)
	https := []string{"X-Forwarded-Proto", "https"}
	cookie := login(t, s, https...)
	if cookie.Name != "__Host-events_session" || !cookie.Secure || cookie.Path != "/" || cookie.Domain != "" || !cookie.HttpOnly {
		t.Fatalf("session cookie over HTTPS: %+v, want __Host-events_session, Secure, HttpOnly, Path=/ and no Domain", cookie)
	}
	s.get("/api/events", append([]string{"Cookie", "__Host-events_session=" + cookie.Value}, https...)...).want(t, http.StatusOK)
	// The same value under the plain name is no session over HTTPS.
	s.get("/api/events", append([]string{"Cookie", "events_session=" + cookie.Value}, https...)...).problem(t, http.StatusUnauthorized)
	// Over plain HTTP the name stays events_session (a browser keeps no
	// __Host- cookie from a plain-HTTP answer).
	if plain := login(t, s); plain.Name != "events_session" || plain.Secure {
		t.Errorf("session cookie over HTTP: %+v, want events_session, not Secure", plain)
	}
	jar := append([]string{"Cookie", "__Host-events_session=" + cookie.Value}, https...)
	csrf := csrfOf(t, s.get("/events", jar...).pageHTML(t, http.StatusOK))
	a := s.form("POST", "/logout", url.Values{"_csrf": {csrf}}, jar...)
	a.want(t, http.StatusSeeOther)
	cleared := false
	for _, c := range (&http.Response{Header: a.Header}).Cookies() {
		cleared = cleared || (c.Name == "__Host-events_session" && c.Value == "" && c.Secure && c.Path == "/")
	}
	if !cleared {
		t.Errorf("logout over HTTPS does not clear the __Host- cookie: %v", a.Header.Values("Set-Cookie"))
	}
}

// TestSecondSessionCookieCannotShadowIt: a browser sends every cookie of a
// name that matches, a parent domain's or a longer path's first. A cookie
// planted under the session's name, before or after the real one, does not
// end the owner's session: the first cookie that verifies (signature, then
// its row) is the session. A planted cookie alone is no session.
func TestSecondSessionCookieCannotShadowIt(t *testing.T) {
	t.Parallel()
	s, _ := authServer(t, true)
	cookie := login(t, s)
	ended := login(t, s)
	csrf := csrfOf(t, s.get("/events", "Cookie", "events_session="+ended.Value).pageHTML(t, http.StatusOK))
	s.form("POST", "/logout", url.Values{"_csrf": {csrf}}, "Cookie", "events_session="+ended.Value).want(t, http.StatusSeeOther)
	planted := "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	for _, jar := range []string{
		"events_session=" + planted + "; events_session=" + cookie.Value,
		"events_session=" + cookie.Value + "; events_session=" + planted,
		"events_session=" + ended.Value + "; events_session=" + cookie.Value, // a logged-out one first
		"events_session=; events_session=" + cookie.Value,
	} {
		s.get("/api/events", "Cookie", jar).want(t, http.StatusOK)
	}
	s.get("/api/events", "Cookie", "events_session="+planted+"; events_session="+ended.Value).problem(t, http.StatusUnauthorized)
	// The same over HTTPS with the __Host- name.
	https := []string{"X-Forwarded-Proto", "https"}
	host := login(t, s, https...)
	s.get("/api/events", append([]string{"Cookie", "__Host-events_session=" + planted + "; __Host-events_session=" + host.Value}, https...)...).want(t, http.StatusOK)
}
