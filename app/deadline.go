// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"database/sql/driver"
	"strconv"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
)

// pgdriver sends no CancelRequest: when a context's deadline passes, it
// closes the connection and the backend goes on with the statement until
// its own statement_timeout. So the statements of a request carry the
// request's deadline to PostgreSQL themselves: each is sent as
// "SET LOCAL statement_timeout = <what is left>; <statement>" in the same
// message (no extra round trip). Inside a transaction SET LOCAL lasts until
// its end and the next statement sets it again; outside, the two statements
// of one message form an implicit transaction, so the setting ends with it.
// The timeout also bounds lock waits, which happen inside a statement.

type deadlineKey struct{}

// WithStatementDeadline marks ctx so that every statement run under it ends
// in PostgreSQL when ctx's deadline passes (a little before, so that the
// server's 57014 arrives before the socket gives up and the connection
// stays usable). The handlers mark each request's context.
func WithStatementDeadline(ctx context.Context) context.Context {
	return context.WithValue(ctx, deadlineKey{}, true)
}

// deadlineMargin is how long before the context's deadline PostgreSQL
// ends a statement.
const deadlineMargin = 20 * time.Millisecond

// statementPrefix is the SET to send before a statement under ctx, "" for
// none, or an error when the deadline has passed already. ceiling is the
// sessions' own statement_timeout (0: none): a deadline further away
// needs no SET.
func statementPrefix(ctx context.Context, ceiling time.Duration) (string, error) {
	if ctx.Value(deadlineKey{}) == nil {
		return "", nil
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		return "", nil
	}
	left := time.Until(deadline) - deadlineMargin
	if left < time.Millisecond {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		return "", context.DeadlineExceeded
	}
	if ceiling > 0 && left >= ceiling {
		return "", nil
	}
	return "SET LOCAL statement_timeout = " + strconv.FormatInt(left.Milliseconds(), 10) + "; ", nil
}

// deadlineConnector wraps pgdriver's connector; its connections add the
// prefix. ceiling is the statement_timeout of its sessions.
type deadlineConnector struct {
	*pgdriver.Connector
	ceiling time.Duration
}

func (c deadlineConnector) Connect(ctx context.Context) (driver.Conn, error) {
	cn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &deadlineConn{cn.(*pgdriver.Conn), c.ceiling}, nil
}

type deadlineConn struct {
	*pgdriver.Conn
	ceiling time.Duration
}

var (
	_ driver.ExecerContext      = (*deadlineConn)(nil)
	_ driver.QueryerContext     = (*deadlineConn)(nil)
	_ driver.ConnBeginTx        = (*deadlineConn)(nil)
	_ driver.ConnPrepareContext = (*deadlineConn)(nil)
	_ driver.Pinger             = (*deadlineConn)(nil)
	_ driver.SessionResetter    = (*deadlineConn)(nil)
	_ driver.Validator          = (*deadlineConn)(nil)
)

func (cn *deadlineConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	prefix, err := statementPrefix(ctx, cn.ceiling)
	if err != nil {
		return nil, err
	}
	return cn.Conn.ExecContext(ctx, prefix+query, args)
}

func (cn *deadlineConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	prefix, err := statementPrefix(ctx, cn.ceiling)
	if err != nil {
		return nil, err
	}
	return cn.Conn.QueryContext(ctx, prefix+query, args)
}
