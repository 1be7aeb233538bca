// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// The terminal client: `events log|start|stop|add|today|inbox|done|undo|
// review`, each one or a few requests to the JSON API of the service at
// EVENTS_URL through internal/client, as `events import` is. It never
// touches a database, so it works against any deployment.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	apiclient "events/internal/client"
	"events/internal/i18n"
	"events/models"

	"golang.org/x/term"
)

// cliCommands are the terminal client's commands.
var cliCommands = map[string]bool{
	"log": true, "start": true, "stop": true, "add": true, "today": true,
	"inbox": true, "done": true, "undo": true, "cancel": true, "review": true,
}

const cliUsage = `usage: events COMMAND [--json] [ARGS]

The terminal client of the service at EVENTS_URL (default ` + apiclient.DefaultURL + `),
sending EVENTS_TOKEN as a bearer token. Times and capture words are read in
EVENTS_TIMEZONE (default Asia/Seoul). Quote TEXT that holds a #tag: the
shell drops a word that starts with #.

  events log TEXT      record what was done ("standup 15m #work", "회의 1시간")
  events start TEXT    start a timer, stopping the one that runs
  events stop          stop the running timer
  events add TEXT      add a task ("Pay rent tomorrow 9:00 #home !high")
  events today         today's events, overdue tasks and running timers
  events inbox         open tasks with no time
  events done ID       complete an event (a timer: stop it)
  events cancel ID     cancel an event: a wrong record leaves every total
  events undo ID       undo the last complete, cancel or defer of an event
  events review        today's logged time per project; --week: this week

  --json               print the API's answer as it came, instead of a table
  --insecure-http      allow an http:// EVENTS_URL on another machine (the
                       token then crosses the network in clear)

Exit status: 0 done, 1 refused (the reason is printed), 2 a wrong command line.`

// cli is the terminal client's run: its configuration and where it writes.
type cli struct {
	api    *apiclient.Client
	loc    *time.Location
	now    time.Time
	out    io.Writer
	width  int  // columns the output fits in
	color  bool // stdout is a terminal that takes colours
	asJSON bool
	key    string // this invocation's Idempotency-Key
	// lang is the language of the words it prints, by LC_ALL, LC_MESSAGES
	// or LANG (internal/i18n); nil is English
	lang *i18n.Lang
}

// t is the catalogue's message id in the output's language.
func (c *cli) t(id string, args ...any) string {
	if c.lang == nil {
		return i18n.English.T(id, args...)
	}
	return c.lang.T(id, args...)
}

// verbs are the words before an event's line, by the catalogue's id.
var verbs = map[string]string{"Logged": "cli_logged", "Added": "cli_added", "Started": "cli_started", "Stopped": "cli_stopped",
	"Done": "cli_done", "Undone": "cli_undone", "Cancelled": "cli_cancelled"}

// refusal is an answer of the API that refused the request: its detail,
// then each field at fault, one a line.
type refusal struct{ p *apiclient.Problem }

func (r refusal) Error() string {
	var b strings.Builder
	switch {
	case r.p.Detail != "":
		b.WriteString(r.p.Detail)
	case r.p.Title != "":
		b.WriteString(r.p.Title)
	default:
		b.WriteString("refused with status " + strconv.Itoa(r.p.Status))
	}
	for _, e := range r.p.Errors {
		if r.p.Detail != "" && strings.Contains(r.p.Detail, e.Message) {
			continue // the detail said it already: a refusal is printed once
		}
		b.WriteString("\n")
		if e.Field != "" {
			b.WriteString(e.Field + ": ")
		}
		b.WriteString(e.Message)
	}
	return b.String()
}

// terminalCommand runs one command of the terminal client. A wrong command
// line is a usageError (exit 2), an API refusal a refusal (exit 1).
func terminalCommand(cmd string, args []string, getenv func(string) string, stdout, stderr *os.File) error {
	words, asJSON, week, insecure, err := cliArgs(cmd, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, cliUsage)
		return err
	}
	if err != nil {
		return err
	}
	zoneName := getenv("EVENTS_TIMEZONE")
	if zoneName == "" {
		zoneName = "Asia/Seoul"
	}
	loc, err := time.LoadLocation(zoneName)
	if err != nil || zoneName == "Local" {
		return usageError(fmt.Sprintf("EVENTS_TIMEZONE %q is not an IANA zone such as Asia/Seoul", zoneName))
	}
	api, err := apiclient.New(getenv("EVENTS_URL"), getenv("EVENTS_TOKEN"), insecure)
	if err != nil {
		return usageError(err.Error())
	}
	api.Zone, api.Retries = zoneName, 2
	width, tty := outputWidth(stdout, getenv)
	c := &cli{
		api: api, loc: loc, now: time.Now(), out: stdout, width: width, asJSON: asJSON,
		color: tty && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb",
		key:   "cli-" + randomHex(16),
		lang:  i18n.FromEnv(getenv),
	}
	api.Language = c.lang.Code // refusals in the terminal's language
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	text := strings.Join(words, " ")
	switch cmd {
	case "log":
		err = c.createLine(ctx, "Logged", models.KindActivityLog, text)
	case "start":
		err = c.start(ctx, text)
	case "stop":
		err = c.stop(ctx)
	case "add":
		err = c.createLine(ctx, "Added", models.KindTask, text)
	case "today":
		err = c.listing(ctx, "/api/events/today", c.t("cli_nothing_today"))
	case "inbox":
		err = c.listing(ctx, "/api/events/inbox", c.t("cli_inbox_empty"))
	case "done", "undo", "cancel":
		id, _ := strconv.ParseInt(words[0], 10, 64)
		op, verb := "complete", "Done"
		switch cmd {
		case "undo":
			op, verb = "reactivate", "Undone"
		case "cancel":
			op, verb = "cancel", "Cancelled"
		}
		err = c.operate(ctx, id, op, verb)
	case "review":
		err = c.review(ctx, week)
	}
	var p *apiclient.Problem
	if errors.As(err, &p) {
		return refusal{p}
	}
	return err
}

// cliArgs reads a terminal command's line: --json (and review's --week)
// anywhere, "--" before TEXT that starts with a dash, and the words.
func cliArgs(cmd string, args []string) (words []string, asJSON, week, insecure bool, err error) {
	flags := true
	for _, a := range args {
		switch {
		case !flags || !strings.HasPrefix(a, "-") || a == "-":
			words = append(words, a)
		case a == "--":
			flags = false
		case a == "--json" || a == "-json":
			asJSON = true
		case a == "--insecure-http" || a == "-insecure-http":
			insecure = true
		case (a == "--week" || a == "-week") && cmd == "review":
			week = true
		case a == "-h" || a == "--help" || a == "-help":
			return nil, false, false, false, flag.ErrHelp
		default:
			return nil, false, false, false, usageError(fmt.Sprintf("%s: unknown flag %q (put -- before text that starts with a dash; events %s -h shows how)", cmd, a, cmd))
		}
	}
	switch cmd {
	case "log", "start", "add":
		if strings.TrimSpace(strings.Join(words, "")) == "" {
			return nil, false, false, false, usageError(fmt.Sprintf("%s takes TEXT, such as: events %s 'standup 15m #work'", cmd, cmd))
		}
	case "done", "undo", "cancel":
		if len(words) != 1 {
			return nil, false, false, false, usageError(fmt.Sprintf("%s takes one event ID, such as: events %s 12", cmd, cmd))
		}
		if id, err := strconv.ParseInt(words[0], 10, 64); err != nil || id < 1 {
			return nil, false, false, false, usageError(fmt.Sprintf("%s: %q is not an event ID (a whole number from 1, as events today shows)", cmd, words[0]))
		}
	default:
		if len(words) > 0 {
			return nil, false, false, false, usageError(fmt.Sprintf("%s takes no arguments; got %q", cmd, strings.Join(words, " ")))
		}
	}
	return words, asJSON, week, insecure, nil
}

// outputWidth is the columns of the terminal stdout is, else COLUMNS, else
// 80; tty says whether stdout is a terminal.
func outputWidth(f *os.File, getenv func(string) string) (width int, tty bool) {
	tty = term.IsTerminal(int(f.Fd()))
	if tty {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w, true
		}
	}
	if w, err := strconv.Atoi(getenv("COLUMNS")); err == nil && w > 0 {
		return w, tty
	}
	return 80, tty
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// writeJSON prints one answer as it came, ending with a newline.
func (c *cli) writeJSON(raw []byte) error {
	raw = []byte(strings.TrimRight(string(raw), "\n"))
	_, err := fmt.Fprintf(c.out, "%s\n", raw)
	return err
}

func (c *cli) create(ctx context.Context, verb string, body map[string]any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	created, err := c.api.Create(ctx, data, c.key)
	if err != nil {
		return err
	}
	if c.asJSON {
		return c.writeJSON(created.Raw)
	}
	c.line(verb, created.Event)
	if created.CaptureNote != "" {
		fmt.Fprintln(c.out, c.fit(created.CaptureNote))
	}
	for _, o := range created.Overlaps {
		fmt.Fprintln(c.out, c.fit(c.t("cli_overlaps", "ID", o.ID, "Title", c.orUntitled(o.Title), "Length", duration(o.Seconds))))
	}
	return nil
}

// createLine creates what a line of `events log` or `events add` says:
// a log or a task, or a calendar entry when the line names a day and a
// clock range, or a range not yet over (models.LineKind, DESIGN.md "One
// line, any kind"); the answer then says so in words.
func (c *cli) createLine(ctx context.Context, verb string, kind models.Kind, text string) error {
	start, end, ok := models.LineKind(kind, text, c.now, c.loc)
	if !ok {
		return c.create(ctx, verb, map[string]any{"kind": string(kind), "text": text})
	}
	if err := c.create(ctx, "Added", map[string]any{"kind": string(models.KindCalendarEvent), "text": text,
		"start_at": models.FormatTime(start), "end_at": models.FormatTime(end)}); err != nil || c.asJSON {
		return err
	}
	l := c.lang
	if l == nil {
		l = i18n.English
	}
	fmt.Fprintln(c.out, c.fit(c.t("added_calendar", "Span", l.Span(start.In(c.loc), end.In(c.loc)))))
	return nil
}

// start creates a running log that stops the running ones (as the page's
// start does), and says which it stopped.
func (c *cli) start(ctx context.Context, text string) error {
	running, err := c.running(ctx)
	if err != nil {
		return err
	}
	if err := c.create(ctx, "Started", map[string]any{"kind": "activity_log", "text": text, "status": "in_progress", "stop_running": true}); err != nil {
		return err
	}
	if c.asJSON {
		return nil
	}
	for _, e := range running {
		if now, err := c.api.Get(ctx, e.ID); err == nil && now.Status == "done" {
			c.line("Stopped", now)
		}
	}
	return nil
}

// running lists the logs that run now.
func (c *cli) running(ctx context.Context) ([]apiclient.Event, error) {
	page, err := c.api.Listing(ctx, "/api/events", url.Values{"kind": {"activity_log"}, "status": {"in_progress"}, "limit": {"1000"}})
	return page.Items, err
}

// stop completes every running log, each with a key of its own derived
// from the invocation's.
func (c *cli) stop(ctx context.Context) error {
	running, err := c.running(ctx)
	if err != nil {
		return err
	}
	if len(running) == 0 {
		return refusal{&apiclient.Problem{Detail: "No timer is running: there is no activity log in progress."}}
	}
	var raws []json.RawMessage
	for _, e := range running {
		done, raw, err := c.api.OperateRaw(ctx, e.ID, "complete", c.key+"-"+strconv.FormatInt(e.ID, 10))
		if err != nil {
			return err
		}
		raws = append(raws, raw)
		if !c.asJSON {
			c.line("Stopped", done)
		}
	}
	if c.asJSON {
		all, err := json.Marshal(raws)
		if err != nil {
			return err
		}
		return c.writeJSON(all)
	}
	return nil
}

func (c *cli) operate(ctx context.Context, id int64, op, verb string) error {
	e, raw, err := c.api.OperateRaw(ctx, id, op, c.key)
	if err != nil {
		return err
	}
	if c.asJSON {
		return c.writeJSON(raw)
	}
	c.line(verb, e)
	return nil
}

// listing prints one page (up to 1000) of today or the inbox as a table.
func (c *cli) listing(ctx context.Context, path, empty string) error {
	page, err := c.api.Listing(ctx, path, url.Values{"limit": {"1000"}})
	if err != nil {
		return err
	}
	if c.asJSON {
		return c.writeJSON(page.Raw)
	}
	if len(page.Items) == 0 {
		fmt.Fprintln(c.out, empty)
		return nil
	}
	// the labels and place columns show only when a row has some (table)
	t := table{head: []string{"ID", c.t("cli_head_kind"), c.t("cli_head_status"), c.t("cli_head_when"), c.t("cli_head_title"), c.t("cli_head_project"), c.t("cli_head_labels"), c.t("cli_head_place")},
		right: []bool{true}, flex: 4, cap: map[int]int{5: 16, 6: 18, 7: 12}}
	for _, e := range page.Items {
		place := ""
		if e.Location != nil {
			place = *e.Location
		}
		t.rows = append(t.rows, []string{strconv.FormatInt(e.ID, 10), c.kindWord(string(e.Kind)), c.t("status_" + string(e.Status)), c.when(e), c.orUntitled(e.Title), tag(e.ProjectTag), labels(e.Labels), place})
	}
	t.render(c.out, c.width, c.color)
	if page.NextCursor != "" {
		fmt.Fprintln(c.out, c.t("cli_only_first"))
	}
	return nil
}

// review prints the summary of today, or of this local week (Monday to
// Sunday), as a table of days and a table of projects.
func (c *cli) review(ctx context.Context, week bool) error {
	from := models.DayStart(c.now, c.loc, 0)
	days := 1
	if week {
		back := (int(c.now.In(c.loc).Weekday()) + 6) % 7 // days since Monday
		from, days = models.DayStart(c.now, c.loc, -back), 7
	}
	to := models.DayStart(from, c.loc, days)
	s, err := c.api.Summary(ctx, from, to)
	if err != nil {
		return err
	}
	if c.asJSON {
		return c.writeJSON(s.Raw)
	}
	title := c.t("cli_review_of", "Day", c.titleDay(s.From.In(c.loc)))
	if len(s.Days) > 1 {
		title = c.t("cli_review_of_to", "Day", c.titleDay(s.From.In(c.loc)), "Last", c.titleDay(s.To.In(c.loc).Add(-time.Second)))
	}
	fmt.Fprintln(c.out, c.fit(title+" ("+s.TZ+")"))
	fmt.Fprintln(c.out)
	shown := shownReview(s)
	days_ := table{head: []string{c.t("cli_head_day"), c.t("cli_head_logged"), c.t("cli_head_logs"), c.t("cli_head_tasks_done"), c.t("cli_head_calendar"), c.t("cli_head_cancelled"), c.t("cli_head_due")}, right: []bool{false, true, true, true, true, true, true}}
	row := func(name string, minutes int64, n apiclient.SummaryCounts) []string {
		return []string{name, minutesText(minutes), strconv.Itoa(n.Logs), strconv.Itoa(n.TasksCompleted), strconv.Itoa(n.CalendarEvents), strconv.Itoa(n.Cancelled), strconv.Itoa(n.TasksDue)}
	}
	for i, d := range s.Days {
		name := d.Date
		if t, err := time.Parse(time.DateOnly, d.Date); err == nil {
			name = c.shortDay(t)
		}
		days_.rows = append(days_.rows, row(name, shown.days[i], d.SummaryCounts))
	}
	if len(s.Days) > 1 {
		days_.rows = append(days_.rows, row(c.t("cli_total"), shown.total, s.Total))
	}
	days_.render(c.out, c.width, c.color)
	fmt.Fprintln(c.out)
	if len(s.Total.Projects) == 0 {
		fmt.Fprintln(c.out, c.t("cli_no_time"))
		return nil
	}
	projects := table{head: []string{c.t("cli_head_project"), c.t("cli_head_time"), c.t("cli_head_share")}, right: []bool{false, true, true}, flex: 0}
	for i, p := range s.Total.Projects {
		name := c.t("cli_none")
		if p.ProjectTag != nil {
			name = "#" + *p.ProjectTag
		}
		share := 0
		if s.Total.LoggedSeconds > 0 {
			share = int((p.Seconds*100 + s.Total.LoggedSeconds/2) / s.Total.LoggedSeconds)
		}
		projects.rows = append(projects.rows, []string{name, minutesText(shown.projects[i]), strconv.Itoa(share) + "%"})
	}
	projects.rows = append(projects.rows, []string{c.t("cli_total"), minutesText(shown.total), ""})
	projects.render(c.out, c.width, c.color)
	if len(s.Total.Labels) == 0 {
		return nil
	}
	// each label's time, as the review page rounds it; labels overlap, so
	// they have no total and no share
	fmt.Fprintln(c.out)
	perLabel := table{head: []string{c.t("cli_head_label"), c.t("cli_head_time")}, right: []bool{false, true}, cap: map[int]int{0: 40}}
	for _, l := range s.Total.Labels {
		perLabel.rows = append(perLabel.rows, []string{label(l.Label), duration(l.Seconds)})
	}
	perLabel.render(c.out, c.width, c.color)
	for _, l := range wrap(cellText(c.t("review_labels_overlap")), c.width) {
		fmt.Fprintln(c.out, l)
	}
	return nil
}

// line prints one event after a verb: "Logged 12  09:45-10:00 (15m)  standup  #work".
func (c *cli) line(verb string, e apiclient.Event) {
	word := verb
	if id, ok := verbs[verb]; ok {
		word = c.t(id)
	}
	head := word + " " + strconv.FormatInt(e.ID, 10)
	parts := []string{head}
	if w := c.when(e); w != "" {
		parts = append(parts, w)
	}
	if e.Kind == "activity_log" && e.StartedAt != nil && e.EndedAt != nil {
		parts[len(parts)-1] += " (" + duration(models.Seconds(*e.StartedAt, *e.EndedAt)) + ")"
	}
	if (e.Status != "done" && verb != "Cancelled") || verb == "Undone" {
		parts = append(parts, c.t("status_"+string(e.Status)))
	}
	rest := ""
	if e.ProjectTag != nil {
		rest = "  #" + cellText(*e.ProjectTag)
	}
	if len(e.Labels) > 0 {
		rest += "  " + cellText(labels(e.Labels))
	}
	if e.Location != nil {
		rest += "  " + cellText(c.t("cli_place", "Place", *e.Location))
	}
	prefix := strings.Join(parts, "  ") + "  "
	title := truncate(cellText(c.orUntitled(e.Title)), c.width-displayWidth(prefix)-displayWidth(rest))
	fmt.Fprintln(c.out, strings.TrimRight(prefix+title+rest, " "))
}

// wrap breaks a sentence into lines of at most width columns, at spaces (a
// word wider than width is a line of its own).
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && displayWidth(line)+1+displayWidth(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// fit cuts a sentence of the API to the output's width.
func (c *cli) fit(s string) string { return truncate(cellText(s), c.width) }

// when is an event's time in the zone, short: a day other than today is
// named by its date.
func (c *cli) when(e apiclient.Event) string {
	switch e.Kind {
	case "activity_log":
		switch {
		case e.StartedAt != nil && e.EndedAt != nil:
			return c.clock(*e.StartedAt, time.Time{}) + "-" + c.clock(*e.EndedAt, *e.StartedAt)
		case e.StartedAt != nil:
			return c.clock(*e.StartedAt, time.Time{}) + "-"
		case e.EndedAt != nil:
			return "-" + c.clock(*e.EndedAt, time.Time{})
		}
	case "task":
		switch {
		case e.DueAt != nil && models.DueDayOnly(*e.DueAt, c.loc):
			return c.t("row_due", "Time", c.day(*e.DueAt))
		case e.DueAt != nil:
			return c.t("row_due", "Time", c.clock(*e.DueAt, time.Time{}))
		case e.StartAt != nil:
			return "from " + c.clock(*e.StartAt, time.Time{})
		}
	case "calendar_event":
		switch {
		case e.AllDay && e.StartAt != nil:
			first := c.day(*e.StartAt)
			last := first
			if e.EndAt != nil {
				last = c.day(e.EndAt.Add(-time.Microsecond))
			}
			if first == last {
				return c.t("cli_all_day", "Day", first)
			}
			return first + ".." + last
		case e.StartAt != nil && e.EndAt != nil:
			return c.clock(*e.StartAt, time.Time{}) + "-" + c.clock(*e.EndAt, *e.StartAt)
		case e.StartAt != nil:
			return c.clock(*e.StartAt, time.Time{})
		}
	}
	return ""
}

// clock is t's local time, with its date when t is not on the same local
// day as after (zero: today).
func (c *cli) clock(t, after time.Time) string {
	if after.IsZero() {
		after = c.now
	}
	l, a := t.In(c.loc), after.In(c.loc)
	if l.Year() == a.Year() && l.YearDay() == a.YearDay() {
		return l.Format("15:04")
	}
	return l.Format("01-02 15:04")
}

// day is t's local date: today, tomorrow or MM-DD.
func (c *cli) day(t time.Time) string {
	l := t.In(c.loc)
	for offset, word := range []string{c.t("day_today"), c.t("day_tomorrow")} {
		d := models.DayStart(c.now, c.loc, offset)
		if l.Year() == d.Year() && l.YearDay() == d.YearDay() {
			return word
		}
	}
	if l.Year() != c.now.In(c.loc).Year() {
		return l.Format("2006-01-02")
	}
	return l.Format("01-02")
}

func (c *cli) kindWord(kind string) string { return c.t("cli_kind_" + kind) }

// titleDay is a date as the review's title writes it: "Mon 2026-11-30",
// "2026-11-30 (월)".
func (c *cli) titleDay(t time.Time) string {
	if c.lang == i18n.Korean {
		return t.Format("2006-01-02") + " (" + c.t("weekday_"+strings.ToLower(t.Weekday().String()[:3])) + ")"
	}
	return t.Format("Mon 2006-01-02")
}

// shortDay is a day of the review's table: "Mon 11-30", "11-30 (월)".
func (c *cli) shortDay(t time.Time) string {
	if c.lang == i18n.Korean {
		return t.Format("01-02") + " (" + c.t("weekday_"+strings.ToLower(t.Weekday().String()[:3])) + ")"
	}
	return t.Format("Mon 01-02")
}

func tag(p *string) string {
	if p == nil {
		return ""
	}
	return "#" + *p
}

// label is a label as the capture text reads it back: @회의, or
// @"client acme" for a name with a space or a quote.
func label(l string) string {
	if strings.ContainsAny(l, " \t\"") {
		return `@"` + l + `"`
	}
	return "@" + l
}

// labels are an event's labels, each as label writes it, space-separated.
func labels(ls []string) string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = label(l)
	}
	return strings.Join(out, " ")
}

func (c *cli) orUntitled(title string) string {
	if strings.TrimSpace(title) == "" {
		return c.t("untitled")
	}
	return title
}

// shown is a summary's logged time as every screen shows it (DESIGN.md,
// Summary, Shown minutes): each day's minutes, the window's total and
// each of Total.Projects', the sums of the days'.
type shown struct {
	days     []int64
	total    int64
	projects []int64
}

// shownReview rounds s as the review page does (models.DayMinutes), so
// the days and the projects printed add up to the total printed.
func shownReview(s apiclient.Summary) shown {
	out := shown{days: make([]int64, len(s.Days)), projects: make([]int64, len(s.Total.Projects))}
	key := func(tag *string) string {
		if tag == nil {
			return ""
		}
		return "#" + *tag
	}
	rank := map[string]int{}
	for i, p := range s.Total.Projects {
		rank[key(p.ProjectTag)] = i
	}
	for i, d := range s.Days {
		secs := make([]int64, len(d.Projects))
		for j, p := range d.Projects {
			secs[j] = p.Seconds
		}
		total, parts := models.DayMinutes(d.LoggedSeconds, secs)
		out.days[i] = total
		out.total += total
		for j, p := range d.Projects {
			if r, ok := rank[key(p.ProjectTag)]; ok {
				out.projects[r] += parts[j]
			}
		}
	}
	return out
}

// duration is seconds as whole minutes, rounded as the pages round them
// (half a minute up: a 30-second log is "1m" here and "1 min" there).
func duration(seconds int64) string { return minutesText(models.MinutesOf(seconds)) }

// minutesText is whole minutes as "2h10m", "40m", "3h", "0m".
func minutesText(m int64) string {
	switch {
	case m < 60:
		return strconv.FormatInt(m, 10) + "m"
	case m%60 == 0:
		return strconv.FormatInt(m/60, 10) + "h"
	}
	return fmt.Sprintf("%dh%02dm", m/60, m%60)
}
