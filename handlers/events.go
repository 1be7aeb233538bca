package handlers

import (
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// create: POST /api/events.
func (h *Handlers) create(c *fiber.Ctx) error {
	in, err := h.decode(c, models.CreateFields)
	if err != nil {
		return err
	}
	e, err := h.svc.Create(c.UserContext(), in, actor(c))
	if err != nil {
		return err
	}
	c.Location("/api/events/" + strconv.FormatInt(e.ID, 10))
	return h.sendEvent(c, fiber.StatusCreated, e, "")
}

// get: GET /api/events/{id}.
func (h *Handlers) get(c *fiber.Ctx) error {
	id, err := eventID(c)
	if err != nil {
		return err
	}
	e, err := h.svc.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return h.sendEvent(c, fiber.StatusOK, e, "")
}

// patch: PATCH /api/events/{id}.
func (h *Handlers) patch(c *fiber.Ctx) error {
	id, err := eventID(c)
	if err != nil {
		return err
	}
	in, inErr := h.decode(c, models.PatchFields)
	e, err := h.svc.Patch(c.UserContext(), id, in, inErr, actor(c))
	if err != nil {
		return err
	}
	return h.sendEvent(c, fiber.StatusOK, e, "")
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
		in, inErr := h.decode(c, set)
		e, err := h.svc.Operate(c.UserContext(), id, op, in, inErr, actor(c))
		if err != nil {
			return err
		}
		return h.sendEvent(c, fiber.StatusOK, e, "")
	}
}

// list: GET /api/events.
func (h *Handlers) list(c *fiber.Ctx) error {
	q, err := h.query(c, models.ListEvents)
	if err != nil {
		return err
	}
	page, err := h.svc.List(c.UserContext(), q)
	if err != nil {
		return err
	}
	return h.sendList(c, page)
}

// today: GET /api/events/today.
func (h *Handlers) today(c *fiber.Ctx) error {
	q, err := h.query(c, models.ListToday)
	if err != nil {
		return err
	}
	page, err := h.svc.Today(c.UserContext(), q)
	if err != nil {
		return err
	}
	return h.sendList(c, page)
}

// inbox: GET /api/events/inbox.
func (h *Handlers) inbox(c *fiber.Ctx) error {
	q, err := h.query(c, models.ListInbox)
	if err != nil {
		return err
	}
	page, err := h.svc.Inbox(c.UserContext(), q)
	if err != nil {
		return err
	}
	return h.sendList(c, page)
}

// activity: GET /api/events/activity.
func (h *Handlers) activity(c *fiber.Ctx) error {
	q, err := h.query(c, models.ListActivity)
	if err != nil {
		return err
	}
	page, err := h.svc.Activity(c.UserContext(), q)
	if err != nil {
		return err
	}
	return h.sendList(c, page)
}

// history: GET /api/events/{id}/history.
func (h *Handlers) history(c *fiber.Ctx) error {
	id, err := eventID(c)
	if err != nil {
		return err
	}
	q, err := h.query(c, models.ListHistory)
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
	c.Vary("HX-Request")
	if fragment(c) {
		return c.Render("partials/history", historyView{Items: page.Items, Loc: h.svc.Location()})
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

// query parses the query string of a listing.
func (h *Handlers) query(c *fiber.Ctx, l models.Listing) (models.ListQuery, error) {
	q, err := url.ParseQuery(string(c.Request().URI().QueryString()))
	if err != nil {
		return models.ListQuery{}, models.BadRequest("", "the query string does not parse: %s", err)
	}
	return models.ParseListQuery(l, q, h.svc.Location())
}
