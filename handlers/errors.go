package handlers

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/utils"

	"events/app"
	"events/models"
)

// problem is an RFC 9457 problem details body.
type problem struct {
	Type       string              `json:"type"`
	Title      string              `json:"title"`
	Status     int                 `json:"status"`
	Detail     string              `json:"detail"`
	Errors     []models.FieldError `json:"errors"`
	ExistingID *int64              `json:"existing_id,omitempty"`
	Overlaps   []models.Overlap    `json:"overlaps,omitempty"` // a create refused for its overlaps
	more       int                 // fields at fault beyond the MaxNamedFields named
	// RetryAfter (seconds) is sent as the Retry-After header of a 503.
	RetryAfter int `json:"-"`
}

// MaxNamedFields is how many fields at fault a 422 names, in its answer and
// in the log; the rest are counted ("and 980 more").
const MaxNamedFields = 20

// problemFor maps an error to its status and problem; this is the only place
// an error picks its status.
func problemFor(err error) problem {
	p := problem{Type: "about:blank", Errors: []models.FieldError{}}
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
		p.Status, p.Detail = fiber.StatusNotFound, "There is no such event."
	case errors.As(err, &bad):
		p.Status, p.Detail = fiber.StatusBadRequest, bad.Error()
		if bad.Field != "" {
			p.Errors = append(p.Errors, models.FieldError{Field: bad.Field, Message: bad.Reason})
		}
	case errors.Is(err, models.ErrUnsupportedMediaType):
		p.Status, p.Detail = fiber.StatusUnsupportedMediaType, err.Error()
	case errors.As(err, &conf):
		p.Status, p.Detail = fiber.StatusConflict, conf.Reason
	case errors.As(err, &over):
		p.Status, p.Detail, p.Overlaps = fiber.StatusConflict, over.Reason, over.Overlaps
	case errors.As(err, &dup):
		p.Status, p.Detail, p.ExistingID = fiber.StatusConflict, dup.Error(), &dup.ExistingID
	case errors.As(err, &field):
		// A body of thousands of unknown keys is named in part: the answer
		// and the log stay small whatever the body holds.
		named := field
		if len(named) > MaxNamedFields {
			named, p.more = named[:MaxNamedFields], len(field)-MaxNamedFields
		}
		p.Status, p.Errors = fiber.StatusUnprocessableEntity, named
		p.Detail = "The request has a problem with " + plural(len(field), "field") + ": " + named.Error()
		if p.more > 0 {
			p.Detail += "; and " + strconv.Itoa(p.more) + " more"
		}
	case errors.As(err, &stale): // If-Match (etag.go), which also sets the current ETag
		p.Status = fiber.StatusPreconditionFailed
		p.Detail = "The event changed since you read it (its ETag is now " + app.ETag(stale.Current) + "); nothing was written. Read it again, then retry with the new ETag in If-Match."
	case errors.Is(err, app.ErrDiskFull):
		p.Status, p.RetryAfter = fiber.StatusServiceUnavailable, 30
		p.Detail = "The database's disk is full, so nothing can be saved until space is freed on the server; reading goes on while the database runs. Try again later."
	case errors.As(err, &wait): // before errBusy, which it wraps
		p.Status, p.RetryAfter = fiber.StatusServiceUnavailable, max(wait.after, 1)
		p.Detail = "Many logins are being tried, so each waits its turn; the password was not checked. Try again in " + plural(p.RetryAfter, "second") + "."
	case errors.As(err, &exports): // before errBusy, which it wraps
		p.Status, p.RetryAfter = fiber.StatusServiceUnavailable, exportRetryAfter
		p.Detail = "The service runs at most " + strconv.Itoa(exports.max) + " exports at once, and that many are running; nothing was done. Try again when one has finished."
	case errors.Is(err, errBusy):
		p.Status, p.RetryAfter = fiber.StatusServiceUnavailable, busyRetryAfter
		p.Detail = "The service is busy with other requests; nothing was done. Try again in a moment."
	case errors.Is(err, app.ErrUnavailable):
		p.Status, p.RetryAfter = fiber.StatusServiceUnavailable, 5
		p.Detail = "The database is not answering; try again shortly."
	case errors.As(err, &ferr):
		p.Status, p.Detail = ferr.Code, ferr.Message
		switch ferr.Code {
		case fiber.StatusNotFound:
			p.Detail = "There is nothing at this address."
		case fiber.StatusRequestEntityTooLarge:
			p.Detail = "The body is larger than " + strconv.Itoa(BodyLimit>>10) + " KiB."
		case fiber.StatusRequestHeaderFieldsTooLarge:
			p.Detail = "The request's head (its headers, cookies included) is larger than " + strconv.Itoa((HeadLimit-8<<10)>>10) + " KiB."
		}
	default:
		p.Status, p.Detail = fiber.StatusInternalServerError, "Something went wrong on our side; it has been logged."
	}
	p.Title = statusTitle(p.Status)
	return p
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
		return c.Render("partials/problem", p)
	}
	if wantsPage(c) {
		return c.Render("pages/error", errorPage{chrome: h.chrome(c, p.Title), Problem: p})
	}
	body, merr := c.App().Config().JSONEncoder(p)
	if merr != nil {
		return merr
	}
	c.Set(fiber.HeaderContentType, "application/problem+json")
	return c.Send(body)
}
