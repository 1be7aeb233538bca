package handlers

import (
	"errors"
	"mime"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/utils"

	"events/app"
	"events/models"
)

// decode reads a JSON or form body into the one input type.
func (h *Handlers) decode(c *fiber.Ctx, set models.FieldSet) (models.Input, error) {
	body := c.Body()
	lifecycle := set == models.NoFields || set == models.DeferFields
	if len(body) == 0 && lifecycle {
		return models.Input{}, nil
	}
	switch mediaType(c) {
	case "application/json":
		return models.DecodeJSON(body, set)
	case "application/x-www-form-urlencoded":
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return models.Input{}, models.BadRequest("", "the form body does not parse: %s", err)
		}
		return models.DecodeForm(form, set, h.svc.Location())
	case "":
		if len(body) == 0 {
			return models.Input{}, models.BadRequest("", "the body is empty: send a JSON object")
		}
	}
	return models.Input{}, models.ErrUnsupportedMediaType
}

func mediaType(c *fiber.Ctx) string {
	ct := c.Get(fiber.HeaderContentType)
	if ct == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return "invalid"
	}
	if strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json") {
		return "application/json"
	}
	return mt
}

// actor is who a request acts for: the pages (htmx, or a form they post) or an API client.
func actor(c *fiber.Ctx) models.Actor {
	if c.Get("HX-Request") == "true" || mediaType(c) == "application/x-www-form-urlencoded" {
		return models.ActorUser
	}
	return models.ActorAPI
}

// fragment reports whether the answer is an HTML fragment for htmx: an htmx
// request that is neither a full-page navigation nor a history restore.
func fragment(c *fiber.Ctx) bool {
	return c.Get("HX-Request") == "true" &&
		c.Get("HX-History-Restore-Request") != "true" &&
		c.Get("HX-Request-Type") != "full"
}

// sendEvent answers one event: JSON, or for htmx the part of the page that
// asked: its row, or the detail section. saved says what a save did;
// message why a request was refused.
func (h *Handlers) sendEvent(c *fiber.Ctx, status int, e models.Event, saved, message string) error {
	c.Vary("HX-Request")
	c.Status(status)
	if fragment(c) {
		if targetOf(c) == toDetail {
			return c.Render("partials/detail", h.detail(e, nil, nil, saved, message))
		}
		return c.Render("partials/event_row", h.row(e, message))
	}
	return c.JSON(e)
}

// sendList answers a page of events: JSON, or for htmx its rows and a
// button that fetches the next page from more.
func (h *Handlers) sendList(c *fiber.Ctx, page app.Page[models.Event], more string) error {
	c.Vary("HX-Request")
	if fragment(c) {
		rows, err := h.rows(page.Items)
		if err != nil {
			return err
		}
		return c.Render("partials/event_rows", listView{Rows: rows, More: more})
	}
	return sendPage(c, page)
}

// pageBuffers hold the JSON of a page while it is written; a page of 1000
// events is about 600 KB, so a buffer is reused rather than grown anew.
var pageBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// sendPage answers a page of events as JSON ({"items": [...],
// "next_cursor": ...}), each event appended into one reused buffer.
func sendPage(c *fiber.Ctx, page app.Page[models.Event]) error {
	bp := pageBuffers.Get().(*[]byte)
	b := append((*bp)[:0], `{"items":[`...)
	for i := range page.Items {
		if i > 0 {
			b = append(b, ',')
		}
		b = page.Items[i].AppendJSON(b)
	}
	b = append(b, `],"next_cursor":`...)
	if page.NextCursor == nil {
		b = append(b, "null"...)
	} else {
		b = models.AppendJSONString(b, *page.NextCursor)
	}
	b = append(b, "}\n"...)
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	c.Response().SetBody(b) // copies into the response's own pooled buffer (c.Send would keep b)
	if cap(b) <= 4<<20 {
		*bp = b
		pageBuffers.Put(bp)
	}
	return nil
}

// problem is an RFC 9457 problem details body.
type problem struct {
	Type       string              `json:"type"`
	Title      string              `json:"title"`
	Status     int                 `json:"status"`
	Detail     string              `json:"detail"`
	Errors     []models.FieldError `json:"errors"`
	ExistingID *int64              `json:"existing_id,omitempty"`
}

// problemFor maps an error to its status and problem; this is the only place
// an error picks its status.
func problemFor(err error) problem {
	p := problem{Type: "about:blank", Errors: []models.FieldError{}}
	var (
		bad   *models.BadRequestError
		conf  *models.ConflictError
		dup   *models.DuplicateError
		field models.FieldErrors
		ferr  *fiber.Error
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
	case errors.As(err, &dup):
		p.Status, p.Detail, p.ExistingID = fiber.StatusConflict, dup.Error(), &dup.ExistingID
	case errors.As(err, &field):
		p.Status, p.Errors = fiber.StatusUnprocessableEntity, field
		p.Detail = "The request has a problem with " + plural(len(field), "field") + ": " + field.Error()
	case errors.Is(err, app.ErrUnavailable):
		p.Status, p.Detail = fiber.StatusServiceUnavailable, "The database is not answering; try again shortly."
	case errors.As(err, &ferr):
		p.Status, p.Detail = ferr.Code, ferr.Message
		switch ferr.Code {
		case fiber.StatusNotFound:
			p.Detail = "There is nothing at this address."
		case fiber.StatusRequestEntityTooLarge:
			p.Detail = "The body is larger than " + strconv.Itoa(BodyLimit>>10) + " KiB."
		}
	default:
		p.Status, p.Detail = fiber.StatusInternalServerError, "Something went wrong on our side; it has been logged."
	}
	p.Title = statusTitle(p.Status)
	return p
}

// loggedFields names the fields of a problem for the log: a name the API
// knows as itself, any other as "(unknown)".
func loggedFields(errs []models.FieldError) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = "(unknown)"
		if models.KnownName(e.Field) {
			out[i] = e.Field
		}
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
	p := problemFor(err)
	setSecurityHeaders(c)
	rid := c.GetRespHeader(fiber.HeaderXRequestID)
	if rid == "" {
		// an error the server raised before any middleware ran (a body over the limit)
		rid = utils.UUID()
		c.Set(fiber.HeaderXRequestID, rid)
	}
	if p.Status >= 500 {
		h.log.Error("request failed", "id", rid, "method", c.Method(), "path", c.Path(), "status", p.Status, "error", err)
	} else {
		// The reason is in the answer; the log keeps the status and the
		// names of the fields at fault, never what the client sent (a name
		// the API does not know may be anything, a password too).
		h.log.Warn("request refused", "id", rid, "method", c.Method(), "path", c.Path(), "status", p.Status, "fields", loggedFields(p.Errors))
	}
	if p.ExistingID != nil {
		c.Location("/api/events/" + strconv.FormatInt(*p.ExistingID, 10))
	}
	c.Status(p.Status)
	c.Vary("HX-Request") // the JSON and the fragment of an error differ too
	if fragment(c) {
		if p.Status >= 500 {
			// the part of the page that asked stays as it was; the page says what failed
			c.Set("HX-Retarget", "#flash")
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
