// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"io"
	"net"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
)

// HeadLimit is the largest request head (request line and headers) the
// service reads: a head up to 64 KiB, what the edge lets through (a line up
// to 16 KiB, four of them: large_client_header_buffers 4 16k), plus room for
// the headers the edge adds. A larger head is 431. fasthttp reads the head
// into one buffer of this size per connection.
const HeadLimit = 72 << 10

// After refusing a request whose body it did not read (413, a head that
// does not parse), the server closes the connection. Closing with unread
// bytes makes the kernel send a reset, which throws away the answer the
// client has not read yet: Go's and Python's clients saw "connection reset"
// instead of the 413 in most tries. A lingering close (what nginx and Go's
// net/http do) first ends the sending side, then reads and discards what
// the client still sends, bounded in bytes and time.
const (
	lingerBytes = 8 << 20
	lingerTime  = 5 * time.Second
)

// Listener wraps ln so that the server can close a refused request's
// connection with a lingering close. events serve listens through it.
func Listener(ln net.Listener) net.Listener { return lingerListener{ln} }

type lingerListener struct{ net.Listener }

func (l lingerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &lingerConn{Conn: c}, nil
}

// lingerConn is a connection that lingers on Close once marked.
type lingerConn struct {
	net.Conn
	linger atomic.Bool
}

func (c *lingerConn) Close() error {
	if c.linger.Load() {
		if hc, ok := c.Conn.(interface{ CloseWrite() error }); ok && hc.CloseWrite() == nil {
			_ = c.Conn.SetReadDeadline(time.Now().Add(lingerTime))
			_, _ = io.CopyN(io.Discard, c.Conn, lingerBytes)
		}
	}
	return c.Conn.Close()
}

// lingerOnClose marks the request's connection to close, lingering.
func lingerOnClose(c *fiber.Ctx) {
	c.Context().SetConnectionClose()
	if lc, ok := c.Context().Conn().(*lingerConn); ok {
		lc.linger.Store(true)
	}
}
