// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package importer

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"events/models"

	ical "github.com/arran4/golang-ical"
	"github.com/teambition/rrule-go"
)

// iCalendar (RFC 5545). The file is cut into its top-level components by
// their BEGIN and END lines first, and each VEVENT or VTODO is parsed by
// golang-ical on its own, so one malformed entry is refused with its line
// and the others are imported. Times: a DATE value is an all-day date, a
// DATE-TIME ending in Z is UTC, one with TZID is read in that IANA zone,
// and a floating one in --tz. Recurrence (RRULE, RDATE, EXDATE) is
// expanded by rrule-go into the occurrences inside the window; an
// occurrence replaced by a RECURRENCE-ID entry is that entry instead.

// icalChunk is one top-level component of the file.
type icalChunk struct {
	kind string // VEVENT, VTODO, VTIMEZONE, ...
	line int    // its BEGIN line
	text string
}

// maxICalLine and maxICalEntry bound what is held of an iCalendar file
// at once: a line, and the text of one component.
const (
	maxICalLine  = 1 << 20
	maxICalEntry = 1 << 20
)

// walkICal reads in's lines and calls chunk with each top-level component
// in turn (with its text unless it is longer than maxICalEntry, whose
// chunk has an empty text). An error is a file that is not iCalendar.
func walkICal(in io.Reader, chunk func(icalChunk) error) error {
	br := bufio.NewReaderSize(in, 64<<10)
	var cur *icalChunk
	var body strings.Builder
	depth, calendars, n := 0, 0, 0
	for {
		raw, err := readLine(br)
		if err == io.EOF && raw == "" {
			break
		}
		n++
		if err != nil && err != io.EOF {
			if errors.Is(err, errLongLine) {
				return fmt.Errorf("line %d: %v", n, err)
			}
			return err
		}
		line := strings.TrimRight(raw, "\r\n")
		upper := strings.ToUpper(line)
		name, value, _ := strings.Cut(upper, ":")
		switch {
		case name == "BEGIN":
			depth++
			switch {
			case depth == 1 && value != "VCALENDAR":
				return fmt.Errorf("line %d: an iCalendar file begins with BEGIN:VCALENDAR, not %s", n, line)
			case depth == 1:
				calendars++
			case depth == 2:
				cur = &icalChunk{kind: value, line: n}
				body.Reset()
			}
		case name == "END":
			if depth == 0 {
				return fmt.Errorf("line %d: %s without its BEGIN", n, line)
			}
			if depth == 2 && cur != nil {
				if value != cur.kind {
					return fmt.Errorf("line %d: %s ends the %s begun on line %d", n, line, cur.kind, cur.line)
				}
				if body.Len() <= maxICalEntry {
					body.WriteString(line + "\r\n")
					cur.text = body.String()
				}
				if err := chunk(*cur); err != nil {
					return err
				}
				cur = nil
				body.Reset()
			}
			depth--
			continue
		case depth == 0 && strings.TrimSpace(line) != "":
			return fmt.Errorf("line %d: text outside BEGIN:VCALENDAR ... END:VCALENDAR", n)
		}
		if cur != nil && body.Len() <= maxICalEntry {
			body.WriteString(line + "\r\n")
		}
	}
	if depth != 0 {
		if cur != nil {
			return fmt.Errorf("line %d: the %s begun here never ends (no END:%s)", cur.line, cur.kind, cur.kind)
		}
		return fmt.Errorf("line %d: the file ends before END:VCALENDAR", n+1)
	}
	if calendars == 0 {
		return fmt.Errorf("line 1: no BEGIN:VCALENDAR in the file")
	}
	return nil
}

var errLongLine = fmt.Errorf("the line is longer than %d bytes", maxICalLine)

// readLine reads one line of br, its end included, refusing one longer
// than maxICalLine rather than holding it.
func readLine(br *bufio.Reader) (string, error) {
	var b []byte
	for {
		part, err := br.ReadSlice('\n')
		if len(b)+len(part) > maxICalLine {
			return "", errLongLine
		}
		b = append(b, part...)
		if err != bufio.ErrBufferFull {
			return string(b), err
		}
	}
}

// icalEntry is a VEVENT or VTODO read into what an import needs.
type icalEntry struct {
	kind     string // VEVENT or VTODO
	line     int
	uid      string
	summary  string
	desc     string
	status   string
	priority int
	// A VEVENT's start and its length; allDay entries count whole days.
	start    icalTime
	end      *icalTime
	duration time.Duration
	days     int
	due      *icalTime
	recurID  *icalTime // RECURRENCE-ID: this entry replaces one occurrence
	rrule    string
	rdates   []icalTime
	exdates  []icalTime
	text     string
	// what else an event can hold: LOCATION, CATEGORIES (labels), a
	// VTODO's COMPLETED and LAST-MODIFIED (the moments of its completion
	// or cancellation); and what it cannot, kept in the description: URL,
	// ORGANIZER, ATTENDEEs
	location     string
	categories   []string
	completed    *time.Time
	lastModified *time.Time
	kept         []keptField
}

// icalTime is a DATE or DATE-TIME value.
type icalTime struct {
	t      time.Time // a DATE: midnight of the date in UTC, as a civil date
	isDate bool
}

// key is the value's form in a source_ref: 20260302 for a date,
// 20260302T090000Z for an instant.
func (v icalTime) key() string {
	if v.isDate {
		return v.t.Format("20060102")
	}
	return v.t.UTC().Format("20060102T150405Z")
}

var icalDateTime = regexp.MustCompile(`^(\d{8})(T(\d{6})(Z)?)?$`)

// parseICalTime reads one value of prop, in zone when it has neither a Z
// nor a TZID.
func parseICalTime(prop *ical.IANAProperty, zone *time.Location) (icalTime, error) {
	return parseICalValue(prop.IANAToken, prop.Value, prop.ICalParameters, zone)
}

func parseICalValue(name, value string, params map[string][]string, zone *time.Location) (icalTime, error) {
	m := icalDateTime.FindStringSubmatch(strings.TrimSpace(value))
	if m == nil {
		return icalTime{}, fmt.Errorf("%s %q is not an iCalendar date or date-time", name, value)
	}
	if m[2] == "" {
		d, err := time.Parse("20060102", m[1])
		if err != nil {
			return icalTime{}, fmt.Errorf("%s %q is not a date", name, value)
		}
		return icalTime{t: d, isDate: true}, nil
	}
	loc := zone
	if m[4] == "Z" {
		loc = time.UTC
	} else if tz := params["TZID"]; len(tz) > 0 {
		l, err := models.LoadZone(strings.Trim(tz[0], `"`))
		if err != nil {
			return icalTime{}, fmt.Errorf("%s has TZID %q, which is not an IANA zone name (such as Asia/Seoul)", name, tz[0])
		}
		loc = l
	}
	t, err := time.ParseInLocation("20060102T150405", m[1]+"T"+m[3], loc)
	if err != nil {
		return icalTime{}, fmt.Errorf("%s %q is not a date-time", name, value)
	}
	return icalTime{t: t}, nil
}

var icalDurationRE = regexp.MustCompile(`^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$`)

// maxDurationSeconds is the longest DURATION read: what a time.Duration
// holds (about 292 years).
const maxDurationSeconds = int64(1<<63-1) / int64(time.Second)

// parseICalDuration reads an RFC 5545 DURATION (P1D, PT1H30M, P2W).
func parseICalDuration(v string) (time.Duration, error) {
	m := icalDurationRE.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil || v == "P" || v == "PT" {
		return 0, fmt.Errorf("DURATION %q is not an iCalendar duration (such as PT1H)", v)
	}
	// In seconds first: P99999999D is past what a time.Duration holds
	// (about 292 years), and would wrap around.
	var secs int64
	for i, unit := range []int64{7 * 86400, 86400, 3600, 60, 1} {
		if m[i+2] == "" {
			continue
		}
		x, err := strconv.ParseInt(m[i+2], 10, 64)
		if err != nil || x > maxDurationSeconds/unit || secs > maxDurationSeconds-x*unit {
			return 0, fmt.Errorf("DURATION %q is longer than 292 years", v)
		}
		secs += x * unit
	}
	d := time.Duration(secs) * time.Second
	if m[1] == "-" {
		d = -d
	}
	return d, nil
}

// readEntry reads one VEVENT or VTODO: its words, its priority, then a
// to-do's due or an event's span and recurrence.
func readEntry(c icalChunk, zone *time.Location) (icalEntry, error) {
	base, err := parseComponent(c)
	if err != nil {
		return icalEntry{}, err
	}
	text := func(p ical.ComponentProperty) string {
		if prop := base.GetProperty(p); prop != nil {
			return strings.TrimSpace(ical.FromText(prop.Value))
		}
		return ""
	}
	e := icalEntry{kind: c.kind, line: c.line, text: c.text,
		uid: text(ical.ComponentPropertyUniqueId), summary: text(ical.ComponentPropertySummary),
		desc: text(ical.ComponentPropertyDescription), status: strings.ToUpper(text(ical.ComponentPropertyStatus))}
	if e.uid == "" {
		return e, fmt.Errorf("the %s has no UID, so a second import could not know it", c.kind)
	}
	if e.summary == "" {
		return e, fmt.Errorf("the %s has no SUMMARY (a title is required)", c.kind)
	}
	if p := text(ical.ComponentPropertyPriority); p != "" {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || v > 9 {
			return e, fmt.Errorf("PRIORITY %q is not a number from 0 to 9", p)
		}
		e.priority = v
	}
	e.location = text(ical.ComponentPropertyLocation)
	for _, p := range base.GetProperties(ical.ComponentPropertyCategories) {
		for _, v := range splitICalList(p.Value) {
			e.categories = addLabels(e.categories, v)
		}
	}
	for _, m := range []struct {
		name ical.ComponentProperty
		dst  **time.Time
	}{{ical.ComponentPropertyCompleted, &e.completed}, {ical.ComponentPropertyLastModified, &e.lastModified}} {
		if p := base.GetProperty(m.name); p != nil {
			t, err := parseICalTime(p, zone)
			if err != nil {
				return e, err
			}
			if !t.isDate {
				*m.dst = &t.t
			}
		}
	}
	if v := text(ical.ComponentPropertyUrl); v != "" {
		e.kept = append(e.kept, keptField{"URL", v, "calendar URLs"})
	}
	if p := base.GetProperty(ical.ComponentPropertyOrganizer); p != nil {
		e.kept = append(e.kept, keptField{"Organizer", icalPerson(p), "calendar organizers"})
	}
	var attendees []string
	for _, p := range base.GetProperties(ical.ComponentPropertyAttendee) {
		attendees = append(attendees, icalPerson(p))
	}
	if len(attendees) > 0 {
		e.kept = append(e.kept, keptField{"Attendees", strings.Join(attendees, ", "), "calendar attendee lists"})
	}
	if c.kind == "VTODO" {
		if p := base.GetProperty(ical.ComponentPropertyDue); p != nil {
			d, err := parseICalTime(p, zone)
			if err != nil {
				return e, err
			}
			e.due = &d
		}
		return e, nil
	}
	if err := e.readSpan(base, zone); err != nil {
		return e, err
	}
	return e, e.readRecurrence(base, zone)
}

// parseComponent parses the chunk of one VEVENT or VTODO.
func parseComponent(c icalChunk) (*ical.ComponentBase, error) {
	cal, err := ical.ParseCalendar(strings.NewReader("BEGIN:VCALENDAR\r\n" + c.text + "END:VCALENDAR\r\n"))
	if err != nil {
		return nil, fmt.Errorf("the %s does not parse: %v", c.kind, err)
	}
	if len(cal.Components) == 1 {
		switch co := cal.Components[0].(type) {
		case *ical.VEvent:
			return &co.ComponentBase, nil
		case *ical.VTodo:
			return &co.ComponentBase, nil
		}
	}
	return nil, fmt.Errorf("the %s does not parse", c.kind)
}

// readSpan reads an event's DTSTART and its DTEND or DURATION.
func (e *icalEntry) readSpan(base *ical.ComponentBase, zone *time.Location) error {
	start := base.GetProperty(ical.ComponentPropertyDtStart)
	if start == nil {
		return fmt.Errorf("the VEVENT has no DTSTART")
	}
	var err error
	if e.start, err = parseICalTime(start, zone); err != nil {
		return err
	}
	if p := base.GetProperty(ical.ComponentPropertyDtEnd); p != nil {
		end, err := parseICalTime(p, zone)
		if err != nil {
			return err
		}
		if end.isDate != e.start.isDate {
			return fmt.Errorf("DTSTART and DTEND must both be dates or both date-times")
		}
		if end.t.Before(e.start.t) {
			return fmt.Errorf("DTEND %s is before DTSTART", p.Value)
		}
		e.end = &end
	} else if p := base.GetProperty(ical.ComponentPropertyDuration); p != nil {
		d, err := parseICalDuration(p.Value)
		if err != nil {
			return err
		}
		if d < 0 {
			return fmt.Errorf("DURATION %q is negative", p.Value)
		}
		end := icalTime{t: e.start.t.Add(d), isDate: e.start.isDate}
		e.end = &end
	}
	if e.end != nil {
		e.duration = e.end.t.Sub(e.start.t)
		if e.start.isDate {
			e.days = int(e.duration.Hours()/24 + 0.5)
		}
	}
	return nil
}

// readRecurrence reads an event's RECURRENCE-ID, RRULE, RDATEs and EXDATEs.
func (e *icalEntry) readRecurrence(base *ical.ComponentBase, zone *time.Location) error {
	if p := base.GetProperty(ical.ComponentPropertyRecurrenceId); p != nil {
		r, err := parseICalTime(p, zone)
		if err != nil {
			return err
		}
		e.recurID = &r
	}
	if p := base.GetProperty(ical.ComponentPropertyRrule); p != nil {
		e.rrule = p.Value
	}
	for _, name := range []ical.ComponentProperty{ical.ComponentPropertyRdate, ical.ComponentPropertyExdate} {
		for _, p := range base.GetProperties(name) {
			for _, v := range strings.Split(p.Value, ",") {
				t, err := parseICalValue(string(name), v, p.ICalParameters, zone)
				if err != nil {
					return err
				}
				if name == ical.ComponentPropertyRdate {
					e.rdates = append(e.rdates, t)
				} else {
					e.exdates = append(e.exdates, t)
				}
			}
		}
	}
	return nil
}

func scanICal(open func() (io.Reader, error), o Options, p *Parsed, emit func(Record) error) error {
	// First the RECURRENCE-ID entries, which stand for an occurrence of a
	// series wherever they are in the file (and the file's shape: a file
	// that is not iCalendar imports nothing).
	overrides := map[string]bool{} // uid + "/" + key of each RECURRENCE-ID entry
	in, err := open()
	if err != nil {
		return err
	}
	err = walkICal(in, func(c icalChunk) error {
		if c.kind == "VEVENT" && strings.Contains(strings.ToUpper(c.text), "RECURRENCE-ID") {
			if e, err := readEntry(c, o.Zone); err == nil && e.recurID != nil {
				overrides[e.uid+"/"+e.recurID.key()] = true
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if in, err = open(); err != nil {
		return err
	}
	series, occurrences := 0, 0
	err = walkICal(in, func(c icalChunk) error {
		if c.kind != "VEVENT" && c.kind != "VTODO" {
			return nil // VTIMEZONE, VJOURNAL, ...: TZIDs are read as IANA names
		}
		if c.text == "" {
			p.Refused = append(p.Refused, Refusal{Line: c.line, Reason: fmt.Sprintf("the %s is longer than %d bytes", c.kind, maxICalEntry)})
			return nil
		}
		e, err := readEntry(c, o.Zone)
		if err != nil {
			p.Refused = append(p.Refused, Refusal{Line: c.line, Reason: err.Error(), Text: clip(c.text, 300)})
			return nil
		}
		switch {
		case e.kind == "VTODO":
			return emit(todoRecord(e, o, p))
		case e.recurID != nil:
			if inWindow(*e.recurID, o) {
				return emit(eventRecord(e, e.start, e.uid+"/"+e.recurID.key(), o, p))
			}
			return nil
		case e.rrule != "" || len(e.rdates) > 0:
			limit := min(o.MaxPerSeries, o.MaxPerFile-occurrences)
			times, err := expand(e, o, limit)
			if err != nil {
				var c *capError
				if errors.As(err, &c) && c.limit < o.MaxPerSeries {
					err = fmt.Errorf("the file's series come to more than %d occurrences (--max-occurrences-per-file): this one is not imported (RRULE %s, %d before it)",
						o.MaxPerFile, ruleText(e), occurrences)
				}
				p.Refused = append(p.Refused, Refusal{Line: e.line, Reason: err.Error(), Text: clip(e.text, 300)})
				return nil
			}
			series++
			for _, t := range times {
				ref := e.uid + "/" + t.key()
				if overrides[ref] {
					continue // the RECURRENCE-ID entry stands for it
				}
				occurrences++
				if err := emit(eventRecord(e, t, ref, o, p)); err != nil {
					return err
				}
			}
			return nil
		default:
			return emit(eventRecord(e, e.start, e.uid, o, p))
		}
	})
	if series > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d recurring series expanded into %d occurrences from %s to %s (--since, --until)",
			series, occurrences, o.Since.In(o.Zone).Format("2006-01-02"), o.Until.In(o.Zone).Format("2006-01-02")))
	}
	return err
}

// capError is a series with more occurrences in the window than limit.
type capError struct {
	rule  string
	limit int
}

func (e *capError) Error() string {
	return fmt.Sprintf("the series has more than %d occurrences in the window (--max-occurrences; RRULE %s): it is not imported; narrow --since and --until or raise the cap", e.limit, e.rule)
}

// ruleText is a series' rule as a refusal names it.
func ruleText(e icalEntry) string {
	if e.rrule == "" {
		return "none, RDATE only"
	}
	return clip(e.rrule, 120)
}

// maxSteps bounds the occurrences a series may step through before the
// window begins (a FREQ=SECONDLY rule that started years ago).
const maxSteps = 1_000_000

func inWindow(t icalTime, o Options) bool {
	at := t.t
	if t.isDate {
		at = time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, o.Zone)
	}
	return !at.Before(o.Since) && !at.After(o.Until)
}

// expand lists a series' occurrences inside the window, without its
// EXDATEs. Dates recur as dates (in UTC, as civil dates), date-times in the
// zone of their DTSTART, so 09:00 stays 09:00 across a DST change.
// More than limit occurrences is a *capError: the series is refused, not
// cut; it is read one occurrence at a time, so a FREQ=SECONDLY rule holds
// no more than limit of them.
func expand(e icalEntry, o Options, limit int) ([]icalTime, error) {
	set := &rrule.Set{}
	start := e.start.t
	if e.rrule != "" {
		opt, err := rrule.StrToROptionInLocation(e.rrule, start.Location())
		if err != nil {
			return nil, fmt.Errorf("RRULE %q does not parse: %v", e.rrule, err)
		}
		opt.Dtstart = start
		r, err := rrule.NewRRule(*opt)
		if err != nil {
			return nil, fmt.Errorf("RRULE %q: %v", e.rrule, err)
		}
		set.RRule(r)
	} else {
		set.DTStart(start)
		set.RDate(start) // DTSTART is the first instance (RFC 5545 3.8.5.2)
	}
	for _, t := range e.rdates {
		set.RDate(t.t)
	}
	for _, t := range e.exdates {
		set.ExDate(t.t)
	}
	since, until := o.Since, o.Until
	if e.start.isDate { // dates in UTC stand for the civil dates of the window in --tz
		s, u := since.In(o.Zone), until.In(o.Zone)
		since = time.Date(s.Year(), s.Month(), s.Day(), 0, 0, 0, 0, time.UTC)
		until = time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	}
	var out []icalTime
	next := set.Iterator()
	for steps := 1; ; steps++ {
		t, ok := next()
		if !ok || t.After(until) {
			break
		}
		if t.Before(since) {
			if steps > maxSteps {
				return nil, fmt.Errorf("the series steps through more than %d occurrences before --since (RRULE %s): it is not imported", maxSteps, ruleText(e))
			}
			continue
		}
		if len(out) == limit {
			return nil, &capError{rule: ruleText(e), limit: limit}
		}
		out = append(out, icalTime{t: t, isDate: e.start.isDate})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].t.Before(out[j].t) })
	return out, nil
}

// splitICalList splits a list value (CATEGORIES:a,b) at its unescaped
// commas, each part unescaped.
func splitICalList(v string) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == '\\' && i+1 < len(v):
			b.WriteByte(v[i])
			b.WriteByte(v[i+1])
			i++
		case v[i] == ',':
			out = append(out, ical.FromText(b.String()))
			b.Reset()
		default:
			b.WriteByte(v[i])
		}
	}
	return append(out, ical.FromText(b.String()))
}

// icalPerson is an ORGANIZER or ATTENDEE as a person reads it: "Mina
// <mina@example.org>", or the address alone.
func icalPerson(p *ical.IANAProperty) string {
	addr := strings.TrimPrefix(strings.TrimPrefix(p.Value, "mailto:"), "MAILTO:")
	if cn := p.ICalParameters["CN"]; len(cn) > 0 && cn[0] != "" {
		return strings.Trim(cn[0], `"`) + " <" + addr + ">"
	}
	return addr
}

// pastMoment is t when it is not after now: a source's moment the API
// takes as a step's time (nil: the moment of the import).
func pastMoment(t *time.Time, now time.Time) *time.Time {
	if t == nil || t.After(now) {
		return nil
	}
	return utc(*t)
}

// eventRecord is a VEVENT (or one occurrence of it, starting at start) as
// a calendar_event.
func eventRecord(e icalEntry, start icalTime, ref string, o Options, p *Parsed) Record {
	c := Create{Kind: models.KindCalendarEvent, Title: e.summary, Description: e.desc,
		Source: source("calendar"), SourceRef: text(sourceRef(ref)), Priority: icalPriority(e.priority),
		Location: text(e.location), Labels: e.categories}
	p.keepNote(&c, "From the calendar:", e.kept)
	if start.isDate {
		c.AllDay = true
		d := start.t
		c.StartAt = noon(d.Year(), d.Month(), d.Day(), o.Zone)
		if e.days > 1 {
			last := d.AddDate(0, 0, e.days-1)
			c.EndAt = noon(last.Year(), last.Month(), last.Day(), o.Zone)
		}
	} else {
		c.StartAt = utc(start.t)
		if e.end != nil {
			c.EndAt = utc(start.t.Add(e.duration))
		}
	}
	r := Record{Line: e.line, Create: c}
	switch e.status {
	case "TENTATIVE":
		r.Create.Status = models.StatusTentative
	case "CANCELLED":
		// cancelled on its own day: at its start, once that has come
		r.Then, r.At = "cancel", pastMoment(c.StartAt, o.Now)
	}
	return r
}

// todoRecord is a VTODO as a task.
func todoRecord(e icalEntry, o Options, p *Parsed) Record {
	c := Create{Kind: models.KindTask, Title: e.summary, Description: e.desc,
		Source: source("calendar"), SourceRef: text(sourceRef(e.uid)), Priority: icalPriority(e.priority),
		Location: text(e.location), Labels: e.categories}
	p.keepNote(&c, "From the calendar:", e.kept)
	if e.due != nil {
		if e.due.isDate { // a day without a clock time: its last microsecond, as the capture text
			d := e.due.t
			c.DueAt = utc(models.EndOfDay(d.Year(), d.Month(), d.Day(), o.Zone))
		} else {
			c.DueAt = utc(e.due.t)
		}
	}
	r := Record{Line: e.line, Create: c}
	switch e.status {
	case "IN-PROCESS":
		r.Create.Status = models.StatusInProgress
	case "COMPLETED":
		r.Then, r.At = "complete", pastMoment(e.completed, o.Now)
	case "CANCELLED":
		r.Then, r.At = "cancel", pastMoment(e.lastModified, o.Now)
	default:
		if e.completed != nil { // COMPLETED: without a STATUS says it is done
			r.Then, r.At = "complete", pastMoment(e.completed, o.Now)
		}
	}
	return r
}

// icalPriority maps RFC 5545's 1 (highest) to 9 (lowest), 0 undefined, to
// the service's 3 (highest) to 0 (none): 1-4 high, 5 medium, 6-9 low.
func icalPriority(p int) int {
	switch {
	case p >= 1 && p <= 4:
		return 3
	case p == 5:
		return 2
	case p >= 6:
		return 1
	}
	return 0
}

// sourceRef keeps a reference within the service's 200 characters: a
// longer one is its head and a hash of the whole.
func sourceRef(ref string) string {
	if len(ref) <= 200 {
		return ref
	}
	return ref[:150] + "#" + hashRef(ref)
}
