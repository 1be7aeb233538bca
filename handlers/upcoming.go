// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"slices"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// Upcoming places a deferred event at its defer_until, the time it comes
// back, not at its old time: the tab's listing query leaves deferred events
// out (upcoming, listings.go), and the page adds those whose defer_until
// falls in the tab's window, merged into the listing's order. They all join
// the first page: past a hundred rows a deferred one whose time is beyond
// the page's last row sits at the page's end, before "Show more".
func (h *Handlers) withDeferred(c *fiber.Ctx, items []models.Event, now time.Time) ([]models.Event, error) {
	deferred, err := h.svc.DeferredBetween(c.UserContext(), now, now.AddDate(0, 0, upcomingDays))
	if err != nil || len(deferred) == 0 {
		return items, err
	}
	out := append(slices.Clip(items), deferred...)
	slices.SortStableFunc(out, func(a, b models.Event) int {
		ta, tb := upcomingAt(&a), upcomingAt(&b)
		switch {
		case ta == nil && tb == nil:
			return 0
		case ta == nil:
			return 1
		case tb == nil:
			return -1
		}
		if c := ta.Compare(*tb); c != 0 {
			return c
		}
		return int(a.ID - b.ID)
	})
	return out, nil
}

// upcomingAt is where Upcoming places e: a deferred event at its
// defer_until, any other at its span start.
func upcomingAt(e *models.Event) *time.Time {
	if e.Status == models.StatusDeferred && e.DeferUntil != nil {
		return e.DeferUntil
	}
	return e.SpanStart()
}
