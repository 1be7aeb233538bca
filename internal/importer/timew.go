// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
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

func parseTimew(data []byte, o Options) (Parsed, error) {
	var p Parsed
	lineAt := lineIndex(data)
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('[') {
		return p, fmt.Errorf("line %d: a Timewarrior export is a JSON array of intervals (timew export > file.json)", lineAt(dec.InputOffset()))
	}
	for dec.More() {
		// the offset before Decode is that of the separator before the value
		start := dec.InputOffset()
		line := lineAt(start + skipSep(data[start:]))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return p, fmt.Errorf("line %d: the file is not valid JSON from here on: %v", line, err)
		}
		rec, err := timewRecord(raw)
		if err != nil {
			p.Refused = append(p.Refused, Refusal{Line: line, Reason: err.Error(), Text: clip(string(raw), 300)})
			continue
		}
		rec.Line = line
		p.Records = append(p.Records, rec)
	}
	if _, err := dec.Token(); err != nil {
		return p, fmt.Errorf("line %d: the JSON array does not end: %v", lineAt(dec.InputOffset()), err)
	}
	return p, nil
}

// skipSep counts the separator and white space before a value.
func skipSep(b []byte) int64 {
	n := 0
	for n < len(b) && strings.ContainsRune(", \t\r\n", rune(b[n])) {
		n++
	}
	return int64(n)
}

func timewRecord(raw json.RawMessage) (Record, error) {
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
	c := Create{Kind: "activity_log", StartedAt: utc(start), Source: "import", SourceRef: "timew:" + iv.Start}
	if iv.End == "" {
		c.Status = "in_progress" // the open interval: a running log
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
	if len(iv.Tags) > 0 {
		c.ProjectTag = strings.TrimSpace(iv.Tags[0])
	}
	c.Title = strings.TrimSpace(iv.Annotation)
	if c.Title == "" {
		c.Title = strings.Join(iv.Tags, " ")
	}
	return Record{Create: c}, nil
}

// lineIndex returns a function from a byte offset in data to its line.
func lineIndex(data []byte) func(int64) int {
	var starts []int64
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, int64(i))
		}
	}
	return func(off int64) int {
		lo, hi := 0, len(starts)
		for lo < hi {
			m := (lo + hi) / 2
			if starts[m] < off {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo + 1
	}
}
