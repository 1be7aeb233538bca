// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"strings"

	"events/models"
)

// Stored text is drawn isolated (dir="auto": its direction comes from its
// own first strong character and does not spill onto what is around it),
// and the explicit bidirectional controls a title may hold are drawn as
// what they are, by their Unicode abbreviation ("[RLO]" for U+202E), rather
// than obeyed. Obeyed, an override
// makes "invoice \u202egpj.exe" read "invoice exe.jpg" even inside an
// isolate. Project tags and source references refuse them (422).

// isolated is stored text as a plain-text context (a <title>, which holds
// no markup, so no dir="auto") shows it: its controls shown, between U+2068
// FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, so its
// direction does not turn what follows it (" · events").
func isolated(s string) string { return "\u2068" + shown(s) + "\u2069" }

// shown is s with each explicit bidirectional control replaced by a visible
// "[RLO]" (its abbreviation in the Unicode standard). The edit form keeps
// the stored text, so saving it changes nothing. Every such control is
// written in UTF-8 as 0xE2 and two more bytes, so a text without that byte
// (most: ASCII and Hangul) is looked at no further, byte by byte and not
// rune by rune.
func shown(s string) string {
	if strings.IndexByte(s, 0xE2) < 0 || !strings.ContainsFunc(s, models.IsBidiControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if models.IsBidiControl(r) {
			b.WriteString("[" + bidiNames[r] + "]")
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

var bidiNames = map[rune]string{
	0x202A: "LRE", 0x202B: "RLE", 0x202C: "PDF", 0x202D: "LRO", 0x202E: "RLO",
	0x2066: "LRI", 0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI",
}

// ShownTitle is the title as the pages draw it.
func (r rowView) ShownTitle() string { return shown(r.Title) }
