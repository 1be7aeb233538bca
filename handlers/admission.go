// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"errors"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
)

// Admission control: at most MaxInFlight requests do work at once (read or
// write the database, render a page); a request that finds every slot taken
// waits up to QueueWait for one, then is refused with 503 and Retry-After
// before anything of it runs, so a refused request never wrote anything.
// /healthz, /readyz and the static files are served before this point and
// never wait. Without it, 500 connections meant 500 requests waiting in the
// database pool's queue (which is not first come, first served), each
// holding its listing and its answer in memory: p99 went to 9 s and RSS to
// half a GiB (README, Performance, Overload).

// errBusy: every slot stayed taken for QueueWait (503 with Retry-After).
var errBusy = errors.New("the service is busy")

// busyRetryAfter is the Retry-After of a request refused for lack of a slot:
// the slots turn over in milliseconds, so a second is long enough.
const busyRetryAfter = 1

// Defaults of Options.MaxInFlight and Options.QueueWait.
const (
	// inFlightPerConn is how many requests may work at once per connection
	// of the database pool: two, so that while one request of a pair
	// renders or writes its answer, the other has the connection.
	inFlightPerConn = 2
	// defaultQueueWait: a client that does not back off sends its next
	// request as soon as it is refused, so the wait is also what paces a
	// flood of refusals. At 100 ms, 500 such connections made 1,600 to
	// 3,400 refusals a second, which took the CPU from the work admitted
	// (80 to 198 answers a second against 219 to 240) and from /healthz
	// (p50 19 to 62 ms); at 500 ms, about 920 a second, the admitted
	// requests at p50 42 ms and /healthz at p50 3.5 ms (README,
	// Performance, Overload).
	defaultQueueWait = 500 * time.Millisecond
)

// admission is the set of slots and the requests waiting for one.
//
// Waiters are served last come, first served. Under a sustained flood the
// queue never empties, and in first-come order every request admitted would
// have waited nearly the whole QueueWait at its head: the newest waiter is
// the one whose client is most likely still there, and taking it first
// keeps the latency of what is admitted at the time of the work, while the
// oldest run out their wait and are refused. Nobody waits longer than
// QueueWait either way.
//
// The owner's requests (a valid token or session cookie) wait apart from
// the anonymous ones and are served before any of them: a flood of
// requests without credentials (the login page, scanners) can make the
// owner wait for a slot to turn over, never behind the flood.
type admission struct {
	max  int
	wait time.Duration

	mu   sync.Mutex
	busy int // slots taken
	// waiters of each class, each a stack (the last is served first):
	// [anonymous], [owner]; the owner's are served first
	waiters [2][]chan struct{}
}

// Classes of waiters.
const (
	anonymous = 0
	owner     = 1
)

func newAdmission(n int, wait time.Duration) *admission {
	return &admission{max: n, wait: wait}
}

// acquire takes a slot for a request of the class, waiting up to a.wait;
// false: none came free.
func (a *admission) acquire(class int) bool {
	a.mu.Lock()
	if a.busy < a.max {
		a.busy++
		a.mu.Unlock()
		return true
	}
	w := make(chan struct{}, 1)
	a.waiters[class] = append(a.waiters[class], w)
	a.mu.Unlock()
	t := time.NewTimer(a.wait)
	defer t.Stop()
	select {
	case <-w:
		return true
	case <-t.C:
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, x := range a.waiters[class] { // the oldest time out: near the bottom
		if x == w {
			a.waiters[class] = append(a.waiters[class][:i], a.waiters[class][i+1:]...)
			return false
		}
	}
	return true // released to this waiter just as its wait ended
}

// release gives a slot back: to the newest of the owner's waiters, else to
// the newest anonymous one, else free.
func (a *admission) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, class := range []int{owner, anonymous} {
		if n := len(a.waiters[class]); n > 0 {
			w := a.waiters[class][n-1]
			a.waiters[class][n-1] = nil
			a.waiters[class] = a.waiters[class][:n-1]
			w <- struct{}{} // the slot passes on, still taken
			return
		}
	}
	a.busy--
}

// slotKey is the Locals key of a request's slot.
type slotKey struct{}

// slot is one request's hold on a slot, given back once.
type slot struct {
	once sync.Once
	a    *admission
	kept bool // a streamed answer gives it back when the stream ends
}

func (s *slot) release() { s.once.Do(s.a.release) }

// admit takes a slot for the request, or refuses it with errBusy after the
// queue wait.
func (h *Handlers) admit(c *fiber.Ctx) error { return h.inSlot(c, c.Next) }

// inSlot runs next in a work slot, taken for the request's class (the
// owner's first), or refuses it with errBusy after the queue wait.
func (h *Handlers) inSlot(c *fiber.Ctx, next func() error) error {
	class := anonymous
	if h.credentialed(c) {
		class = owner
	}
	if !h.admission.acquire(class) {
		return errBusy
	}
	s := &slot{a: h.admission}
	c.Locals(slotKey{}, s)
	defer func() {
		if !s.kept {
			s.release()
		}
	}()
	return next()
}

// keepSlot keeps the request's slot past its handler, for an answer that is
// streamed after the handler returns (export); the returned function gives
// it back, and must be called once the stream ends.
func keepSlot(c *fiber.Ctx) (release func()) {
	s, ok := c.Locals(slotKey{}).(*slot)
	if !ok {
		return func() {}
	}
	s.kept = true
	return s.release
}
