// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/models"
)

// create: POST /api/events. Created from the new-event page, the answer
// sends the browser to the new event's page.
func (h *Handlers) create(c *fiber.Ctx) error {
	key, err := idempotencyKey(c) // Idempotency-Key: see idempotency.go
	if err != nil {
		return err
	}
	in, err := h.decode(c, models.CreateFields)
	if err != nil {
		return h.refused(c, 0, err)
	}
	if in.TextZone, err = createZone(c); err != nil {
		return err
	}
	if in.Text.Set {
		c.Locals(localCaptured, true) // the new row says what the text meant (capture.go)
	}
	if key != "" {
		return h.createOnce(c, key, in)
	}
	made, err := h.svc.CreateFull(c.UserContext(), in, actor(c))
	if err != nil {
		return h.refused(c, 0, err)
	}
	return h.created(c, made)
}

// created answers a stored create: 201 with its Location and ETag; for
// the API, the event and a log's overlaps (createdJSON); for a page's
// line, its row, saying what the text was read as or what the log
// overlaps, and the rows of the logs it stopped, each in its place
// (timers.go).
func (h *Handlers) created(c *fiber.Ctx, made app.Created) error {
	e := made.Event
	c.Location("/api/events/" + itoa(e.ID))
	page := fragment(c)
	switch {
	case page && targetOf(c) == toNewForm:
		c.Set("HX-Redirect", "/events/"+itoa(e.ID))
		setETag(c, e)
		return c.SendStatus(fiber.StatusCreated)
	case page && targetOf(c) != toDetail:
		c.Status(fiber.StatusCreated)
		setETag(c, e)
		r := h.row(e, "")
		// what a capture line was read as (capture.go)
		r.Note = h.understood(c, e)
		if e.Kind == models.KindTask && r.Note != "" {
			return h.sendCaptured(c, e, r) // where its tab puts it (captureplace.go)
		}
		// a log says both how its line was read and what it overlaps
		if o := overlapNote(made.Overlaps); o != "" {
			r.Note = strings.TrimSpace(r.Note + " " + o)
			r.Fix = newOverlapFix(made.Before, h.svc.Location())
		}
		return h.sendRows(c, r, made.Stopped)
	case !page:
		c.Status(fiber.StatusCreated)
		setETag(c, e)
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(createdJSON(made))
	}
	return h.sendEvent(c, fiber.StatusCreated, e, "", "")
}

// get: GET /api/events/{id}. It takes no query parameters: one is 400, as
// on the listings, after an unknown event's 404. An If-None-Match that
// names the event's ETag is 304 Not Modified (etag.go).
func (h *Handlers) get(c *fiber.Ctx) error {
	e, err := h.event(c)
	if err != nil {
		return err
	}
	if err := noQuery(c); err != nil {
		return err
	}
	if same, err := notModified(c, app.ETag(e)); same || err != nil {
		return err
	}
	return h.sendEvent(c, fiber.StatusOK, e, "", "")
}

// event reads the event of the path's {id}.
func (h *Handlers) event(c *fiber.Ctx) (models.Event, error) {
	id, err := eventID(c)
	if err != nil {
		return models.Event{}, err
	}
	return h.svc.Get(c.UserContext(), id)
}

// patch: PATCH /api/events/{id}.
func (h *Handlers) patch(c *fiber.Ctx) error {
	id, err := eventID(c)
	if err != nil {
		return err
	}
	cond, err := ifMatch(c) // If-Match: see etag.go
	if err != nil {
		return err
	}
	key, err := idempotencyKey(c) // Idempotency-Key: see idempotency.go
	if err != nil {
		return err
	}
	in, inErr := h.decode(c, models.PatchFields)
	var e models.Event
	if key == "" {
		e, err = h.svc.PatchIf(c.UserContext(), id, cond, in, inErr, actor(c))
	} else {
		var rec app.Recorded
		var replayed bool
		e, rec, replayed, err = h.svc.PatchOnce(c.UserContext(), h.onceKey(c, key), id, cond, in, inErr, actor(c), recordAs(fiber.StatusOK))
		if err == nil && replayed {
			return h.replay(c, rec, func(e models.Event) error { return h.sendEvent(c, fiber.StatusOK, e, "Saved.", "") })
		}
	}
	if err != nil {
		return h.refusedWrite(c, id, err)
	}
	changed(c)
	return h.sendEvent(c, fiber.StatusOK, e, "Saved.", "")
}

// operate: POST /api/events/{id}/{complete|cancel|defer|reactivate}.
func (h *Handlers) operate(op models.Op) fiber.Handler {
	set := models.NoFields
	if op == models.OpDefer {
		set = models.DeferFields
	}
	return func(c *fiber.Ctx) error {
		id, err := eventID(c)
		if err != nil {
			return err
		}
		cond, err := ifMatch(c) // If-Match: see etag.go
		if err != nil {
			return err
		}
		key, err := idempotencyKey(c) // Idempotency-Key: see idempotency.go
		if err != nil {
			return err
		}
		in, inErr := h.decode(c, set)
		var e models.Event
		if key == "" {
			e, err = h.svc.OperateIf(c.UserContext(), id, cond, op, in, inErr, actor(c))
		} else {
			var rec app.Recorded
			var replayed bool
			e, rec, replayed, err = h.svc.OperateOnce(c.UserContext(), h.onceKey(c, key), id, cond, op, in, inErr, actor(c), recordAs(fiber.StatusOK))
			if err == nil && replayed {
				return h.replay(c, rec, func(e models.Event) error { return h.sendOperated(c, op, e) })
			}
		}
		if err != nil {
			return h.refusedWrite(c, id, err)
		}
		changed(c)
		return h.sendOperated(c, op, e) // with the undo message: undoview.go
	}
}

// listing serves one listing of the API: GET /api/events, /today, /inbox
// and /activity.
func (h *Handlers) listing(l listing) fiber.Handler {
	return func(c *fiber.Ctx) error {
		q, err := queryValues(c)
		if err != nil {
			return err
		}
		page, err := h.load(c, l, q)
		if err != nil {
			return err
		}
		if err := h.sendList(c, page, more(c.Path(), q, page.NextCursor)); err != nil || fragment(c) {
			return err
		}
		// the JSON answer's weak validator, and If-None-Match on it (etag.go)
		etag := listETag(c.Response().Body())
		if _, err := notModified(c, etag); err != nil {
			c.Response().ResetBody()
			return err
		}
		c.Set(fiber.HeaderETag, etag)
		return nil
	}
}

// load runs a listing with the query q: the one path of the API's
// listings and of the tabs of /events.
func (h *Handlers) load(c *fiber.Ctx, l listing, q url.Values) (app.Page[models.Event], error) {
	lq, err := models.ParseListQuery(l.Name, q, h.svc.Location())
	if err != nil {
		return app.Page[models.Event]{}, err
	}
	return l.Run(h.svc, c.UserContext(), lq)
}

// history: GET /api/events/{id}/history.
func (h *Handlers) history(c *fiber.Ctx) error {
	id, err := eventID(c)
	if err != nil {
		return err
	}
	values, err := queryValues(c)
	if err != nil {
		return err
	}
	q, err := models.ParseListQuery(models.ListHistory, values, h.svc.Location())
	if err != nil {
		if _, missing := h.svc.Get(c.UserContext(), id); missing != nil {
			return missing // an unknown event is 404 before a bad query is 400
		}
		return err
	}
	page, err := h.svc.History(c.UserContext(), id, q)
	if err != nil {
		return err
	}
	if fragment(c) {
		view := historyView{ID: id, Items: page.Items, Loc: h.svc.Location(), More: more(c.Path(), values, page.NextCursor)}
		if values.Has("cursor") {
			return c.Render("partials/history_items", view) // a later page, after the rows shown
		}
		return c.Render("partials/history", view)
	}
	return c.JSON(page)
}

// eventID reads the {id} of the path; anything but a positive number is 404.
func eventID(c *fiber.Ctx) (int64, error) {
	raw := c.Params("id")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 || strconv.FormatInt(id, 10) != raw { // one spelling per event: no "+1", no "01"
		return 0, models.ErrNotFound
	}
	return id, nil
}
