// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"events/app"
	"events/internal/dbtest"
)

// TestStartLineSaysWhatIsSet: the start line names the page's address
// (the /events the README sends people to) and the authentication really
// set: a password without tokens does not claim tokens, tokens without a
// password say the pages answer 401.
func TestStartLineSaysWhatIsSet(t *testing.T) {
	t.Parallel()
	hash, err := bcrypt.GenerateFromPassword([]byte("a password"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	const key = "start-line-session-key-0123456789abcdef"
	for _, c := range []struct {
		hash   string
		tokens []string
		off    bool
		want   string
	}{
		{"", nil, false, "none (loopback only)"},
		{"", nil, true, "off (EVENTS_AUTH=off)"},
		{string(hash), nil, false, "a password (the pages); no API tokens"},
		{string(hash), []string{"token-0123456789abcdef"}, false, "a password (the pages) and 1 API token"},
		{"", []string{"token-0123456789abcdef", "token-fedcba9876543210"}, false, "2 API tokens; no password (the pages answer 401)"},
	} {
		a, err := app.NewAuth(c.hash, c.tokens, key, c.off)
		if err != nil {
			t.Fatal(err)
		}
		if got := authMode(a); got != c.want {
			t.Errorf("password %v, %d tokens, off %v: %q, want %q", c.hash != "", len(c.tokens), c.off, got, c.want)
		}
	}

	s := start(t, "DATABASE_URL="+dbtest.NewURL(t), "EVENTS_PASSWORD_HASH="+string(hash), "EVENTS_SESSION_KEY="+key)
	// The line follows the listener's start, so /readyz (which start
	// waits for) can answer a moment before it is written.
	want := `msg="events is serving" url=` + s.base + `/events `
	s.waitLog(t, `msg="events is serving"`)
	if line := s.Logs(); !strings.Contains(line, want) || !strings.Contains(line, `authentication="a password (the pages); no API tokens"`) {
		t.Errorf("the start line:\n%s\nwant %s and the password without tokens", line, want)
	}
}
