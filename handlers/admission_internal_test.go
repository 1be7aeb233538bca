package handlers

import (
	"testing"
	"time"
)

// TestAdmissionServesTheNewestWaiterFirst: with one slot taken and two
// requests waiting, a release goes to the one that came last; the first
// waits on, and is refused when its wait ends. A slot released is never
// lost: after all of it, the slot can be taken again at once.
func TestAdmissionServesTheNewestWaiterFirst(t *testing.T) {
	t.Parallel()
	a := newAdmission(1, 2*time.Second)
	if !a.acquire() {
		t.Fatal("the free slot was refused")
	}
	waiting := func(n int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			a.mu.Lock()
			got := len(a.waiters)
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
	go func() { first <- a.acquire() }()
	waiting(1)
	go func() { second <- a.acquire() }()
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
	busy, waiters := a.busy, len(a.waiters)
	a.mu.Unlock()
	if busy != 0 || waiters != 0 {
		t.Fatalf("after every release: %d slots taken, %d waiters", busy, waiters)
	}
	if !a.acquire() {
		t.Fatal("the slot given back could not be taken")
	}
}
