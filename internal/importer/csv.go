// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package importer

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"events/models"
)

// csvRow is one record of a CSV file with its header's names.
type csvRow struct {
	line   int
	fields []string
	index  map[string]int
}

func (r csvRow) get(name string) string {
	if i, ok := r.index[name]; ok && i < len(r.fields) {
		return strings.TrimSpace(r.fields[i])
	}
	return ""
}

func (r csvRow) text() string { return clip(strings.Join(r.fields, ","), 300) }

// readCSV reads in's header and calls row with each row in turn. A row
// that does not parse is a refusal of its line in p, and reading goes on
// with the next.
func readCSV(open func() (io.Reader, error), p *Parsed, row func(csvRow) error, required ...string) error {
	in, err := open()
	if err != nil {
		return err
	}
	r := csv.NewReader(in)
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return fmt.Errorf("line 1: the header row does not parse: %v", err)
	}
	index := map[string]int{}
	for i, h := range header {
		index[strings.TrimSpace(h)] = i
	}
	for _, name := range required {
		if _, ok := index[name]; !ok {
			return fmt.Errorf("line 1: the header has no %q column (it has %s)", name, strings.Join(header, ", "))
		}
	}
	for bad := 0; ; {
		fields, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			if bad++; bad > 1000 {
				return fmt.Errorf("line %d: the file stops parsing as CSV: %v", pe.Line, pe.Err)
			}
			p.Refused = append(p.Refused, Refusal{Line: pe.StartLine, Reason: "the row is not valid CSV: " + pe.Err.Error()})
			continue
		}
		if err != nil {
			return err
		}
		line, _ := r.FieldPos(0)
		if len(fields) != len(header) {
			p.Refused = append(p.Refused, Refusal{Line: line, Reason: fmt.Sprintf("the row has %d fields, the header %d", len(fields), len(header)), Text: clip(strings.Join(fields, ","), 300)})
			continue
		}
		if err := row(csvRow{line: line, fields: fields, index: index}); err != nil {
			return err
		}
	}
}

// Toggl Track's detailed report CSV: User, Email, Client, Project, Task,
// Description, Billable, Start date, Start time, End date, End time,
// Duration, Tags, Amount (...). Times are local to the exporting account,
// read in --tz. There is no id: a row is known by a hash of user, start,
// end, description and project as the file writes them. Project is the
// project; Client and each of Tags (joined with ", ") are labels; Task, a
// Billable "Yes" and an Amount are kept in the description. User and
// Email name the account that exported the report.

func scanToggl(open func() (io.Reader, error), o Options, p *Parsed, emit func(Record) error) error {
	err := readCSV(open, p, func(row csvRow) error {
		user := row.get("User")
		if user == "" {
			user = row.get("Member")
		}
		start, err := togglTime(row.get("Start date"), row.get("Start time"), o.Zone)
		if err == nil {
			var end time.Time
			if end, err = togglTime(row.get("End date"), row.get("End time"), o.Zone); err == nil && end.Before(start) {
				err = fmt.Errorf("the entry ends (%s %s) before it starts", row.get("End date"), row.get("End time"))
			}
			if err == nil {
				ref := hashRef(user, row.get("Start date")+" "+row.get("Start time"), row.get("End date")+" "+row.get("End time"), row.get("Description"), row.get("Project"))
				c := Create{Kind: models.KindActivityLog,
					Title: row.get("Description"), ProjectTag: text(row.get("Project")), StartedAt: utc(start), EndedAt: utc(end),
					Source: source("import"), SourceRef: text("toggl:" + ref)}
				c.Labels = addLabels(c.Labels, row.get("Client"))
				c.Labels = addLabels(c.Labels, strings.Split(row.get("Tags"), ",")...)
				var kept []keptField
				if v := row.get("Task"); v != "" {
					kept = append(kept, keptField{"Task", v, "Toggl tasks"})
				}
				if v := row.get("Billable"); strings.EqualFold(v, "yes") {
					kept = append(kept, keptField{"Billable", v, "Toggl billable marks"})
				}
				for name, i := range row.index {
					if v := row.get(name); strings.HasPrefix(name, "Amount") && v != "" && i < len(row.fields) {
						kept = append(kept, keptField{name, v, "Toggl amounts"})
					}
				}
				p.keepNote(&c, "From Toggl:", kept)
				return emit(Record{Line: row.line, Create: c})
			}
		}
		p.Refused = append(p.Refused, Refusal{Line: row.line, Reason: err.Error(), Text: row.text()})
		return nil
	}, "Start date", "Start time", "End date", "End time")
	return err
}

// addLabels adds each name, trimmed, to labels, once; empty names are
// skipped.
func addLabels(labels []string, names ...string) []string {
	for _, n := range names {
		if n = models.NormaliseLabel(n); n != "" && !slices.Contains(labels, n) {
			labels = append(labels, n)
		}
	}
	return labels
}

func togglTime(date, clock string, loc *time.Location) (time.Time, error) {
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, date+" "+clock, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q %q is not a date (YYYY-MM-DD) and a time (HH:MM:SS)", date, clock)
}

// Todoist's project CSV ("Export as template"): TYPE, CONTENT, DESCRIPTION,
// PRIORITY, INDENT, AUTHOR, RESPONSIBLE, DATE, DATE_LANG, TIMEZONE,
// DURATION, DURATION_UNIT. Rows of TYPE task become tasks; a note row is a
// comment on the task above (added to its description); sections and
// empty rows are skipped. PRIORITY is Todoist's own numbering: 1 is p1,
// the highest, 4 is p4, the lowest (Todoist's help, "Format a CSV file to
// import into Todoist"; the REST API numbers the other way round). The
// project is not in the file: it is the file's name (or --project). The
// @labels of CONTENT are labels; DURATION (with DURATION_UNIT minute or
// day) after a DATE with a clock time is the task's planned span: start_at
// is the DATE, due_at its end, as Todoist's calendar shows the task. A
// DATE the capture grammar cannot read (a recurrence, "every mon"), a
// DURATION without a clock time, RESPONSIBLE and an INDENT above 1 (a
// sub-task) are kept in the description. AUTHOR names the exporting
// account; DATE_LANG only says how DATE is written.

var todoistLabel = regexp.MustCompile(`(^|\s)@\S+`)

func scanTodoist(open func() (io.Reader, error), o Options, p *Parsed, emit func(Record) error) error {
	project := o.Project
	if project == "" {
		project = strings.TrimSuffix(path.Base(o.Name), path.Ext(o.Name))
	}
	var last *Record // the task a note belongs to, sent once its notes end
	flush := func() error {
		if last == nil {
			return nil
		}
		r := *last
		last = nil
		return emit(r)
	}
	err := readCSV(open, p, func(row csvRow) error {
		switch row.get("TYPE") {
		case "task":
		case "note":
			if last != nil && row.get("CONTENT") != "" {
				d := &last.Create.Description
				*d = strings.TrimSpace(*d + "\n\n" + row.get("CONTENT"))
			}
			return nil
		case "section", "":
			return flush()
		default:
			p.Refused = append(p.Refused, Refusal{Line: row.line, Reason: fmt.Sprintf("TYPE %q is none of task, section, note", row.get("TYPE")), Text: row.text()})
			return flush()
		}
		if err := flush(); err != nil {
			return err
		}
		if c, ok := todoistTask(row, project, o, p); ok {
			last = &Record{Line: row.line, Create: c}
		}
		return nil
	}, "TYPE", "CONTENT")
	if err == nil {
		err = flush()
	}
	return err
}

// todoistTask is the create of a Todoist task row of project, with what
// has no home kept in its description; ok is false when the row is
// refused (added to p.Refused).
func todoistTask(row csvRow, project string, o Options, p *Parsed) (Create, bool) {
	content := row.get("CONTENT")
	var labels []string
	for _, l := range todoistLabel.FindAllString(content, -1) {
		labels = addLabels(labels, l)
	}
	title := strings.Join(strings.Fields(todoistLabel.ReplaceAllString(content, " ")), " ")
	if title == "" {
		p.Refused = append(p.Refused, Refusal{Line: row.line, Reason: "the task has no CONTENT besides labels", Text: row.text()})
		return Create{}, false
	}
	prio, ok := map[string]int{"": 0, "1": 3, "2": 2, "3": 1, "4": 0}[row.get("PRIORITY")]
	if !ok {
		p.Refused = append(p.Refused, Refusal{Line: row.line, Reason: fmt.Sprintf("PRIORITY %q is not 1 (p1) to 4 (p4)", row.get("PRIORITY")), Text: row.text()})
		return Create{}, false
	}
	c := Create{Kind: models.KindTask, Title: title, Description: row.get("DESCRIPTION"), Priority: prio, ProjectTag: text(project),
		Labels: labels, Source: source("import"), SourceRef: text("todoist:" + hashRef(project, content, row.get("DATE")))}
	var kept []keptField
	dur, durOK := todoistDuration(row.get("DURATION"), row.get("DURATION_UNIT"))
	if date := row.get("DATE"); date != "" {
		loc := o.Zone
		if tz := row.get("TIMEZONE"); tz != "" {
			if l, err := models.LoadZone(tz); err == nil {
				loc = l
			}
		}
		due, ok := todoistDue(date, o.Now, loc)
		switch {
		case !ok && todoistRecurring(date):
			kept = append(kept, keptField{"Date", date, "Todoist recurrences"})
		case !ok:
			kept = append(kept, keptField{"Date", date, "Todoist dates"})
		case durOK && !models.DueDayOnly(due, loc):
			// the planned span: from the DATE for DURATION
			c.StartAt, c.DueAt = utc(due), utc(due.Add(dur))
			durOK = false
		default:
			c.DueAt = utc(due)
		}
	}
	if v := row.get("DURATION"); v != "" && (durOK || c.StartAt == nil) {
		kept = append(kept, keptField{"Duration", strings.TrimSpace(v + " " + row.get("DURATION_UNIT")), "Todoist durations"})
	}
	if v := row.get("RESPONSIBLE"); v != "" {
		kept = append(kept, keptField{"Responsible", v, "Todoist assignees"})
	}
	if v := row.get("INDENT"); v != "" && v != "1" {
		kept = append(kept, keptField{"Indent", v + " (a sub-task)", "Todoist sub-task levels"})
	}
	p.keepNote(&c, "From Todoist:", kept)
	return c, true
}

// todoistDuration reads DURATION and DURATION_UNIT (minute or day).
func todoistDuration(v, unit string) (time.Duration, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0, false
	}
	switch strings.ToLower(strings.TrimSpace(unit)) {
	case "minute", "minutes", "":
		return time.Duration(n) * time.Minute, true
	case "day", "days":
		return time.Duration(n) * 24 * time.Hour, true
	}
	return 0, false
}

// todoistRecurring reports whether a DATE is a recurrence ("every mon",
// "every! 2 weeks", "ev day", "매주 월요일").
func todoistRecurring(date string) bool {
	d := strings.ToLower(strings.TrimSpace(date))
	return strings.HasPrefix(d, "every") || strings.HasPrefix(d, "ev ") || strings.HasPrefix(d, "매")
}

// todoistDue reads a DATE through the capture grammar's day and time words
// (2026-11-25, 11/25, tomorrow, fri, 9:30 ...): only when every word of it
// is understood as a day or a time.
func todoistDue(date string, now time.Time, loc *time.Location) (time.Time, bool) {
	const probe = "x"
	c, err := models.ParseCapture(models.KindTask, probe+" "+date, now, loc)
	if err != nil || c.Title != probe || c.ProjectTag != nil || c.Priority != 0 || c.DueAt == nil {
		return time.Time{}, false
	}
	return *c.DueAt, true
}
