// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"html/template"
	"net/url"
	"strconv"
	"sync"
	"unsafe"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/internal/i18n"
	"events/models"
)

// A row of a list (li.event-row), its lifecycle buttons and its undo note
// are drawn here, by Go, rather than by html/template: a list page draws
// hundreds of rows, and html/template spent about 90 µs on each (its
// escapers and the row's methods are called through reflect, fields found
// by name), where this takes a few. The rest of every page stays in the
// templates; they take the drawn rows of a list as one template.HTML
// (listView.Rows, todaySection.Rows; detail.html's {{.Row.OpsHTML}}).
// Nothing is cached: every answer draws every row.
//
// The markup's one reference is the row template, views/partials/
// event_row.html with partials/ops and partials/undo_note: a change of the
// row is made there and here together, and TestRowTemplateIsGoWriter draws
// the same view models both ways (a row of every kind, status and undo
// step with every combination of its flags, and the corpus of every time
// situation) and compares them byte for byte. The row has no indentation
// and no line breaks, one space between its inline items; the defer menu
// is at every page's foot once (partials/defer_menu), so a row holds an
// empty <details>; a row that offers no write carries no data-etag
// (rowView.Writes). Every value is escaped as html/template escapes it in
// that place (appendEscaped): text and quoted attribute values alike; the
// two URLs, /events/{id} and the tag's listing, are built from an integer
// and from url.QueryEscape, which html/template's URL normaliser leaves as
// they are.

// rowList is rows to draw one after the other, each between before and
// after: a list's rows, into one piece of HTML (html) or straight into an
// answer (rowSlots, splice.go).
type rowList struct {
	rows          []rowView
	before, after string
}

// size is a guess of l drawn, so that drawing it is one allocation.
func (l *rowList) size() int {
	n := 0
	for i := range l.rows {
		n += len(l.before) + rowBytes(&l.rows[i]) + len(l.after)
	}
	return n
}

// appendTo appends l drawn.
func (l *rowList) appendTo(b []byte) []byte {
	for i := range l.rows {
		b = append(b, l.before...)
		b = appendRow(b, &l.rows[i])
		b = append(b, l.after...)
	}
	return b
}

// html is l drawn into one piece of HTML for a template to place: one
// allocation, and one value for the template rather than one a row. The
// bytes are made here and never written again, so they become the string
// as they are, without a copy (what strings.Builder does).
func (l rowList) html() template.HTML {
	if len(l.rows) == 0 {
		return ""
	}
	b := l.appendTo(make([]byte, 0, l.size()))
	return template.HTML(unsafe.String(unsafe.SliceData(b), len(b)))
}

// OpsHTML is the row's lifecycle buttons drawn (the detail section).
func (r rowView) OpsHTML() template.HTML { return template.HTML(appendOps(nil, &r, r.ShownTitle())) }

// UndoNoteHTML is the row's undo note drawn (the detail section).
func (r rowView) UndoNoteHTML() template.HTML { return template.HTML(appendUndoNote(nil, &r)) }

// rowBytes is a guess of a drawn row's size, so that a list is one
// allocation: a little over on most rows, under on a few (escaped titles),
// which the list's sum evens out.
func rowBytes(r *rowView) int {
	n := 700 + 2*len(r.Title) + len(r.Message) + len(r.Note) + len(r.UndoNote)
	if r.Overlaps != nil {
		n += 600
	}
	if len(r.Ops) > 0 {
		n += 800 // the buttons; the defer menu is at the page's foot
	}
	return n
}

// sendRow answers r drawn alone: the answer to a lifecycle button or to a
// refused change of the row.
func sendRow(c *fiber.Ctx, r rowView) error {
	r.L = langOf(c)
	bp := rowBuffers.Get().(*[]byte)
	sendPooled(c, fiber.MIMETextHTMLCharsetUTF8, &rowBuffers, bp, appendRow((*bp)[:0], &r))
	return nil
}

var rowBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// appendRow appends r drawn as li.event-row: its opening tag, the kind
// and title, the meta line, then the buttons and the notes.
func appendRow(b []byte, r *rowView) []byte {
	overdue := r.IsOverdue()
	b = appendRowTag(b, r, overdue)
	b = append(b, `<div class="row-main"><span class="kind kind-`...)
	b = appendEscaped(b, string(r.Kind))
	b = append(b, `">`...)
	b = appendEscaped(b, r.KindLabel())
	b = append(b, `</span> <a class="title" href="/events/`...)
	b = strconv.AppendInt(b, r.ID, 10)
	b = append(b, `" dir="auto">`...)
	title := r.ShownTitle()
	if r.Title == "" {
		b = appendEscaped(b, r.lang().T("untitled"))
	} else {
		b = appendEscaped(b, title)
	}
	b = append(b, `</a></div><div class="row-meta">`...)
	b = appendRowTimes(b, r)
	b = appendRowMarks(b, r, overdue)
	b = append(b, "</div>"...)
	b = appendOps(b, r, title)
	if r.Message != "" {
		b = append(b, `<p class="message" role="status">`...)
		b = appendEscaped(b, r.Message)
		b = append(b, "</p>"...)
	}
	b = appendUndoNote(b, r)
	if r.Note != "" {
		b = append(b, `<p class="note" role="status">`...)
		b = appendEscaped(b, r.Note)
		b = append(b, "</p>"...)
	}
	if r.UndoesCreate() {
		b = appendUndoCreate(b, r.ID, "closest li", r.lang())
	}
	b = appendOverlapMark(b, r)
	return append(b, "</li>"...)
}

// appendRowTag appends the row's opening li: its id, kind, status, ETag
// and the data flags the page's script reads.
func appendRowTag(b []byte, r *rowView, overdue bool) []byte {
	b = append(b, `<li class="event-row" id="event-`...)
	b = strconv.AppendInt(b, r.ID, 10)
	if r.Extra { // another day's piece of a log: the id stays the log's own row's
		b = append(append(b, "-on-"...), r.Piece.Date...)
	}
	b = append(b, `" data-kind="`...)
	b = appendEscaped(b, string(r.Kind))
	b = append(b, `" data-status="`...)
	b = appendEscaped(b, string(r.Status))
	b = append(b, '"')
	if r.Writes() {
		b = append(b, ` data-etag="`...)
		var etag [48]byte
		b = appendEscaped(b, app.AppendETag(etag[:0], r.Event))
		b = append(b, '"')
	}
	if overdue {
		b = append(b, ` data-overdue="true"`...)
	}
	if r.Note != "" {
		b = append(b, ` data-captured="true"`...)
	}
	if r.Past {
		b = append(b, ` data-past="true"`...)
	}
	return append(b, '>')
}

// appendRowTimes appends the meta line's times: when, how long, deferred
// until, elapsed. They start the meta line, one space apart.
func appendRowTimes(b []byte, r *rowView) []byte {
	meta := len(b) // the items of row-meta are one space apart
	if start := r.SpanStart(); start != nil {
		b = append(b, `<time datetime="`...)
		b = models.AppendTime(b, *start)
		b = append(b, `">`...)
		b = appendWhen(b, r, *start)
		b = append(b, "</time>"...)
	}
	if _, ok := logLength(r.Event); ok {
		b = metaSep(b, meta)
		b = append(b, `<span class="duration">`...)
		b = appendRowDuration(b, r) // digits and letters: nothing to escape
		b = append(b, "</span>"...)
	}
	if r.Status == models.StatusDeferred && r.DeferUntil != nil {
		b = metaSep(b, meta)
		b = append(b, `<time class="until" datetime="`...)
		b = models.AppendTime(b, *r.DeferUntil)
		b = append(b, `">`...)
		lang := r.lang()
		before, after := lang.Wrap("row_until")
		b = appendEscaped(b, before)
		b = appendRelTime(lang, b, *r.DeferUntil, r.Today, r.Loc)
		b = appendEscaped(b, after)
		b = append(b, "</time>"...)
	}
	if e := r.Elapsed(); e != "" {
		b = metaSep(b, meta)
		b = append(b, `<span class="elapsed">`...)
		b = appendEscaped(b, e)
		b = append(b, "</span>"...)
	}
	return metaSep(b, meta)
}

// appendRowMarks appends the rest of the meta line: the status, overdue,
// past, the priority, the project tag, the labels and the table's texts.
func appendRowMarks(b []byte, r *rowView, overdue bool) []byte {
	lang := r.lang()
	b = append(b, `<span class="status status-`...)
	b = appendEscaped(b, string(r.Status))
	if !r.ShowStatus() {
		b = append(b, " visually-hidden"...)
	}
	b = append(b, `">`...)
	b = appendEscaped(b, r.StatusLabel())
	b = append(b, "</span>"...)
	if overdue {
		b = append(b, ` <span class="overdue">`...)
		b = append(appendEscaped(b, lang.T("row_overdue")), "</span>"...)
	}
	if r.Past {
		b = append(b, ` <span class="past">`...)
		b = append(appendEscaped(b, lang.T("row_past")), "</span>"...)
	}
	if p := r.PriorityLabel(); p != "" {
		b = append(b, ` <span class="priority priority-`...)
		b = strconv.AppendInt(b, int64(r.Priority), 10)
		b = append(b, `">`...)
		before, after := lang.Wrap("row_priority")
		b = appendEscaped(appendEscaped(appendEscaped(b, before), p), after)
		b = append(b, "</span>"...)
	}
	if tag := r.Tag(); tag != "" {
		b = append(b, ` <a class="tag" href="`...)
		b = appendTagHref(b, *r.ProjectTag)
		b = append(b, `" aria-label="`...)
		before, after := lang.Wrap("events_tagged")
		b = appendEscaped(appendEscaped(appendEscaped(b, before), tag), after)
		b = append(b, `">#<bdi>`...)
		b = appendEscaped(b, tag)
		b = append(b, "</bdi></a>"...)
	}
	for _, l := range r.Labels {
		b = append(b, ` <a class="label" href="`...)
		b = appendListingHref(b, "label", l)
		b = append(b, `" aria-label="`...)
		before, after := lang.Wrap("events_labelled")
		b = appendEscaped(appendEscaped(appendEscaped(b, before), l), after)
		b = append(b, `">@<bdi>`...)
		b = appendEscaped(b, l)
		b = append(b, "</bdi></a>"...)
	}
	return appendRowTexts(b, r)
}

// appendRowTexts appends the texts of the fields the table draws on a row
// after their labels (models.RowText; rowView.RowTexts), each that the row
// holds.
func appendRowTexts(b []byte, r *rowView) []byte {
	for i := range models.EventFields {
		f := &models.EventFields[i]
		if f.Row != models.RowText {
			continue
		}
		s, ok := f.Text(r.Event)
		if !ok {
			continue
		}
		b = append(b, ` <span class="`...)
		b = appendEscaped(b, f.Name)
		b = append(b, `"><span class="visually-hidden">`...)
		b = appendEscaped(b, r.lang().T(f.RowLabel))
		b = append(b, " </span>"...)
		b = appendEscaped(b, s)
		b = append(b, "</span>"...)
	}
	return b
}

// appendOps appends the row's lifecycle buttons: one slot per operation,
// an empty slot where the row offers none (undoview.go). A running log
// offers Stop alone; nothing when the row offers no operation. title is
// the row's title as shown.
func appendOps(b []byte, r *rowView, title string) []byte {
	if len(r.Ops) == 0 {
		if r.Running() {
			return appendStop(b, r, title) // timers.go
		}
		return b
	}
	lang := r.lang()
	b = append(b, `<div class="ops" role="group" aria-label="`...)
	if r.Title == "" {
		b = appendEscaped(b, lang.T("ops_label_untitled"))
	} else {
		before, after := lang.Wrap("ops_label")
		b = appendEscaped(appendEscaped(appendEscaped(b, before), title), after)
	}
	b = append(b, `">`...)
	buttons := opButtons[lang]
	for i, op := range models.Ops {
		offered := r.offers(op)
		switch {
		case !offered:
			b = append(b, `<span class="op-slot"></span>`...)
		case op == models.OpDefer:
			// The menu itself is at the page's foot, once
			// (partials/defer_menu); app.js puts it in here when the menu
			// is first opened.
			b = append(b, `<details class="defer" data-defer-post="/api/events/`...)
			b = strconv.AppendInt(b, r.ID, 10)
			b = append(b, `/defer" data-defer-target="`...)
			b = appendEscaped(b, r.Target)
			if r.Kind == models.KindTask && r.DueAt != nil {
				b = append(b, `" data-defer-due="`...)
				b = models.AppendTime(b, *r.DueAt)
			}
			b = append(b, `"><summary>`...)
			b = append(appendEscaped(b, lang.T("op_defer")), "</summary></details>"...)
		default:
			b = append(b, buttons[i].open...)
			b = appendPost(b, r, string(op))
			b = append(b, buttons[i].label...)
		}
	}
	return append(b, "</div>"...)
}

// metaSep appends the space between two items of a row's row-meta, which
// starts at start in b: none before the first.
func metaSep(b []byte, start int) []byte {
	if len(b) > start {
		return append(b, ' ')
	}
	return b
}

// opButton is what an operation's button holds that is the same on every
// row: what comes before its hx-post (open), and from the end of its
// attributes to its end (label, opLabel).
type opButton struct{ open, label []byte }

// opButtons are the operations' buttons, in the order of models.Ops, drawn
// once for each language.
var opButtons = func() map[*i18n.Lang][]opButton {
	all := make(map[*i18n.Lang][]opButton)
	for _, l := range i18n.Langs() {
		out := make([]opButton, len(models.Ops))
		for i, op := range models.Ops {
			b := appendEscaped([]byte(`<button type="button" class="op op-`), string(op))
			b = append(b, `" data-op="`...)
			b = append(appendEscaped(b, string(op)), '"')
			if op == models.OpReactivate {
				b = append(appendEscaped(append(b, ` title="`...), l.T("op_reactivate_title")), '"')
			}
			out[i].open = b
			out[i].label = append(appendEscaped([]byte{'>'}, opLabel(l, op)), "</button>"...)
		}
		all[l] = out
	}
	return all
}()

// appendTagHref appends the address of tag's listing (tagHref), escaped
// for an attribute: url.QueryEscape leaves nothing to escape, and nothing
// html/template's URL normaliser would change.
func appendTagHref(b []byte, tag string) []byte {
	return appendListingHref(b, "project_tag", tag)
}

// appendListingHref appends the address of the events page filtered by
// param=value (a project tag's or a label's listing), as appendTagHref.
func appendListingHref(b []byte, param, value string) []byte {
	b = append(b, "/events?"...)
	b = append(b, param...)
	b = append(b, '=')
	q := url.QueryEscape(value)
	for i := 0; i < len(q); i++ {
		if q[i] == '+' {
			b = append(b, "%20"...)
		} else {
			b = append(b, q[i])
		}
	}
	return b
}

// appendPost appends the htmx attributes of a button that posts op on the
// row's event and swaps the answer into the row's target.
func appendPost(b []byte, r *rowView, op string) []byte {
	b = append(b, ` hx-post="/api/events/`...)
	b = strconv.AppendInt(b, r.ID, 10)
	b = append(b, '/')
	b = append(b, op...)
	b = append(b, `" hx-target="`...)
	b = appendEscaped(b, r.Target)
	return append(b, `" hx-swap="outerHTML"`...)
}

// appendUndoNote appends the row's undo note, if it has one: what was done
// and the button that undoes it.
func appendUndoNote(b []byte, r *rowView) []byte {
	if r.UndoNote == "" {
		return b
	}
	b = append(b, `<p class="undo-note" role="status"><span>`...)
	b = appendEscaped(b, r.UndoNote)
	b = append(b, `</span> · <button type="button" class="undo" data-undo`...)
	b = appendPost(b, r, "reactivate")
	b = appendEscaped(append(b, '>'), r.lang().T("undo"))
	return append(b, "</button></p>"...)
}

// appendEscaped appends s escaped as html/template escapes a string in text
// and in a quoted attribute value (its htmlEscaper and attrEscaper share one
// table): NUL becomes U+FFFD; " & ' + < > become &#34; &amp; &#39; &#43;
// &lt; &gt;. Every other byte, invalid UTF-8 included, is kept: the escaped
// bytes are ASCII, which never occurs inside a multi-byte UTF-8 sequence,
// so a scan of bytes finds what html/template's scan of runes finds. The
// scan looks each byte up in escapedBytes, which took half the time of a
// switch over the seven bytes on every byte.
func appendEscaped[S string | []byte](b []byte, s S) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		if !escapedBytes[s[i]] {
			continue
		}
		var repl string
		switch s[i] {
		case 0:
			repl = "\uFFFD"
		case '"':
			repl = "&#34;"
		case '&':
			repl = "&amp;"
		case '\'':
			repl = "&#39;"
		case '+':
			repl = "&#43;"
		case '<':
			repl = "&lt;"
		case '>':
			repl = "&gt;"
		}
		b = append(b, s[last:i]...)
		b = append(b, repl...)
		last = i + 1
	}
	return append(b, s[last:]...)
}

// escapedBytes are the bytes appendEscaped replaces.
var escapedBytes = func() (t [256]bool) {
	for _, c := range []byte{0, '"', '&', '\'', '+', '<', '>'} {
		t[c] = true
	}
	return t
}()
