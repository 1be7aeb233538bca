// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// Session lifetimes: a browser session ends after 14 days without a
// request, and 30 days after the login whatever happens.
const (
	SessionIdle     = 14 * 24 * time.Hour
	SessionAbsolute = 30 * 24 * time.Hour
	// sessionRefresh is how stale a session's last-seen time may get before
	// the cookie is written again; the idle expiry is exact to this much.
	sessionRefresh = time.Hour
)

// Auth is the single owner's credentials: a password for the pages, bearer
// tokens for API clients, and the key that signs browser sessions.
type Auth struct {
	passwordHash []byte
	tokens       [][sha256.Size]byte
	key          []byte // HMAC key of sessions and CSRF tokens
	off          bool   // EVENTS_AUTH=off: the edge authenticates
}

// NewAuth checks and keeps the credentials. A password needs a session key
// of at least 32 characters.
func NewAuth(passwordHash string, tokens []string, sessionKey string, off bool) (*Auth, error) {
	a := &Auth{off: off}
	var errs []error
	if passwordHash != "" {
		a.passwordHash = []byte(passwordHash)
		if _, err := bcrypt.Cost([]byte(passwordHash)); err != nil {
			errs = append(errs, errors.New("EVENTS_PASSWORD_HASH must be a hash printed by `events hash-password`"))
		} else if len(sessionKey) < 32 {
			errs = append(errs, errors.New("EVENTS_SESSION_KEY must be set to at least 32 random characters when EVENTS_PASSWORD_HASH is (for example the output of `openssl rand -base64 32`)"))
		}
	}
	for _, t := range tokens {
		if t = strings.TrimSpace(t); t == "" {
			continue
		}
		if len(t) < 16 {
			errs = append(errs, errors.New("each of EVENTS_API_TOKENS must be at least 16 characters"))
			continue
		}
		a.tokens = append(a.tokens, sha256.Sum256([]byte(t)))
	}
	if sessionKey != "" {
		// The password's hash is part of the key: a new EVENTS_PASSWORD_HASH
		// makes every cookie (and CSRF token) signed before it invalid.
		k := sha256.Sum256([]byte("events session key\x00" + sessionKey + "\x00" + passwordHash))
		a.key = k[:]
	}
	return a, errors.Join(errs...)
}

// AuthFromEnv reads EVENTS_PASSWORD_HASH, EVENTS_API_TOKENS,
// EVENTS_SESSION_KEY and EVENTS_AUTH (getenv is os.Getenv in production).
// It is ConfigFromEnv's, and `events edge-config` reads the same to know
// whether the service it fronts authenticates.
func AuthFromEnv(getenv func(string) string) (*Auth, error) {
	get := func(key string) string { return strings.TrimSpace(getenv(key)) }
	var errs []error
	mode := strings.ToLower(get("EVENTS_AUTH"))
	if mode == "" {
		mode = "on"
	}
	if mode != "on" && mode != "off" {
		errs = append(errs, fmt.Errorf("EVENTS_AUTH must be on or off, not %q", getenv("EVENTS_AUTH")))
	}
	a, err := NewAuth(get("EVENTS_PASSWORD_HASH"), strings.Split(get("EVENTS_API_TOKENS"), ","), get("EVENTS_SESSION_KEY"), mode == "off")
	return a, errors.Join(append(errs, err)...)
}

// Enabled reports whether requests must authenticate.
func (a *Auth) Enabled() bool { return !a.off && (a.HasPassword() || len(a.tokens) > 0) }

// HasPassword reports whether the pages can be logged into.
func (a *Auth) HasPassword() bool { return len(a.passwordHash) > 0 }

// Tokens is how many API tokens are set (EVENTS_API_TOKENS).
func (a *Auth) Tokens() int { return len(a.tokens) }

// Off reports whether authentication was turned off on purpose.
func (a *Auth) Off() bool { return a.off }

// CheckPassword reports whether password is the owner's.
func (a *Auth) CheckPassword(password string) bool {
	return a.HasPassword() && bcrypt.CompareHashAndPassword(a.passwordHash, []byte(password)) == nil
}

// CheckToken reports whether token is one of the API tokens, in time that
// does not depend on how much of it matched.
func (a *Auth) CheckToken(token string) bool {
	sum := sha256.Sum256([]byte(token))
	ok := 0
	for _, t := range a.tokens {
		ok |= subtle.ConstantTimeCompare(sum[:], t[:])
	}
	return ok == 1
}

// HashPassword is what `events hash-password` prints.
func HashPassword(password string) (string, error) {
	if len(password) < 8 {
		return "", errors.New("the password must be at least 8 characters")
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), 12)
	if err != nil {
		return "", fmt.Errorf("hash the password: %w", err)
	}
	return string(h), nil
}

// Session is a browser session: when it began, when it was last seen, and
// a random id that its CSRF token is bound to.
type Session struct {
	ID       [16]byte
	Issued   time.Time
	LastSeen time.Time
}

// NewSession begins a session at now.
func (a *Auth) NewSession(now time.Time) (Session, error) {
	s := Session{Issued: now, LastSeen: now}
	if _, err := rand.Read(s.ID[:]); err != nil {
		return Session{}, err
	}
	return s, nil
}

// Expires is when the session ends if no request comes.
func (s Session) Expires() time.Time {
	idle, abs := s.LastSeen.Add(SessionIdle), s.Issued.Add(SessionAbsolute)
	if idle.Before(abs) {
		return idle
	}
	return abs
}

// Encode is the cookie value of s: its fields and their signature.
func (a *Auth) Encode(s Session) string {
	buf := make([]byte, 16+8+8)
	copy(buf, s.ID[:])
	binary.BigEndian.PutUint64(buf[16:], uint64(s.Issued.Unix()))
	binary.BigEndian.PutUint64(buf[24:], uint64(s.LastSeen.Unix()))
	return base64.RawURLEncoding.EncodeToString(buf) + "." + base64.RawURLEncoding.EncodeToString(a.mac("session", buf))
}

// Decode reads a cookie value at now: the session, and whether its cookie
// should be written again to move its last-seen time. A forged, altered or
// expired value is not a session.
func (a *Auth) Decode(value string, now time.Time) (s Session, refresh, ok bool) {
	if len(a.key) == 0 {
		return Session{}, false, false
	}
	body, sig, found := strings.Cut(value, ".")
	if !found {
		return Session{}, false, false
	}
	buf, err1 := base64.RawURLEncoding.DecodeString(body)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil || len(buf) != 32 || !hmac.Equal(mac, a.mac("session", buf)) {
		return Session{}, false, false
	}
	copy(s.ID[:], buf)
	s.Issued = time.Unix(int64(binary.BigEndian.Uint64(buf[16:])), 0)
	s.LastSeen = time.Unix(int64(binary.BigEndian.Uint64(buf[24:])), 0)
	if !now.Before(s.Expires()) || s.LastSeen.After(now.Add(time.Minute)) {
		return Session{}, false, false
	}
	if now.Sub(s.LastSeen) >= sessionRefresh {
		s.LastSeen = now
		refresh = true
	}
	return s, refresh, true
}

// DeviceLifetime is how long a device cookie is honoured after the login
// that set it.
const DeviceLifetime = 365 * 24 * time.Hour

// NewDevice is the value of a device cookie (OWASP's "device cookies"): a
// random id and the time of the successful login that set it, signed. A
// login from a browser that brings one is not counted against the pace of
// logins across addresses nor against its address, only against the
// device itself, so a flood of wrong passwords never locks the owner's
// browsers out. The key holds the password's hash: a new password makes
// every device cookie unknown.
func (a *Auth) NewDevice(now time.Time) (string, error) {
	buf := make([]byte, 16+8)
	if _, err := rand.Read(buf[:16]); err != nil {
		return "", err
	}
	binary.BigEndian.PutUint64(buf[16:], uint64(now.Unix()))
	return base64.RawURLEncoding.EncodeToString(buf) + "." + base64.RawURLEncoding.EncodeToString(a.mac("device", buf)), nil
}

// Device reads a device cookie's value at now: its id (what its failed
// logins are counted by) when the signature verifies and it is younger
// than DeviceLifetime.
func (a *Auth) Device(value string, now time.Time) (id string, ok bool) {
	if len(a.key) == 0 {
		return "", false
	}
	body, sig, found := strings.Cut(value, ".")
	if !found {
		return "", false
	}
	buf, err1 := base64.RawURLEncoding.DecodeString(body)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil || len(buf) != 24 || !hmac.Equal(mac, a.mac("device", buf)) {
		return "", false
	}
	issued := time.Unix(int64(binary.BigEndian.Uint64(buf[16:])), 0)
	if issued.After(now.Add(time.Minute)) || !now.Before(issued.Add(DeviceLifetime)) {
		return "", false
	}
	return base64.RawURLEncoding.EncodeToString(buf[:16]), true
}

// CSRF is the token a session's state-changing requests must carry.
func (a *Auth) CSRF(s Session) string {
	return base64.RawURLEncoding.EncodeToString(a.mac("csrf", s.ID[:]))
}

// CheckCSRF reports whether token is the session's CSRF token.
func (a *Auth) CheckCSRF(s Session, token string) bool {
	return token != "" && hmac.Equal([]byte(token), []byte(a.CSRF(s)))
}

func (a *Auth) mac(purpose string, data []byte) []byte {
	m := hmac.New(sha256.New, a.key)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write(data)
	return m.Sum(nil)
}
