// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
)

const keyed = "Idempotency-Key"

// keys is the number of rows in idempotency_keys.
func (s *server) keys() int {
	s.t.Helper()
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM idempotency_keys").Scan(&n); err != nil {
		s.t.Fatal(err)
	}
	return n
}

func TestIdempotencyKeyRepeatAnswersTheRecordedOutcome(t *testing.T) {
	s := newServer(t)
	body := `{"kind": "task", "title": "Pay rent", "due_at": "2026-11-25T09:00:00+09:00"}`
	first := s.json("POST", "/api/events", body, keyed, "pay-rent-2026-11").want(t, http.StatusCreated)
	e := first.event(t, http.StatusCreated)
	if first.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("the first answer says it is a replay")
	}
	// The event changes afterwards; the repeat still answers the outcome
	// recorded, and writes nothing.
	s.json("PATCH", path(e.ID), `{"title": "Pay the rent"}`).want(t, http.StatusOK)
	events, rows := s.counts()
	for range 3 {
		again := s.json("POST", "/api/events", body, keyed, "pay-rent-2026-11").want(t, http.StatusCreated)
		if string(again.Body) != string(first.Body) {
			t.Errorf("repeat body = %s, want the recorded %s", again.Body, first.Body)
		}
		for _, h := range []string{"Location", "ETag", "Content-Type"} {
			if again.Header.Get(h) != first.Header.Get(h) {
				t.Errorf("repeat %s = %q, want the recorded %q", h, again.Header.Get(h), first.Header.Get(h))
			}
		}
		if again.Header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("a repeat lacks Idempotent-Replayed: true")
		}
	}
	if ev, r := s.counts(); ev != events || r != rows {
		t.Errorf("repeats wrote: %d events, %d history rows; want %d, %d", ev, r, events, rows)
	}

	// The same key with another body: 422 naming the header, nothing written.
	s.json("POST", "/api/events", `{"kind": "task", "title": "Pay rent twice"}`, keyed, "pay-rent-2026-11").
		problem(t, http.StatusUnprocessableEntity, "Idempotency-Key")
	// The same body as a form is another request, too.
	s.do("POST", "/api/events", formType, "kind=task&title=Pay+rent", keyed, "pay-rent-2026-11").
		problem(t, http.StatusUnprocessableEntity, "Idempotency-Key")
	if ev, _ := s.counts(); ev != events {
		t.Errorf("a reused key stored an event")
	}
	// Another key, or none, creates as before.
	s.json("POST", "/api/events", body, keyed, "pay-rent-2026-12").want(t, http.StatusCreated)
	s.json("POST", "/api/events", body).want(t, http.StatusCreated)
	s.json("POST", "/api/events", body).want(t, http.StatusCreated)
	if ev, _ := s.counts(); ev != events+3 {
		t.Errorf("%d events after a new key and two unkeyed creates, want %d", ev, events+3)
	}
}

func TestIdempotencyKeyMustBeVisibleASCII(t *testing.T) {
	s := newServer(t)
	body := `{"kind": "task", "title": "Call mum"}`
	for _, bad := range []string{"", " ", "a b", strings.Repeat("k", 256), "ключ", "tab\there"} {
		s.json("POST", "/api/events", body, keyed, bad).problem(t, http.StatusBadRequest, "Idempotency-Key")
	}
	// A DEL in a header value is refused by the HTTP parser itself: 400,
	// the head is not well-formed.
	s.live("POST", "/api/events", jsonType, body, keyed, "del\x7f").problem(t, http.StatusBadRequest)
	if ev, _ := s.counts(); ev != 0 {
		t.Errorf("refused keys stored %d events", ev)
	}
	s.json("POST", "/api/events", body, keyed, strings.Repeat("k", 255)).want(t, http.StatusCreated)
	s.json("POST", "/api/events", body, keyed, "~!@#$%^&*()_+{}|:<>?`-=[]\\;',./\"").want(t, http.StatusCreated)
	// Sent twice: 400.
	req := httptest.NewRequest("POST", "/api/events", strings.NewReader(body))
	req.Header.Set("Content-Type", jsonType)
	req.Header.Add(keyed, "a")
	req.Header.Add(keyed, "b")
	res, err := s.f.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("two Idempotency-Key headers: %d, want 400", res.StatusCode)
	}
}

// A refused create records nothing: the key may be sent again with the
// body corrected.
func TestIdempotencyKeyOfARefusedCreateIsFree(t *testing.T) {
	s := newServer(t)
	s.json("POST", "/api/events", `{"kind": "task", "title": ""}`, keyed, "k1").problem(t, http.StatusUnprocessableEntity, "title")
	s.json("POST", "/api/events", `{"kind": "task", "title": "Fixed"}`, keyed, "k1").want(t, http.StatusCreated)
	if n := s.keys(); n != 1 {
		t.Errorf("%d keys recorded, want 1", n)
	}
}

// Keys are answered for 24 hours, then free; expired rows are removed.
func TestIdempotencyKeyExpiresAfter24Hours(t *testing.T) {
	s := newServer(t)
	a := s.json("POST", "/api/events", `{"kind": "task", "title": "Old"}`, keyed, "daily").event(t, http.StatusCreated)
	s.json("POST", "/api/events", `{"kind": "task", "title": "Other"}`, keyed, "other").want(t, http.StatusCreated)
	s.clock.Add(24*time.Hour - time.Second)
	s.json("POST", "/api/events", `{"kind": "task", "title": "New"}`, keyed, "daily").problem(t, http.StatusUnprocessableEntity, "Idempotency-Key")
	s.clock.Add(2 * time.Second)
	b := s.json("POST", "/api/events", `{"kind": "task", "title": "New"}`, keyed, "daily").event(t, http.StatusCreated)
	if b.ID == a.ID || b.Title != "New" {
		t.Errorf("after 24 hours the key answered %+v, want a new event", b)
	}
	// "other" expired too and is gone; "daily" holds its new outcome.
	if n := s.keys(); n != 1 {
		t.Errorf("%d keys kept after 24 hours, want 1 (the expired ones removed)", n)
	}
}

// A repeat while the first request still runs is 409, at once; after it
// finished, the repeat gets its outcome. The first holds its key until the
// lock goes, after the repeat's answer: a repeat that waited for it would
// answer only at the request deadline (30 s), so half of that proves
// "at once" on a machine however busy.
func TestIdempotencyKeyRepeatWhileRunningIs409(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	// The first create waits for this lock after taking its key.
	if _, err := tx.ExecContext(ctx, "LOCK TABLE events IN SHARE MODE"); err != nil {
		t.Fatal(err)
	}
	body := `{"kind": "task", "title": "Slow"}`
	first := make(chan answer, 1)
	go func() { first <- send(t, s.f, "POST", "/api/events", jsonType, body, keyed, "slow") }()
	waitFor(t, "the first create to wait for the lock", func() bool {
		var n int
		_ = s.db.QueryRow("SELECT count(*) FROM pg_locks WHERE locktype = 'relation' AND NOT granted").Scan(&n)
		return n > 0
	})
	start := time.Now()
	inFlight := s.json("POST", "/api/events", body, keyed, "slow")
	inFlight.typed(t, http.StatusConflict, "idempotency-in-flight")
	if ra := inFlight.Header.Get("Retry-After"); ra != "1" {
		t.Errorf("the 409 of a key in flight has Retry-After %q, want 1", ra)
	}
	if d := time.Since(start); d > requestTimeout/2 {
		t.Errorf("the 409 took %s: the repeat waited for the first", d)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	a := <-first
	e := a.event(t, http.StatusCreated)
	again := s.json("POST", "/api/events", body, keyed, "slow").event(t, http.StatusCreated)
	if again.ID != e.ID {
		t.Errorf("the repeat after the first finished answered event %d, want %d", again.ID, e.ID)
	}
	if ev, _ := s.counts(); ev != 1 {
		t.Errorf("%d events stored, want 1", ev)
	}
}

// Two instances of the service (two Fiber apps, each with its own pool) on
// one database race the same keys: each key stores one event, and every
// 201 answers that event.
func TestIdempotencyKeyHoldsAcrossTwoInstances(t *testing.T) {
	dsn := dbtest.NewURL(t)
	clock := dbtest.NewClock(t0)
	var apps []*fiber.App
	for range 2 {
		db, err := app.OpenDB(dsn, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		apps = append(apps, newApp(t, app.NewService(db, seoul, clock.Now)))
	}
	check, err := app.OpenDB(dsn, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	const rounds, racers = 8, 8
	for round := range rounds {
		key := "race-" + strconv.Itoa(round)
		body := `{"kind": "task", "title": "Race ` + strconv.Itoa(round) + `"}`
		answers := make([]answer, racers)
		var wg sync.WaitGroup
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				answers[i] = send(t, apps[i%2], "POST", "/api/events", jsonType, body, keyed, key)
			}()
		}
		wg.Wait()
		var created []string
		for _, a := range answers {
			switch a.Status {
			case http.StatusCreated:
				created = append(created, string(a.Body))
			case http.StatusConflict: // the first was still running
			default:
				t.Fatalf("round %d: %s", round, a)
			}
		}
		if len(created) == 0 {
			t.Fatalf("round %d: no request of %d got its 201", round, racers)
		}
		for _, b := range created {
			if b != created[0] {
				t.Fatalf("round %d: two 201s answered different events:\n%s\n%s", round, created[0], b)
			}
		}
		var n int
		if err := check.QueryRow("SELECT count(*) FROM events WHERE title = ?", "Race "+strconv.Itoa(round)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("round %d: %d events stored for one key, want 1", round, n)
		}
		// A repeat on either instance now answers the same event.
		for _, f := range apps {
			if a := send(t, f, "POST", "/api/events", jsonType, body, keyed, key); a.Status != http.StatusCreated || string(a.Body) != created[0] {
				t.Fatalf("round %d: a late repeat answered %s", round, a)
			}
		}
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// An Idempotency-Key belongs to the credential that sent it: the same key
// and body from another API token, or from the owner's browser session,
// is another request, which creates its own event and is never answered
// what the first credential was answered. Each credential's repeat is
// answered its own outcome.
func TestIdempotencyKeyIsScopedToItsCredential(t *testing.T) {
	t.Parallel()
	const otherToken = "another-token-fedcba9876543210"
	auth, err := app.NewAuth(hashOnce(), []string{apiToken, otherToken}, sessionSecret, false)
	if err != nil {
		t.Fatal(err)
	}
	db := dbtest.New(t)
	c := dbtest.NewClock(t0)
	svc := app.NewService(db, seoul, c.Now)
	f, err := handlers.New(svc, handlers.Options{Logger: slog.New(slog.DiscardHandler), RequestTimeout: requestTimeout, Auth: auth})
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, f: f, svc: svc, db: db, clock: c}
	cookie := login(t, s)
	jar := []string{"Cookie", "events_session=" + cookie.Value}
	page := s.get("/events", jar...).pageHTML(t, http.StatusOK)
	m := regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the logged-in page has no CSRF token")
	}

	body := `{"kind": "task", "title": "Renew the passport"}`
	senders := []struct {
		who     string
		headers []string
	}{
		{"the first token", bearer},
		{"another token", []string{"Authorization", "Bearer " + otherToken}},
		{"the browser session", append([]string{"X-CSRF-Token", m[1]}, jar...)},
	}
	first := map[string]answer{}
	ids := map[int64]string{}
	for _, from := range senders {
		a := s.json("POST", "/api/events", body, append([]string{keyed, "passport"}, from.headers...)...)
		e := a.event(t, http.StatusCreated)
		if a.Header.Get("Idempotent-Replayed") != "" {
			t.Errorf("%s: the key sent first by another credential was answered from its record", from.who)
		}
		if other, seen := ids[e.ID]; seen {
			t.Errorf("%s was answered the event of %s (%d)", from.who, other, e.ID)
		}
		ids[e.ID] = from.who
		first[from.who] = a
	}
	if n := s.keys(); n != len(senders) {
		t.Errorf("%d keys recorded, want one per credential (%d)", n, len(senders))
	}
	events, rows := s.counts()
	for _, from := range senders {
		again := s.json("POST", "/api/events", body, append([]string{keyed, "passport"}, from.headers...)...).want(t, http.StatusCreated)
		if again.Header.Get("Idempotent-Replayed") != "true" || string(again.Body) != string(first[from.who].Body) {
			t.Errorf("%s's repeat: %s, want its own recorded answer %s", from.who, again, first[from.who].Body)
		}
		// Another body under the key is refused within the credential's own scope.
		s.json("POST", "/api/events", `{"kind": "task", "title": "Renew the licence"}`, append([]string{keyed, "passport"}, from.headers...)...).
			problem(t, http.StatusUnprocessableEntity, "Idempotency-Key")
	}
	if ev, r := s.counts(); ev != events || r != rows {
		t.Errorf("repeats wrote: %d events, %d history rows; want %d, %d", ev, r, events, rows)
	}
	// The table holds no token, only its hash.
	var leaked int
	if err := db.QueryRow("SELECT count(*) FROM idempotency_keys WHERE credential LIKE '%' || ? || '%' OR credential LIKE '%' || ? || '%'",
		apiToken, otherToken).Scan(&leaked); err != nil || leaked != 0 {
		t.Errorf("credentials holding a token: %d (%v)", leaked, err)
	}
}

// TestIdempotencyKeyOnEveryWrite: PATCH and the four operations honour an
// Idempotency-Key as the create does: a repeat answers what the first did
// (not the 409 of completing a done task) and writes nothing; the same key
// on another address or with another body is 422.
func TestIdempotencyKeyOnEveryWrite(t *testing.T) {
	s := newServer(t)
	e := s.create(`{"kind":"task","title":"Pay rent","due_at":"2026-11-25T09:00:00+09:00"}`)
	first := s.json("POST", path(e.ID, "complete"), "", keyed, "done-1").want(t, http.StatusOK)
	if first.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("the first complete says it is a replay")
	}
	events, rows := s.counts()
	for range 2 {
		again := s.json("POST", path(e.ID, "complete"), "", keyed, "done-1").want(t, http.StatusOK)
		if again.Header.Get("Idempotent-Replayed") != "true" || string(again.Body) != string(first.Body) ||
			again.Header.Get("ETag") != first.Header.Get("ETag") {
			t.Errorf("repeated complete: %s (replayed %q, ETag %q), want the first answer %s",
				again, again.Header.Get("Idempotent-Replayed"), again.Header.Get("ETag"), first.Body)
		}
	}
	if ev, r := s.counts(); ev != events || r != rows {
		t.Errorf("repeats wrote: %d events, %d history rows; want %d, %d", ev, r, events, rows)
	}
	// without the key, a second complete is still refused
	s.json("POST", path(e.ID, "complete"), "").problem(t, http.StatusConflict, "status")
	// the key on another address, or another event: 422, nothing written
	s.json("POST", path(e.ID, "reactivate"), "", keyed, "done-1").problem(t, http.StatusUnprocessableEntity, "Idempotency-Key")
	other := s.create(`{"kind":"task","title":"Other"}`)
	s.json("POST", path(other.ID, "complete"), "", keyed, "done-1").problem(t, http.StatusUnprocessableEntity, "Idempotency-Key")
	if got := s.get(path(other.ID)).event(t, http.StatusOK); got.Status != "planned" {
		t.Errorf("a reused key completed another event: %s", got.Status)
	}

	// PATCH: a repeat answers the first, even once its If-Match is stale
	tag := s.get(path(other.ID)).Header.Get("ETag")
	body := `{"title":"Other, renamed"}`
	p1 := s.json("PATCH", path(other.ID), body, keyed, "rename-1", "If-Match", tag).want(t, http.StatusOK)
	s.clock.Add(time.Minute)
	_, rows = s.counts()
	p2 := s.json("PATCH", path(other.ID), body, keyed, "rename-1", "If-Match", tag).want(t, http.StatusOK)
	if p2.Header.Get("Idempotent-Replayed") != "true" || string(p2.Body) != string(p1.Body) {
		t.Errorf("repeated PATCH: %s, want the first answer %s replayed", p2, p1.Body)
	}
	s.json("PATCH", path(other.ID), `{"title":"Something else"}`, keyed, "rename-1").
		problem(t, http.StatusUnprocessableEntity, "Idempotency-Key")
	// a key first used on a create is another request on a PATCH
	s.json("POST", "/api/events", `{"kind":"task","title":"x"}`, keyed, "create-1").want(t, http.StatusCreated)
	s.json("PATCH", path(other.ID), `{"kind":"task","title":"x"}`, keyed, "create-1").
		problem(t, http.StatusUnprocessableEntity, "Idempotency-Key")
	if _, r := s.counts(); r != rows+1 { // the create's row only
		t.Errorf("%d history rows, want %d", r, rows+1)
	}

	// defer with its body, cancel: each once
	d1 := s.json("POST", path(other.ID, "defer"), `{"defer_until":"2026-11-30T09:00:00+09:00"}`, keyed, "defer-1").want(t, http.StatusOK)
	d2 := s.json("POST", path(other.ID, "defer"), `{"defer_until":"2026-11-30T09:00:00+09:00"}`, keyed, "defer-1").want(t, http.StatusOK)
	if string(d1.Body) != string(d2.Body) || d2.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("repeated defer: %s", d2)
	}
	s.json("POST", path(other.ID, "cancel"), "", keyed, "cancel-1").want(t, http.StatusOK)
	s.json("POST", path(other.ID, "cancel"), "", keyed, "cancel-1").want(t, http.StatusOK)
	// a refused write records nothing: the key may be sent again once the
	// request is right
	s.json("POST", path(other.ID, "complete"), "", keyed, "late-1").problem(t, http.StatusConflict, "status")
	s.json("POST", path(other.ID, "reactivate"), "", keyed, "late-2").want(t, http.StatusOK)
	s.json("POST", path(other.ID, "complete"), "", keyed, "late-1").want(t, http.StatusOK)
	hist := changeKinds(s.history(other.ID))
	if want := []string{"create", "defer", "cancel", "reactivate", "complete"}; !slices.Equal(hist, want) {
		t.Errorf("history %v, want %v", hist, want)
	}
}
