// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"html/template"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/internal/i18n"
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

// overlapNote is the sentence of a log's overlap mark: which logs its
// span overlaps, and by how much; key is overlap_mark ("Overlaps “회의” by
// 30 min.") or, on the answer to the log's create, overlap_note ("Added:
// it overlaps …"). "" when it overlaps none.
func overlapNote(l *i18n.Lang, key string, overlaps []models.Overlap) string {
	if len(overlaps) == 0 {
		return ""
	}
	const named = 3
	parts := make([]string, 0, named+1)
	for i, o := range overlaps {
		if i == named {
			parts = append(parts, l.T("overlap_more", "Count", len(overlaps)-named))
			break
		}
		parts = append(parts, l.T("overlap_part", "Title", overlapTitle(l, o), "Length", l.OverlapLength(o.Seconds)))
	}
	return l.T(key, "Parts", strings.Join(parts, ", "))
}

// overlapTitle is an overlapped log's title as a mark shows it.
func overlapTitle(l *i18n.Lang, o models.Overlap) string {
	if title := shown(o.Title); title != "" {
		return title
	}
	return l.T("untitled")
}

// Overlaps stay in sight (DESIGN.md, "Running logs and overlaps"): a log's
// row carries a mark while its span overlaps other logs, read with the
// row from the stored times (app.Service.OverlapsOf), so the mark goes
// when the times no longer overlap, whatever changed them.

// OverlapText is the row's overlap mark, "" when the log overlaps
// nothing.
func (r rowView) OverlapText() string {
	if r.Overlaps == nil {
		return ""
	}
	key := "overlap_mark"
	if r.Added {
		key = "overlap_note"
	}
	return overlapNote(r.lang(), key, r.Overlaps.Overlaps)
}

// Fix is the row's move right before the logs it overlaps, nil without
// one.
func (r rowView) Fix() *overlapFix {
	if r.Overlaps == nil {
		return nil
	}
	return newOverlapFix(r.lang(), r.Overlaps.Before, r.Loc)
}

// FixHTML is the row's move drawn (the detail section), "" without one.
func (r rowView) FixHTML() template.HTML { return template.HTML(appendOverlapFix(nil, &r)) }

// overlapItem is a log the detail names as overlapped: a link to it and
// by how long.
type overlapItem struct {
	ID            int64
	Title, Length string
}

// OverlapItems are the logs the detail's log overlaps, earliest first;
// nil when it overlaps none.
func (d detailView) OverlapItems() []overlapItem {
	if d.Row.Overlaps == nil {
		return nil
	}
	l := d.Row.lang()
	out := make([]overlapItem, len(d.Row.Overlaps.Overlaps))
	for i, o := range d.Row.Overlaps.Overlaps {
		out[i] = overlapItem{ID: o.ID, Title: overlapTitle(l, o), Length: l.OverlapLength(o.Seconds)}
	}
	return out
}

// markRow reads what r's log overlaps, for its mark. The mark is a
// reading beside the answer (often the answer to a write already done):
// when it cannot be read, the row is drawn without it.
func (h *Handlers) markRow(c *fiber.Ctx, r *rowView) {
	if r.Kind != models.KindActivityLog {
		return
	}
	found, err := h.svc.OverlapsOf(c.UserContext(), []models.Event{*r.Event})
	if err != nil {
		return
	}
	if o, ok := found[r.ID]; ok {
		r.Overlaps = &o
	}
}

// markOverlaps reads what the logs among events overlap, in one go, and
// keeps it in s, which sets each mark on its rows as they are placed.
func (h *Handlers) markOverlaps(c *fiber.Ctx, s *rowSlots, events []models.Event) error {
	if s == nil {
		return nil
	}
	found, err := h.svc.OverlapsOf(c.UserContext(), events)
	if err != nil || len(found) == 0 {
		return err
	}
	if s.overlaps == nil {
		s.overlaps = make(map[int64]app.Overlapping, len(found))
	}
	maps.Copy(s.overlaps, found)
	return nil
}

// overlapFix is the move a new log's row offers: its times right before
// the logs it overlaps (a PATCH of started_at and ended_at: one reschedule
// row).
type overlapFix struct {
	Start, End time.Time
	Label      string // "Move it before: 08:45–09:30"
}

// newOverlapFix is the move to span in loc, nil without one.
func newOverlapFix(l *i18n.Lang, span *app.Span, loc *time.Location) *overlapFix {
	if span == nil {
		return nil
	}
	b := appendClock(nil, span.Start.In(loc))
	b = append(b, "–"...)
	b = appendClock(b, span.End.In(loc))
	return &overlapFix{Start: span.Start, End: span.End, Label: l.T("overlap_fix", "Span", string(b))}
}

// StartAttr and EndAttr are the move's times as the form sends them.
func (f overlapFix) StartAttr() string { return models.FormatTime(f.Start) }
func (f overlapFix) EndAttr() string   { return models.FormatTime(f.End) }

// appendOverlapMark appends the row's overlap mark and its move before
// the logs it overlaps, if it has them.
func appendOverlapMark(b []byte, r *rowView) []byte {
	if r.Overlaps == nil {
		return b
	}
	if text := r.OverlapText(); text != "" {
		b = append(b, `<p class="overlap"`...)
		if r.Added {
			b = append(b, ` role="status"`...)
		}
		b = appendEscaped(append(b, '>'), text)
		b = append(b, "</p>"...)
	}
	return appendOverlapFix(b, r)
}

// appendOverlapFix appends the row's move right before the logs it
// overlaps, if it has one.
func appendOverlapFix(b []byte, r *rowView) []byte {
	fix := r.Fix()
	if fix == nil {
		return b
	}
	b = append(b, `<form class="overlap-fix" hx-patch="/api/events/`...)
	b = strconv.AppendInt(b, r.ID, 10)
	b = append(b, `" hx-target="`...)
	b = appendEscaped(b, r.Target)
	b = append(b, `" hx-swap="outerHTML"><input type="hidden" name="started_at" value="`...)
	b = models.AppendTime(b, fix.Start)
	b = append(b, `"><input type="hidden" name="ended_at" value="`...)
	b = models.AppendTime(b, fix.End)
	b = append(b, `"><button type="submit">`...)
	b = appendEscaped(b, fix.Label)
	return append(b, "</button></form>"...)
}

// appendStop appends a running log's one control, Stop (the complete
// operation), in place of the lifecycle buttons a log never gets.
func appendStop(b []byte, r *rowView, title string) []byte {
	lang := r.lang()
	b = append(b, `<div class="ops" role="group" aria-label="`...)
	if r.Title == "" {
		b = appendEscaped(b, lang.T("timer_label_untitled"))
	} else {
		before, after := lang.Wrap("timer_label")
		b = appendEscaped(appendEscaped(appendEscaped(b, before), title), after)
	}
	b = append(b, `"><button type="button" class="op op-stop" data-op="stop"`...)
	b = appendPost(b, r, string(models.OpComplete))
	b = appendEscaped(append(b, '>'), lang.T("op_stop"))
	return append(b, "</button></div>"...)
}

// stoppedNote is what a log's row or detail says after Stop: when it
// ended, and how long it ran. A log offers no undo: its row has no
// lifecycle buttons once finished.
func stoppedNote(l *i18n.Lang, e models.Event, loc *time.Location) string {
	if e.EndedAt == nil {
		return l.T("stopped")
	}
	at := string(appendClock(nil, e.EndedAt.In(loc)))
	if e.StartedAt != nil {
		return l.T("stopped_at_after", "Time", at, "Duration", l.Duration(models.Seconds(*e.StartedAt, *e.EndedAt)))
	}
	return l.T("stopped_at", "Time", at)
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
			ff.Hint = "field_hint_running_ended_at"
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
	note := stoppedNote(langOf(c), e, h.svc.Zone())
	if targetOf(c) == toDetail {
		return h.page(c, "partials/detail", h.detail(c, e, nil, nil, "", note))
	}
	return sendRow(c, h.row(c, e, note))
}

// maxRedrawn bounds the overlapped rows the answer to a create draws
// again: the ones a page shows near the new row.
const maxRedrawn = 10

// overlapped are the logs a create overlaps that its answer draws again
// with their marks (sendRows), but those it stopped, which it draws
// anyway. The new mark is a reading beside a create already done: when
// they cannot be read, none is drawn again.
func (h *Handlers) overlapped(c *fiber.Ctx, made app.Created) []models.Event {
	ids := make([]int64, 0, len(made.Overlaps))
	for _, o := range made.Overlaps {
		if !slices.ContainsFunc(made.Stopped, func(e models.Event) bool { return e.ID == o.ID }) {
			ids = append(ids, o.ID)
		}
	}
	over, err := h.svc.Overlapped(c.UserContext(), ids, maxRedrawn)
	if err != nil {
		return nil
	}
	return over
}

// rowOverlaps are the ids of the logs that log id overlaps now, when a
// page's row (not the detail) asks to change it: the rows its answer
// draws again (sendPatchedLog). Nil for any other request or event, or
// when they cannot be read; empty, not nil, for a row's log that overlaps
// nothing.
func (h *Handlers) rowOverlaps(c *fiber.Ctx, id int64) []int64 {
	if !fragment(c) || targetOf(c) != toRow {
		return nil
	}
	e, err := h.svc.Get(c.UserContext(), id)
	if err != nil || e.Kind != models.KindActivityLog {
		return nil
	}
	found, err := h.svc.OverlapsOf(c.UserContext(), []models.Event{e})
	if err != nil {
		return nil
	}
	ids := []int64{}
	for _, o := range found[id].Overlaps {
		ids = append(ids, o.ID)
	}
	return ids
}

// sendPatchedLog answers a row's change of a log (a move before, an edit):
// its row with its mark, and the rows of the logs it overlapped before or
// overlaps now drawn again (sendRows), so no row keeps a stale mark.
func (h *Handlers) sendPatchedLog(c *fiber.Ctx, e models.Event, before []int64) error {
	c.Status(fiber.StatusOK)
	setETag(c, e)
	r := h.row(c, e, "")
	ids := before
	if r.Overlaps != nil {
		for _, o := range r.Overlaps.Overlaps {
			if !slices.Contains(ids, o.ID) {
				ids = append(ids, o.ID)
			}
		}
	}
	over, err := h.svc.Overlapped(c.UserContext(), ids, maxRedrawn)
	if err != nil {
		over = nil
	}
	return h.sendRows(c, r, nil, over)
}

// sendRows answers a page's create: its row r, then the row of each log it
// stopped and of each log it overlaps (over), marked to replace that log's
// row wherever the page shows it (hx-swap-oob; a page without it ignores
// it), so that a timer's row shows at once what was typed over it.
// app.js then moves a running row into Now and a stopped one out of it.
func (h *Handlers) sendRows(c *fiber.Ctx, r rowView, stopped, over []models.Event) error {
	lang := langOf(c)
	r.L = lang
	bp := rowBuffers.Get().(*[]byte)
	b := appendRow((*bp)[:0], &r)
	oob := func(s rowView) {
		s.L = lang
		from := len(b)
		b = appendRow(b, &s)
		// the row starts "<li ": the mark goes right after
		b = append(b[:from+4], append([]byte(`hx-swap-oob="true" `), b[from+4:]...)...)
	}
	for _, e := range stopped {
		oob(h.row(c, e, stoppedNote(lang, e, h.svc.Zone())))
	}
	if len(over) > 0 {
		// their marks, read at once; a failed read draws them without
		found, _ := h.svc.OverlapsOf(c.UserContext(), over)
		for i := range over {
			s := listRow(&over[i], h.svc.Zone(), h.today(), h.svc.Now(), "")
			if o, ok := found[over[i].ID]; ok {
				s.Overlaps = &o
			}
			oob(s)
		}
	}
	sendPooled(c, fiber.MIMETextHTMLCharsetUTF8, &rowBuffers, bp, b)
	return nil
}
