// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
)

// TestSearchFloodLeavesTheOwnerServed: a second credential (another API
// token) sends 12 searches at once (q=e e e e e e e e) while every search
// is held up (the events table locked), with 4 work slots. Only
// MaxSearchesPerCredential of them run; the rest are refused at once with
// 503, so the owner's own search takes a free slot and answers 200 once
// the lock goes. Before, the flood took every slot and the owner's
// requests were all 503.
func TestSearchFloodLeavesTheOwnerServed(t *testing.T) {
	t.Parallel()
	const other = "test-token-of-a-second-client-0123"
	auth, err := app.NewAuth(hashOnce(), []string{apiToken, other}, sessionSecret, false)
	if err != nil {
		t.Fatal(err)
	}
	dsn := dbtest.NewURL(t)
	db, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := app.NewService(db, seoul, dbtest.NewClock(t0).Now)
	f, err := handlers.New(svc, handlers.Options{Logger: quiet, RequestTimeout: requestTimeout, Auth: auth,
		MaxInFlight: 4, QueueWait: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = f.Listener(handlers.Listener(ln)) }()
	t.Cleanup(func() { _ = f.ShutdownWithTimeout(2 * time.Second) })
	base := "http://" + ln.Addr().String()

	_, tx := holdTx(t, dsn)
	if _, err := tx.Exec("LOCK TABLE events IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	search := func(token string) flooded {
		return hit(&http.Client{Timeout: 30 * time.Second}, "GET", base+"/api/events?q=e+e+e+e+e+e+e+e", "", "", "Authorization", "Bearer "+token)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	flood := map[int]int{}
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := search(other)
			mu.Lock()
			flood[a.status]++
			mu.Unlock()
		}()
	}
	time.Sleep(time.Second) // the flood's refusals are in, two of its searches wait on the lock
	owner := make(chan flooded, 1)
	go func() { owner <- search(apiToken) }()
	time.Sleep(500 * time.Millisecond) // beyond the queue wait: the owner holds a slot
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	a := <-owner
	wg.Wait()
	if a.status != http.StatusOK {
		t.Errorf("the owner's search during the flood: %d %v, want 200", a.status, a.err)
	}
	if flood[http.StatusOK] != handlers.MaxSearchesPerCredential || flood[http.StatusServiceUnavailable] != 12-handlers.MaxSearchesPerCredential {
		t.Errorf("the flood's answers %v, want %d of 200 and the rest 503", flood, handlers.MaxSearchesPerCredential)
	}
	t.Logf("owner: %d after %v; flood answers %v", a.status, a.took.Round(time.Millisecond), flood)
}
