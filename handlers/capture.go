// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// Capture text (DESIGN.md): POST /api/events reads a body's text in the
// zone of its ?tz=, else EVENTS_TIMEZONE (the service's zone). tz is the
// only parameter a create takes (another is 400 naming it); a bad zone is
// 400 naming tz.

// createZone is the zone of a create's ?tz=, or nil when it has none.
func createZone(c *fiber.Ctx) (*time.Location, error) {
	q, err := onlyQuery(c, "tz")
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

// localCaptured marks a create whose body had text; localCalendarLine
// one whose log or task line was made a calendar entry
// (models.AsLineOfAnyKind).
const (
	localCaptured     = "captured"
	localCalendarLine = "calendarLine"
)

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
	if line, _ := c.Locals(localCalendarLine).(bool); line && e.StartAt != nil && e.EndAt != nil {
		l, loc := langOf(c), h.svc.Zone()
		return strings.TrimSpace(l.T("added_calendar", "Span", l.Span(e.StartAt.In(loc), e.EndAt.In(loc))) + " " + e.CaptureSays.In(l))
	}
	if e.Kind != models.KindTask {
		return e.CaptureSays.In(langOf(c))
	}
	loc, today, l := h.svc.Zone(), h.today(), langOf(c)
	parts := []string{l.T("added_no_due")}
	if e.DueAt != nil {
		if models.DueDayOnly(*e.DueAt, loc) {
			parts[0] = l.T("added_due_day", "Day", string(appendRelDay(l, nil, *e.DueAt, today, loc)))
		} else {
			parts[0] = l.T("row_due", "Time", relTimeIn(l, *e.DueAt, today, loc).Text)
		}
	}
	if e.Priority >= 1 && e.Priority <= 3 {
		parts = append(parts, l.T("added_priority_"+strconv.Itoa(e.Priority)))
	}
	if e.ProjectTag != nil {
		parts = append(parts, "#"+shown(*e.ProjectTag))
	}
	return strings.TrimSpace(l.T("added", "What", strings.Join(parts, " · ")) + " " + e.CaptureSays.In(l))
}

// dueDayHint says, under the edit form's Due input, that a task due on a
// day without a time (a capture text's "tomorrow") is due any time that
// day; the input shows the day alone, No clock time ticked (formview.go).
func dueDayHint(f *formView, e models.Event, loc *time.Location) {
	if e.DueAt == nil || !models.DueDayOnly(*e.DueAt, loc) {
		return
	}
	for i := range f.Fields {
		if f.Fields[i].Field == "due_at" && f.Fields[i].Hint == "" {
			f.Fields[i].Hint = "field_hint_due_day"
			f.Fields[i].HintArgs = []any{"Day", pageDate{e.DueAt.In(loc), true}}
		}
	}
}
