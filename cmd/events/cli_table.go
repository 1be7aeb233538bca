// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"io"
	"strings"
	"unicode"

	"github.com/mattn/go-runewidth"
)

// widths counts display columns as a terminal does: Hangul and other wide
// characters take two, and characters of ambiguous width one (whatever the
// locale says), so a line measured here is the line drawn.
var widths = func() *runewidth.Condition {
	c := runewidth.NewCondition()
	c.EastAsianWidth = false
	return c
}()

func displayWidth(s string) int { return widths.StringWidth(s) }

// truncate cuts s to at most w columns, ending it with "..." when cut.
func truncate(s string, w int) string {
	if w < 4 {
		w = 4
	}
	return widths.Truncate(s, w, "...")
}

// cellText is s made safe to draw: a control or format character (a
// bidirectional override, say) would move the cursor or reorder the line,
// so each becomes U+FFFD; line breaks and tabs become spaces.
func cellText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			return '\uFFFD'
		}
		return r
	}, s)
}

// table is rows of cells aligned in columns by display width, two spaces
// apart. Column flex (the title) gives way when the table is wider than
// the output; cap limits a column's width (longer cells are cut).
type table struct {
	head  []string
	rows  [][]string
	right []bool      // right-aligned columns (numbers)
	flex  int         // the column that shrinks to fit
	cap   map[int]int // widest a column may be
}

const tableGap = 2

// render writes the table to w in at most width columns (unless even the
// narrowest flex column cannot fit). With color the head is bold.
func (t table) render(w io.Writer, width int, color bool) {
	n := len(t.head)
	rows := make([][]string, 0, len(t.rows)+1)
	rows = append(rows, t.head)
	for _, r := range t.rows {
		cells := make([]string, n)
		for i := range cells {
			if i < len(r) {
				cells[i] = cellText(r[i])
			}
		}
		rows = append(rows, cells)
	}
	// Columns empty in every row are left out.
	keep := make([]bool, n)
	for i := range keep {
		for _, r := range rows[1:] {
			if r[i] != "" {
				keep[i] = true
				break
			}
		}
	}
	col := make([]int, n)
	for i := range col {
		for _, r := range rows {
			col[i] = max(col[i], displayWidth(r[i]))
		}
		if c, ok := t.cap[i]; ok && col[i] > c {
			col[i] = c
		}
	}
	total := -tableGap
	for i := range col {
		if keep[i] {
			total += col[i] + tableGap
		}
	}
	if total > width && keep[t.flex] {
		col[t.flex] = max(col[t.flex]-(total-width), min(col[t.flex], 10))
	}
	last := n - 1
	for last > 0 && !keep[last] {
		last--
	}
	for ri, r := range rows {
		var b strings.Builder
		for i, cell := range r {
			if !keep[i] {
				continue
			}
			if b.Len() > 0 {
				b.WriteString(strings.Repeat(" ", tableGap))
			}
			if displayWidth(cell) > col[i] {
				cell = truncate(cell, col[i])
			}
			pad := strings.Repeat(" ", col[i]-displayWidth(cell))
			switch {
			case i < len(t.right) && t.right[i]:
				b.WriteString(pad + cell)
			case i == last:
				b.WriteString(cell)
			default:
				b.WriteString(cell + pad)
			}
		}
		line := strings.TrimRight(b.String(), " ")
		if ri == 0 && color {
			line = "\x1b[1m" + line + "\x1b[0m"
		}
		io.WriteString(w, line+"\n")
	}
}
