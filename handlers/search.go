// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"net/url"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// searchPage is /events/search?q=…: the events whose title or description
// holds every word of q (DESIGN.md, Search), in the order of GET
// /api/events, each row linking to its event. The sidebar's search box is
// a GET form to this address, so a search works without script and can be
// kept as a link.
type searchPage struct {
	chrome
	Q        string
	Searched bool // q has a word
	Count    int  // rows on this page
	List     listView
}

// searchPageView: GET /events/search.
func (h *Handlers) searchPageView(c *fiber.Ctx) error {
	values, err := queryValues(c)
	if err != nil {
		return err
	}
	for key, v := range values {
		if key != "q" || len(v) != 1 {
			return models.BadRequest(key, models.CodeUnknownField, "is not a parameter of this page; it takes q once")
		}
	}
	q := values.Get("q")
	view := searchPage{chrome: h.chrome(c, "search_button"), Q: q}
	view.Search = q
	if q != "" {
		view.Title = h.lang(c).T("search_title", "Words", isolated(q))
	}
	api := url.Values{"q": {q}}
	lq, err := models.ParseListQuery(models.ListEvents, api, h.svc.Zone())
	if err != nil {
		return err
	}
	var slots rowSlots
	if view.Searched = len(lq.Words) > 0; view.Searched {
		done, err := h.searchSlot(c)
		if err != nil {
			return err
		}
		defer done()
		page, err := h.svc.List(c.UserContext(), lq)
		if err != nil {
			return err
		}
		if err := h.markOverlaps(c, &slots, page.Items); err != nil {
			return err
		}
		rows := h.rows(&slots, page.Items)
		view.Count = len(page.Items)
		view.List = listView{Rows: rows, More: more("/api/events", api, page.NextCursor)}
	}
	return h.render(c, &slots, "pages/search", view)
}
