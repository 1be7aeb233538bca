// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
)

// TestAdmissionServesTheNewestWaiterFirst: with one slot taken and two
// requests waiting, a release goes to the one that came last; the first
// waits on, and is refused when its wait ends. A slot released is never
// lost: after all of it, the slot can be taken again at once.
func TestAdmissionServesTheNewestWaiterFirst(t *testing.T) {
	t.Parallel()
	a := newAdmission(1, 2*time.Second)
	if !a.acquire(anonymous) {
		t.Fatal("the free slot was refused")
	}
	waiting := func(n int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			a.mu.Lock()
			got := len(a.waiters[anonymous])
			a.mu.Unlock()
			if got == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d waiters, want %d", got, n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	first, second := make(chan bool, 1), make(chan bool, 1)
	go func() { first <- a.acquire(anonymous) }()
	waiting(1)
	go func() { second <- a.acquire(anonymous) }()
	waiting(2)
	a.release()
	select {
	case ok := <-second:
		if !ok {
			t.Fatal("the newest waiter was refused")
		}
	case ok := <-first:
		t.Fatalf("the oldest waiter was served first (%v)", ok)
	case <-time.After(5 * time.Second):
		t.Fatal("the release reached no waiter")
	}
	if ok := <-first; ok { // its 2 s wait ends while the second holds the slot
		t.Fatal("the oldest waiter got a slot that was taken")
	}
	a.release()
	a.mu.Lock()
	busy, waiters := a.busy, len(a.waiters[anonymous])+len(a.waiters[owner])
	a.mu.Unlock()
	if busy != 0 || waiters != 0 {
		t.Fatalf("after every release: %d slots taken, %d waiters", busy, waiters)
	}
	if !a.acquire(anonymous) {
		t.Fatal("the slot given back could not be taken")
	}
}

// TestStreamedAnswerKeepsItsSlot: an answer streamed after its handler
// returned (as export's) holds its slot until the stream ends, then gives
// it back.
func TestStreamedAnswerKeepsItsSlot(t *testing.T) {
	t.Parallel()
	h := &Handlers{admission: newAdmission(1, 50*time.Millisecond)}
	f := fiber.New(fiber.Config{DisableStartupMessage: true})
	f.Use(h.admit)
	gate := make(chan struct{})
	f.Get("/stream", func(c *fiber.Ctx) error {
		release := keepSlot(c)
		c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
			defer release()
			_, _ = w.WriteString("first\n")
			_ = w.Flush()
			<-gate
			_, _ = w.WriteString("last\n")
		})
		return nil
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = f.Listener(ln) }()
	t.Cleanup(func() { _ = f.ShutdownWithTimeout(2 * time.Second) })

	res, err := http.Get("http://" + ln.Addr().String() + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	if line, err := r.ReadString('\n'); err != nil || line != "first\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	taken := func() int {
		h.admission.mu.Lock()
		defer h.admission.mu.Unlock()
		return h.admission.busy
	}
	// the handler has returned (the head and a line are out); the stream runs on
	if n := taken(); n != 1 {
		t.Fatalf("while the stream runs: %d slots taken, want 1", n)
	}
	if h.admission.acquire(anonymous) {
		t.Fatal("a second request got the slot the stream holds")
	}
	close(gate)
	if rest, err := io.ReadAll(r); err != nil || string(rest) != "last\n" {
		t.Fatalf("rest %q, %v", rest, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for taken() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the slot was not given back when the stream ended")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestAdmissionServesTheOwnerFirst: with the one slot taken, an anonymous
// request that waits and the owner's request that waits longer, a release
// goes to the owner's, though it is not the newest; the next release goes
// to the anonymous one.
func TestAdmissionServesTheOwnerFirst(t *testing.T) {
	t.Parallel()
	a := newAdmission(1, 5*time.Second)
	if !a.acquire(anonymous) {
		t.Fatal("the free slot was refused")
	}
	waiting := func(class, n int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			a.mu.Lock()
			got := len(a.waiters[class])
			a.mu.Unlock()
			if got == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d waiters of class %d, want %d", got, class, n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	owners, anons := make(chan bool, 1), make(chan bool, 1)
	go func() { owners <- a.acquire(owner) }()
	waiting(owner, 1)
	go func() { anons <- a.acquire(anonymous) }()
	waiting(anonymous, 1)
	a.release()
	select {
	case ok := <-owners:
		if !ok {
			t.Fatal("the owner's request was refused")
		}
	case <-anons:
		t.Fatal("the anonymous request was served before the owner's")
	case <-time.After(5 * time.Second):
		t.Fatal("the release reached no waiter")
	}
	a.release()
	if ok := <-anons; !ok {
		t.Fatal("the anonymous request was refused after the owner's was served")
	}
	a.release()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.busy != 0 {
		t.Fatalf("after every release: %d slots taken", a.busy)
	}
}
