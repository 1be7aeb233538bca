// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/gofiber/fiber/v2"
)

// MaxSearchesPerCredential is how many searches (a listing or the search
// page with q) one credential runs at once: an API token, a browser
// session, or without either a client address. A search may read much of
// the table, so one credential flooding searches would otherwise hold
// every work slot and leave the owner's other credentials 503. The next
// one is refused at once (503, Retry-After), as an export beyond
// MaxExports is.
const MaxSearchesPerCredential = 2

// searchSlots counts the searches running per credential.
type searchSlots struct {
	mu      sync.Mutex
	running map[string]int
}

// searchesBusy refuses a search beyond MaxSearchesPerCredential.
type searchesBusy struct{}

func (searchesBusy) Error() string {
	return fmt.Sprintf("%v: %d searches of this credential are running", errBusy, MaxSearchesPerCredential)
}
func (searchesBusy) Unwrap() error { return errBusy }

// searchSlot takes one of the request's credential's search slots; the
// function it answers gives it back.
func (h *Handlers) searchSlot(c *fiber.Ctx) (func(), error) {
	key := credentialKey(c)
	s := &h.searches
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running == nil {
		s.running = map[string]int{}
	}
	if s.running[key] >= MaxSearchesPerCredential {
		return nil, searchesBusy{}
	}
	s.running[key]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.running[key]--; s.running[key] <= 0 {
			delete(s.running, key)
		}
	}, nil
}

// credentialKey names the credential a request comes with: its bearer
// token (hashed), its session, else its client address.
func credentialKey(c *fiber.Ctx) string {
	if token, present := bearerToken(c); present {
		sum := sha256.Sum256([]byte(token))
		return "token " + hex.EncodeToString(sum[:8])
	}
	if s, ok := session(c); ok {
		return "session " + hex.EncodeToString(s.ID[:8])
	}
	return "client " + clientIP(c)
}
