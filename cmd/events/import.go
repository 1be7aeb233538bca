// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"cmp"
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
	a, err := parseImportArgs(args, getenv, stderr)
	if err != nil {
		return err
	}
	c, err := apiclient.New(getenv("EVENTS_URL"), getenv("EVENTS_TOKEN"), a.insecure)
	if err != nil {
		return usageError(err.Error())
	}
	return a.run(c, stdout, stderr)
}

// importUsage is the help of events import, before its flags.
const importUsage = `usage: events import [flags] FILE

Reads FILE and creates its events through the JSON API of the service at
EVENTS_URL (default ` + apiclient.DefaultURL + `), sending EVENTS_TOKEN as a bearer
token. A second run of the same file creates nothing; a run cut off can be
started again. Formats (--from, else told from the content):
  ical     an iCalendar file (.ics): entries, to-dos, recurring series
  timew    Timewarrior's export: timew export > timew.json
  toggl    Toggl Track's detailed report, downloaded as CSV
  todoist  a Todoist project exported as a template (CSV)

Flags:
`

// importArgs are the checked arguments of events import.
type importArgs struct {
	file   string
	opts   importer.Options
	dryRun bool
	report string // the report file, "" for none
	// insecure allows an http:// EVENTS_URL on another machine
	insecure bool
}

// parseImportArgs reads and checks the flags and the one FILE; a mistake
// is a usageError.
func parseImportArgs(args []string, getenv func(string) string, stderr io.Writer) (importArgs, error) {
	fs := flag.NewFlagSet("events import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), importUsage)
		fs.PrintDefaults()
	}
	from := fs.String("from", "", "the file's `format`: "+strings.Join(importer.Formats, ", ")+" (default: told from the content)")
	tzName := fs.String("tz", "", "`zone` of times the file gives without one, and of all-day dates (default EVENTS_TIMEZONE, else Asia/Seoul)")
	since := fs.String("since", "", "first `day` (YYYY-MM-DD) of a recurring series' occurrences to import (default a year ago)")
	until := fs.String("until", "", "last `day` (YYYY-MM-DD) of a recurring series' occurrences to import (default a year ahead)")
	project := fs.String("project", "", "a Todoist file's project `name`, its events' tag (default the file's name)")
	insecure := fs.Bool("insecure-http", false, "allow an http:// EVENTS_URL on another machine (the token then crosses the network in clear)")
	projectTags := fs.String("project-tags", "", "a Timewarrior file's tags that are projects, comma-separated (`a,b`): an interval's project is the one of its tags among them; every tag is a label (default: the tags that already name a project on the service)")
	dryRun := fs.Bool("dry-run", false, "read and check every record against the service's rules; send nothing")
	report := fs.String("report", "", "write the records not imported, with their line and reason, to `FILE` (CSV)")
	perSeries := fs.Int("max-occurrences", importer.DefaultMaxPerSeries, "most `occurrences` of one recurring series; a series with more is refused")
	perFile := fs.Int("max-occurrences-per-file", importer.DefaultMaxPerFile, "most `occurrences` of all the file's recurring series; a series past it is refused")

	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return importArgs{}, err
			}
			return importArgs{}, usageError(err.Error())
		}
		if fs.NArg() == 0 {
			break
		}
		files, args = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	if len(files) != 1 {
		return importArgs{}, usageError("events import takes one FILE (events import -h shows how)")
	}
	zoneName := cmp.Or(*tzName, getenv("EVENTS_TIMEZONE"), "Asia/Seoul")
	zone, err := models.LoadZone(zoneName)
	if err != nil {
		return importArgs{}, usageError(fmt.Sprintf("--tz %q: %v", zoneName, err))
	}
	if *perSeries < 1 || *perFile < 1 {
		return importArgs{}, usageError("--max-occurrences and --max-occurrences-per-file take a number of 1 or more")
	}
	a := importArgs{file: files[0], dryRun: *dryRun, report: *report, insecure: *insecure,
		opts: importer.Options{Format: *from, Zone: zone, Now: time.Now(), Name: filepath.Base(files[0]), Project: *project,
			MaxPerSeries: *perSeries, MaxPerFile: *perFile}}
	for _, t := range strings.Split(*projectTags, ",") {
		if t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "#")); t != "" {
			a.opts.ProjectTags = append(a.opts.ProjectTags, t)
		}
	}
	if a.opts.Since, err = importDay(*since, zone); err != nil {
		return importArgs{}, usageError("--since: " + err.Error())
	}
	if a.opts.Until, err = importDay(*until, zone); err != nil {
		return importArgs{}, usageError("--until: " + err.Error())
	}
	if !a.opts.Until.IsZero() {
		a.opts.Until = a.opts.Until.AddDate(0, 0, 1).Add(-time.Nanosecond) // the whole last day
	}
	if a.opts.Format != "" && !contains(importer.Formats, a.opts.Format) {
		return importArgs{}, usageError(fmt.Sprintf("--from %q: the formats are %s", a.opts.Format, strings.Join(importer.Formats, ", ")))
	}
	return a, nil
}

// run imports the file through c and prints the summary. The file is
// streamed, never held whole: read once to check its shape and count its
// records, then again to check (a dry run) or send each record as it is
// read.
func (a importArgs) run(c *apiclient.Client, stdout, stderr io.Writer) error {
	f, err := os.Open(a.file)
	if err != nil {
		return err
	}
	defer f.Close()
	records := 0
	var tags []string // the distinct labels of the file's records, in order
	seen := map[string]bool{}
	shape, err := importer.Scan(f, a.opts, func(r importer.Record) error {
		records++
		for _, l := range r.Create.Labels {
			if !seen[l] {
				seen[l] = true
				tags = append(tags, l)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w; nothing was imported", a.file, err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A Timewarrior tag that already names a project on the service is
	// its interval's project, unless --project-tags says which are.
	if shape.Format == importer.FormatTimew && len(a.opts.ProjectTags) == 0 {
		if a.opts.Projects, err = importer.ExistingProjects(ctx, c, tags); err != nil {
			return fmt.Errorf("%s: reading the projects the service has: %w; nothing was imported", a.file, err)
		}
		if len(a.opts.Projects) > 0 {
			fmt.Fprintf(stdout, "tags that name a project on the service: %s\n", strings.Join(a.opts.Projects, ", "))
		}
	}
	run := importer.RunOptions{DryRun: a.dryRun, Now: a.opts.Now, Zone: a.opts.Zone}
	var bar *progressbar.ProgressBar
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) && records > progressAbove {
		bar = progressbar.NewOptions(records, progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("importing"), progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
		run.Progress = func() { _ = bar.Add(1) }
	}
	runner := importer.NewRunner(c, run)
	parsed, runErr := importer.Scan(f, a.opts, func(r importer.Record) error { return runner.Add(ctx, r) })
	sum := runner.Summary(parsed)
	if bar != nil {
		_ = bar.Finish()
	}
	printSummary(stdout, a.file, parsed.Format, c.Base(), sum)
	if a.report != "" {
		if err := writeReport(a.report, sum); err != nil {
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
