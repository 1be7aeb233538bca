// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"strings"
	"testing"
	"time"

	"events/app"
)

const testKey = "a-session-key-of-more-than-32-characters"

func TestSessionsExpireAndCannotBeForged(t *testing.T) {
	t.Parallel()
	a, err := app.NewAuth("", nil, testKey, false)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	s, err := a.NewSession(t0)
	if err != nil {
		t.Fatal(err)
	}
	v := a.Encode(s)

	if got, refresh, ok := a.Decode(v, t0.Add(time.Minute)); !ok || refresh || got.ID != s.ID {
		t.Errorf("a fresh session: ok %v, refresh %v", ok, refresh)
	}
	// Seen again after an hour: the cookie is written again with the new time.
	got, refresh, ok := a.Decode(v, t0.Add(2*time.Hour))
	if !ok || !refresh || !got.LastSeen.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("a session seen after two hours: ok %v, refresh %v, last seen %v", ok, refresh, got.LastSeen)
	}
	// Idle for 14 days: gone.
	if _, _, ok := a.Decode(v, t0.Add(app.SessionIdle)); ok {
		t.Errorf("a session idle for 14 days is still valid")
	}
	// Used every day, it still ends 30 days after the login.
	last := v
	for day := 1; day < 30; day++ {
		s2, _, ok := a.Decode(last, t0.Add(time.Duration(day)*24*time.Hour))
		if !ok {
			t.Fatalf("a session used daily ended on day %d", day)
		}
		last = a.Encode(s2)
	}
	if _, _, ok := a.Decode(last, t0.Add(app.SessionAbsolute)); ok {
		t.Errorf("a session used daily outlived 30 days")
	}
	// Altered, cut, or signed with another key: no session.
	other, _ := app.NewAuth("", nil, testKey+"-other", false)
	body, sig, _ := strings.Cut(v, ".")
	first := "A" // the body's first character changed: never the one it has
	if body[0] == 'A' {
		first = "B"
	}
	for name, forged := range map[string]string{
		"another key":     other.Encode(s),
		"altered body":    first + body[1:] + "." + sig,
		"no signature":    body,
		"empty":           "",
		"signature alone": "." + sig,
	} {
		if _, _, ok := a.Decode(forged, t0.Add(time.Minute)); ok {
			t.Errorf("%s: accepted as a session", name)
		}
	}
	// The CSRF token is the session's own.
	s2, _ := a.NewSession(t0)
	if !a.CheckCSRF(s, a.CSRF(s)) || a.CheckCSRF(s, a.CSRF(s2)) || a.CheckCSRF(s, "") {
		t.Errorf("CSRF tokens are not bound to their session")
	}
}

func TestCredentials(t *testing.T) {
	t.Parallel()
	hash, err := app.HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.HashPassword("short"); err == nil {
		t.Errorf("a 5-character password was hashed")
	}
	a, err := app.NewAuth(hash, []string{" token-one-0123456789 ", "token-two-0123456789"}, testKey, false)
	if err != nil {
		t.Fatal(err)
	}
	if !a.CheckPassword("correct horse battery") || a.CheckPassword("correct horse batter") || a.CheckPassword("") {
		t.Errorf("CheckPassword accepts the wrong password or refuses the right one")
	}
	if !a.CheckToken("token-one-0123456789") || !a.CheckToken("token-two-0123456789") || a.CheckToken("token-three-012345") || a.CheckToken("") {
		t.Errorf("CheckToken is wrong")
	}
	for name, args := range map[string][3]string{
		"a password without a session key": {hash, "", ""},
		"a short session key":              {hash, "", "short"},
		"a hash that is not one":           {"hunter2", "", testKey},
		"a short token":                    {"", "short", ""},
	} {
		if _, err := app.NewAuth(args[0], []string{args[1]}, args[2], false); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestListeningBeyondLoopbackNeedsAuthentication(t *testing.T) {
	t.Parallel()
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	hash, _ := app.HashPassword("correct horse battery")
	for _, tt := range []struct {
		vars map[string]string
		ok   bool
	}{
		{map[string]string{}, true},
		{map[string]string{"HOST": "::1"}, true},
		{map[string]string{"HOST": "0.0.0.0"}, false},
		{map[string]string{"HOST": "192.0.2.1"}, false},
		{map[string]string{"HOST": "0.0.0.0", "EVENTS_AUTH": "off"}, true},
		{map[string]string{"HOST": "0.0.0.0", "EVENTS_API_TOKENS": "token-one-0123456789"}, true},
		{map[string]string{"HOST": "0.0.0.0", "EVENTS_PASSWORD_HASH": hash, "EVENTS_SESSION_KEY": testKey}, true},
	} {
		cfg, err := app.ConfigFromEnv(env(tt.vars))
		if err != nil {
			t.Fatalf("%v: %v", tt.vars, err)
		}
		err = cfg.CheckExposure()
		if (err == nil) != tt.ok {
			t.Errorf("%v: CheckExposure = %v, want ok %v", tt.vars, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "EVENTS_AUTH=off") {
			t.Errorf("the refusal does not say how to go on: %v", err)
		}
	}
	if _, err := app.ConfigFromEnv(env(map[string]string{"EVENTS_AUTH": "maybe"})); err == nil {
		t.Errorf("EVENTS_AUTH=maybe accepted")
	}
}

// TestLoginTurnsKeepOnePace: the pace of logins across all clients, on
// the one row of login_pace. With 30 a minute, 30 attempts pass at once;
// the 31st's turn is two seconds after the first, the 32nd's four, each
// one step later; a turn more than the wait away is not taken (and moves
// nothing), and says when the next one would come. A successful login
// gives its turn back. A quiet minute restores the whole burst.
func TestLoginTurnsKeepOnePace(t *testing.T) {
	t.Parallel()
	svc, _, _ := newService(t, time.Now())
	ctx := t.Context()
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	const limit, wait = 30, 5 * time.Second
	turn := func(now time.Time) (time.Duration, bool) {
		t.Helper()
		at, ok, err := svc.LoginTurn(ctx, now, limit, time.Minute, wait)
		if err != nil {
			t.Fatal(err)
		}
		return at.Sub(now), ok
	}
	for i := range limit {
		if d, ok := turn(t0); !ok || d != 0 {
			t.Fatalf("attempt %d of the burst: turn in %v (%v), want now", i+1, d, ok)
		}
	}
	for i, want := range []time.Duration{2 * time.Second, 4 * time.Second} {
		if d, ok := turn(t0); !ok || d != want {
			t.Errorf("attempt %d beyond the burst: turn in %v (%v), want %v", i+1, d, ok, want)
		}
	}
	// 6 s away: beyond the 5 s wait, refused, and the pace does not move.
	for range 2 {
		if d, ok := turn(t0); ok || d != 6*time.Second {
			t.Errorf("a turn beyond the wait: in %v (taken %v), want refused, next in 6s", d, ok)
		}
	}
	// A second later it is 5 s away: taken.
	if d, ok := turn(t0.Add(time.Second)); !ok || d != 5*time.Second {
		t.Errorf("a second later: turn in %v (%v), want 5s", d, ok)
	}
	// A successful login gives its turn back: the next is 5 s away again.
	if err := svc.LoginTurnBack(ctx, t0.Add(time.Second), limit, time.Minute); err != nil {
		t.Fatal(err)
	}
	if d, ok := turn(t0.Add(time.Second)); !ok || d != 5*time.Second {
		t.Errorf("after a turn given back: in %v (%v), want 5s", d, ok)
	}
	// A quiet minute later, the burst is whole again.
	later := t0.Add(3 * time.Minute)
	for i := range limit {
		if d, ok := turn(later); !ok || d != 0 {
			t.Fatalf("attempt %d after a quiet while: turn in %v (%v), want now", i+1, d, ok)
		}
	}
}
