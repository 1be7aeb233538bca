// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"log/slog"

	"events/models"
)

// SetLogger sets where the service logs the rows a read leaves out.
// Unset, it is slog.Default().
func (s *Service) SetLogger(l *slog.Logger) { s.log = l }

func (s *Service) logger() *slog.Logger {
	if s.log != nil {
		return s.log
	}
	return slog.Default()
}

// writable returns events without those the API cannot write (a time
// outside the years 0001 to 9999, models.CheckBounds), logging an error
// for each one it leaves out. The service never stores such a time; a row
// holding one came from around it (SQL, an older version's database), and
// it used to fail every listing that held it with a 500. Now a listing,
// a page, search and the review leave that one row out and say so in the
// log; a GET of the event itself still fails (5xx), naming it in the log.
// what names the read, for the log.
func (s *Service) writable(events []models.Event, what models.Listing) []models.Event {
	var out []models.Event
	for i := range events {
		err := events[i].CheckBounds()
		switch {
		case err != nil:
			s.logger().Error("left an event out of a listing: it holds a time the API cannot write",
				"listing", string(what), "id", events[i].ID, "err", err)
			if out == nil {
				out = events[:i:i] // the rows before it, in place
			}
		case out != nil:
			out = append(out, events[i])
		}
	}
	if out == nil {
		return events // the usual case: nothing copied
	}
	return out
}
