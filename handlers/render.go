// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"events/app"
	"events/models"
)

// sendEvent answers one event: JSON, or for htmx the part of the page that
// asked: its row, or the detail section. saved says what a save did;
// message why a request was refused.
func (h *Handlers) sendEvent(c *fiber.Ctx, status int, e models.Event, saved, message string) error {
	c.Status(status)
	setETag(c, e) // the event's validator, on every answer with one event (etag.go)
	if fragment(c) {
		if targetOf(c) == toDetail {
			return h.page(c, "partials/detail", h.detail(c, e, nil, nil, saved, message))
		}
		return sendRow(c, h.row(c, e, message))
	}
	return c.JSON(e)
}

// sendList answers a page of events: JSON, or for htmx its rows and a
// button that fetches the next page from more.
func (h *Handlers) sendList(c *fiber.Ctx, page app.Page[models.Event], more string) error {
	if fragment(c) {
		if grouped, err := h.sendDayList(c, page, more); grouped {
			return err // a later page of Upcoming or Activity, by day (daygroups.go)
		}
		var slots rowSlots
		if err := h.markOverlaps(c, &slots, page.Items); err != nil {
			return err
		}
		rows := h.rows(&slots, page.Items)
		return h.render(c, &slots, "partials/event_rows", listView{Rows: rows, More: more})
	}
	return sendPage(c, page)
}

// pageBuffers hold the bodies the handlers draw (a page of JSON, a page of
// HTML) and the gzipped bodies compress makes of them, each until it
// becomes the response's own (swapBody); a page of 1000 events is about
// 600 KB, so a buffer is reused rather than grown anew.
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
	if page.NextToken != nil {
		b = append(b, `,"next_token":`...)
		b = models.AppendJSONString(b, *page.NextToken)
	}
	b = append(b, "}\n"...)
	sendPooled(c, fiber.MIMEApplicationJSON, &pageBuffers, bp, b)
	return nil
}

// sendPooled answers b, of type ctype, and puts a buffer back into pool as
// *bp for the next answer (swapBody).
func sendPooled(c *fiber.Ctx, ctype string, pool *sync.Pool, bp *[]byte, b []byte) {
	c.Set(fiber.HeaderContentType, ctype)
	swapBody(c.Response(), pool, bp, b)
}

// swapBody makes b the response's body and puts the buffer the response
// had into pool as *bp for the next answer (SwapBody), so the answer is
// never copied (a Today page is 255 KB; SetBody copied it, about 1% of the
// service's CPU on the page). fasthttp returns b to its own pool once the
// answer is written. A buffer grown past 4 MiB is let go.
func swapBody(resp *fasthttp.Response, pool *sync.Pool, bp *[]byte, b []byte) {
	if old := resp.SwapBody(b); cap(old) <= 4<<20 {
		*bp = old[:0]
		pool.Put(bp)
	}
}
