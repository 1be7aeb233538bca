// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/utils"

	"events/app"
	"events/internal/i18n"
	"events/models"
)

// problem is an RFC 9457 problem details body. Type is the URI of one of
// the problem types (problems.go), each entry of Errors carries a code.
type problem struct {
	Type       string              `json:"type"`
	Title      string              `json:"title"`
	Status     int                 `json:"status"`
	Detail     string              `json:"detail"`
	Errors     []models.FieldError `json:"errors"`
	ExistingID *int64              `json:"existing_id,omitempty"`
	Overlaps   []models.Overlap    `json:"overlaps,omitempty"` // a create refused for its overlaps
	// an illegal lifecycle step: the event's status and what it allows
	EventStatus       models.Status `json:"event_status,omitempty"`
	AllowedOperations *[]models.Op  `json:"allowed_operations,omitempty"`
	more              int           // fields at fault beyond the MaxNamedFields named
	// RetryAfter (seconds) is sent as the Retry-After header (a 503, and
	// the 409 of a key still in flight).
	RetryAfter int `json:"-"`
}

// MaxNamedFields is how many fields at fault a 422 names, in its answer and
// in the log; the rest are counted ("and 980 more").
const MaxNamedFields = 20

// problemFor maps an error to its status and problem; this is the only place
// an error picks its status and its problem type. A new kind of refusal
// gets a case here and a type in problems.go.
// keyInFlightRetryAfter is the Retry-After of a repeat sent while the
// first request with its Idempotency-Key still runs: a write ends within
// the request deadline, most within a second.
const keyInFlightRetryAfter = 1

func problemFor(err error) problem {
	// Every constructor of a field error takes a code; a literal without
	// one fails TestEveryFieldErrorHasACode, and an answer without one
	// fails the test that made it (the document's enum, checkAPI).
	p := problemOf(err)
	p.Title = statusTitle(p.Status)
	return p
}

func problemOf(err error) problem {
	p := problem{Errors: []models.FieldError{}}
	var (
		bad     *models.BadRequestError
		conf    *models.ConflictError
		dup     *models.DuplicateError
		over    *models.OverlapError
		field   models.FieldErrors
		ferr    *fiber.Error
		stale   *app.PreconditionError
		wait    *loginWaitError
		exports exportsBusy
	)
	switch {
	case errors.Is(err, models.ErrNotFound):
		p.Type, p.Status, p.Detail = typeNotFound.URI(), fiber.StatusNotFound, "There is no such event."
	case errors.As(err, &bad):
		p.Type, p.Status, p.Detail = typeMalformed.URI(), fiber.StatusBadRequest, bad.Error()
		if bad.Field != "" {
			p.Errors = append(p.Errors, models.FieldError{Field: bad.Field, Code: bad.Code, Message: bad.Reason})
		}
	case errors.Is(err, models.ErrUnsupportedMediaType):
		p.Type, p.Status, p.Detail = typeUnsupportedMediaType.URI(), fiber.StatusUnsupportedMediaType, err.Error()
	case errors.Is(err, app.ErrKeyInFlight): // before ConflictError, which it is
		p.Type, p.Status, p.Detail, p.RetryAfter = typeIdempotencyInFlight.URI(), fiber.StatusConflict, err.Error(), keyInFlightRetryAfter
	case errors.As(err, &conf):
		p.illegalStep(conf)
	case errors.As(err, &over):
		p.Type, p.Status, p.Detail, p.Overlaps = typeOverlap.URI(), fiber.StatusConflict, over.Reason, over.Overlaps
	case errors.As(err, &dup):
		p.Type, p.Status, p.Detail, p.ExistingID = typeDuplicateSource.URI(), fiber.StatusConflict, dup.Error(), &dup.ExistingID
	case errors.As(err, &field):
		p.invalid(field)
	case errors.As(err, &stale): // If-Match (etag.go), which also sets the current ETag
		p.Type, p.Status = typeStalePrecondition.URI(), fiber.StatusPreconditionFailed
		p.Detail = "The event changed since you read it (its ETag is now " + app.ETag(stale.Current) + "); nothing was written. Read it again, then retry with the new ETag in If-Match."
	case errors.Is(err, app.ErrDiskFull):
		p.Type, p.Status, p.RetryAfter = typeUnavailable.URI(), fiber.StatusServiceUnavailable, 30
		p.Detail = "The database's disk is full, so nothing can be saved until space is freed on the server; reading goes on while the database runs. Try again later."
	case errors.As(err, &wait): // before errBusy, which it wraps
		p.Type, p.Status, p.RetryAfter = typeOverloaded.URI(), fiber.StatusServiceUnavailable, max(wait.after, 1)
		p.Detail = "Many logins are being tried, so each waits its turn; the password was not checked. Try again in " + plural(p.RetryAfter, "second") + "."
	case errors.As(err, &exports): // before errBusy, which it wraps
		p.Type, p.Status, p.RetryAfter = typeOverloaded.URI(), fiber.StatusServiceUnavailable, exportRetryAfter
		p.Detail = "The service runs at most " + strconv.Itoa(exports.max) + " exports at once, and that many are running; nothing was done. Try again when one has finished."
	case errors.Is(err, errBusy):
		p.Type, p.Status, p.RetryAfter = typeOverloaded.URI(), fiber.StatusServiceUnavailable, busyRetryAfter
		p.Detail = "The service is busy with other requests; nothing was done. Try again in a moment."
	case errors.Is(err, app.ErrUnavailable):
		p.Type, p.Status, p.RetryAfter = typeUnavailable.URI(), fiber.StatusServiceUnavailable, 5
		p.Detail = "The database is not answering; try again shortly."
	case errors.As(err, &ferr):
		p.fromFiber(ferr)
	default:
		p.Type, p.Status, p.Detail = typeInternal.URI(), fiber.StatusInternalServerError, "Something went wrong on our side; it has been logged."
	}
	return p
}

// illegalStep is the 409 of a lifecycle step the event's status does not
// allow. Every such 409 names what makes the step impossible, with a
// code; the status and what it allows when the event is at hand (an undo
// that lost a race learns them by reading the event again).
func (p *problem) illegalStep(conf *models.ConflictError) {
	p.Type, p.Status, p.Detail = typeIllegalTransition.URI(), fiber.StatusConflict, conf.Reason
	field := conf.Field
	if field == "" {
		field = "status"
	}
	p.Errors = append(p.Errors, models.FieldError{Field: field, Code: models.CodeIllegalStep, Message: conf.Reason})
	if e := conf.Event; e != nil {
		allowed := append([]models.Op{}, models.Available(e)...)
		p.EventStatus, p.AllowedOperations = e.Status, &allowed
	}
}

// invalid is the 422 of fields that are wrong. A body of thousands of
// unknown keys is named in part: the answer and the log stay small
// whatever the body holds.
func (p *problem) invalid(field models.FieldErrors) {
	named := field
	if len(named) > MaxNamedFields {
		named, p.more = named[:MaxNamedFields], len(field)-MaxNamedFields
	}
	p.Type, p.Status, p.Errors = typeValidation.URI(), fiber.StatusUnprocessableEntity, named
	if slices.ContainsFunc(field, func(e models.FieldError) bool { return e.Code == models.CodeKeyReused }) {
		p.Type = typeIdempotencyMismatch.URI()
	}
	p.Detail = "The request has a problem with " + plural(len(field), "field") + ": " + named.Error()
	if p.more > 0 {
		p.Detail += "; and " + strconv.Itoa(p.more) + " more"
	}
}

// fromFiber is the problem of an error fiber answers itself (no route, a
// body or head too large), in words of the service's limits.
func (p *problem) fromFiber(ferr *fiber.Error) {
	p.Type, p.Status, p.Detail = typeOfStatus(ferr.Code).URI(), ferr.Code, ferr.Message
	switch ferr.Code {
	case fiber.StatusNotFound:
		p.Detail = "There is nothing at this address."
	case fiber.StatusRequestEntityTooLarge:
		p.Detail = "The body is larger than " + strconv.Itoa(BodyLimit>>10) + " KiB."
	case fiber.StatusRequestHeaderFieldsTooLarge:
		p.Detail = "The request's head (its headers, cookies included) is larger than " + strconv.Itoa((HeadLimit-8<<10)>>10) + " KiB."
	}
}

// loggedFields names the fields of a problem for the log: a name the API
// knows as itself, any other as "(unknown)".
func loggedFields(errs []models.FieldError, more int) []string {
	out := make([]string, len(errs), len(errs)+1)
	for i, e := range errs {
		out[i] = "(unknown)"
		if models.KnownName(e.Field) {
			out[i] = e.Field
		}
	}
	if more > 0 {
		out = append(out, "and "+strconv.Itoa(more)+" more")
	}
	return out
}

func statusTitle(status int) string {
	switch status {
	case fiber.StatusUnprocessableEntity:
		return "Unprocessable Content"
	case fiber.StatusRequestEntityTooLarge:
		return "Content Too Large"
	}
	return utils.StatusMessage(status)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// problemIn is p in the language l: English as it is; in another
// language its title is its type's name and its detail the type's
// sentence from the catalogue (problem_ and the slug, _name and _detail),
// and each field error says what its code means (error_ and the code).
// The type, the status, the fields and the codes stay as they are, so a
// script reads them whatever the language.
func problemIn(l *i18n.Lang, p problem) problem {
	if l == i18n.English {
		return p
	}
	t := problemTypeBySlug(strings.TrimPrefix(p.Type, problemsPath))
	if t == nil {
		return p
	}
	p.Title, p.Detail = l.T(problemID(t)+"_name"), l.T(problemID(t)+"_detail")
	errs := make([]models.FieldError, len(p.Errors))
	for i, e := range p.Errors {
		e.Message = fieldErrorIn(l, e.Code, e.Message, e.Says)
		errs[i] = e
	}
	p.Errors = errs
	return p
}

// errorHandler is the one error mapper: problem details for API clients, a
// fragment for htmx, with the same status. 5xx are logged as errors, 4xx as
// warnings.
func (h *Handlers) errorHandler(c *fiber.Ctx, err error) error {
	if errors.Is(err, app.ErrUnavailable) && !errors.Is(err, app.ErrDiskFull) && h.opts.DatabaseFault != nil {
		if fault := h.opts.DatabaseFault(); fault != nil {
			err = fmt.Errorf("%w: %w", fault, err) // why the database is away, when it is known
		}
	}
	p := problemFor(err)
	setSecurityHeaders(c)
	rid := c.GetRespHeader(fiber.HeaderXRequestID)
	if rid == "" {
		// An error the server raised before any middleware ran: a body over
		// the limit, a head too large or that does not parse. fasthttp's
		// message quotes the request ("Buffer size=68", bytes of the head):
		// the answer says only what was wrong. The connection is closed
		// lingering, so the client reads this answer rather than a reset.
		rid = utils.UUID()
		c.Set(fiber.HeaderXRequestID, rid)
		if p.Status == fiber.StatusBadRequest {
			p.Detail = "The request is not well-formed HTTP."
		}
		lingerOnClose(c)
	}
	if p.Status == fiber.StatusRequestEntityTooLarge {
		lingerOnClose(c)
	}
	if errors.Is(err, errBusy) {
		// A flood refused: the request line (status 503) says enough, and an
		// error line for each refusal would double the log's cost then.
	} else if p.Status >= 500 {
		h.log.Error("request failed", "id", rid, "method", c.Method(), "path", loggedPath(c), "status", p.Status, "error", err)
	} else {
		// The reason is in the answer; the log keeps the status and the
		// names of the fields at fault, never what the client sent (a name
		// the API does not know may be anything, a password too).
		h.log.Warn("request refused", "id", rid, "method", c.Method(), "path", loggedPath(c), "status", p.Status, "fields", loggedFields(p.Errors, p.more))
	}
	if p.RetryAfter > 0 {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(p.RetryAfter))
	}
	if p.ExistingID != nil {
		c.Location("/api/events/" + strconv.FormatInt(*p.ExistingID, 10))
	}
	c.Status(p.Status)
	if fragment(c) {
		if p.Status >= 500 {
			// the part of the page that asked stays as it was; the page says what failed
			c.Set("HX-Retarget", "#"+idFlash)
			c.Set("HX-Reswap", "innerHTML")
		}
		return h.page(c, "partials/problem", problemIn(h.lang(c), p))
	}
	if wantsPage(c) {
		p = problemIn(h.lang(c), p)
		return h.page(c, "pages/error", errorPage{chrome: h.chrome(c, p.Title), Problem: p})
	}
	body, merr := c.App().Config().JSONEncoder(problemIn(apiLang(c), p))
	if merr != nil {
		return merr
	}
	c.Set(fiber.HeaderContentType, "application/problem+json")
	return c.Send(body)
}
