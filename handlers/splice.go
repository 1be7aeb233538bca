// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/bytebufferpool"

	"events/app"
)

// The rows of a list go into the answer beside its template, not through
// it. html/template prints a value through fmt: the drawn rows of a page,
// 100 to 300 KB, were copied into a buffer of fmt's own (too large for its
// pool, so a new one each time), then into the template's buffer, then into
// the response, and the garbage collector cleared the copies after: about
// a third of the service's CPU on a page of rows (README, Performance).
// Instead the template prints a marker where the rows go (rowSlots.place),
// and Handlers.render draws each list of rows straight into the answer at
// its marker.
//
// A marker cannot come from stored text: every text the templates print is
// escaped, so no '<' of it reaches the output, and the rows themselves,
// which hold escaped text only, are never searched for markers.

// rowSlots are the lists of rows one answer places. A nil *rowSlots draws
// the rows in place, into the template.HTML the template prints (the
// templates' check at start, TestListSplicedAsDrawnInPlace).
type rowSlots struct {
	lists []rowList
	// notes: the notes of rows by event id, set as they are placed (a
	// task the task line just made, drawn where its tab puts it:
	// sendCaptured, daygroups.go)
	notes map[int64]string
	// overlaps: what the logs among the rows overlap, by event id, set
	// as they are placed (markOverlaps, timers.go)
	overlaps map[int64]app.Overlapping
}

const (
	slotOpen  = "<!--rows "
	slotClose = "-->"
)

// place is what a template prints where rows go: their marker, or the rows
// drawn when s is nil; "" for no rows, so that {{if}} and {{with}} read it
// as before.
func (s *rowSlots) place(rows []rowView, before, after string) template.HTML {
	if s != nil && s.notes != nil {
		for i := range rows {
			if n, ok := s.notes[rows[i].ID]; ok {
				rows[i].Note, rows[i].Added = n, true
			}
		}
	}
	if s != nil && s.overlaps != nil {
		for i := range rows {
			if o, ok := s.overlaps[rows[i].ID]; ok {
				rows[i].Overlaps = &o
			}
		}
	}
	l := rowList{rows, before, after}
	if len(rows) == 0 || s == nil {
		return l.html()
	}
	s.lists = append(s.lists, l)
	return template.HTML(slotOpen + strconv.Itoa(len(s.lists)-1) + slotClose)
}

// render answers the template name over bind as HTML, the markers of s
// replaced by their rows: what c.Render does, with the rows drawn into the
// answer.
func (h *Handlers) render(c *fiber.Ctx, s *rowSlots, name string, bind any) error {
	buf := bytebufferpool.Get()
	defer bytebufferpool.Put(buf)
	lang := h.lang(c)
	if err := h.views[lang].Render(buf, name, bind); err != nil {
		return fmt.Errorf("failed to render: %w", err)
	}
	for i := range s.lists { // the rows in the answer's language
		for j := range s.lists[i].rows {
			s.lists[i].rows[j].L = lang
		}
	}
	bp := pageBuffers.Get().(*[]byte)
	b, err := s.splice((*bp)[:0], buf.B)
	if err != nil {
		return err
	}
	sendPooled(c, fiber.MIMETextHTMLCharsetUTF8, &pageBuffers, bp, b)
	return nil
}

// splice appends to dst the rendered template, each marker replaced by its
// list's rows drawn.
func (s *rowSlots) splice(dst, rendered []byte) ([]byte, error) {
	n := len(rendered)
	for i := range s.lists {
		n += s.lists[i].size()
	}
	dst = slices.Grow(dst, n)
	for {
		i := bytes.Index(rendered, []byte(slotOpen))
		if i < 0 {
			return append(dst, rendered...), nil
		}
		dst = append(dst, rendered[:i]...)
		rendered = rendered[i+len(slotOpen):]
		end := bytes.Index(rendered, []byte(slotClose))
		k, err := strconv.Atoi(string(rendered[:max(end, 0)]))
		if end < 0 || err != nil || k >= len(s.lists) {
			return dst, fmt.Errorf("failed to render: a row marker names no list: %.40q", rendered)
		}
		dst = s.lists[k].appendTo(dst)
		rendered = rendered[end+len(slotClose):]
	}
}
