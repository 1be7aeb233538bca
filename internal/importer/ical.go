// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package importer

import (
	"fmt"
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

func splitICal(data []byte) ([]icalChunk, error) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var chunks []icalChunk
	var cur *icalChunk
	var body strings.Builder
	depth, calendars := 0, 0
	for i, raw := range lines {
		n := i + 1
		line := strings.TrimRight(raw, "\r")
		upper := strings.ToUpper(line)
		name, value, _ := strings.Cut(upper, ":")
		switch {
		case name == "BEGIN":
			depth++
			switch {
			case depth == 1 && value != "VCALENDAR":
				return nil, fmt.Errorf("line %d: an iCalendar file begins with BEGIN:VCALENDAR, not %s", n, line)
			case depth == 1:
				calendars++
			case depth == 2:
				cur = &icalChunk{kind: value, line: n}
				body.Reset()
			}
		case name == "END":
			if depth == 0 {
				return nil, fmt.Errorf("line %d: %s without its BEGIN", n, line)
			}
			if depth == 2 && cur != nil {
				if value != cur.kind {
					return nil, fmt.Errorf("line %d: %s ends the %s begun on line %d", n, line, cur.kind, cur.line)
				}
				body.WriteString(line + "\r\n")
				cur.text = body.String()
				chunks = append(chunks, *cur)
				cur = nil
			}
			depth--
			continue
		case depth == 0 && strings.TrimSpace(line) != "":
			return nil, fmt.Errorf("line %d: text outside BEGIN:VCALENDAR ... END:VCALENDAR", n)
		}
		if cur != nil {
			body.WriteString(line + "\r\n")
		}
	}
	if depth != 0 {
		where := len(lines)
		if cur != nil {
			return nil, fmt.Errorf("line %d: the %s begun here never ends (no END:%s)", cur.line, cur.kind, cur.kind)
		}
		return nil, fmt.Errorf("line %d: the file ends before END:VCALENDAR", where)
	}
	if calendars == 0 {
		return nil, fmt.Errorf("line 1: no BEGIN:VCALENDAR in the file")
	}
	return chunks, nil
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

// parseICalDuration reads an RFC 5545 DURATION (P1D, PT1H30M, P2W).
func parseICalDuration(v string) (time.Duration, error) {
	m := icalDurationRE.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil || v == "P" || v == "PT" {
		return 0, fmt.Errorf("DURATION %q is not an iCalendar duration (such as PT1H)", v)
	}
	n := func(s string) time.Duration {
		i, _ := strconv.Atoi(s)
		return time.Duration(i)
	}
	d := n(m[2])*7*24*time.Hour + n(m[3])*24*time.Hour + n(m[4])*time.Hour + n(m[5])*time.Minute + n(m[6])*time.Second
	if m[1] == "-" {
		d = -d
	}
	return d, nil
}

func readEntry(c icalChunk, zone *time.Location) (icalEntry, error) {
	cal, err := ical.ParseCalendar(strings.NewReader("BEGIN:VCALENDAR\r\n" + c.text + "END:VCALENDAR\r\n"))
	if err != nil {
		return icalEntry{}, fmt.Errorf("the %s does not parse: %v", c.kind, err)
	}
	if len(cal.Components) != 1 {
		return icalEntry{}, fmt.Errorf("the %s does not parse", c.kind)
	}
	var base *ical.ComponentBase
	switch co := cal.Components[0].(type) {
	case *ical.VEvent:
		base = &co.ComponentBase
	case *ical.VTodo:
		base = &co.ComponentBase
	default:
		return icalEntry{}, fmt.Errorf("the %s does not parse", c.kind)
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
	start := base.GetProperty(ical.ComponentPropertyDtStart)
	if start == nil {
		return e, fmt.Errorf("the VEVENT has no DTSTART")
	}
	if e.start, err = parseICalTime(start, zone); err != nil {
		return e, err
	}
	if p := base.GetProperty(ical.ComponentPropertyDtEnd); p != nil {
		end, err := parseICalTime(p, zone)
		if err != nil {
			return e, err
		}
		if end.isDate != e.start.isDate {
			return e, fmt.Errorf("DTSTART and DTEND must both be dates or both date-times")
		}
		if end.t.Before(e.start.t) {
			return e, fmt.Errorf("DTEND %s is before DTSTART", p.Value)
		}
		e.end = &end
	} else if p := base.GetProperty(ical.ComponentPropertyDuration); p != nil {
		d, err := parseICalDuration(p.Value)
		if err != nil {
			return e, err
		}
		if d < 0 {
			return e, fmt.Errorf("DURATION %q is negative", p.Value)
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
	if p := base.GetProperty(ical.ComponentPropertyRecurrenceId); p != nil {
		r, err := parseICalTime(p, zone)
		if err != nil {
			return e, err
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
					return e, err
				}
				if name == ical.ComponentPropertyRdate {
					e.rdates = append(e.rdates, t)
				} else {
					e.exdates = append(e.exdates, t)
				}
			}
		}
	}
	return e, nil
}

func parseICal(data []byte, o Options) (Parsed, error) {
	var p Parsed
	chunks, err := splitICal(data)
	if err != nil {
		return p, err
	}
	var entries []icalEntry
	overrides := map[string]bool{} // uid + "/" + key of each RECURRENCE-ID entry
	for _, c := range chunks {
		if c.kind != "VEVENT" && c.kind != "VTODO" {
			continue // VTIMEZONE, VJOURNAL, ...: TZIDs are read as IANA names
		}
		e, err := readEntry(c, o.Zone)
		if err != nil {
			p.Refused = append(p.Refused, Refusal{Line: c.line, Reason: err.Error(), Text: clip(c.text, 300)})
			continue
		}
		if e.recurID != nil {
			overrides[e.uid+"/"+e.recurID.key()] = true
		}
		entries = append(entries, e)
	}
	series, occurrences := 0, 0
	for _, e := range entries {
		switch {
		case e.kind == "VTODO":
			p.Records = append(p.Records, todoRecord(e, o))
		case e.recurID != nil:
			if inWindow(*e.recurID, o) {
				p.Records = append(p.Records, eventRecord(e, e.start, e.uid+"/"+e.recurID.key(), o))
			}
		case e.rrule != "" || len(e.rdates) > 0:
			times, err := expand(e, o)
			if err != nil {
				p.Refused = append(p.Refused, Refusal{Line: e.line, Reason: err.Error(), Text: clip(e.text, 300)})
				continue
			}
			series++
			for _, t := range times {
				ref := e.uid + "/" + t.key()
				if overrides[ref] {
					continue // the RECURRENCE-ID entry stands for it
				}
				occurrences++
				p.Records = append(p.Records, eventRecord(e, t, ref, o))
			}
		default:
			p.Records = append(p.Records, eventRecord(e, e.start, e.uid, o))
		}
	}
	if series > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d recurring series expanded into %d occurrences from %s to %s (--since, --until)",
			series, occurrences, o.Since.In(o.Zone).Format("2006-01-02"), o.Until.In(o.Zone).Format("2006-01-02")))
	}
	return p, nil
}

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
func expand(e icalEntry, o Options) ([]icalTime, error) {
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
	for _, t := range set.Between(since, until, true) {
		out = append(out, icalTime{t: t, isDate: e.start.isDate})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].t.Before(out[j].t) })
	return out, nil
}

// eventRecord is a VEVENT (or one occurrence of it, starting at start) as
// a calendar_event.
func eventRecord(e icalEntry, start icalTime, ref string, o Options) Record {
	c := Create{Kind: "calendar_event", Title: e.summary, Description: e.desc,
		Source: "calendar", SourceRef: sourceRef(ref), Priority: icalPriority(e.priority)}
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
		r.Create.Status = "tentative"
	case "CANCELLED":
		r.Then = "cancel"
	}
	return r
}

// todoRecord is a VTODO as a task.
func todoRecord(e icalEntry, o Options) Record {
	c := Create{Kind: "task", Title: e.summary, Description: e.desc,
		Source: "calendar", SourceRef: sourceRef(e.uid), Priority: icalPriority(e.priority)}
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
		r.Create.Status = "in_progress"
	case "COMPLETED":
		r.Then = "complete"
	case "CANCELLED":
		r.Then = "cancel"
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
