// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// Retries against the real binary (DESIGN.md, Retries): a create whose
// answer is lost after the server committed, retried with its
// Idempotency-Key, is stored once; two `events serve` on one database
// share the keys.

import (
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"events/app"
	"events/internal/dbtest"
)

// keyedCreate posts body with an Idempotency-Key, the client giving up
// after timeout. code is 0 when no answer came.
func keyedCreate(base, key, body string, timeout time.Duration) (code int, id int64, replayed bool, raw string) {
	req, _ := http.NewRequest("POST", base+"/api/events", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	res, err := (&http.Client{Timeout: timeout}).Do(req)
	if err != nil {
		return 0, 0, false, err.Error()
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var e struct {
		ID int64 `json:"id"`
	}
	_ = json.Unmarshal(b, &e)
	return res.StatusCode, e.ID, res.Header.Get("Idempotent-Replayed") == "true", string(b)
}

// blockCreates holds a lock that every create waits for (after it has
// taken its key), until the returned release is called.
func blockCreates(t *testing.T, db *sql.DB) (release func()) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("LOCK TABLE events IN SHARE MODE"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() { once.Do(func() { _ = tx.Rollback() }) }
	t.Cleanup(release)
	return release
}

// waitUntil polls cond every 20 ms for up to 15 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 15 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func countTitled(t *testing.T, db *sql.DB, title string) int {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM events WHERE title = $1", title).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRetriedCreateWithLostAnswerIsStoredOnce: the server commits a create
// whose client is gone (its deadline passed, or its connection was cut);
// the client retries with the same key and gets the stored event, not a
// second one.
func TestRetriedCreateWithLostAnswerIsStoredOnce(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	dsn := dbtest.NewURL(t)
	s := start(t, "DATABASE_URL="+dsn)
	bdb, err := app.OpenDB(dsn, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	db := bdb.DB

	for _, loss := range []string{"deadline", "cut"} {
		title := "Lost answer (" + loss + ")"
		key := "lost-" + loss
		body := `{"kind":"task","title":"` + title + `"}`
		release := blockCreates(t, db)
		switch loss {
		case "deadline":
			// The client gives up after 500 ms; the server goes on.
			if code, _, _, raw := keyedCreate(s.base, key, body, 500*time.Millisecond); code != 0 {
				t.Fatalf("%s: the blocked create answered %d %s before the client's deadline", loss, code, raw)
			}
		case "cut":
			conn, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = io.WriteString(conn, "POST /api/events HTTP/1.1\r\nHost: events\r\nContent-Type: application/json\r\nIdempotency-Key: "+key+
				"\r\nContent-Length: "+itoa(len(body))+"\r\n\r\n"+body)
			if err != nil {
				t.Fatal(err)
			}
			waitUntil(t, "the create to wait for the lock", func() bool {
				var n int
				_ = db.QueryRow("SELECT count(*) FROM pg_locks WHERE locktype = 'relation' AND NOT granted").Scan(&n)
				return n > 0
			})
			conn.Close() // the answer has nowhere to go
		}
		// While the first still runs, a retry is told so (409), at once.
		if code, _, _, raw := keyedCreate(s.base, key, body, 5*time.Second); code != http.StatusConflict {
			t.Errorf("%s: a retry while the first runs: %d %s, want 409", loss, code, raw)
		}
		release()
		waitUntil(t, "the abandoned create to commit", func() bool { return countTitled(t, db, title) == 1 })
		var stored int64
		if err := db.QueryRow("SELECT id FROM events WHERE title = $1", title).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			code, id, replayed, raw := keyedCreate(s.base, key, body, 5*time.Second)
			if code != http.StatusCreated || id != stored || !replayed {
				t.Errorf("%s: the retry answered %d (event %d, replayed %v) %s; want 201 with the stored event %d", loss, code, id, replayed, raw, stored)
			}
		}
		if n := countTitled(t, db, title); n != 1 {
			t.Errorf("%s: %d events stored for one retried create, want 1", loss, n)
		}
	}
}

// TestIdempotencyKeysAcrossTwoServers: two `events serve` on one database.
// While a create holds its key, a repeat on either server is 409; once it
// committed, both answer the stored event; racing keys store one event each.
func TestIdempotencyKeysAcrossTwoServers(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	dsn := dbtest.NewURL(t)
	servers := []*server{start(t, "DATABASE_URL="+dsn), start(t, "DATABASE_URL="+dsn)}
	bdb, err := app.OpenDB(dsn, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	db := bdb.DB

	// One create held inside its transaction; five repeats on both servers.
	release := blockCreates(t, db)
	body := `{"kind":"task","title":"Held"}`
	first := make(chan int, 1)
	go func() {
		code, _, _, _ := keyedCreate(servers[0].base, "held", body, 30*time.Second)
		first <- code
	}()
	waitUntil(t, "the first create to hold its key", func() bool {
		var n int
		// a key's lock is a two-key advisory lock of the class "idem"
		// (app/idempotency.go); the scheduled backup's one-key lock is not
		_ = db.QueryRow("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted" +
			" AND objsubid = 2 AND classid = x'6964656d'::int::oid").Scan(&n)
		return n > 0
	})
	var slowest time.Duration
	for i := range 5 {
		began := time.Now()
		if code, _, _, raw := keyedCreate(servers[i%2].base, "held", body, 20*time.Second); code != http.StatusConflict {
			t.Errorf("a repeat on server %d while the first runs: %d %s, want 409", i%2, code, raw)
		}
		slowest = max(slowest, time.Since(began))
	}
	// a repeat that waited for the first would answer at the first's
	// request deadline (10 s); half of it leaves a busy machine room
	if slowest > 5*time.Second {
		t.Errorf("the slowest 409 took %s: a repeat must not wait for the first", slowest)
	}
	t.Logf("the slowest of five 409s while the first create held its key: %s", slowest)
	release()
	if code := <-first; code != http.StatusCreated {
		t.Fatalf("the held create answered %d", code)
	}
	var ids []int64
	for _, s := range servers {
		code, id, replayed, raw := keyedCreate(s.base, "held", body, 5*time.Second)
		if code != http.StatusCreated || !replayed {
			t.Errorf("a repeat after the commit: %d (replayed %v) %s", code, replayed, raw)
		}
		ids = append(ids, id)
	}
	if ids[0] != ids[1] || countTitled(t, db, "Held") != 1 {
		t.Errorf("the two servers answered events %v; %d stored", ids, countTitled(t, db, "Held"))
	}

	// Racing: 10 keys, 8 clients each, spread over both servers.
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	errs := make(chan error, 80)
	for k := range 10 {
		title := "Race " + itoa(k)
		for c := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code, _, _, raw := keyedCreate(servers[c%2].base, "race-"+itoa(k), `{"kind":"task","title":"`+title+`"}`, 30*time.Second)
				mu.Lock()
				codes[code]++
				mu.Unlock()
				if code != http.StatusCreated && code != http.StatusConflict {
					errs <- errors.New(title + ": " + itoa(code) + " " + raw)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("80 racing creates over ten keys and two servers: %d answered 201, %d answered 409", codes[http.StatusCreated], codes[http.StatusConflict])
	for k := range 10 {
		if n := countTitled(t, db, "Race "+itoa(k)); n != 1 {
			t.Errorf("key race-%d stored %d events, want 1", k, n)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
