// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io"
	"strings"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/models"
)

// Retries (DESIGN.md): POST /api/events, PATCH /api/events/{id} and the
// four operations with an Idempotency-Key run once; a repeat with the same
// key, address and body is answered what the first was answered (status,
// event, Location, ETag) and writes nothing. A key belongs to the
// credential that sent it (credential). The record lives in PostgreSQL
// (app/idempotency.go).

// headerIdempotencyKey is the request header, and headerReplayed the
// answer's mark of a repeat answered from the record.
const (
	headerIdempotencyKey = "Idempotency-Key"
	headerReplayed       = "Idempotent-Replayed"
)

// idempotencyKey reads the Idempotency-Key header: "" when there is none;
// 1 to 255 visible ASCII characters, sent once, else 400 naming it.
func idempotencyKey(c *fiber.Ctx) (string, error) {
	values := c.Request().Header.PeekAll(headerIdempotencyKey)
	switch len(values) {
	case 0:
		return "", nil
	case 1:
	default:
		return "", models.BadRequest(headerIdempotencyKey, models.CodeRepeated, "is sent %d times; send it once", len(values))
	}
	key := values[0]
	if len(key) == 0 {
		return "", models.BadRequest(headerIdempotencyKey, models.CodeRequired, "must be 1 to 255 visible ASCII characters; it has %d", len(key))
	}
	if len(key) > 255 {
		return "", models.BadRequest(headerIdempotencyKey, models.CodeTooLong, "must be 1 to 255 visible ASCII characters; it has %d", len(key))
	}
	for _, b := range key {
		if b < 0x21 || b > 0x7e {
			return "", models.BadRequest(headerIdempotencyKey, models.CodeBadFormat, "must be 1 to 255 visible ASCII characters (no spaces, no controls, no other letters)")
		}
	}
	return string(key), nil // a copy: the header's bytes are fasthttp's
}

// credential names who sent the request, the scope of its
// Idempotency-Key: the API token it carries (authenticate let it through
// with a valid one; a token is read before a session there too), the
// owner's browser session, or nobody when authentication is off.
func (h *Handlers) credential(c *fiber.Ctx) string {
	if !h.authOn() {
		return app.CredentialNone
	}
	if authz := c.Get(fiber.HeaderAuthorization); authz != "" {
		_, token, _ := strings.Cut(strings.TrimSpace(authz), " ")
		return app.TokenCredential(strings.TrimSpace(token))
	}
	if _, ok := session(c); ok {
		return app.CredentialSession
	}
	return app.CredentialNone // unreachable: authenticate turned it away
}

// fingerprint identifies the request a key was first sent with: its
// address, its media type, its body (a JSON body by its meaning: its
// canonical form, whatever the order of keys or the spacing) and, when given, the ?tz= a capture
// text is read in (the same text in another zone is another event). The
// create's address is left out, so the fingerprints recorded before the
// other writes took keys (when only the create did) still match; every
// other write's starts with its method and address, which no create's
// can (a create's starts with its media type).
func fingerprint(c *fiber.Ctx) [32]byte {
	h := sha256.New()
	isCreate := c.Method() == fiber.MethodPost && c.Path() == "/api/events"
	if !isCreate {
		h.Write([]byte(c.Method() + " " + c.Path()))
		h.Write([]byte{0})
	}
	mt, body := mediaType(c), c.Body()
	if mt == fiber.MIMEApplicationJSON {
		body = canonicalJSON(body)
	}
	if !isCreate && (len(body) == 0 || string(body) == "{}") && (mt == "" || mt == fiber.MIMEApplicationJSON) {
		// an operation or a PATCH without a body, or with an empty
		// object: the same request
		mt, body = "", nil
	}
	h.Write([]byte(mt))
	h.Write([]byte{0})
	h.Write(body)
	if tz := c.Request().URI().QueryArgs().Peek("tz"); tz != nil {
		h.Write([]byte{0})
		h.Write(tz)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// onceKey is the app's key of a request with an Idempotency-Key.
func (h *Handlers) onceKey(c *fiber.Ctx, key string) app.IdempotencyKey {
	return app.IdempotencyKey{Credential: h.credential(c), Key: key, Fingerprint: fingerprint(c)}
}

// recordAs returns what a PATCH or an operation answered with status
// records for e: the bytes c.JSON sends and its ETag.
func recordAs(status int) func(models.Event) (app.Recorded, error) {
	return func(e models.Event) (app.Recorded, error) {
		body, err := models.EncodeJSON(e)
		return app.Recorded{EventID: e.ID, Status: status, ETag: app.ETag(e), Body: body}, err
	}
}

// replay answers a repeat from its record: the recorded answer for an API
// client; for a page (a resent click or save), draw, which draws the event
// as it is now.
func (h *Handlers) replay(c *fiber.Ctx, rec app.Recorded, draw func(models.Event) error) error {
	c.Set(headerReplayed, "true")
	if fragment(c) {
		e, err := h.svc.Get(c.UserContext(), rec.EventID)
		if err != nil {
			return err
		}
		return draw(e)
	}
	c.Vary("HX-Request")
	if rec.Location != "" {
		c.Location(rec.Location)
	}
	c.Set(fiber.HeaderETag, rec.ETag)
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Status(rec.Status).Send(rec.Body)
}

// createOnce is the create of a request with an Idempotency-Key.
func (h *Handlers) createOnce(c *fiber.Ctx, key string, in models.Input) error {
	made, rec, replayed, err := h.svc.CreateOnce(c.UserContext(), h.onceKey(c, key), in, actor(c), func(made app.Created) (app.Recorded, error) {
		e := made.Event
		return app.Recorded{EventID: e.ID, Status: fiber.StatusCreated, Location: "/api/events/" + itoa(e.ID),
			ETag: app.ETag(e), Body: createdJSON(made)}, nil // the bytes created sends
	})
	if err != nil {
		return h.refused(c, 0, err)
	}
	if replayed {
		// a page's repeat (a resent quick record): the row of the event the
		// first request stored, as it is now
		return h.replay(c, rec, func(e models.Event) error { return h.created(c, app.Created{Event: e}) })
	}
	return h.created(c, made)
}

// canonicalJSON is a JSON body in one spelling: keys sorted, no spaces,
// strings and numbers as they read (a number's digits kept). A body that
// does not parse is itself: the request is refused whatever its key.
func canonicalJSON(body []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return body
	}
	if _, err := d.Token(); err != io.EOF {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}
