// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package importer reads the files of the tools people leave (iCalendar,
// Timewarrior's export, Toggl Track's detailed CSV, Todoist's project CSV)
// into create requests of the events JSON API, and sends them through
// internal/client (run.go). A file is streamed (Scan), never held whole:
// events import reads it once to check it, each record either becoming a
// request or refused with its line number, and only then reads it again
// to send; a file that cannot be read as its format imports nothing. A
// recurring series is expanded up to Options.MaxPerSeries occurrences and
// a file's series up to MaxPerFile together; a series past either is
// refused, naming its line and rule.
//
// Every record carries a source and a source_ref that are the same for the
// same record in the same file, so the service's dedup makes a second run
// create nothing; see run.go for how a run cut off midway is finished.
package importer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"

	"events/models"
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

// Create is the event one POST /api/events makes: models.Event, whose
// create body (Event.AppendCreateJSON) holds the fields it sets.
type Create = models.Event

// text is s as an optional text: nil when empty.
func text(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// source is a create's source.
func source(s models.Source) *models.Source { return &s }

// Record is one event to create, and the operation that follows its
// create ("complete" or "cancel"; "" for none).
type Record struct {
	Line   int // the line of the file it starts on
	Create Create
	Then   string
	// At is when Then happened in the source (a to-do's COMPLETED:), nil
	// for the moment of the import.
	At *time.Time
}

// Body is the record's request body: the same bytes for the same record,
// run after run (the Idempotency-Key's fingerprint depends on it).
func (r Record) Body() []byte {
	return r.Create.AppendCreateJSON(nil)
}

// Key is the record's Idempotency-Key: derived from its source, source_ref
// and body, so a rerun after a cut sends the same key with the same body
// (the service answers what it stored), and a record whose body changed
// (another --tz) gets a new key and meets the source dedup instead of an
// "another body" refusal.
func (r Record) Key() string {
	h := sha256.New()
	if r.Create.Source != nil {
		h.Write([]byte(*r.Create.Source))
	}
	h.Write([]byte{0})
	if r.Create.SourceRef != nil {
		h.Write([]byte(*r.Create.SourceRef))
	}
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
	// "2 series expanded into 57 occurrences".
	Notes []string
	// kept counts what was kept in descriptions, by what it is ("Todoist
	// recurrences"), in the order first met (keptOrder).
	kept      map[string]int
	keptOrder []string
}

// keepNote appends to c's description, under a plain heading, the fields
// of the source that have no home in an event ("Task: Design"), and counts
// each by what (the summary's "kept in descriptions: 2 Toggl tasks").
// Nothing is kept when fields is empty.
func (p *Parsed) keepNote(c *Create, heading string, fields []keptField) {
	if len(fields) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString(heading)
	for _, f := range fields {
		b.WriteString("\n" + f.name + ": " + f.value)
		if p.kept == nil {
			p.kept = map[string]int{}
		}
		if p.kept[f.what] == 0 {
			p.keptOrder = append(p.keptOrder, f.what)
		}
		p.kept[f.what]++
	}
	c.Description = strings.TrimSpace(strings.TrimSpace(c.Description) + "\n\n" + b.String())
}

// keptField is one field kept in a description: its name as the source
// calls it, its value, and what the summary counts it as.
type keptField struct{ name, value, what string }

// KeptNote is the summary's sentence on what was kept in descriptions
// ("kept in descriptions: 3 Todoist recurrences, 1 Toggl task"), "" for
// nothing.
func (p *Parsed) KeptNote() string {
	if len(p.keptOrder) == 0 {
		return ""
	}
	parts := make([]string, len(p.keptOrder))
	for i, what := range p.keptOrder {
		n := p.kept[what]
		if n == 1 {
			what = strings.TrimSuffix(what, "s") // "1 Toggl task"
		}
		parts[i] = fmt.Sprintf("%d %s", n, what)
	}
	return "kept in descriptions: " + strings.Join(parts, ", ")
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
	// ProjectTags are the names that are projects: a Timewarrior
	// interval's project is the one of its tags among them (none when no
	// tag or several are): --project-tags.
	ProjectTags []string
	// Projects are the file's tags that already name a project on the
	// service (ExistingProjects); they serve as ProjectTags when
	// --project-tags names none.
	Projects []string
	// MaxPerSeries and MaxPerFile bound the occurrences of one recurring
	// series and of all a file's series (0: DefaultMaxPerSeries,
	// DefaultMaxPerFile); a series past either is refused.
	MaxPerSeries, MaxPerFile int
}

// The default caps on a recurring series' occurrences (--max-occurrences,
// --max-occurrences-per-file): a daily series for two years fits, a
// FREQ=SECONDLY or MINUTELY rule does not, and events are never deleted.
const (
	DefaultMaxPerSeries = 1000
	DefaultMaxPerFile   = 50000
)

// Parse reads data into records: Scan, keeping them (the tests, and files
// small enough to hold).
func Parse(data []byte, o Options) (Parsed, error) {
	var records []Record
	p, err := Scan(bytes.NewReader(data), o, func(r Record) error {
		records = append(records, r)
		return nil
	})
	p.Records = records
	return p, err
}

// Scan reads r as its format and calls emit with each record, in the
// file's order, holding no more of the file than one record (an
// iCalendar file is read twice: its RECURRENCE-ID entries first). An error
// is a file that cannot be read as the format at all (with its line), or
// emit's; a record that cannot be read is a Refusal in Parsed and the
// others go on. Parsed.Records stays empty.
func Scan(r io.ReadSeeker, o Options, emit func(Record) error) (Parsed, error) {
	open := func() (io.Reader, error) {
		if _, err := r.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		br := bufio.NewReaderSize(r, 64<<10)
		if head, _ := br.Peek(3); bytes.Equal(head, []byte("\xef\xbb\xbf")) {
			_, _ = br.Discard(3)
		}
		return br, nil
	}
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
	if o.MaxPerSeries <= 0 {
		o.MaxPerSeries = DefaultMaxPerSeries
	}
	if o.MaxPerFile <= 0 {
		o.MaxPerFile = DefaultMaxPerFile
	}
	format := o.Format
	if format == "" {
		in, err := open()
		if err != nil {
			return Parsed{}, err
		}
		head, _ := in.(*bufio.Reader).Peek(4096)
		if format, err = Detect(head); err != nil {
			return Parsed{}, err
		}
	}
	p := Parsed{Format: format}
	// Every record's times are checked here, whatever the format: a time
	// past the year 9999 (DTSTART 99991231T230000Z with DURATION PT24H)
	// is a refusal of its line, not a body that cannot be written.
	keep := func(rec Record) error {
		if err := checkTimes(rec.Create); err != nil {
			p.Refused = append(p.Refused, Refusal{Line: rec.Line, Reason: err.Error(), Text: rec.Create.Title})
			return nil
		}
		return emit(rec)
	}
	var err error
	switch format {
	case FormatICal:
		err = scanICal(open, o, &p, keep)
	case FormatTimew:
		err = scanTimew(open, o, &p, keep)
	case FormatToggl:
		err = scanToggl(open, o, &p, keep)
	case FormatTodoist:
		err = scanTodoist(open, o, &p, keep)
	default:
		return Parsed{}, fmt.Errorf("unknown format %q: --from takes %s", format, strings.Join(Formats, ", "))
	}
	if note := p.KeptNote(); note != "" {
		p.Notes = append(p.Notes, note)
	}
	return p, err
}

// checkTimes refuses a create whose times leave the years 0001 to 9999,
// naming the field.
func checkTimes(c Create) error {
	for i := range models.EventFields {
		f := &models.EventFields[i]
		if f.Type != models.TypeTime {
			continue
		}
		if t := f.Time(&c); t != nil && !models.InBounds(*t) {
			return fmt.Errorf("%s would be in the year %d, outside the years 0001 to 9999", f.Name, t.UTC().Year())
		}
	}
	return nil
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
