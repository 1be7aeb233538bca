// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package importer

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
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

// readCSV reads data's header and rows. A row that does not parse is a
// refusal of its line, and reading goes on with the next.
func readCSV(data []byte, required ...string) (rows []csvRow, refused []Refusal, err error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("line 1: the header row does not parse: %v", err)
	}
	index := map[string]int{}
	for i, h := range header {
		index[strings.TrimSpace(h)] = i
	}
	for _, name := range required {
		if _, ok := index[name]; !ok {
			return nil, nil, fmt.Errorf("line 1: the header has no %q column (it has %s)", name, strings.Join(header, ", "))
		}
	}
	for bad := 0; ; {
		fields, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, refused, nil
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			if bad++; bad > 1000 {
				return rows, refused, fmt.Errorf("line %d: the file stops parsing as CSV: %v", pe.Line, pe.Err)
			}
			refused = append(refused, Refusal{Line: pe.StartLine, Reason: "the row is not valid CSV: " + pe.Err.Error()})
			continue
		}
		if err != nil {
			return rows, refused, err
		}
		line, _ := r.FieldPos(0)
		if len(fields) != len(header) {
			refused = append(refused, Refusal{Line: line, Reason: fmt.Sprintf("the row has %d fields, the header %d", len(fields), len(header)), Text: clip(strings.Join(fields, ","), 300)})
			continue
		}
		rows = append(rows, csvRow{line: line, fields: fields, index: index})
	}
}

// Toggl Track's detailed report CSV: User, Email, Client, Project, Task,
// Description, Billable, Start date, Start time, End date, End time,
// Duration, Tags, Amount (...). Times are local to the exporting account,
// read in --tz. There is no id: a row is known by a hash of user, start,
// end, description and project as the file writes them.

func parseToggl(data []byte, o Options) (Parsed, error) {
	var p Parsed
	rows, refused, err := readCSV(data, "Start date", "Start time", "End date", "End time")
	p.Refused = refused
	if err != nil {
		return p, err
	}
	tagged := 0
	for _, row := range rows {
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
				p.Records = append(p.Records, Record{Line: row.line, Create: Create{Kind: "activity_log",
					Title: row.get("Description"), ProjectTag: row.get("Project"), StartedAt: utc(start), EndedAt: utc(end),
					Source: "import", SourceRef: "toggl:" + ref}})
				if row.get("Tags") != "" {
					tagged++
				}
				continue
			}
		}
		p.Refused = append(p.Refused, Refusal{Line: row.line, Reason: err.Error(), Text: row.text()})
	}
	if tagged > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("the tags of %d entries were dropped (the project is kept as the tag)", tagged))
	}
	return p, nil
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
// project is not in the file: it is the file's name (or --project).

var todoistLabel = regexp.MustCompile(`(^|\s)@\S+`)

func parseTodoist(data []byte, o Options) (Parsed, error) {
	var p Parsed
	rows, refused, err := readCSV(data, "TYPE", "CONTENT")
	p.Refused = refused
	if err != nil {
		return p, err
	}
	project := o.Project
	if project == "" {
		project = strings.TrimSuffix(path.Base(o.Name), path.Ext(o.Name))
	}
	labels, undated := 0, 0
	last := -1 // the index in p.Records of the task a note belongs to
	for _, row := range rows {
		switch row.get("TYPE") {
		case "task":
		case "note":
			if last >= 0 && row.get("CONTENT") != "" {
				d := &p.Records[last].Create.Description
				*d = strings.TrimSpace(*d + "\n\n" + row.get("CONTENT"))
			}
			continue
		case "section", "":
			last = -1
			continue
		default:
			p.Refused = append(p.Refused, Refusal{Line: row.line, Reason: fmt.Sprintf("TYPE %q is none of task, section, note", row.get("TYPE")), Text: row.text()})
			last = -1
			continue
		}
		last = -1
		content := row.get("CONTENT")
		n := len(todoistLabel.FindAllString(content, -1))
		title := strings.Join(strings.Fields(todoistLabel.ReplaceAllString(content, " ")), " ")
		if title == "" {
			p.Refused = append(p.Refused, Refusal{Line: row.line, Reason: "the task has no CONTENT besides labels", Text: row.text()})
			continue
		}
		prio, ok := map[string]int{"": 0, "1": 3, "2": 2, "3": 1, "4": 0}[row.get("PRIORITY")]
		if !ok {
			p.Refused = append(p.Refused, Refusal{Line: row.line, Reason: fmt.Sprintf("PRIORITY %q is not 1 (p1) to 4 (p4)", row.get("PRIORITY")), Text: row.text()})
			continue
		}
		c := Create{Kind: "task", Title: title, Description: row.get("DESCRIPTION"), Priority: prio, ProjectTag: project,
			Source: "import", SourceRef: "todoist:" + hashRef(project, content, row.get("DATE"))}
		if date := row.get("DATE"); date != "" {
			loc := o.Zone
			if tz := row.get("TIMEZONE"); tz != "" {
				if l, err := models.LoadZone(tz); err == nil {
					loc = l
				}
			}
			if due, ok := todoistDue(date, o.Now, loc); ok {
				c.DueAt = utc(due)
			} else {
				undated++
				c.Description = strings.TrimSpace("Todoist date: " + date + "\n\n" + c.Description)
			}
		}
		labels += n
		p.Records = append(p.Records, Record{Line: row.line, Create: c})
		last = len(p.Records) - 1
	}
	if labels > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d labels dropped (@name in CONTENT)", labels))
	}
	if undated > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d DATE values kept as text in the description: the capture grammar cannot read them (recurring dates, month names)", undated))
	}
	return p, nil
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
