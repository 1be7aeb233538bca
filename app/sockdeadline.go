// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"net"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
)

// pgdriver sets the socket's read deadline before every message it reads,
// one for each row of an answer: the time now plus its read timeout (the
// statement timeout and socketSlack, OpenDB). Each is a call into the
// runtime's poller that moves the connection's timer, a few percent of the
// service's CPU on a listing (`make bench` profiles, Inbox and the Today
// page). That deadline only guards against a server that stopped answering
// at all, tens of seconds away, so coarseDeadlines lets a connection keep
// the deadline it has when the new one is at most deadlineStep later: the
// socket then gives up at most deadlineStep sooner than pgdriver asked,
// never later. An earlier deadline, or none, is set at once.

// deadlineStep is how much later than the deadline in place a new read
// deadline may be and still be left unset.
const deadlineStep = time.Second

// coarseDeadlines is a pgdriver option: the connections it dials keep their
// read deadline as said above.
func coarseDeadlines(conf *pgdriver.Config) {
	dial := conf.Dialer
	conf.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &coarseConn{Conn: c}, nil
	}
}

// coarseConn is a connection that remembers its read deadline. pgdriver
// uses a connection from one goroutine at a time.
type coarseConn struct {
	net.Conn
	read time.Time // the read deadline in place; zero: none
}

func (c *coarseConn) SetReadDeadline(t time.Time) error {
	if t.Equal(c.read) || !c.read.IsZero() && !t.IsZero() && !t.Before(c.read) && t.Sub(c.read) <= deadlineStep {
		return nil
	}
	if err := c.Conn.SetReadDeadline(t); err != nil {
		return err
	}
	c.read = t
	return nil
}

func (c *coarseConn) SetDeadline(t time.Time) error {
	if err := c.Conn.SetDeadline(t); err != nil {
		return err
	}
	c.read = t
	return nil
}
