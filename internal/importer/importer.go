// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package importer reads the files of the tools people leave (iCalendar,
// Timewarrior's export, Toggl Track's detailed CSV, Todoist's project CSV)
// into create requests of the events JSON API, and sends them through
// internal/client (run.go). Parsing never writes: a file is read whole
// first, each record either becomes a request or is refused with its line
// number, and only then does anything go to the service.
//
// Every record carries a source and a source_ref that are the same for the
// same record in the same file, so the service's dedup makes a second run
// create nothing; see run.go for how a run cut off midway is finished.
package importer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Formats, as --from names them.
const (
	FormatICal    = "ical"
	FormatTimew   = "timew"
	FormatToggl   = "toggl"
	FormatTodoist = "todoist"
)

// Formats lists the formats --from accepts.
var Formats = []string{FormatICal, FormatTimew, FormatToggl, FormatTodoist}

// Create is the body of one POST /api/events.
type Create struct {
	Kind        string     `json:"kind"`
	Status      string     `json:"status,omitempty"`
	Title       string     `json:"title"`
	Description string     `json:"description,omitempty"`
	StartAt     *time.Time `json:"start_at,omitempty"`
	EndAt       *time.Time `json:"end_at,omitempty"`
	AllDay      bool       `json:"all_day,omitempty"`
	DueAt       *time.Time `json:"due_at,omitempty"`
	StartedAt   *time.Time `json:"started_at,omitempty"`
	EndedAt     *time.Time `json:"ended_at,omitempty"`
	Priority    int        `json:"priority,omitempty"`
	ProjectTag  string     `json:"project_tag,omitempty"`
	Source      string     `json:"source"`
	SourceRef   string     `json:"source_ref"`
}

// Record is one event to create, and the operation that follows its
// create ("complete" or "cancel"; "" for none).
type Record struct {
	Line   int // the line of the file it starts on
	Create Create
	Then   string
}

// Body is the record's request body: the same bytes for the same record,
// run after run (the Idempotency-Key's fingerprint depends on it).
func (r Record) Body() []byte {
	b, err := json.Marshal(r.Create)
	if err != nil {
		panic(err) // only strings, ints, bools and times
	}
	return b
}

// Key is the record's Idempotency-Key: derived from its source, source_ref
// and body, so a rerun after a cut sends the same key with the same body
// (the service answers what it stored), and a record whose body changed
// (another --tz) gets a new key and meets the source dedup instead of an
// "another body" refusal.
func (r Record) Key() string {
	h := sha256.New()
	h.Write([]byte(r.Create.Source))
	h.Write([]byte{0})
	h.Write([]byte(r.Create.SourceRef))
	h.Write([]byte{0})
	h.Write(r.Body())
	return "import-" + hex.EncodeToString(h.Sum(nil))[:40]
}

// Refusal is a record, or the whole file, that is not imported.
type Refusal struct {
	Line   int    // 0 for the whole file
	Reason string // one sentence
	Text   string // the record as the file has it (shortened), for --report
}

func (r Refusal) String() string {
	if r.Line == 0 {
		return r.Reason
	}
	return fmt.Sprintf("line %d: %s", r.Line, r.Reason)
}

// Parsed is what a file holds.
type Parsed struct {
	Format  string
	Records []Record
	Refused []Refusal
	// Notes on what was read but not kept as it was, for the summary:
	// "2 series expanded into 57 occurrences", "3 labels dropped".
	Notes []string
}

// Options of Parse.
type Options struct {
	Format string         // one of Formats; "" detects it from the content
	Zone   *time.Location // times without a zone of their own (--tz)
	Now    time.Time      // the clock: the default window and relative dates
	// Since and Until bound the occurrences of a recurring calendar series
	// (zero: a year before Now, a year after Now).
	Since, Until time.Time
	// Name is the file's name without its folder; Todoist's export names
	// its project only there.
	Name string
	// Project is a Todoist file's project (--project); "" takes Name.
	Project string
}

// Parse reads data into records. An error is a file that cannot be read as
// the format at all (with its line); a record that cannot be read is a
// Refusal and the others go on.
func Parse(data []byte, o Options) (Parsed, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if o.Zone == nil {
		o.Zone = time.UTC
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if o.Since.IsZero() {
		o.Since = o.Now.AddDate(-1, 0, 0)
	}
	if o.Until.IsZero() {
		o.Until = o.Now.AddDate(1, 0, 0)
	}
	format := o.Format
	if format == "" {
		var err error
		if format, err = Detect(data); err != nil {
			return Parsed{}, err
		}
	}
	var p Parsed
	var err error
	switch format {
	case FormatICal:
		p, err = parseICal(data, o)
	case FormatTimew:
		p, err = parseTimew(data, o)
	case FormatToggl:
		p, err = parseToggl(data, o)
	case FormatTodoist:
		p, err = parseTodoist(data, o)
	default:
		return Parsed{}, fmt.Errorf("unknown format %q: --from takes %s", format, strings.Join(Formats, ", "))
	}
	p.Format = format
	return p, err
}

// Detect tells the format from the content: an iCalendar file begins with
// BEGIN:VCALENDAR, Timewarrior's export is a JSON array, and the two CSVs
// are told apart by their header rows.
func Detect(data []byte) (string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	text := strings.TrimLeft(string(data[:min(len(data), 4096)]), " \t\r\n")
	first, _, _ := strings.Cut(text, "\n")
	first = strings.TrimSpace(first)
	switch {
	case strings.HasPrefix(strings.ToUpper(first), "BEGIN:VCALENDAR"):
		return FormatICal, nil
	case strings.HasPrefix(text, "["):
		return FormatTimew, nil
	}
	header := map[string]bool{}
	for _, f := range strings.Split(first, ",") {
		header[strings.Trim(strings.TrimSpace(f), `"`)] = true
	}
	switch {
	case header["TYPE"] && header["CONTENT"]:
		return FormatTodoist, nil
	case header["Start date"] && header["Start time"]:
		return FormatToggl, nil
	}
	return "", fmt.Errorf("cannot tell the file's format from its first line; name it with --from (%s)", strings.Join(Formats, ", "))
}

// hashRef is a stable short hash of fields, for formats that have no id.
func hashRef(fields ...string) string {
	h := sha256.New()
	for _, f := range fields {
		h.Write([]byte(f))
		h.Write([]byte{0x1f})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// clip shortens s for a report line.
func clip(s string, n int) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\r", "")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func utc(t time.Time) *time.Time {
	t = t.UTC()
	return &t
}

// noon is 12:00 of the date y-m-d in loc: an all-day entry's day sent as an
// instant that is on that date in every zone within 11 hours of loc (the
// service fixes the span in its own EVENTS_TIMEZONE).
func noon(y int, m time.Month, d int, loc *time.Location) *time.Time {
	return utc(time.Date(y, m, d, 12, 0, 0, 0, loc))
}
