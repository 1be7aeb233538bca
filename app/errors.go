// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/uptrace/bun/driver/pgdriver"

	"events/models"
)

// ErrUnavailable: the database did not answer in time, or not at all (503).
var ErrUnavailable = errors.New("the database is unavailable")

// ErrDiskFull: the database's disk is full, so it cannot write (PostgreSQL's
// 53100, or its server down for that reason); an ErrUnavailable too.
var ErrDiskFull = fmt.Errorf("%w: its disk is full", ErrUnavailable)

// classify turns storage errors into the domain's: no row is
// models.ErrNotFound, a broken constraint a models.FieldErrors, a full disk
// ErrDiskFull, a lost, slow or short-of-resources database ErrUnavailable.
// Domain errors pass through.
func classify(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return models.ErrNotFound
	}
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		code := pgErr.Field('C')
		switch {
		case code == "23514" || code == "23502":
			field := models.ConstraintField(pgErr.Field('n'))
			if field == "" {
				field = pgErr.Field('c')
			}
			return models.FieldErrors{{Field: field, Code: models.CodeStorageRule, Message: "breaks a storage rule (" + pgErr.Field('n') + ")"}}
		case code == "22021" || code == "22P05":
			return models.FieldErrors{{Field: "body", Code: models.CodeStorageRule, Message: "a text field holds a character PostgreSQL cannot store"}}
		case code == "2200H":
			// A sequence at its end (a restore of a crafted backup): no
			// request of the client's can fix that, so not a 400 but the
			// server's own fault, logged.
			return fmt.Errorf("an id sequence has reached its end, so its table can take no more rows (restore a sound backup): %w", err)
		case strings.HasPrefix(code, "22"):
			// A data exception (a time out of range, a bad value for its
			// type): a value of the request PostgreSQL cannot take, which the
			// checks before it let through. The client's fault: a 400, never
			// a 500, and nothing of PostgreSQL's message in the answer.
			return fmt.Errorf("%w: %w", models.BadRequest("", models.CodeBadFormat, "a value of the request is outside what the database accepts"), err)
		case code == "23505" && pgErr.Field('n') == "event_history_undoes_key":
			return &models.ConflictError{Reason: "this step was undone already"}
		case code == "53100":
			return fmt.Errorf("%w: %w", ErrDiskFull, err)
		case code == "57014", code == "57P01", code == "57P02", code == "57P03", strings.HasPrefix(code, "08"),
			strings.HasPrefix(code, "53"), strings.HasPrefix(code, "58"):
			// 53: insufficient resources (connections, memory); 58: a system
			// error (an I/O error): the server's trouble, not a bug.
			return fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNRESET) {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}
