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
	"events/models"

	"golang.org/x/term"
)

// cliCommands are the terminal client's commands.
var cliCommands = map[string]bool{
	"log": true, "start": true, "stop": true, "add": true, "today": true,
	"inbox": true, "done": true, "undo": true, "review": true,
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
  events undo ID       undo the last complete, cancel or defer of an event
  events review        today's logged time per project; --week: this week

  --json               print the API's answer as it came, instead of a table

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
}

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
	words, asJSON, week, err := cliArgs(cmd, args)
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
	api, err := apiclient.New(getenv("EVENTS_URL"), getenv("EVENTS_TOKEN"))
	if err != nil {
		return usageError(err.Error())
	}
	api.Zone, api.Retries = zoneName, 2
	width, tty := outputWidth(stdout, getenv)
	c := &cli{
		api: api, loc: loc, now: time.Now(), out: stdout, width: width, asJSON: asJSON,
		color: tty && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb",
		key:   "cli-" + randomHex(16),
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	text := strings.Join(words, " ")
	switch cmd {
	case "log":
		err = c.create(ctx, "Logged", map[string]any{"kind": "activity_log", "text": text})
	case "start":
		err = c.start(ctx, text)
	case "stop":
		err = c.stop(ctx)
	case "add":
		err = c.create(ctx, "Added", map[string]any{"kind": "task", "text": text})
	case "today":
		err = c.listing(ctx, "/api/events/today", "Nothing for today.")
	case "inbox":
		err = c.listing(ctx, "/api/events/inbox", "The inbox is empty.")
	case "done", "undo":
		id, _ := strconv.ParseInt(words[0], 10, 64)
		op, verb := "complete", "Done"
		if cmd == "undo" {
			op, verb = "reactivate", "Undone"
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
func cliArgs(cmd string, args []string) (words []string, asJSON, week bool, err error) {
	flags := true
	for _, a := range args {
		switch {
		case !flags || !strings.HasPrefix(a, "-") || a == "-":
			words = append(words, a)
		case a == "--":
			flags = false
		case a == "--json" || a == "-json":
			asJSON = true
		case (a == "--week" || a == "-week") && cmd == "review":
			week = true
		case a == "-h" || a == "--help" || a == "-help":
			return nil, false, false, flag.ErrHelp
		default:
			return nil, false, false, usageError(fmt.Sprintf("%s: unknown flag %q (put -- before text that starts with a dash; events %s -h shows how)", cmd, a, cmd))
		}
	}
	switch cmd {
	case "log", "start", "add":
		if strings.TrimSpace(strings.Join(words, "")) == "" {
			return nil, false, false, usageError(fmt.Sprintf("%s takes TEXT, such as: events %s 'standup 15m #work'", cmd, cmd))
		}
	case "done", "undo":
		if len(words) != 1 {
			return nil, false, false, usageError(fmt.Sprintf("%s takes one event ID, such as: events %s 12", cmd, cmd))
		}
		if id, err := strconv.ParseInt(words[0], 10, 64); err != nil || id < 1 {
			return nil, false, false, usageError(fmt.Sprintf("%s: %q is not an event ID (a whole number from 1, as events today shows)", cmd, words[0]))
		}
	default:
		if len(words) > 0 {
			return nil, false, false, usageError(fmt.Sprintf("%s takes no arguments; got %q", cmd, strings.Join(words, " ")))
		}
	}
	return words, asJSON, week, nil
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
		fmt.Fprintln(c.out, c.fit(fmt.Sprintf("It overlaps %d %s by %s.", o.ID, orUntitled(o.Title), duration(o.Seconds))))
	}
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
	t := table{head: []string{"ID", "KIND", "STATUS", "WHEN", "TITLE", "PROJECT"}, right: []bool{true}, flex: 4, cap: map[int]int{5: 16}}
	for _, e := range page.Items {
		t.rows = append(t.rows, []string{strconv.FormatInt(e.ID, 10), kindWord(e.Kind), strings.ReplaceAll(e.Status, "_", " "), c.when(e), orUntitled(e.Title), tag(e.ProjectTag)})
	}
	t.render(c.out, c.width, c.color)
	if page.NextCursor != "" {
		fmt.Fprintln(c.out, "Only the first 1000 are shown.")
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
	title := "Review of " + s.From.In(c.loc).Format("Mon 2006-01-02")
	if len(s.Days) > 1 {
		title += " to " + s.To.In(c.loc).Add(-time.Second).Format("Mon 2006-01-02")
	}
	fmt.Fprintln(c.out, c.fit(title+" ("+s.TZ+")"))
	fmt.Fprintln(c.out)
	days_ := table{head: []string{"DAY", "LOGGED", "LOGS", "TASKS DONE", "CALENDAR", "CANCELLED", "DUE"}, right: []bool{false, true, true, true, true, true, true}}
	row := func(name string, n apiclient.SummaryCounts) []string {
		return []string{name, duration(n.LoggedSeconds), strconv.Itoa(n.Logs), strconv.Itoa(n.TasksCompleted), strconv.Itoa(n.CalendarEvents), strconv.Itoa(n.Cancelled), strconv.Itoa(n.TasksDue)}
	}
	for _, d := range s.Days {
		name := d.Date
		if t, err := time.Parse(time.DateOnly, d.Date); err == nil {
			name = t.Format("Mon 01-02")
		}
		days_.rows = append(days_.rows, row(name, d.SummaryCounts))
	}
	if len(s.Days) > 1 {
		days_.rows = append(days_.rows, row("total", s.Total))
	}
	days_.render(c.out, c.width, c.color)
	fmt.Fprintln(c.out)
	if len(s.Total.Projects) == 0 {
		fmt.Fprintln(c.out, "No time logged.")
		return nil
	}
	projects := table{head: []string{"PROJECT", "TIME", "SHARE"}, right: []bool{false, true, true}, flex: 0}
	for _, p := range s.Total.Projects {
		name := "(none)"
		if p.ProjectTag != nil {
			name = "#" + *p.ProjectTag
		}
		share := 0
		if s.Total.LoggedSeconds > 0 {
			share = int((p.Seconds*100 + s.Total.LoggedSeconds/2) / s.Total.LoggedSeconds)
		}
		projects.rows = append(projects.rows, []string{name, duration(p.Seconds), strconv.Itoa(share) + "%"})
	}
	projects.rows = append(projects.rows, []string{"total", duration(s.Total.LoggedSeconds), ""})
	projects.render(c.out, c.width, c.color)
	return nil
}

// line prints one event after a verb: "Logged 12  09:45-10:00 (15m)  standup  #work".
func (c *cli) line(verb string, e apiclient.Event) {
	head := verb + " " + strconv.FormatInt(e.ID, 10)
	parts := []string{head}
	if w := c.when(e); w != "" {
		parts = append(parts, w)
	}
	if e.Kind == "activity_log" && e.StartedAt != nil && e.EndedAt != nil {
		parts[len(parts)-1] += " (" + duration(int64(e.EndedAt.Sub(*e.StartedAt)/time.Second)) + ")"
	}
	if e.Status != "done" || verb == "Undone" {
		parts = append(parts, strings.ReplaceAll(e.Status, "_", " "))
	}
	rest := ""
	if e.ProjectTag != nil {
		rest = "  #" + cellText(*e.ProjectTag)
	}
	prefix := strings.Join(parts, "  ") + "  "
	title := truncate(cellText(orUntitled(e.Title)), c.width-displayWidth(prefix)-displayWidth(rest))
	fmt.Fprintln(c.out, strings.TrimRight(prefix+title+rest, " "))
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
			return "due " + c.day(*e.DueAt)
		case e.DueAt != nil:
			return "due " + c.clock(*e.DueAt, time.Time{})
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
				return "all day " + first
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
	for offset, word := range []string{"today", "tomorrow"} {
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

func kindWord(kind string) string {
	switch kind {
	case "activity_log":
		return "log"
	case "calendar_event":
		return "event"
	}
	return kind
}

func tag(p *string) string {
	if p == nil {
		return ""
	}
	return "#" + *p
}

func orUntitled(title string) string {
	if strings.TrimSpace(title) == "" {
		return "(untitled)"
	}
	return title
}

// duration is whole minutes as "2h10m", "40m", "3h", "0m".
func duration(seconds int64) string {
	m := seconds / 60
	switch {
	case m < 60:
		return strconv.FormatInt(m, 10) + "m"
	case m%60 == 0:
		return strconv.FormatInt(m/60, 10) + "h"
	}
	return fmt.Sprintf("%dh%02dm", m/60, m%60)
}
