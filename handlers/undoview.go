// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"events/internal/i18n"
	"events/models"
)

// Safe, close undo (issue 15). A row's lifecycle buttons sit in fixed
// slots, one per operation in models.Ops order, an empty slot where the
// lifecycle table offers no button (appendOps, rowhtml.go): after a click no other button slides
// under the pointer. After a complete, cancel or defer the row's answer
// carries a message that offers the undo ("Completed · Undo"); its button
// is the specification's reactivate, and app.js gives it the focus.

// opLabel is a lifecycle button's text in l: reactivate reads "Undo",
// which is what it does (it undoes the last complete, cancel or defer).
func opLabel(l *i18n.Lang, op models.Op) string {
	if op == models.OpReactivate {
		return l.T("undo")
	}
	return l.T("op_" + string(op))
}

// undoNote is the message a row shows after op: what was done, in the
// page's zone and relative to now where that reads better. None after a
// reactivate.
func undoNote(l *i18n.Lang, e models.Event, op models.Op, now time.Time, loc *time.Location) string {
	switch op {
	case models.OpComplete:
		return l.T("undo_completed")
	case models.OpCancel:
		return l.T("undo_cancelled")
	case models.OpDefer:
		if e.DeferUntil == nil {
			return l.T("undo_deferred")
		}
		return l.T("undo_deferred_until", "Time", relTimeIn(l, *e.DeferUntil, now, loc).Text)
	}
	return ""
}

// sendOperated answers a lifecycle operation: for the pages, the row or the
// detail section with its undo message (one code path: both draw
// appendUndoNote, rowhtml.go); for the API, as sendEvent does.
func (h *Handlers) sendOperated(c *fiber.Ctx, op models.Op, e models.Event) error {
	if !fragment(c) {
		return h.sendEvent(c, fiber.StatusOK, e, "", "")
	}
	if op == models.OpComplete && e.Kind == models.KindActivityLog {
		return h.sendStopped(c, e) // Stop: no undo on a log (timers.go)
	}
	c.Status(fiber.StatusOK)
	setETag(c, e)
	note := undoNote(h.lang(c), e, op, h.svc.Now(), h.svc.Zone())
	if targetOf(c) == toNotice && op == models.OpCancel {
		return sendCreateUndone(c, e) // captureplace.go
	}
	if targetOf(c) == toDetail {
		d := h.detail(c, e, nil, nil, "", "")
		d.Row.UndoNote = note
		return h.page(c, "partials/detail", d)
	}
	r := h.row(c, e, "")
	r.UndoNote = note
	return sendRow(c, r)
}

// skipLink is the first link of a page, for the keyboard: to the content,
// or on /events to the quick-record line.
type skipLink struct{ Target, Label string } // Label: the id of its words

var (
	skipToContent     = skipLink{Target: "main", Label: "skip_to_content"}
	skipToQuickRecord = skipLink{Target: idQuickTitle, Label: "skip_to_quick_record"}
)
