// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"events/handlers"
)

// ownerLogin posts the right password from the client address from, with
// the cookie header cookies ("" for a new browser), and answers the status
// and the device cookie it was given ("name=value", or "").
func ownerLogin(t *testing.T, base, from, cookies string) (int, string, time.Duration) {
	t.Helper()
	req, err := http.NewRequest("POST", base+"/login", strings.NewReader(url.Values{"password": {ownerPassword}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-For", from)
	if cookies != "" {
		req.Header.Set("Cookie", cookies)
	}
	began := time.Now()
	res, err := noRedirect().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	device := ""
	for _, c := range res.Cookies() {
		if c.Name == "events_device" {
			device = c.Name + "=" + c.Value
		}
	}
	return res.StatusCode, device, time.Since(began)
}

// TestOwnerLogsInDuringALoginFlood: 40 addresses each sending 2 wrong
// passwords a second (bounded: 8 s at most) fill the pace of logins
// across addresses (2 a minute here). The owner's browser that logged in
// before (its device cookie) logs in 10 of 10, from any address; a new
// browser, at an address with no attempt in the last minute, is checked
// ahead of the queue within LoginAheadEvery (a second). A wrong password from a
// known browser counts against that browser only. Before, every login of
// the owner was answered 503 for as long as the flood lasted.
func TestOwnerLogsInDuringALoginFlood(t *testing.T) {
	t.Parallel()
	// A login that finds no login slot within QueueWait is refused before
	// its address is counted, so on a busy machine an address's first
	// counted attempt, which may take the lane ahead of the queue, could
	// come late and hold the lane when the owner's new browser asks for
	// it. A long QueueWait counts every first attempt before its answer,
	// and firsts (below) waits for those answers.
	_, base := loginServer(t, bcrypt.MinCost, func(o *handlers.Options) { o.LoginsPerMinute, o.QueueWait = 2, 10*time.Second })
	status, device, _ := ownerLogin(t, base, "192.0.2.200", "")
	if status != http.StatusSeeOther || device == "" {
		t.Fatalf("the owner's first login: %d, device cookie %q", status, device)
	}

	const addresses, perSecond = 40, 2
	stop := time.Now().Add(8 * time.Second)
	var wg sync.WaitGroup
	var mu sync.Mutex
	flood := map[int]int{}
	var firsts sync.WaitGroup // each address's first attempt, answered
	firsts.Add(addresses)
	for a := range addresses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := noRedirect()
			var first sync.Once
			defer first.Do(firsts.Done)
			for i := 0; i < 16 && time.Now().Before(stop); i++ {
				r := loginFrom(client, base, fmt.Sprintf("198.51.100.%d", a+1), "wrong")
				mu.Lock()
				flood[r.status]++
				mu.Unlock()
				first.Do(firsts.Done)
				time.Sleep(time.Second / perSecond)
			}
		}()
	}
	defer wg.Wait()
	// The flood under way: the pace is full, and every address has had
	// the answer to its first attempt, the one that may be checked ahead
	// of the queue. A first attempt holding a moment of that lane is
	// answered only after its moment, so the lane is free now, however
	// late a busy machine let some address begin.
	firsts.Wait()

	known := 0
	for i := range 10 {
		if status, again, _ := ownerLogin(t, base, fmt.Sprintf("203.0.113.%d", i+1), device); status == http.StatusSeeOther && again == "" {
			known++
		} else {
			t.Errorf("known browser, login %d: %d (a new device cookie %q)", i+1, status, again)
		}
	}
	// the flood itself is held back: the wrong passwords mostly refused
	// before any hashing (503 beyond the pace, 429 beyond an address's five)
	if status, _, _ := ownerLogin(t, base, "198.51.100.1", ""); status == http.StatusSeeOther {
		t.Errorf("a new browser at a flooding address was let in ahead of the queue")
	}
	status, fresh, took := ownerLogin(t, base, "192.0.2.201", "")
	if status != http.StatusSeeOther || fresh == "" || took > 3*handlers.LoginAheadEvery {
		t.Errorf("new browser at a quiet address: %d after %v, want 303 within about %v", status, took, handlers.LoginAheadEvery)
	}
	// a wrong password from the known browser counts against it alone
	for i := range handlers.LoginAttempts {
		req, _ := http.NewRequest("POST", base+"/login", strings.NewReader("password=wrong"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", "192.0.2.210")
		req.Header.Set("Cookie", device)
		res, err := noRedirect().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("known browser, wrong password %d: %d, want 401 (checked at once)", i+1, res.StatusCode)
		}
	}
	if status, _, _ := ownerLogin(t, base, "192.0.2.210", device); status != http.StatusTooManyRequests {
		t.Errorf("known browser after %d failures: %d, want 429", handlers.LoginAttempts, status)
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if flood[http.StatusUnauthorized] > 2+10 || flood[http.StatusSeeOther] > 0 {
		t.Errorf("the flood's answers %v: at most 2 paced and one a second ahead of the queue may be hashed", flood)
	}
	t.Logf("owner: known browser %d of 10, new browser after %v; flood answers %v", known, took.Round(10*time.Millisecond), flood)
}
