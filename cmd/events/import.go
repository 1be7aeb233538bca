// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	apiclient "events/internal/client"
	"events/internal/importer"
	"events/models"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressAbove is how many records a file must hold for the progress bar
// (on a terminal): a few hundred take a few seconds.
const progressAbove = 300

// errRefusedRows ends a run that refused records: the summary said which,
// and the exit status says so too (1).
var errRefusedRows = errors.New("some records were not imported; the summary above says which and why")

// importFile is `events import [flags] FILE`: it reads FILE and creates its
// events through the JSON API of the service at EVENTS_URL, with
// EVENTS_TOKEN as its bearer token (internal/importer).
func importFile(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("events import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: events import [flags] FILE

Reads FILE and creates its events through the JSON API of the service at
EVENTS_URL (default `+apiclient.DefaultURL+`), sending EVENTS_TOKEN as a bearer
token. A second run of the same file creates nothing; a run cut off can be
started again. Formats (--from, else told from the content):
  ical     an iCalendar file (.ics): entries, to-dos, recurring series
  timew    Timewarrior's export: timew export > timew.json
  toggl    Toggl Track's detailed report, downloaded as CSV
  todoist  a Todoist project exported as a template (CSV)

Flags:
`)
		fs.PrintDefaults()
	}
	from := fs.String("from", "", "the file's `format`: "+strings.Join(importer.Formats, ", ")+" (default: told from the content)")
	tzName := fs.String("tz", "", "`zone` of times the file gives without one, and of all-day dates (default EVENTS_TIMEZONE, else Asia/Seoul)")
	since := fs.String("since", "", "first `day` (YYYY-MM-DD) of a recurring series' occurrences to import (default a year ago)")
	until := fs.String("until", "", "last `day` (YYYY-MM-DD) of a recurring series' occurrences to import (default a year ahead)")
	project := fs.String("project", "", "a Todoist file's project `name`, its events' tag (default the file's name)")
	dryRun := fs.Bool("dry-run", false, "read and check every record against the service's rules; send nothing")
	report := fs.String("report", "", "write the records not imported, with their line and reason, to `FILE` (CSV)")

	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return usageError(err.Error())
		}
		if fs.NArg() == 0 {
			break
		}
		files, args = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	if len(files) != 1 {
		return usageError("events import takes one FILE (events import -h shows how)")
	}
	zoneName := *tzName
	if zoneName == "" {
		zoneName = getenv("EVENTS_TIMEZONE")
	}
	if zoneName == "" {
		zoneName = "Asia/Seoul"
	}
	zone, err := models.LoadZone(zoneName)
	if err != nil {
		return usageError(fmt.Sprintf("--tz %q: %v", zoneName, err))
	}
	now := time.Now()
	opts := importer.Options{Format: *from, Zone: zone, Now: now, Name: filepath.Base(files[0]), Project: *project}
	if opts.Since, err = importDay(*since, zone); err != nil {
		return usageError("--since: " + err.Error())
	}
	if opts.Until, err = importDay(*until, zone); err != nil {
		return usageError("--until: " + err.Error())
	}
	if !opts.Until.IsZero() {
		opts.Until = opts.Until.AddDate(0, 0, 1).Add(-time.Nanosecond) // the whole last day
	}
	if opts.Format != "" && !contains(importer.Formats, opts.Format) {
		return usageError(fmt.Sprintf("--from %q: the formats are %s", opts.Format, strings.Join(importer.Formats, ", ")))
	}
	c, err := apiclient.New(getenv("EVENTS_URL"), getenv("EVENTS_TOKEN"))
	if err != nil {
		return usageError(err.Error())
	}

	data, err := os.ReadFile(files[0])
	if err != nil {
		return err
	}
	parsed, err := importer.Parse(data, opts)
	if err != nil {
		return fmt.Errorf("%s: %w; nothing was imported", files[0], err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	run := importer.RunOptions{DryRun: *dryRun, Now: now, Zone: zone}
	var bar *progressbar.ProgressBar
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) && len(parsed.Records) > progressAbove {
		bar = progressbar.NewOptions(len(parsed.Records), progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("importing"), progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
		run.Progress = func() { _ = bar.Add(1) }
	}
	sum, runErr := importer.Run(ctx, c, parsed, run)
	if bar != nil {
		_ = bar.Finish()
	}
	printSummary(stdout, files[0], parsed.Format, c.Base(), sum)
	if *report != "" {
		if err := writeReport(*report, sum); err != nil {
			return err
		}
	}
	switch {
	case runErr != nil:
		return runErr
	case len(sum.Refused) > 0 || len(sum.Unfinished) > 0:
		return errRefusedRows
	}
	return nil
}

// importDay reads YYYY-MM-DD as that day's first instant in zone ("" is zero).
func importDay(s string, zone *time.Location) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.ParseInLocation("2006-01-02", s, zone)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a day (YYYY-MM-DD)", s)
	}
	return t, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// printSummary writes what a run did: one line of counts, the notes, and
// each record not imported with its line and reason.
func printSummary(w io.Writer, file, format, base string, s importer.Summary) {
	if s.DryRun {
		fmt.Fprintf(w, "%s (%s), dry run: nothing was sent to %s\n", file, format, base)
		fmt.Fprintf(w, "would create %d, refused %d\n", s.Created, len(s.Refused))
	} else {
		fmt.Fprintf(w, "%s (%s) into %s\n", file, format, base)
		fmt.Fprintf(w, "created %d, already there %d, refused %d", s.Created, s.Already, len(s.Refused))
		if s.Finished > 0 {
			fmt.Fprintf(w, ", finished %d (a complete or cancel an earlier run left undone)", s.Finished)
		}
		if len(s.Unfinished) > 0 {
			fmt.Fprintf(w, ", unfinished %d", len(s.Unfinished))
		}
		fmt.Fprintln(w)
	}
	for _, n := range s.Notes {
		fmt.Fprintln(w, "note:", n)
	}
	for _, r := range s.Refused {
		fmt.Fprintln(w, "refused:", r)
	}
	for _, r := range s.Unfinished {
		fmt.Fprintln(w, "unfinished:", r)
	}
}

// writeReport writes the records not imported as CSV: line, reason, record.
func writeReport(path string, s importer.Summary) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	_ = w.Write([]string{"line", "reason", "record"})
	for _, r := range append(append([]importer.Refusal{}, s.Refused...), s.Unfinished...) {
		_ = w.Write([]string{strconv.Itoa(r.Line), r.Reason, r.Text})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
