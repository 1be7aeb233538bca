// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"events/models"
)

// Timewarrior: `timew export` writes a JSON array of intervals,
// {"id": 1, "start": "20260302T090000Z", "end": "...", "tags": [...],
// "annotation": "..."}, in UTC. An interval without "end" is the open one.
// "id" is a position that changes, so the start instant identifies an
// interval (Timewarrior keeps intervals from overlapping, so one start is
// one interval). Tags come sorted: the first is the alphabetically first.

type timewInterval struct {
	ID         *int     `json:"id"`
	Start      string   `json:"start"`
	End        string   `json:"end"`
	Tags       []string `json:"tags"`
	Annotation string   `json:"annotation"`
}

func scanTimew(open func() (io.Reader, error), o Options, p *Parsed, emit func(Record) error) error {
	in, err := open()
	if err != nil {
		return err
	}
	projects := o.ProjectTags // what --project-tags says, else the service's projects
	if len(projects) == 0 {
		projects = o.Projects
	}
	lines := &lineReader{r: in}
	dec := json.NewDecoder(lines)
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('[') {
		return fmt.Errorf("line %d: a Timewarrior export is a JSON array of intervals (timew export > file.json)", lines.lineAt(dec.InputOffset()))
	}
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			at := dec.InputOffset()
			var se *json.SyntaxError
			if errors.As(err, &se) {
				at = se.Offset - 1
			}
			return fmt.Errorf("line %d: the file is not valid JSON from here on: %v", lines.lineAt(at), err)
		}
		// the value ends at the offset after Decode: its line is that of
		// its first byte
		line := lines.lineAt(dec.InputOffset() - int64(len(raw)))
		rec, err := timewRecord(raw, projects)
		if err != nil {
			p.Refused = append(p.Refused, Refusal{Line: line, Reason: err.Error(), Text: clip(string(raw), 300)})
			continue
		}
		rec.Line = line
		if err := emit(rec); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("line %d: the JSON array does not end: %v", lines.lineAt(dec.InputOffset()), err)
	}
	return nil
}

func timewRecord(raw json.RawMessage, projects []string) (Record, error) {
	var iv timewInterval
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&iv); err != nil {
		return Record{}, fmt.Errorf("not an interval object: %v", err)
	}
	if iv.Start == "" {
		return Record{}, fmt.Errorf("the interval has no start")
	}
	start, err := time.Parse("20060102T150405Z", iv.Start)
	if err != nil {
		return Record{}, fmt.Errorf("start %q is not a Timewarrior time (such as 20260302T090000Z)", iv.Start)
	}
	c := Create{Kind: models.KindActivityLog, StartedAt: utc(start), Source: source("import"), SourceRef: text("timew:" + iv.Start)}
	if iv.End == "" {
		c.Status = models.StatusInProgress // the open interval: a running log
	} else {
		end, err := time.Parse("20060102T150405Z", iv.End)
		if err != nil {
			return Record{}, fmt.Errorf("end %q is not a Timewarrior time (such as 20260302T093000Z)", iv.End)
		}
		if end.Before(start) {
			return Record{}, fmt.Errorf("the interval ends (%s) before it starts (%s)", iv.End, iv.Start)
		}
		c.EndedAt = utc(end)
	}
	// every tag is a label (timew summary counts each), and the project
	// is the one tag that names a project, if exactly one does
	for _, t := range iv.Tags {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(c.Labels, t) {
			c.Labels = append(c.Labels, t)
		}
	}
	var named []string
	for _, t := range c.Labels {
		if slices.Contains(projects, t) {
			named = append(named, t)
		}
	}
	if len(named) == 1 {
		c.ProjectTag = text(named[0])
	}
	// the annotation is the title; without one, the tags, as timew shows
	// the interval
	c.Title = strings.TrimSpace(iv.Annotation)
	if c.Title == "" {
		c.Title = strings.Join(c.Labels, " ")
	}
	return Record{Create: c}, nil
}

// lineReader counts the lines of what it reads, so that a stream's
// offsets (always asked in order, each no earlier than the last) can be
// told as lines without keeping the stream: it holds only the line ends
// read ahead of the last offset asked.
type lineReader struct {
	r      io.Reader
	off    int64   // bytes read
	ahead  []int64 // offsets of the line ends read, not yet passed
	passed int     // line ends before the last offset asked
}

func (l *lineReader) Read(b []byte) (int, error) {
	n, err := l.r.Read(b)
	for i, c := range b[:n] {
		if c == '\n' {
			l.ahead = append(l.ahead, l.off+int64(i))
		}
	}
	l.off += int64(n)
	return n, err
}

// lineAt is the line of the byte at off.
func (l *lineReader) lineAt(off int64) int {
	i := 0
	for i < len(l.ahead) && l.ahead[i] < off {
		i++
	}
	l.passed += i
	l.ahead = append(l.ahead[:0], l.ahead[i:]...)
	return l.passed + 1
}
