// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileCalendar holds the hostile entries between ordinary
// ones: a FREQ=SECONDLY series, a FREQ=MINUTELY one and DTSTART in the
// last hour of 9999 with a DURATION past it (24 hours, and P99999999D).
const hostileCalendar = "BEGIN:VCALENDAR\r\n" +
	"BEGIN:VEVENT\r\nUID:first\r\nSUMMARY:first\r\nDTSTART:20261201T090000Z\r\nDTEND:20261201T100000Z\r\nEND:VEVENT\r\n" + // line 2
	"BEGIN:VEVENT\r\nUID:sec\r\nSUMMARY:every second\r\nDTSTART:20260101T000000Z\r\nRRULE:FREQ=SECONDLY\r\nEND:VEVENT\r\n" + // line 8
	"BEGIN:VEVENT\r\nUID:min\r\nSUMMARY:every minute\r\nDTSTART:20260101T000000Z\r\nRRULE:FREQ=MINUTELY\r\nEND:VEVENT\r\n" + // line 14
	"BEGIN:VEVENT\r\nUID:late\r\nSUMMARY:late\r\nDTSTART:99991231T230000Z\r\nDURATION:PT24H\r\nEND:VEVENT\r\n" + // line 20
	"BEGIN:VEVENT\r\nUID:long\r\nSUMMARY:long\r\nDTSTART:99991231T230000Z\r\nDURATION:P99999999D\r\nEND:VEVENT\r\n" + // line 26
	"BEGIN:VEVENT\r\nUID:last\r\nSUMMARY:last\r\nDTSTART:20261202T090000Z\r\nEND:VEVENT\r\n" + // line 32
	"END:VCALENDAR\r\n"

// TestImportRefusesHostileCalendar: events import refuses each hostile
// entry by its line (a series with its rule), imports the rest, dry run
// or not, and a second run does the same with nothing doubled. Before,
// the SECONDLY series took gigabytes, MINUTELY stored every minute of two
// years and the year-9999 entries panicked the importer at every run.
// A log running since the year 1 and one of 9998 years, stored first,
// block none of it, nor a Timewarrior import of intervals they overlap,
// nor events log, start, stop, add, today and review.
func TestImportRefusesHostileCalendar(t *testing.T) {
	t.Parallel()
	s := importService(t)
	apiDo(t, "POST", s.base+"/api/events", `{"kind":"activity_log","title":"running since year one","started_at":"0001-01-01T00:00:00Z"}`, nil)
	apiDo(t, "POST", s.base+"/api/events", `{"kind":"activity_log","title":"9998 years","started_at":"0001-06-01T00:00:00Z","ended_at":"9999-06-01T00:00:00Z"}`, nil)
	file := filepath.Join(t.TempDir(), "hostile.ics")
	if err := os.WriteFile(file, []byte(hostileCalendar), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(out string) {
		t.Helper()
		for _, want := range []string{
			"refused: line 8: the series has more than 1000 occurrences in the window (--max-occurrences; RRULE FREQ=SECONDLY)",
			"refused: line 14: the series has more than 1000 occurrences in the window (--max-occurrences; RRULE FREQ=MINUTELY)",
			"refused: line 20: end_at would be in the year 10000",
			`refused: line 26: DURATION "P99999999D" is longer than 292 years`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("want %q in:\n%s", want, out)
			}
		}
		if strings.Contains(out, "panic") {
			t.Errorf("the importer panicked:\n%s", out)
		}
	}
	out, code := runImport(t, s, importToken, "--dry-run", file)
	check(out)
	if code != 1 || !strings.Contains(out, "would create 2, refused 4") {
		t.Errorf("dry run: exit %d\n%s", code, out)
	}
	for run := 1; run <= 2; run++ {
		out, code = runImport(t, s, importToken, file)
		check(out)
		want := "created 2, already there 0, refused 4"
		if run == 2 {
			want = "created 0, already there 2, refused 4"
		}
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("run %d: exit %d, want %q\n%s", run, code, want, out)
		}
	}
	if got := imported(t, s, "calendar"); len(got) != 2 || got["first"].Title != "first" || got["last"].Title != "last" {
		t.Errorf("stored: %v", got)
	}
	// raised, the caps let a narrow window of the minutely series in; the
	// secondly one still steps through too many seconds before it
	narrow := []string{"--max-occurrences", "2000", "--since", "2026-12-01", "--until", "2026-12-01"}
	out, code = runImport(t, s, importToken, append(narrow, "--max-occurrences-per-file", "1000", file)...)
	if code != 1 || !strings.Contains(out, "created 0") || !strings.Contains(out, "refused: line 14: the file's series come to more than 1000 occurrences (--max-occurrences-per-file)") {
		t.Errorf("the file's cap: exit %d\n%s", code, out)
	}
	out, code = runImport(t, s, importToken, append(narrow, "--max-occurrences-per-file", "1500", file)...)
	if code != 1 || !strings.Contains(out, "created 1440") || !strings.Contains(out, "refused: line 8: the series steps through more than 1000000 occurrences before --since (RRULE FREQ=SECONDLY)") {
		t.Errorf("raised caps: exit %d\n%s", code, out)
	}
	// a Timewarrior file whose intervals overlap the planted logs
	timew := filepath.Join(t.TempDir(), "timew.json")
	if err := os.WriteFile(timew, []byte(`[
{"start":"20261120T003000Z","end":"20261120T013000Z","tags":["work"]},
{"start":"00010101T003000Z","end":"00010101T013000Z","tags":["early"]},
{"start":"20261127T010000Z","tags":["open"]}
]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runImport(t, s, importToken, timew); code != 0 || !strings.Contains(out, "created 3, already there 0, refused 0") {
		t.Errorf("timew over the planted rows: exit %d\n%s", code, out)
	}
	// the terminal client's writes over them
	for _, args := range [][]string{{"log", "standup 15m #work"}, {"start", "deep work #work"}, {"stop"}, {"add", "pay rent tomorrow #home"}, {"today"}, {"review", "--week"}} {
		if out, errOut, code := runCLI(t, s.base, nil, args...); code != 0 {
			t.Errorf("events %s over the planted rows: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
	}
}
