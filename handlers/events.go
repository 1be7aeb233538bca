// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/internal/i18n"
	"events/models"
)

// create: POST /api/events. Created from the new-event page, the answer
// sends the browser to the new event's page.
func (h *Handlers) create(c *fiber.Ctx) error {
	key, err := idempotencyKey(c) // Idempotency-Key: see idempotency.go
	if err != nil {
		return err
	}
	zone, err := createZone(c) // before the body, as a listing's query
	if err != nil {
		return err
	}
	h.newFormTimes(c) // a new-event form's time words (edittimes.go)
	in, err := h.decode(c, models.CreateFields)
	if err != nil {
		return h.refused(c, 0, err)
	}
	in.TextZone = zone
	if in.Text.Set {
		c.Locals(localCaptured, true) // the new row says what the text meant (capture.go)
		// a page's log or task line that names a calendar entry makes one
		if fragment(c) && in.AsLineOfAnyKind(h.svc.Now(), h.svc.Zone()) {
			c.Locals(localCalendarLine, true)
		}
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
		r := listRow(&e, h.svc.Zone(), h.today(), h.svc.Now(), "")
		// what a capture line was read as (capture.go)
		r.Note = h.understood(c, e)
		r.Added = r.Note != ""
		if (e.Kind == models.KindTask || e.Kind == models.KindCalendarEvent) && r.Note != "" {
			return h.sendCaptured(c, e, r) // where its tab puts it (captureplace.go)
		}
		// a log's mark says what it overlaps, as the create found it, and
		// the rows of the logs it overlaps are drawn again with theirs
		var over []models.Event
		if len(made.Overlaps) > 0 {
			r.Overlaps, r.Added = &app.Overlapping{Overlaps: made.Overlaps, Before: made.Before}, true
			over = h.overlapped(c, made)
		}
		return h.sendRows(c, r, made.Stopped, over)
	case !page:
		c.Status(fiber.StatusCreated)
		setETag(c, e)
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		if l := apiLang(c); l != i18n.English && !e.CaptureSays.IsZero() {
			made.Event.CaptureNote = e.CaptureSays.In(l) // for a client that asks for Korean
		}
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
	// the detail form's times: capture words, and a big change confirmed
	if done, err := h.editTimes(c, id); done || err != nil {
		return err
	}
	// a row's log: what it overlapped before, whose rows the answer
	// draws again (overlapping logs stay marked exactly while they overlap)
	before := h.rowOverlaps(c, id)
	in, inErr := h.decode(c, models.PatchFields)
	if _, err := onlyQuery(c); err != nil {
		inErr = err // it takes none: told, like a body's fault, once the event is known to exist
	}
	var e models.Event
	if key == "" {
		e, err = h.svc.PatchIf(c.UserContext(), id, cond, in, inErr, actor(c))
	} else {
		var rec app.Recorded
		var replayed bool
		e, rec, replayed, err = h.svc.PatchOnce(c.UserContext(), h.onceKey(c, key), id, cond, in, inErr, actor(c), recordAs(fiber.StatusOK))
		if err == nil && replayed {
			return h.replay(c, rec, func(e models.Event) error { return h.sendEvent(c, fiber.StatusOK, e, h.lang(c).T("detail_saved"), "") })
		}
	}
	if err != nil {
		return h.refusedWrite(c, id, err)
	}
	changed(c)
	if before != nil && e.Kind == models.KindActivityLog {
		return h.sendPatchedLog(c, e, before)
	}
	return h.sendEvent(c, fiber.StatusOK, e, h.lang(c).T("detail_saved"), "")
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
		if _, err := onlyQuery(c); err != nil {
			inErr = err // it takes none: told, like a body's fault, once the event is known to exist
		}
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
	lq, err := models.ParseListQuery(l.Name, q, h.svc.Zone())
	if err != nil {
		return app.Page[models.Event]{}, err
	}
	if len(lq.Words) > 0 {
		done, err := h.searchSlot(c)
		if err != nil {
			return app.Page[models.Event]{}, err
		}
		defer done()
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
	q, err := models.ParseListQuery(models.ListHistory, values, h.svc.Zone())
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
		view := historyView{ID: id, Items: page.Items, Loc: h.svc.Zone(), More: more(c.Path(), values, page.NextCursor)}
		if values.Has("cursor") {
			return h.page(c, "partials/history_items", view) // a later page, after the rows shown
		}
		return h.page(c, "partials/history", view)
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
