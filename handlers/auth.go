// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"context"
	"math"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/models"
)

// Access: with authentication on, every page and every /api route needs
// the owner's browser session (from /login) or an API bearer token;
// /healthz, /readyz, /login and /static do not. A request made with a
// session cookie that changes anything carries the session's CSRF token
// (X-CSRF-Token, which app.js sends, or the _csrf form field).

const (
	// sessionCookie names the session's cookie over plain HTTP (make run on
	// loopback); over HTTPS it is hostSessionCookie: a browser accepts a
	// __Host- cookie only from a secure origin, for Path=/, without
	// Domain, so no sibling host and no plain-HTTP answer can set one.
	sessionCookie     = "events_session"
	hostSessionCookie = "__Host-" + sessionCookie
	csrfHeader        = "X-CSRF-Token"
	sessionKey        = "session" // c.Locals key of the request's app.Session
	// maxSessionCookies is how many cookies of the session's name a request
	// may bring that are tried (cookieSessions).
	maxSessionCookies = 4
	// deviceCookie names the device cookie a successful login sets
	// (app.Auth.NewDevice), __Host- prefixed over HTTPS as the session's.
	deviceCookie     = "events_device"
	hostDeviceCookie = "__Host-" + deviceCookie
)

// The login limits (DESIGN.md, Sessions). LoginAttempts is how many
// failed logins one client may make in LoginWindow before it is answered
// 429, before any hashing; a client is an IPv4 address, or an IPv6 /64
// (loginKey). Across all clients, Options.LoginsPerMinute failed logins
// (default DefaultLoginsPerMinute) pass at once; beyond them each login
// waits its turn, one every LoginWindow/LoginsPerMinute, for at most
// loginTurnWait, else it is answered 503 with Retry-After. The hashing
// runs in login slots of its own (Options.LoginSlots), never in a work
// slot, so a flood of logins leaves the owner's requests their slots.
const (
	LoginAttempts          = 5
	LoginWindow            = time.Minute
	DefaultLoginsPerMinute = 30
	// loginTurnWait is the longest a login waits for its turn (at most
	// half the request's deadline).
	loginTurnWait = 5 * time.Second
	// LoginAheadEvery spaces the logins checked ahead of the queue: those
	// from an address with no login attempt in LoginWindow, when the pace
	// has no turn for them (one a second an instance, a bcrypt at cost 12
	// each: about a quarter of a core). Such a login waits at most this
	// long for its moment; refused, its address has had its chance for
	// the window, so a flood from a few addresses cannot hold the lane.
	LoginAheadEvery = time.Second
)

// loginLane paces the password checks made ahead of the queue, in this
// instance: each takes the next free moment, at most LoginAheadEvery
// apart, and one further than the wait allows is not taken.
type loginLane struct {
	mu   sync.Mutex
	next time.Time
}

// reserve takes the lane's next moment at now, if it is within wait: the
// moment to wait for, and whether it was taken.
func (l *loginLane) reserve(now time.Time, wait time.Duration) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	at := l.next
	if at.Before(now) {
		at = now
	}
	if at.Sub(now) > wait {
		return at, false
	}
	l.next = at.Add(LoginAheadEvery)
	return at, true
}

// loginWaitError refuses a login that found no login slot free within the
// queue wait, or whose turn is further than loginTurnWait: 503, Retry-After
// after seconds, nothing checked. It is errBusy, so refusals in a flood are
// not logged one by one.
type loginWaitError struct{ after int }

func (e *loginWaitError) Error() string { return "logins are waiting their turn" }
func (e *loginWaitError) Unwrap() error { return errBusy }

// loginKey is what the login limit counts a client by: an IPv4 address
// itself, an IPv6 address by its /64, the network one subscriber gets, in
// which a client may take any of 2^64 addresses.
func loginKey(client string) string {
	ip := net.ParseIP(client)
	if ip == nil || ip.To4() != nil {
		return client
	}
	mask := net.CIDRMask(64, 128)
	return (&net.IPNet{IP: ip.Mask(mask), Mask: mask}).String()
}

func (h *Handlers) authOn() bool { return h.opts.Auth != nil && h.opts.Auth.Enabled() }

// errNoCredentials answers a request from another machine to a service that
// has neither a password nor an API token.
var errNoCredentials = fiber.NewError(fiber.StatusUnauthorized, "This service has no password and no API token, so it answers only requests from its own machine: set EVENTS_PASSWORD_HASH (made by `events hash-password`) and EVENTS_SESSION_KEY, or EVENTS_API_TOKENS, to use it from elsewhere.")

// loopbackOnly: a service with neither a password nor an API token (and
// EVENTS_AUTH not off) serves only requests whose client address, after
// the trusted-proxy rule (clientIP), is loopback. Behind a proxy on the
// same machine the peer is always loopback, so the peer alone would let
// every client of the proxy in; the address the proxy forwarded decides.
// A nil Options.Auth (tests that embed the handlers) authenticates nothing.
func (h *Handlers) loopbackOnly(c *fiber.Ctx) error {
	a := h.opts.Auth
	if a == nil || a.Enabled() || a.Off() {
		return c.Next()
	}
	if ip := net.ParseIP(clientIP(c)); ip != nil && ip.IsLoopback() {
		return c.Next()
	}
	return errNoCredentials
}

// authenticate lets a request through with a valid bearer token or
// session, and turns every other away: API clients with 401, pages to the
// login page, htmx with 401 and HX-Redirect.
func (h *Handlers) authenticate(c *fiber.Ctx) error {
	if !h.authOn() {
		return c.Next()
	}
	a := h.opts.Auth
	if token, present := bearerToken(c); present {
		if token != "" && a.CheckToken(token) {
			return c.Next()
		}
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="events", error="invalid_token"`)
		return fiber.NewError(fiber.StatusUnauthorized, "The bearer token is not valid.")
	}
	s, refresh, ok, err := h.liveSession(c)
	if err != nil {
		return err
	}
	if ok {
		if unsafeMethod(c.Method()) && !a.CheckCSRF(s, csrfToken(c)) {
			return fiber.NewError(fiber.StatusForbidden, "The request lacks the page's CSRF token; reload the page and try again.")
		}
		if refresh {
			h.setSession(c, s)
		}
		c.Locals(sessionKey, s)
		return c.Next()
	}
	return h.loginRequired(c)
}

// bearerToken is the token of the request's Authorization header; present
// tells whether it has the header at all (a scheme other than Bearer gives
// an empty token).
func bearerToken(c *fiber.Ctx) (token string, present bool) {
	authz := c.Get(fiber.HeaderAuthorization)
	if authz == "" {
		return "", false
	}
	// RFC 9110: the scheme is case-insensitive ("bearer" is Bearer)
	scheme, token, _ := strings.Cut(strings.TrimSpace(authz), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", true
	}
	return strings.TrimSpace(token), true
}

// credentialed reports whether the request carries the owner's credentials
// as far as they can be checked without the database: a valid API token,
// or a session cookie whose signature verifies and which has not expired
// (its row, which a logout deletes, is read later by authenticate). It
// decides only the order in which requests get a work slot.
func (h *Handlers) credentialed(c *fiber.Ctx) bool {
	if !h.authOn() {
		return false
	}
	if token, present := bearerToken(c); present {
		return token != "" && h.opts.Auth.CheckToken(token)
	}
	now := time.Now()
	for _, value := range cookieSessions(c) {
		if _, _, ok := h.opts.Auth.Decode(value, now); ok {
			return true
		}
	}
	return false
}

// liveSession is the request's session when its cookie is valid and its
// row says it has not ended (logout, expiry): one primary-key statement,
// an UPDATE of the last-seen time when the cookie is due to be refreshed,
// else a SELECT. No cookie, or a forged one, costs no statement.
//
// A request may carry several cookies of the session's name: a browser
// sends every cookie that matches, and a cookie set for a parent domain or
// a longer path comes first. The first one that verifies (its signature,
// then its row) is the session; the others are ignored. Refusing such a
// request instead would let anyone who can plant a cookie (a sibling
// subdomain, a plain-HTTP answer on the path) lock the owner out, and no
// planted cookie can verify without the session key.
func (h *Handlers) liveSession(c *fiber.Ctx) (s app.Session, refresh, ok bool, err error) {
	now := time.Now()
	for _, value := range cookieSessions(c) {
		s, refresh, ok = h.opts.Auth.Decode(value, now)
		if !ok {
			continue
		}
		live, err := h.svc.CheckSession(c.UserContext(), s, now, refresh)
		if err != nil {
			return app.Session{}, false, false, err
		}
		if live {
			return s, refresh, true, nil
		}
	}
	return app.Session{}, false, false, nil
}

// sessionCookieName is the name of the session's cookie for this request:
// __Host- prefixed when the service is served over HTTPS, which it knows as
// it knows Secure: the request's own scheme, or the X-Forwarded-Proto of a
// trusted proxy (fiber's Protocol).
func sessionCookieName(c *fiber.Ctx) string {
	if c.Protocol() == "https" {
		return hostSessionCookie
	}
	return sessionCookie
}

// cookieSessions are the values of the request's cookies of the session's
// name, in the order they came, at most maxSessionCookies. Over HTTPS the
// unprefixed name is not read at all.
func cookieSessions(c *fiber.Ctx) []string {
	name := []byte(sessionCookieName(c))
	var values []string
	c.Request().Header.VisitAllCookie(func(key, value []byte) {
		if len(values) < maxSessionCookies && string(key) == string(name) && len(value) > 0 {
			values = append(values, string(value))
		}
	})
	return values
}

// loginRequired answers a request without credentials.
func (h *Handlers) loginRequired(c *fiber.Ctx) error {
	a := h.opts.Auth
	if !a.HasPassword() && !isAPI(c.Path()) {
		return fiber.NewError(fiber.StatusUnauthorized, "These pages need a password: set EVENTS_PASSWORD_HASH (made by `events hash-password`) and EVENTS_SESSION_KEY. API tokens open the API only.")
	}
	if c.Get("HX-Request") == "true" {
		// never the login page swapped into a row: the whole page goes there
		c.Set("HX-Redirect", "/login?next="+url.QueryEscape(returnTo(currentPage(c.Get("HX-Current-URL")))))
		return fiber.NewError(fiber.StatusUnauthorized, "Your session has ended; log in again.")
	}
	if isAPI(c.Path()) {
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="events"`)
		return fiber.NewError(fiber.StatusUnauthorized, "Authenticate with an API token (Authorization: Bearer …) or log in.")
	}
	return c.Redirect("/login?next="+url.QueryEscape(returnTo(c.OriginalURL())), fiber.StatusSeeOther)
}

// isAPI reports whether path is under /api, in any case: routes match
// without regard to case, so /API/events is the API too.
func isAPI(path string) bool {
	return len(path) >= 4 && strings.EqualFold(path[:4], "/api") && (len(path) == 4 || path[4] == '/')
}

func unsafeMethod(m string) bool {
	return m != fiber.MethodGet && m != fiber.MethodHead && m != fiber.MethodOptions
}

// csrfToken is the CSRF token a request carries: the header htmx sends, or
// the field of a plain form's body. Never the query string: a URL ends up
// in logs, history and Referer headers, and c.FormValue would read it.
func csrfToken(c *fiber.Ctx) string {
	if t := c.Get(csrfHeader); t != "" {
		return t
	}
	if mediaType(c) == fiber.MIMEApplicationForm {
		return string(c.Request().PostArgs().Peek(models.CSRFField))
	}
	return ""
}

func (h *Handlers) setSession(c *fiber.Ctx, s app.Session) {
	name := sessionCookieName(c)
	c.Cookie(&fiber.Cookie{
		Name: name, Value: h.opts.Auth.Encode(s), Path: "/",
		Expires: s.Expires(), HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode,
		Secure: name == hostSessionCookie,
	})
}

// session is the request's browser session, if it has one.
func session(c *fiber.Ctx) (app.Session, bool) {
	s, ok := c.Locals(sessionKey).(app.Session)
	return s, ok
}

type loginPage struct {
	chrome
	Next    string
	Message string
}

// loginPage: GET /login.
func (h *Handlers) loginPage(c *fiber.Ctx) error {
	next := returnTo(c.Query("next"))
	if !h.authOn() {
		return c.Redirect(next, fiber.StatusSeeOther)
	}
	if !h.opts.Auth.HasPassword() {
		return h.loginRequired(c)
	}
	if _, _, ok, err := h.liveSession(c); err != nil {
		return err
	} else if ok {
		return c.Redirect(next, fiber.StatusSeeOther)
	}
	return h.page(c, "pages/login", loginPage{chrome: h.chrome(c, "log_in"), Next: next})
}

// login: POST /login with the password. A failure says only that it
// failed, and is logged with the client's address. It runs in a login slot
// (h.logins), never a work slot, in this order:
//
//   - A browser with a device cookie of an earlier successful login (a
//     known browser, app.Auth.NewDevice) is counted by its device alone:
//     LoginAttempts failures in LoginWindow answer 429 for that browser;
//     it takes no turn in the pace and is first in line for a login slot,
//     so a flood of wrong passwords from anywhere never keeps it out.
//   - Any other: a client (loginKey) that has failed LoginAttempts times in
//     LoginWindow is answered 429 before any hashing, by every instance on
//     the database (the count is a row of login_attempts); then the login
//     takes its turn in the pace of logins across all clients
//     (login_pace), waiting for it without a slot. When the pace has no
//     turn within the wait, a client with no login attempt in LoginWindow
//     has its password checked ahead of the queue (h.ahead, one a
//     second, waiting at most a second); the others are answered 503.
//
// Then the password is hashed. A success sets the device cookie.
func (h *Handlers) login(c *fiber.Ctx) error {
	if !h.authOn() || !h.opts.Auth.HasPassword() {
		return h.loginPage(c)
	}
	ctx, client := c.UserContext(), clientIP(c)
	key := loginKey(client)
	device, known := h.knownDevice(c, time.Now())
	class := anonymous
	if known {
		key, class = "device "+device, owner
	}
	held := false
	take := func() bool { held = h.logins.acquire(class); return held }
	give := func() {
		if held {
			held = false
			h.logins.release()
		}
	}
	defer give()
	if !take() {
		return &loginWaitError{after: busyRetryAfter}
	}
	now := time.Now()
	n, err := h.svc.LoginAttempt(ctx, key, now, LoginWindow)
	if err != nil {
		return err
	}
	if n > LoginAttempts {
		h.log.Warn("login attempts limited", "id", c.GetRespHeader(fiber.HeaderXRequestID), "client", client, "counted_as", key)
		if known {
			return fiber.NewError(fiber.StatusTooManyRequests, "Too many failed logins from this browser; wait a minute and try again.")
		}
		return fiber.NewError(fiber.StatusTooManyRequests, "Too many login attempts from this address; wait a minute and try again.")
	}
	turned := false // a turn of the pace taken, given back on success
	if !known {
		if turned, err = h.paceLogin(ctx, key, now, take, give); err != nil {
			return err
		}
	}
	next := returnTo(c.FormValue("next"))
	// the password from the body only: a URL is logged and kept in history
	if !h.opts.Auth.CheckPassword(string(c.Request().PostArgs().Peek("password"))) {
		h.log.Warn("login failed", "id", c.GetRespHeader(fiber.HeaderXRequestID), "client", client, "known_browser", known)
		c.Status(fiber.StatusUnauthorized)
		return h.page(c, "pages/login", loginPage{chrome: h.chrome(c, "log_in"), Next: next, Message: h.lang(c).T("login_wrong_password")})
	}
	return h.loggedIn(c, key, client, known, turned, next)
}

// paceLogin takes the login of a client that is no known browser its turn
// in the pace of logins (login has the rules), waiting for it without a
// slot (give, then take); ahead of the queue for the client's first
// attempt in the window. turned: a turn of the pace was taken, to be given
// back on success.
func (h *Handlers) paceLogin(ctx context.Context, key string, now time.Time, take func() bool, give func()) (turned bool, err error) {
	// seen counts every attempt of the address, refused or not: only
	// its first in the window may be checked ahead of the queue
	seen, err := h.svc.LoginAttempt(ctx, "seen "+key, now, LoginWindow)
	if err != nil {
		return false, err
	}
	turn, ok, err := h.svc.LoginTurn(ctx, now, h.opts.LoginsPerMinute, LoginWindow, h.loginTurnWait())
	if err != nil {
		return false, err
	}
	turned = ok
	if !ok && seen == 1 {
		turn, ok = h.ahead.reserve(now, LoginAheadEvery)
	}
	if !ok {
		// no password was checked: the attempt does not count against the
		// client (an owner retrying during a flood is not locked out by it)
		if err := h.svc.LoginSucceeded(ctx, key); err != nil {
			return false, err
		}
		return false, &loginWaitError{after: int(math.Ceil(turn.Sub(now).Seconds()))}
	}
	if wait := time.Until(turn); wait > 0 {
		give() // the turn is waited for without a slot
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return false, &loginWaitError{after: busyRetryAfter}
		}
		if !take() {
			return false, &loginWaitError{after: busyRetryAfter}
		}
	}
	return turned, nil
}

// loggedIn ends a login whose password was right: the client's failures
// are forgotten, the pace's turn given back, a session and, for a browser
// not known, a device cookie set, and the browser sent to next.
func (h *Handlers) loggedIn(c *fiber.Ctx, key, client string, known, turned bool, next string) error {
	ctx := c.UserContext()
	if err := h.svc.LoginSucceeded(ctx, key); err != nil {
		return err
	}
	if turned {
		if err := h.svc.LoginTurnBack(ctx, time.Now(), h.opts.LoginsPerMinute, LoginWindow); err != nil {
			return err
		}
	}
	s, err := h.opts.Auth.NewSession(time.Now())
	if err != nil {
		return err
	}
	if err := h.svc.StoreSession(ctx, s, LoginWindow); err != nil {
		return err
	}
	h.setSession(c, s)
	if !known {
		if err := h.setDevice(c); err != nil {
			return err
		}
	}
	h.log.Info("login", "id", c.GetRespHeader(fiber.HeaderXRequestID), "client", client, "known_browser", known)
	return c.Redirect(next, fiber.StatusSeeOther)
}

// deviceCookieName is the device cookie's name for this request, as
// sessionCookieName.
func deviceCookieName(c *fiber.Ctx) string {
	if c.Protocol() == "https" {
		return hostDeviceCookie
	}
	return deviceCookie
}

// knownDevice is the id of the request's device cookie, when it has one
// that verifies: the first of at most maxSessionCookies of its name.
func (h *Handlers) knownDevice(c *fiber.Ctx, now time.Time) (string, bool) {
	name := []byte(deviceCookieName(c))
	id, ok, tried := "", false, 0
	c.Request().Header.VisitAllCookie(func(k, v []byte) {
		if ok || tried == maxSessionCookies || string(k) != string(name) || len(v) == 0 {
			return
		}
		tried++
		id, ok = h.opts.Auth.Device(string(v), now)
	})
	return id, ok
}

// setDevice gives the browser a device cookie for DeviceLifetime. A
// logout keeps it: it says the browser logged in, not that it may.
func (h *Handlers) setDevice(c *fiber.Ctx) error {
	now := time.Now()
	v, err := h.opts.Auth.NewDevice(now)
	if err != nil {
		return err
	}
	name := deviceCookieName(c)
	c.Cookie(&fiber.Cookie{
		Name: name, Value: v, Path: "/", Expires: now.Add(app.DeviceLifetime),
		HTTPOnly: true, SameSite: fiber.CookieSameSiteStrictMode, Secure: name == hostDeviceCookie,
	})
	return nil
}

// logout: POST /logout ends the session on the server (its row is
// deleted, so the cookie replayed is refused) and in the browser.
func (h *Handlers) logout(c *fiber.Ctx) error {
	if s, ok := session(c); ok {
		if err := h.svc.EndSession(c.UserContext(), s); err != nil {
			return err
		}
	}
	name := sessionCookieName(c)
	c.Cookie(&fiber.Cookie{
		Name: name, Value: "", Path: "/", Expires: time.Unix(0, 0), MaxAge: -1,
		HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode, Secure: name == hostSessionCookie,
	})
	return c.Redirect("/login", fiber.StatusSeeOther)
}

// loginTurnWait is the longest a login waits for its turn: loginTurnWait,
// or half the request's deadline when that is shorter.
func (h *Handlers) loginTurnWait() time.Duration {
	return min(loginTurnWait, h.opts.RequestTimeout/2)
}
