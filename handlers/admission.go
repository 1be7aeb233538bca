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
	inFlightPerConn  = 2
	defaultQueueWait = 100 * time.Millisecond
)

// admission is the set of slots.
type admission struct {
	slots chan struct{}
	wait  time.Duration
}

func newAdmission(n int, wait time.Duration) *admission {
	return &admission{slots: make(chan struct{}, n), wait: wait}
}

// slotKey is the Locals key of a request's slot.
type slotKey struct{}

// slot is one request's hold on a slot, given back once.
type slot struct {
	once sync.Once
	a    *admission
	kept bool // a streamed answer gives it back when the stream ends
}

func (s *slot) release() { s.once.Do(func() { <-s.a.slots }) }

// admit takes a slot for the request, or refuses it with errBusy after the
// queue wait. Waiters are served in turn (a channel's blocked senders are
// woken first in, first out).
func (h *Handlers) admit(c *fiber.Ctx) error {
	a := h.admission
	select {
	case a.slots <- struct{}{}:
	default:
		t := time.NewTimer(a.wait)
		select {
		case a.slots <- struct{}{}:
			t.Stop()
		case <-t.C:
			return errBusy
		}
	}
	s := &slot{a: a}
	c.Locals(slotKey{}, s)
	defer func() {
		if !s.kept {
			s.release()
		}
	}()
	return c.Next()
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
