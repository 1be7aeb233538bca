// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// Capture text (DESIGN.md): POST /api/events reads a body's text in the
// zone of its ?tz=, else EVENTS_TIMEZONE (the service's zone). Only tz is
// read from a create's query; a bad zone is 400 naming tz.

// createZone is the zone of a create's ?tz=, or nil when it has none.
func createZone(c *fiber.Ctx) (*time.Location, error) {
	q, err := queryValues(c)
	if err != nil || !q.Has("tz") {
		return nil, err
	}
	if len(q["tz"]) > 1 {
		return nil, models.BadRequest("tz", models.CodeRepeated, "appears more than once")
	}
	loc, err := models.LoadZone(q.Get("tz"))
	if err != nil {
		return nil, models.BadRequest("tz", models.CodeBadFormat, "%s", err)
	}
	return loc, nil
}

// localCaptured marks a create whose body had text.
const localCaptured = "captured"

// understood is the sentence a new row carries when it came from a
// capture text: for a task, what the line was read as (due, priority,
// tag), so a misread shows at once; for any kind, how a word that could
// mean more than one thing was read (the event's CaptureNote, "Read
// “12-1” as 12:00–13:00."). "" for anything else; a log's row shows its
// span, duration and tag by itself.
func (h *Handlers) understood(c *fiber.Ctx, e models.Event) string {
	if captured, _ := c.Locals(localCaptured).(bool); !captured {
		return ""
	}
	if e.Kind != models.KindTask {
		return e.CaptureNote
	}
	loc, today := h.svc.Location(), h.today()
	parts := []string{"no due time (it waits in the Inbox)"}
	if e.DueAt != nil {
		if models.DueDayOnly(*e.DueAt, loc) {
			parts[0] = "due " + relDay(*e.DueAt, today, loc) + ", any time that day"
		} else {
			parts[0] = "due " + relTime(*e.DueAt, today, loc).Text
		}
	}
	if p := priorityWords[e.Priority]; p != "" {
		parts = append(parts, p+" priority")
	}
	if e.ProjectTag != nil {
		parts = append(parts, "#"+shown(*e.ProjectTag))
	}
	return strings.TrimSpace("Added: " + strings.Join(parts, " · ") + ". " + e.CaptureNote)
}

var priorityWords = map[int]string{1: "low", 2: "medium", 3: "high"}

// dueDayHint says, under the edit form's Due input, that a task due on a
// day without a time (a capture text's "tomorrow") is due any time that
// day; the input shows the day alone, No clock time ticked (formview.go).
func dueDayHint(f *formView, e models.Event, loc *time.Location) {
	if e.DueAt == nil || !models.DueDayOnly(*e.DueAt, loc) {
		return
	}
	for i := range f.Fields {
		if f.Fields[i].Field == "due_at" && f.Fields[i].Hint == "" {
			f.Fields[i].Hint = "Due " + e.DueAt.In(loc).Format(dayLayout) + ", any time that day (no clock time was given)."
		}
	}
}
