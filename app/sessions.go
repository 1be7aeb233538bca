// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"time"
)

// Browser sessions and the login limit are rows in PostgreSQL (the sessions
// and login_attempts tables), so a logout, an expiry or a run of failed
// logins holds for every instance on the database and across restarts.
// The cookie stays a signed value; the row is what makes it valid. Each
// check is one statement on a primary key.

// sessionRowID is the key of a session's row: the SHA-256 of its random id,
// so the table holds nothing a cookie could be made from.
func sessionRowID(s Session) []byte {
	sum := sha256.Sum256(s.ID[:])
	return sum[:]
}

// StoreSession records a session begun by a login, and removes the rows of
// sessions that have ended and of login windows that have passed.
func (s *Service) StoreSession(ctx context.Context, sess Session, loginWindow time.Duration) error {
	_, err := s.db.NewRaw("INSERT INTO sessions (id, issued_at, last_seen, expires_at) VALUES (?, ?, ?, ?)",
		sessionRowID(sess), sess.Issued.UTC(), sess.LastSeen.UTC(), sess.Expires().UTC()).Exec(ctx)
	if err != nil {
		return classify(err)
	}
	return s.cleanUp(ctx, sess.Issued, loginWindow)
}

// cleanUp deletes the rows that no longer mean anything: sessions past
// their expiry, login windows that have passed. It runs at each login, so
// the tables stay as small as the sessions and attempts of the last weeks.
func (s *Service) cleanUp(ctx context.Context, now time.Time, loginWindow time.Duration) error {
	if _, err := s.db.NewRaw("DELETE FROM sessions WHERE expires_at <= ?", now.UTC()).Exec(ctx); err != nil {
		return classify(err)
	}
	_, err := s.db.NewRaw("DELETE FROM login_attempts WHERE window_start <= ?", now.Add(-loginWindow).UTC()).Exec(ctx)
	return classify(err)
}

// CheckSession reports whether the session is live at now: its row exists
// (no logout ended it) and has not expired. With touch, it also moves the
// session's last-seen time to now, in the same statement.
func (s *Service) CheckSession(ctx context.Context, sess Session, now time.Time, touch bool) (bool, error) {
	now = now.UTC()
	if touch {
		res, err := s.db.NewRaw(`UPDATE sessions SET last_seen = ?1,
			expires_at = LEAST(issued_at + ?2 * interval '1 second', ?1::timestamptz + ?3 * interval '1 second')
			WHERE id = ?0 AND expires_at > ?1`,
			sessionRowID(sess), now, int64(SessionAbsolute/time.Second), int64(SessionIdle/time.Second)).Exec(ctx)
		if err != nil {
			return false, classify(err)
		}
		n, err := res.RowsAffected()
		return n == 1, classify(err)
	}
	var one int
	err := s.db.NewRaw("SELECT 1 FROM sessions WHERE id = ? AND expires_at > ?", sessionRowID(sess), now).Scan(ctx, &one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, classify(err)
}

// EndSession deletes the session's row: its cookie is refused from now on,
// by every instance.
func (s *Service) EndSession(ctx context.Context, sess Session) error {
	_, err := s.db.NewRaw("DELETE FROM sessions WHERE id = ?", sessionRowID(sess)).Exec(ctx)
	return classify(err)
}

// LoginAttempt counts one login attempt from client at now and returns how
// many the client has made in the current window (of length window, begun
// by its first attempt). The count is one upsert on the client's row, so
// attempts racing on two instances are all counted. LoginSucceeded takes a
// successful attempt back out.
func (s *Service) LoginAttempt(ctx context.Context, client string, now time.Time, window time.Duration) (int, error) {
	var n int
	err := s.db.NewRaw(`INSERT INTO login_attempts AS a (client, window_start, failures) VALUES (?0, ?1, 1)
		ON CONFLICT (client) DO UPDATE SET
			failures = CASE WHEN a.window_start <= ?2 THEN 1 ELSE a.failures + 1 END,
			window_start = CASE WHEN a.window_start <= ?2 THEN EXCLUDED.window_start ELSE a.window_start END
		RETURNING failures`,
		client, now.UTC(), now.Add(-window).UTC()).Scan(ctx, &n)
	return n, classify(err)
}

// LoginSucceeded takes back the attempt LoginAttempt counted: only failed
// logins count against the limit.
func (s *Service) LoginSucceeded(ctx context.Context, client string) error {
	_, err := s.db.NewRaw("UPDATE login_attempts SET failures = failures - 1 WHERE client = ? AND failures > 0", client).Exec(ctx)
	return classify(err)
}

// LoginTurn takes the turn of one login attempt in the pace of logins
// across all client addresses: limit attempts in a window pass at once, and
// beyond them each takes the next turn, one every window/limit (the generic
// cell rate algorithm, on the one row of login_pace, so all instances on
// the database keep one pace). A turn more than maxWait after now is not
// taken: ok is false, and turn is when the next one would be. LoginTurnBack
// gives a successful login's turn back: only failed logins count.
func (s *Service) LoginTurn(ctx context.Context, now time.Time, limit int, window, maxWait time.Duration) (turn time.Time, ok bool, err error) {
	every, burst := loginPace(limit, window)
	now = now.UTC()
	var tat time.Time
	err = s.db.NewRaw(`INSERT INTO login_pace AS p (id, tat) VALUES (true, ?0::timestamptz + ?1 * interval '1 microsecond')
		ON CONFLICT (id) DO UPDATE SET tat = GREATEST(p.tat, ?0::timestamptz) + ?1 * interval '1 microsecond'
			WHERE p.tat - ?2 * interval '1 microsecond' <= ?0::timestamptz + ?3 * interval '1 microsecond'
		RETURNING tat`, now, every.Microseconds(), burst.Microseconds(), maxWait.Microseconds()).Scan(ctx, &tat)
	if err == nil {
		// the turn is the earliest time the attempt conforms: the stored
		// time before this attempt's step, less the burst
		return latest(now, tat.Add(-every-burst)), true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, classify(err)
	}
	// refused: the row stayed as it was
	err = s.db.NewRaw("SELECT tat FROM login_pace").Scan(ctx, &tat)
	if errors.Is(err, sql.ErrNoRows) {
		return now, true, nil
	}
	return latest(now, tat.Add(-burst)), false, classify(err)
}

// LoginTurnBack gives back the turn a successful login took.
func (s *Service) LoginTurnBack(ctx context.Context, now time.Time, limit int, window time.Duration) error {
	every, _ := loginPace(limit, window)
	_, err := s.db.NewRaw("UPDATE login_pace SET tat = GREATEST(tat - ?0 * interval '1 microsecond', ?1::timestamptz)",
		every.Microseconds(), now.UTC()).Exec(ctx)
	return classify(err)
}

// loginPace is the spacing of turns and the burst tolerance of limit
// attempts a window: limit attempts pass at once after a quiet window.
func loginPace(limit int, window time.Duration) (every, burst time.Duration) {
	every = window / time.Duration(max(limit, 1))
	return every, window - every
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
