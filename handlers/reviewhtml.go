// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"html/template"
	"strconv"
	"unsafe"

	"events/internal/i18n"
)

// EntriesHTML is the day's logbook drawn by Go, as rowhtml.go draws list
// rows: a week holds about 2,000 entries at a million events, and
// html/template spent most of the review page's CPU on them. Each entry
// is followed by the indentation the template put between them; the bytes
// are what the template drew (TestReviewEntriesAreTheTemplates).
func (d reviewDay) EntriesHTML() template.HTML { return entriesHTML(d.l, d.Entries) }

// PlanHTML is the day's plan (its tasks due and calendar entries, on a day
// from today on), drawn as the logbook is.
func (d reviewDay) PlanHTML() template.HTML { return entriesHTML(d.l, d.Plan) }

func entriesHTML(l *i18n.Lang, entries []reviewEntry) template.HTML {
	if len(entries) == 0 {
		return ""
	}
	if l == nil {
		l = i18n.English
	}
	tagged, after := l.Wrap("events_tagged")
	b := make([]byte, 0, 320*len(entries))
	for i := range entries {
		b = appendEntry(b, &entries[i], tagged, after)
		b = append(b, "\n    "...)
	}
	return template.HTML(unsafe.String(unsafe.SliceData(b), len(b)))
}

// appendEntry appends one line of the logbook: what happened, when, the
// event's title linking to it, a log's length and its tag.
func appendEntry(b []byte, e *reviewEntry, tagged, after string) []byte {
	b = append(b, `<li class="entry entry-`...)
	b = appendEscaped(b, e.Class)
	b = append(b, `"><span class="what">`...)
	b = appendEscaped(b, e.What)
	b = append(b, `</span> <time datetime="`...)
	b = appendEscaped(b, e.When.Attr)
	b = append(b, `">`...)
	b = appendEscaped(b, e.When.Text)
	b = append(b, `</time> <a href="/events/`...)
	b = strconv.AppendInt(b, e.ID, 10)
	b = append(b, `">`...)
	b = appendEscaped(b, e.Title)
	b = append(b, `</a>`...)
	if e.Span != "" {
		b = append(b, ` <span class="span">`...)
		b = appendEscaped(b, e.Span)
		b = append(b, `</span>`...)
	}
	if e.Tag != "" {
		b = append(b, ` <a class="tag" href="`...)
		b = appendTagHref(b, e.Tag)
		b = append(b, `" aria-label="`...)
		b = appendEscaped(appendEscaped(appendEscaped(b, tagged), e.Tag), after)
		b = append(b, `">#<bdi>`...)
		b = appendEscaped(b, e.Tag)
		b = append(b, `</bdi></a>`...)
	}
	return append(b, `</li>`...)
}
