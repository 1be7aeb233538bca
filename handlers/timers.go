// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/models"
)

// Running logs and overlaps (DESIGN.md). The record line's Start creates a
// running log (status in_progress, stop_running: the running one stops
// first); a running log's row and detail section offer Stop, the complete
// operation, drawn by appendOps (rowhtml.go) beside the lifecycle buttons
// a log never gets. A create of a log answers the logs its span overlaps:
// in the JSON ("overlaps") and, on a page, in the new row's note, with a
// form that moves it right before them (overlapFix).

// createdJSON is the API's answer to a create: the event, and for an
// activity log the logs it overlaps, as "overlaps" after its fields.
func createdJSON(made app.Created) []byte {
	b := made.Event.AppendJSON(make([]byte, 0, 1024))
	if made.Overlaps != nil {
		b = b[:len(b)-1] // the event's closing brace
		b = append(b, `,"overlaps":[`...)
		for i, o := range made.Overlaps {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = strconv.AppendInt(b, o.ID, 10)
			b = append(b, `,"title":`...)
			b = models.AppendJSONString(b, o.Title)
			b = append(b, `,"seconds":`...)
			b = strconv.AppendInt(b, o.Seconds, 10)
			b = append(b, '}')
		}
		b = append(b, "]}"...)
	}
	return append(b, '\n')
}

// overlapNote is the sentence a new log's row carries when its span
// overlaps others: which, and by how much. "" when it overlaps none.
func overlapNote(overlaps []models.Overlap) string {
	if len(overlaps) == 0 {
		return ""
	}
	const named = 3
	parts := make([]string, 0, named+1)
	for i, o := range overlaps {
		if i == named {
			parts = append(parts, "and "+strconv.Itoa(len(overlaps)-named)+" more")
			break
		}
		title := shown(o.Title)
		if title == "" {
			title = "(untitled)"
		}
		parts = append(parts, "“"+title+"” by "+models.OverlapLength(o.Seconds))
	}
	return "Added: it overlaps " + strings.Join(parts, ", ") + "."
}

// overlapFix is the move a new log's row offers: its times right before
// the logs it overlaps (a PATCH of started_at and ended_at: one reschedule
// row).
type overlapFix struct {
	Start, End time.Time
	Label      string // "Move it before: 08:45–09:30"
}

// newOverlapFix is the move to span in loc, nil without one.
func newOverlapFix(span *app.Span, loc *time.Location) *overlapFix {
	if span == nil {
		return nil
	}
	b := []byte("Move it before: ")
	b = appendClock(b, span.Start.In(loc))
	b = append(b, "–"...)
	b = appendClock(b, span.End.In(loc))
	return &overlapFix{Start: span.Start, End: span.End, Label: string(b)}
}

// StartAttr and EndAttr are the move's times as the form sends them.
func (f overlapFix) StartAttr() string { return models.FormatTime(f.Start) }
func (f overlapFix) EndAttr() string   { return models.FormatTime(f.End) }

// appendOverlapFix appends the row's move before the logs it overlaps, if
// it has one.
func appendOverlapFix(b []byte, r *rowView) []byte {
	if r.Fix == nil {
		return b
	}
	b = append(b, `<form class="overlap-fix" hx-patch="/api/events/`...)
	b = strconv.AppendInt(b, r.ID, 10)
	b = append(b, `" hx-target="`...)
	b = appendEscaped(b, r.Target)
	b = append(b, `" hx-swap="outerHTML"><input type="hidden" name="started_at" value="`...)
	b = models.AppendTime(b, r.Fix.Start)
	b = append(b, `"><input type="hidden" name="ended_at" value="`...)
	b = models.AppendTime(b, r.Fix.End)
	b = append(b, `"><button type="submit">`...)
	b = appendEscaped(b, r.Fix.Label)
	return append(b, "</button></form>"...)
}

// appendStop appends a running log's one control, Stop (the complete
// operation), in place of the lifecycle buttons a log never gets.
func appendStop(b []byte, r *rowView, title string) []byte {
	b = append(b, `<div class="ops" role="group" aria-label="Timer of `...)
	if r.Title == "" {
		b = append(b, "this log"...)
	} else {
		b = appendEscaped(b, title)
	}
	b = append(b, `"><button type="button" class="op op-stop" data-op="stop"`...)
	b = appendPost(b, r, string(models.OpComplete))
	return append(b, ">Stop</button></div>"...)
}

// stoppedNote is what a log's row or detail says after Stop: when it
// ended, and how long it ran. A log offers no undo: its row has no
// lifecycle buttons once finished.
func stoppedNote(e models.Event, loc *time.Location) string {
	if e.EndedAt == nil {
		return "Stopped."
	}
	b := appendClock([]byte("Stopped at "), e.EndedAt.In(loc))
	if e.StartedAt != nil {
		b = appendDuration(append(b, " after "...), e.EndedAt.Sub(*e.StartedAt))
	}
	return string(append(b, '.'))
}

// runningForm tells the edit form of a running log how it ends: its Ended
// field stays empty while it runs, and Stop, beside its status, ends it
// now; a refusal of an end says the same, never "complete it" without the
// way to.
func runningForm(f *formView, e models.Event) {
	if !e.Running() {
		return
	}
	for i := range f.Fields {
		ff := &f.Fields[i]
		switch ff.Field {
		case "started_at":
			ff.Hint = "" // "leave both times empty" is for a new log
		case "ended_at":
			ff.Hint = "Empty while it runs: Stop, in the Status box, ends it now."
			if k := strings.Index(ff.Error, ": complete it instead"); k >= 0 {
				ff.Error = ff.Error[:k] + ": press Stop to end it now."
			}
		}
	}
}

// sendStopped is the pages' answer to Stop: the log's row (or detail
// section) saying when it stopped.
func (h *Handlers) sendStopped(c *fiber.Ctx, e models.Event) error {
	c.Status(fiber.StatusOK)
	setETag(c, e)
	note := stoppedNote(e, h.svc.Location())
	if targetOf(c) == toDetail {
		return c.Render("partials/detail", h.detail(e, nil, nil, "", note))
	}
	return sendRow(c, h.row(e, note))
}

// sendRows answers a page's create: its row r, then the row of each log it
// stopped, marked to replace that log's row wherever the page shows it
// (hx-swap-oob; a page without it ignores it). app.js then moves a running
// row into Now and a stopped one out of it.
func (h *Handlers) sendRows(c *fiber.Ctx, r rowView, stopped []models.Event) error {
	bp := rowBuffers.Get().(*[]byte)
	b := appendRow((*bp)[:0], &r)
	for _, e := range stopped {
		s := h.row(e, stoppedNote(e, h.svc.Location()))
		from := len(b)
		b = appendRow(b, &s)
		// the row starts "<li ": the mark goes right after
		b = append(b[:from+4], append([]byte(`hx-swap-oob="true" `), b[from+4:]...)...)
	}
	sendPooled(c, fiber.MIMETextHTMLCharsetUTF8, &rowBuffers, bp, b)
	return nil
}
