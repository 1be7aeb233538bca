// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"

	"events/models"
)

// Retries (DESIGN.md): a write (a create, a PATCH, an operation) sent with
// an Idempotency-Key records its answer in the table idempotency_keys, in
// the transaction that writes the event, so the event and its record
// commit together or not at all. Nothing
// is kept in memory: several instances on one database share the table and
// PostgreSQL's advisory locks. A key belongs to the credential that sent
// it (IdempotencyKey.Credential): the same key from another credential is
// another key, which never answers what the first was answered.

// IdempotencyTTL is how long a key's outcome is kept and answered again.
const IdempotencyTTL = 24 * time.Hour

// idempotencyLockClass is the first key of the two-key advisory locks of
// Idempotency-Keys ("idem"); the second is hashtext of the credential, a
// space and the key (neither holds a space). Two-key locks
// never meet the one-key migration lock.
const idempotencyLockClass = 0x6964656d

// purgeBatch bounds the expired keys one write removes.
const purgeBatch = 100

// IdempotencyKey is the key of a write, the credential that sent it and
// the fingerprint of its request (a hash of its address, media type and
// body: see handlers/idempotency.go).
type IdempotencyKey struct {
	// Credential names who sent the key: CredentialNone without
	// authentication, CredentialSession for the owner's browser sessions,
	// TokenCredential(token) for an API token.
	Credential  string
	Key         string
	Fingerprint [32]byte
}

// The credentials of IdempotencyKey. Every browser session is the owner's
// one password, so all sessions share one scope: a key resent after the
// session ended and the owner logged in again is still answered once.
const (
	CredentialNone    = "none"
	CredentialSession = "session"
)

// TokenCredential is the credential of an API token: its SHA-256 in hex,
// so the table holds nothing a request could be made with.
func TokenCredential(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "token:" + hex.EncodeToString(sum[:])
}

// Recorded is the answer recorded for a key: what a repeat is answered.
type Recorded struct {
	EventID  int64
	Status   int
	Location string
	ETag     string
	Body     []byte
}

type idempotencyRow struct {
	bun.BaseModel `bun:"table:idempotency_keys"`

	Credential  string    `bun:"credential,pk"`
	Key         string    `bun:"key,pk"`
	Fingerprint []byte    `bun:"fingerprint,notnull"`
	EventID     int64     `bun:"event_id,notnull"`
	Status      int       `bun:"status,notnull"`
	Location    string    `bun:"location,notnull"`
	ETag        string    `bun:"etag,notnull"`
	Body        []byte    `bun:"body,notnull"`
	CreatedAt   time.Time `bun:"created_at,notnull"`
}

// ErrKeyInFlight: a request with the same Idempotency-Key is still running
// (409, the problem type idempotency-in-flight).
var ErrKeyInFlight = &models.ConflictError{Reason: "a request with this Idempotency-Key is still being processed; retry once it has finished"}

// once is the Idempotency-Key of a write and what the write records: the
// first request with the key runs the write and records record(event), its
// answer, in the write's own transaction; a repeat with the same
// fingerprint within IdempotencyTTL runs nothing and gets that record back.
type once struct {
	key    IdempotencyKey
	record func(models.Event) (Recorded, error)
	now    time.Time

	rec      Recorded // the answer recorded, or replayed
	replayed bool
}

// claim takes the key in tx, before the write: held until commit or
// rollback, on any instance, so a second request with the key does not
// wait behind the first; it is told (409). A key recorded with another
// fingerprint is a models.FieldErrors naming the header (422). It reports
// whether the key's answer was found (o.rec, o.replayed): the write is
// then not run.
func (o *once) claim(ctx context.Context, tx bun.Tx) (bool, error) {
	k := o.key
	var mine bool
	if err := tx.QueryRowContext(ctx, "SELECT pg_try_advisory_xact_lock(?, hashtext(?))",
		idempotencyLockClass, k.Credential+" "+k.Key).Scan(&mine); err != nil {
		return false, err
	}
	if !mine {
		return false, ErrKeyInFlight
	}
	var row idempotencyRow
	err := tx.NewSelect().Model(&row).Where("credential = ? AND key = ?", k.Credential, k.Key).Scan(ctx)
	switch {
	case err == nil && row.CreatedAt.After(o.now.Add(-IdempotencyTTL)):
		if !bytes.Equal(row.Fingerprint, k.Fingerprint[:]) {
			return false, models.FieldErrors{{Field: "Idempotency-Key", Code: models.CodeKeyReused, Message: "was sent in the last 24 hours with another request (another address, or another body); use a new key for another change"}}
		}
		o.rec, o.replayed = Recorded{EventID: row.EventID, Status: row.Status, Location: row.Location, ETag: row.ETag, Body: row.Body}, true
		return true, nil
	case err == nil: // expired: the key is free again
		_, err := tx.NewDelete().Model((*idempotencyRow)(nil)).Where("credential = ? AND key = ?", k.Credential, k.Key).Exec(ctx)
		return false, err
	case !errors.Is(err, sql.ErrNoRows):
		return false, err
	}
	return false, nil
}

// store records the answer of the write that stored e, in its transaction.
func (o *once) store(ctx context.Context, tx bun.Tx, e models.Event) error {
	rec, err := o.record(e)
	if err != nil {
		return err
	}
	o.rec = rec
	k := o.key
	_, err = tx.NewInsert().Model(&idempotencyRow{Credential: k.Credential, Key: k.Key, Fingerprint: k.Fingerprint[:], EventID: e.ID,
		Status: rec.Status, Location: rec.Location, ETag: rec.ETag, Body: rec.Body, CreatedAt: o.now}).Exec(ctx)
	return err
}

// runOnce runs write in a transaction under o (nil: no key). The write
// sets *out to the event it stored; nothing is recorded when it fails, so
// the key may be sent again with a corrected request.
func (s *Service) runOnce(ctx context.Context, o *once, out *models.Event, write func(ctx context.Context, tx bun.Tx) error) error {
	if o == nil {
		return s.db.RunInTx(ctx, nil, write)
	}
	if o.key.Credential == "" {
		o.key.Credential = CredentialNone
	}
	o.now = s.now().UTC().Truncate(time.Microsecond)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if found, err := o.claim(ctx, tx); found || err != nil {
			return err
		}
		if err := write(ctx, tx); err != nil {
			return err
		}
		return o.store(ctx, tx, *out)
	})
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) && pgErr.Field('C') == "23505" && pgErr.Field('n') == "idempotency_keys_pkey" {
		return ErrKeyInFlight // cannot happen under the lock; said plainly if it does
	}
	if err == nil && !o.replayed {
		s.purgeIdempotencyKeys(ctx, o.now)
	}
	return err
}

// CreateOnce is CreateFull under an Idempotency-Key. The first request with
// the key stores the event and records record(created), its answer; a repeat
// with the same fingerprint within IdempotencyTTL writes nothing and gets
// that record back (replayed is true). The same key with another
// fingerprint is a models.FieldErrors naming the header (422); a repeat
// while the first still runs a *models.ConflictError (409). A refused
// create records nothing: its transaction rolls back whole, so the key may
// be sent again with a corrected body.
func (s *Service) CreateOnce(ctx context.Context, k IdempotencyKey, in models.Input, actor models.Actor,
	record func(Created) (Recorded, error)) (c Created, rec Recorded, replayed bool, err error) {
	o := &once{key: k, record: func(models.Event) (Recorded, error) { return record(c) }}
	err = s.runOnce(ctx, o, &c.Event, func(ctx context.Context, tx bun.Tx) error {
		made, err := s.createIn(ctx, tx, in, actor)
		if err != nil {
			return err
		}
		c = made
		return nil
	})
	if err != nil {
		return Created{}, Recorded{}, false, classify(err)
	}
	return c, o.rec, o.replayed, nil
}

// PatchOnce is PatchIf under an Idempotency-Key, as CreateOnce is Create:
// a repeat of a PATCH that was answered gets that answer again, whatever
// the event became since, and writes nothing; a refused PATCH records
// nothing. The key is claimed before the event is locked, so a repeat is
// answered even where the first request's If-Match is now stale.
func (s *Service) PatchOnce(ctx context.Context, k IdempotencyKey, id int64, cond *IfMatch, in models.Input, inErr error, actor models.Actor,
	record func(models.Event) (Recorded, error)) (models.Event, Recorded, bool, error) {
	o := &once{key: k, record: record}
	e, err := s.patch(ctx, o, id, cond, in, inErr, actor)
	return e, o.rec, o.replayed, err
}

// OperateOnce is OperateIf under an Idempotency-Key, as PatchOnce is
// PatchIf: a repeated complete gets the first one's answer, not the 409 of
// completing a done task.
func (s *Service) OperateOnce(ctx context.Context, k IdempotencyKey, id int64, cond *IfMatch, op models.Op, in models.Input, inErr error, actor models.Actor,
	record func(models.Event) (Recorded, error)) (models.Event, Recorded, bool, error) {
	o := &once{key: k, record: record}
	e, err := s.operate(ctx, o, id, cond, op, in, inErr, actor)
	return e, o.rec, o.replayed, err
}

// purgeIdempotencyKeys removes up to purgeBatch keys older than
// IdempotencyTTL, skipping rows another instance is removing. Expired keys
// are never answered anyway, so a failure here only leaves rows for the
// next create to remove; it does not fail the create that ran it.
func (s *Service) purgeIdempotencyKeys(ctx context.Context, now time.Time) {
	_, _ = s.db.NewRaw(`DELETE FROM idempotency_keys WHERE (credential, key) IN (
		SELECT credential, key FROM idempotency_keys WHERE created_at <= ? ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED)`,
		now.Add(-IdempotencyTTL), purgeBatch).Exec(ctx)
}
