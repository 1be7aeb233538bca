// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/internal/i18n"
	"events/models"
)

// Concurrent edits (DESIGN.md): every answer with one event carries its
// ETag; PATCH and the operations honour If-Match. The pages send the
// validator of the event as drawn: a row (li.event-row) that offers a
// write (rowView.Writes) and the detail section carry it as data-etag, and
// app.js puts it into an If-Match header of every htmx request sent from
// inside them (the edit form, each lifecycle button, the undo button, the
// defer presets and the custom defer).

// The sentences of a refused stale request, on the part of the page redrawn.
const (
	staleRow  = "stale_row" // the catalogue's ids
	staleForm = "stale_form"
)

// setETag sets the ETag of e on the answer.
func setETag(c *fiber.Ctx, e models.Event) {
	c.Set(fiber.HeaderETag, app.ETag(e))
}

// ETag is the validator the row was drawn with (data-etag).
func (r rowView) ETag() string { return app.ETag(*r.Event) }

// Writes reports whether the row, drawn, holds a control that writes its
// event: a lifecycle button, the undo note's button or a running log's
// Stop. Only such a row
// carries data-etag. A done log offers neither, and its tag, some twenty
// digits of a microsecond time that no later row repeats, was a tenth of a
// Today page's compressed bytes and of the time gzip spent on it.
func (r rowView) Writes() bool { return len(r.Ops) > 0 || r.UndoNote != "" || r.Running() }

// ifMatch reads the If-Match header (RFC 9110, 13.1.1): nil when there is
// none, "*", or a list of entity tags; several header lines add up. A value
// that is not one of these is 400 naming the header.
func ifMatch(c *fiber.Ctx) (*app.IfMatch, error) {
	lines := c.Request().Header.PeekAll(fiber.HeaderIfMatch)
	if len(lines) == 0 {
		return nil, nil
	}
	m := &app.IfMatch{}
	for _, line := range lines {
		if err := parseIfMatch(string(line), m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// parseIfMatch adds the tags of one If-Match line to m.
func parseIfMatch(s string, m *app.IfMatch) error {
	star, err := parseTags(fiber.HeaderIfMatch, s, func(tag string, weak bool) {
		if !weak {
			m.Tags = append(m.Tags, tag)
		}
	})
	if star {
		m.Any = true
	}
	if len(m.Tags) == 0 && !m.Any {
		m.Tags = []string{} // only weak tags: a list that nothing matches
	}
	return err
}

// parseTags reads one line of If-Match or If-None-Match (header): true for
// "*", else each entity tag in turn, its quotes kept, and whether it was
// weak (W/). A value that is neither is 400 naming the header.
func parseTags(header, s string, tag func(t string, weak bool)) (bool, error) {
	bad := func(why string) error {
		return models.BadRequest(header, models.CodeBadFormat, "%s: send * or entity tags as the ETag header gave them, such as \"12.1795400000123456\"", why)
	}
	s = strings.Trim(s, " \t")
	if s == "*" {
		return true, nil
	}
	// Empty list elements are ignored wherever they are (RFC 9110, 5.6.1):
	// `, "a"` and `"a", , "b"` name the tags they hold. A line with no tag
	// at all is refused as empty.
	if s = strings.TrimLeft(s, " \t,"); s == "" {
		return false, bad("is empty")
	}
	for s != "" {
		weak := strings.HasPrefix(s, "W/")
		if weak {
			s = s[2:]
		}
		if len(s) < 2 || s[0] != '"' {
			return false, bad("is not a list of quoted entity tags")
		}
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return false, bad("has an entity tag without its closing quote")
		}
		t := s[:end+2]
		for i := 1; i < len(t)-1; i++ {
			if b := t[i]; b < 0x21 || b == 0x7f { // etagc: visible characters but DQUOTE
				return false, bad("has a character an entity tag cannot hold")
			}
		}
		tag(strings.Clone(t), weak) // the header's bytes are fasthttp's
		s = strings.TrimLeft(s[end+2:], " \t")
		if s == "" {
			break
		}
		if s[0] != ',' {
			return false, bad("is not a comma-separated list")
		}
		s = strings.TrimLeft(s[1:], " \t,")
	}
	return false, nil
}

// notModified answers 304 Not Modified, with no body, when the request's
// If-None-Match names etag (RFC 9110, 13.1.2: "*", or any tag equal to it
// by the weak comparison, W/ or not), and reports whether it did. etag is
// the answer's own validator, strong or weak; it goes out on the 304 too.
// A GET without If-None-Match, or one that names other tags, is answered
// in full; an If-None-Match that does not parse is 400.
func notModified(c *fiber.Ctx, etag string) (bool, error) {
	lines := c.Request().Header.PeekAll(fiber.HeaderIfNoneMatch)
	if len(lines) == 0 {
		return false, nil
	}
	opaque := strings.TrimPrefix(etag, "W/")
	match := false
	for _, line := range lines {
		star, err := parseTags(fiber.HeaderIfNoneMatch, string(line), func(t string, _ bool) {
			if t == opaque {
				match = true
			}
		})
		if err != nil {
			return false, err
		}
		match = match || star
	}
	if !match {
		return false, nil
	}
	c.Set(fiber.HeaderETag, etag)
	c.Status(fiber.StatusNotModified)
	c.Response().ResetBody()
	return true, nil
}

// listETag is the weak validator of a listing's answer: a hash of the
// body as sent. Weak, since the same events may one day be written out
// with other bytes (a field added) and still be the same listing; strong
// enough for a client to learn that nothing it listed changed.
func listETag(body []byte) string {
	sum := sha256.Sum256(body)
	return `W/"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
}

// refusedWrite answers a refused PATCH or operation. A stale If-Match is
// 412: an API client gets problem details and the event's current ETag; a
// page gets the part it sent from drawn again as the event now is, with a
// sentence, an edit form keeping what was typed. Other refusals go to
// refused.
func (h *Handlers) refusedWrite(c *fiber.Ctx, id int64, err error) error {
	var stale *app.PreconditionError
	if !errors.As(err, &stale) {
		return h.refused(c, id, err)
	}
	e := stale.Current
	setETag(c, e)
	if !fragment(c) {
		return err // problem details, 412 (errors.go)
	}
	c.Vary("HX-Request")
	c.Status(fiber.StatusPreconditionFailed)
	if targetOf(c) == toDetail {
		if c.Method() == fiber.MethodPatch {
			form, _ := url.ParseQuery(string(c.Body()))
			return h.page(c, "partials/detail", h.detail(c, e, form, nil, h.lang(c).T(staleForm)+h.differs(h.lang(c), form, e), ""))
		}
		return h.page(c, "partials/detail", h.detail(c, e, nil, nil, "", h.lang(c).T(staleRow)))
	}
	return sendRow(c, h.row(c, e, h.lang(c).T(staleRow)))
}

// differs names the fields whose typed value is not what is stored now.
func (h *Handlers) differs(l *i18n.Lang, typed url.Values, e models.Event) string {
	now := formValues(e, h.svc.Zone())
	var names []string
	for _, f := range newForm(e.Kind, now, nil, h.svc.Zone()).Fields {
		a, b := typed.Get(f.Name), now.Get(f.Name)
		if f.Type == "checkbox" {
			a, b = boolText(a), boolText(b)
		}
		if a != b && !sameTime(a, b, h.svc.Zone()) {
			names = append(names, fieldLabelIn(l, f.Field))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " " + l.T("stale_differs", "Fields", strings.Join(names, ", "))
}

// sameTime reports whether two form values are times and the same
// instant in loc: "2026-11-26 18:00", as the 24-hour field shows it, is
// "2026-11-26T18:00", as formValues writes it.
func sameTime(a, b string, loc *time.Location) bool {
	ta, _, msg := models.ParseTime(a, loc)
	if msg != "" || a == "" {
		return false
	}
	tb, _, msg := models.ParseTime(b, loc)
	return msg == "" && b != "" && ta.Equal(tb)
}

func boolText(v string) string {
	if v != "" && v != "false" && v != "0" {
		return "on"
	}
	return ""
}
