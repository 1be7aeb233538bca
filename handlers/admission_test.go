// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
)

// overloadServer is the app over a fresh database with maxInFlight slots and
// the given queue wait, served on a loopback port through the listener
// events serve uses; it returns the server and its base URL.
func overloadServer(t *testing.T, maxInFlight int, wait time.Duration) (*server, string) {
	t.Helper()
	t.Parallel()
	dsn := dbtest.NewURL(t)
	db, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := &server{t: t, db: db, clock: dbtest.NewClock(t0), dsn: dsn}
	s.svc = app.NewService(db, seoul, s.clock.Now)
	f, err := handlers.New(s.svc, handlers.Options{Logger: quiet, RequestTimeout: requestTimeout, MaxInFlight: maxInFlight, QueueWait: wait})
	if err != nil {
		t.Fatal(err)
	}
	s.f = f
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = f.Listener(handlers.Listener(ln)) }()
	t.Cleanup(func() { _ = f.ShutdownWithTimeout(2 * time.Second) })
	return s, "http://" + ln.Addr().String()
}

// flooded is one answer of a flood, seen from its client.
type flooded struct {
	name       string // what was sent (a create's title)
	status     int
	retryAfter string
	ctype      string
	took       time.Duration
	err        error
}

// hit sends one request on its own connection and reads the whole answer.
func hit(client *http.Client, method, url, ctype, body string, headers ...string) flooded {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return flooded{err: err}
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	began := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return flooded{err: err, took: time.Since(began)}
	}
	defer res.Body.Close()
	_, err = io.Copy(io.Discard, res.Body)
	return flooded{status: res.StatusCode, retryAfter: res.Header.Get("Retry-After"), ctype: res.Header.Get("Content-Type"), took: time.Since(began), err: err}
}

// TestOverloadIsRefusedFastAndWritesNothing: with 2 slots, both held by
// requests that wait on a row lock, a flood of 40 creates, /events pages and
// htmx posts is refused with 503 and Retry-After once the queue wait (200
// ms) passes — none waits for a slot, or for the request deadline — and
// /healthz, /readyz and a static file answer 200 all through it. Nothing
// refused is stored. Once the lock goes, the held requests finish with 200
// and a create is 201 again. Then a flood of 60 creates over 2 free slots:
// every answer is 201 or 503, and exactly the 201s are stored.
//
// What proves the refusal fast is the order, not a clock: the lock is
// released only after every answer of the flood has come, so an answer
// that waited for a slot would never come, and the client gives up (20 s)
// before the request deadline (30 s) could answer for it. A bound on the
// time of each refusal failed CI once: on a machine busy with every
// package's tests under the race detector, three refusals took 9 s.
func TestOverloadIsRefusedFastAndWritesNothing(t *testing.T) {
	const wait = 200 * time.Millisecond
	s, base := overloadServer(t, 2, wait)
	client := &http.Client{Timeout: requestTimeout * 2 / 3, Transport: &http.Transport{MaxConnsPerHost: 100, MaxIdleConnsPerHost: 100}}
	t.Cleanup(client.CloseIdleConnections)

	locked := make([]event, 2)
	for i := range locked {
		locked[i] = s.create(fmt.Sprintf(`{"kind":"task","title":"locked %d"}`, i))
	}
	eventsBefore, historyBefore := s.counts()

	// Hold both rows, then send a complete of each: each takes a slot and
	// waits on its lock.
	_, tx := holdTx(t, s.dsn)
	if _, err := tx.Exec("SELECT 1 FROM events WHERE id IN (?, ?) FOR UPDATE", locked[0].ID, locked[1].ID); err != nil {
		t.Fatal(err)
	}
	held := make(chan flooded, 2)
	for _, e := range locked {
		go func() { held <- hit(client, "POST", base+path(e.ID, "complete"), "", "") }()
	}
	waitFor(t, "both held requests to wait on their locks", func() bool {
		var n int
		err := s.db.QueryRow("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'").Scan(&n)
		return err == nil && n == 2
	})

	// The flood, with /healthz, /readyz and a static file beside it.
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		answers []flooded
	)
	kinds := []struct{ method, target, ctype, body string }{
		{"POST", "/api/events", "application/json", `{"kind":"activity_log","title":"%s"}`},
		{"GET", "/events", "", ""},
		{"POST", "/api/events", "application/x-www-form-urlencoded", "kind=activity_log&title=%s"},
	}
	for i := range 40 {
		k := kinds[i%len(kinds)]
		name := fmt.Sprintf("flood-%d", i)
		var headers []string
		switch {
		case k.target == "/events":
			headers = []string{"Accept", "text/html"}
		case strings.HasPrefix(k.ctype, "application/x-www"):
			headers = []string{"HX-Request", "true"}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := hit(client, k.method, base+k.target, k.ctype, strings.ReplaceAll(k.body, "%s", name), headers...)
			a.name = name
			mu.Lock()
			answers = append(answers, a)
			mu.Unlock()
		}()
	}
	probe := &http.Client{Timeout: 10 * time.Second}
	flooding := make(chan struct{})
	go func() { wg.Wait(); close(flooding) }()
	probes := 0
	for done := false; !done; {
		for _, p := range []string{"/healthz", "/readyz", "/static/htmx.min.js"} {
			a := hit(probe, "GET", base+p, "", "")
			if a.err != nil || a.status != http.StatusOK {
				t.Errorf("GET %s during the flood: %d %v", p, a.status, a.err)
			}
			probes++
		}
		select {
		case <-flooding:
			done = true
		case <-time.After(20 * time.Millisecond):
		}
	}
	if probes < 3 {
		t.Errorf("only %d probes ran during the flood", probes)
	}
	for _, a := range answers {
		switch {
		case a.err != nil:
			t.Errorf("%s: %v", a.name, a.err)
		case a.status != http.StatusServiceUnavailable:
			t.Errorf("%s: status %d while every slot was held, want 503", a.name, a.status)
		case a.retryAfter != "1":
			t.Errorf("%s: Retry-After %q, want 1", a.name, a.retryAfter)
		case a.took < wait/2:
			t.Errorf("%s: refused after %s, before the queue wait (%s)", a.name, a.took, wait)
		}
	}
	// one error path: problem JSON for the API, a page or a fragment of HTML otherwise
	for _, a := range answers[:3] {
		if !strings.HasPrefix(a.ctype, "application/problem+json") && !strings.HasPrefix(a.ctype, "text/html") {
			t.Errorf("%s: Content-Type %q", a.name, a.ctype)
		}
	}
	if n, h := s.counts(); n != eventsBefore || h != historyBefore {
		t.Errorf("after the refused flood: %d events and %d history rows, want %d and %d", n, h, eventsBefore, historyBefore)
	}

	// The lock goes: the held requests finish, and the slots serve again.
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	for range locked {
		if a := <-held; a.err != nil || a.status != http.StatusOK {
			t.Errorf("a held complete: %d %v", a.status, a.err)
		}
	}
	s.create(`{"kind":"task","title":"after the flood"}`)

	// A flood over free slots: each answer is 201 or 503, and what was
	// answered 201 is exactly what is stored.
	answers = answers[:0]
	for i := range 60 {
		name := fmt.Sprintf("second-%d", i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := hit(client, "POST", base+"/api/events", "application/json", `{"kind":"activity_log","title":"`+name+`"}`)
			a.name = name
			mu.Lock()
			answers = append(answers, a)
			mu.Unlock()
		}()
	}
	wg.Wait()
	created := map[string]bool{}
	for _, a := range answers {
		switch {
		case a.err != nil:
			t.Errorf("%s: %v", a.name, a.err)
		case a.status == http.StatusCreated:
			created[a.name] = true
		case a.status == http.StatusServiceUnavailable && a.retryAfter == "1":
		default:
			t.Errorf("%s: status %d, Retry-After %q; want 201, or 503 with Retry-After 1", a.name, a.status, a.retryAfter)
		}
	}
	rows, err := s.db.Query("SELECT title FROM events WHERE title LIKE 'second-%' OR title LIKE 'flood-%'")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	stored := map[string]bool{}
	for rows.Next() {
		var title string
		if err := rows.Scan(&title); err != nil {
			t.Fatal(err)
		}
		stored[title] = true
	}
	for name := range created {
		if !stored[name] {
			t.Errorf("%s was answered 201 but is not stored", name)
		}
	}
	for name := range stored {
		if !created[name] {
			t.Errorf("%s is stored but was not answered 201", name)
		}
	}
	if len(created) == 0 {
		t.Errorf("no create of the second flood was admitted")
	}
	t.Logf("second flood: %d created, %d refused", len(created), len(answers)-len(created))
}
