// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"events/models"
)

// scenario is one line of the table.
type scenario struct {
	key, name string
	write     bool
	// targeter returns the requests of one step.
	targeter func(e *env) vegeta.Targeter
	// sample is the request whose statements make the pgbench script; nil
	// for /healthz, which runs none.
	sample func(e *env) []vegeta.Target
	// explain: print the plans of the scenario's SELECTs; explainFirst,
	// when above 0, keeps to the first ones (an export's range of ids and
	// its first batch, not every batch)
	explain      bool
	explainFirst int
	// minStep is the shortest step that holds a few of its requests (a
	// year's export takes seconds); 0: the -step of the run
	minStep time.Duration
	// optional: run only when -scenarios names it (the floor, /readyz,
	// which measures no feature and whose ratio swings from run to run)
	optional bool
	// filled in by capture
	script string // the pgbench script
	perTx  int    // service requests one pgbench transaction stands for
	sql    []string
	rows   int // lines of an export's answer, its head aside; 0 for the others
}

var (
	jsonHeader   = http.Header{"Content-Type": {"application/json"}}
	formHeader   = http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "HX-Request": {"true"}}
	pageHeader   = http.Header{"Accept": {"text/html"}}
	plainHeader  = http.Header{"Accept": {"text/html"}, "Accept-Encoding": {"identity"}}
	recordBody   = []byte(`{"kind":"activity_log","title":"bench quick record"}`)
	fragmentBody = []byte("kind=activity_log&title=bench+quick+record")
)

func get(path string, h http.Header) func(e *env) []vegeta.Target {
	return func(e *env) []vegeta.Target {
		return []vegeta.Target{{Method: "GET", URL: e.service.Base + path, Header: h}}
	}
}

func post(path string, body []byte, h http.Header) func(e *env) []vegeta.Target {
	return func(e *env) []vegeta.Target {
		return []vegeta.Target{{Method: "POST", URL: e.service.Base + path, Body: body, Header: h}}
	}
}

// getAt is get of the path made for the service's clock at its start.
func getAt(path func(now time.Time) string, h http.Header) func(e *env) []vegeta.Target {
	return func(e *env) []vegeta.Target { return get(path(e.now), h)(e) }
}

// static is the targeter of sample's targets, each asking for its answer
// compressed (compressed), taken in turn.
func static(sample func(e *env) []vegeta.Target) func(e *env) vegeta.Targeter {
	return func(e *env) vegeta.Targeter {
		ts := sample(e)
		for i := range ts {
			ts[i].Header = compressed(ts[i].Header)
		}
		return vegeta.NewStaticTargeter(ts...)
	}
}

// compressed is h with Accept-Encoding: gzip unless it names an encoding
// of its own (page-plain's identity), as a browser's and `curl
// --compressed` do; h itself is not written to. When a request names
// none, Go's client asks for gzip itself and unzips every answer as vegeta
// reads it: on the CPU the load generator shares with the service (README,
// Performance, CPU split), a 300 KB Today page cost it about as much as
// drawing the page cost the service, and the page's throughput ratio read
// 43% to 47% against 60% to 71% named, taken in turn. Named, the answer is
// read as it comes, compressed, and left so; the service's work is the
// same either way. pgbench's client does no such work. Set once, where the
// targets are made, not on every request sent.
func compressed(h http.Header) http.Header {
	if h.Get("Accept-Encoding") != "" {
		return h
	}
	c := h.Clone()
	if c == nil {
		c = http.Header{}
	}
	c.Set("Accept-Encoding", "gzip")
	return c
}

// gzipHeader is the lifecycle scenario's header: no body, its answer asked
// for compressed as every scenario's is (compressed).
var gzipHeader = compressed(nil)

func activityPath(now time.Time) string {
	return "/api/events/activity?" + url.Values{
		"from": {now.AddDate(0, 0, -7).Format(time.RFC3339)},
		"to":   {now.Format(time.RFC3339)},
	}.Encode()
}

func upcomingPath(now time.Time) string {
	return "/api/events?" + url.Values{
		"from":   {now.Format(time.RFC3339)},
		"to":     {now.AddDate(0, 0, 14).Format(time.RFC3339)},
		"status": {"planned,tentative,in_progress,waiting,deferred,done"},
	}.Encode()
}

// summaryPath is the summary of the seven local days up to now's day
// (in the service's zone, Asia/Seoul): its days, logs and completions.
func summaryPath(now time.Time) string {
	return "/api/events/summary?" + url.Values{
		"from": {now.AddDate(0, 0, -6).Format(time.RFC3339)},
		"to":   {now.Format(time.RFC3339)},
	}.Encode()
}

// reviewPath is the review page of the same week: the summary, the
// logbook of every entry of the week and the page around them.
func reviewPath(now time.Time) string {
	return "/events/review?" + url.Values{
		"from": {now.AddDate(0, 0, -6).Format(time.RFC3339)},
		"to":   {now.Format(time.RFC3339)},
	}.Encode()
}

// exportPath is the CSV export of the months before the service's clock,
// read in batches of 1,000: a month is about 8,000 events at 1,000,000 over
// ten years, a year about 100,000.
func exportPath(months int) func(now time.Time) string {
	return func(now time.Time) string {
		return "/api/events/export?" + url.Values{
			"format": {"csv"},
			"from":   {now.AddDate(0, -months, 0).Format(time.RFC3339)},
			"to":     {now.Format(time.RFC3339)},
		}.Encode()
	}
}

// deepPath is GET /api/events with filter and the cursor of a row five
// years before now: a page deep in the listing, as a client walking it
// from the start asks for after thousands of pages. The cursor is made as
// the service makes it (models), for the filters it is bound to.
func deepPath(filter string) func(now time.Time) string {
	return func(now time.Time) string {
		v, err := url.ParseQuery(filter)
		if err != nil {
			panic(err)
		}
		q, err := models.ParseListQuery(models.ListEvents, v, time.UTC)
		if err != nil {
			panic(err)
		}
		at := now.AddDate(-5, 0, 0)
		v.Set("cursor", q.Cursor(models.Position{T: &at}))
		return "/api/events?" + v.Encode()
	}
}

// windowPath is GET /api/events over the month before now, every status.
func windowPath(now time.Time) string {
	return "/api/events?" + url.Values{
		"from": {now.AddDate(0, -1, 0).Format(time.RFC3339)},
		"to":   {now.Format(time.RFC3339)},
	}.Encode()
}

func scenarios() []*scenario {
	list := []*scenario{
		{key: "healthz", name: "`GET /healthz` (HTTP ceiling)", sample: get("/healthz", nil)},
		// one SELECT 1 a request: the least a request that runs a statement costs
		{key: "readyz", name: "`GET /readyz` (one `SELECT 1`, the floor)", sample: get("/readyz", nil), optional: true},
		{key: "record", name: "quick record `POST /api/events`", write: true, sample: post("/api/events", recordBody, jsonHeader)},
		{key: "today", name: "Today `GET /api/events/today`", explain: true, sample: get("/api/events/today", nil)},
		{key: "inbox", name: "Inbox `GET /api/events/inbox`", explain: true, sample: get("/api/events/inbox", nil)},
		{key: "activity", name: "Activity, a week", explain: true, sample: getAt(activityPath, nil)},
		{key: "upcoming", name: "Upcoming, 14 days", explain: true, sample: getAt(upcomingPath, nil)},
		{key: "lifecycle", name: "complete / reactivate", write: true},
		{key: "page", name: "Today page `GET /events` (HTML, its sections, every row drawn cold)", sample: todayPage},
		// the same page not compressed: what gzip costs on it (README, Performance)
		{key: "page-plain", name: "Today page, not compressed (`Accept-Encoding: identity`)", sample: get("/events", plainHeader), optional: true},
		{key: "fragment", name: "htmx quick record (fragment)", write: true, sample: post("/api/events", fragmentBody, formHeader)},
		{key: "summary", name: "Summary, a week `GET /api/events/summary`", explain: true, sample: getAt(summaryPath, nil)},
		{key: "review", name: "`GET /events/review` (HTML page, a week)", sample: getAt(reviewPath, pageHeader)},
		// The seed puts "deploy" in one title of 500 and "회의록" in another: each query is
		// 3 characters, served by the trigram index.
		{key: "search-en", name: "search `q=dep` (English, 3 characters)", explain: true, sample: get("/api/events?q=dep", nil)},
		{key: "search-ko", name: "search `q=회의록` (Korean, 3 characters)", explain: true, sample: get("/api/events?q="+url.QueryEscape("회의록"), nil)},
		// GET /api/events by each documented filter, first page and a
		// page five years deep (DESIGN.md, Listings): each an ordered
		// range of an index, in a time that does not grow with the table
		{key: "list", name: "`GET /api/events`, no filter", explain: true, sample: get("/api/events", nil)},
		{key: "list-deep", name: "`GET /api/events`, a page five years deep", explain: true, sample: getAt(deepPath(""), nil)},
		{key: "list-kind", name: "`?kind=task`", explain: true, sample: get("/api/events?kind=task", nil)},
		{key: "list-kind-deep", name: "`?kind=task`, five years deep", explain: true, sample: getAt(deepPath("kind=task"), nil)},
		{key: "list-status", name: "`?status=planned,waiting`", explain: true, sample: get("/api/events?status=planned,waiting", nil)},
		{key: "list-project", name: "`?project_tag=work`, five years deep", explain: true, sample: getAt(deepPath("project_tag=work"), nil)},
		{key: "list-source", name: "`?source=email`, five years deep", explain: true, sample: getAt(deepPath("source=email"), nil)},
		{key: "list-window", name: "`?from=&to=`, a month", explain: true, sample: getAt(windowPath, nil)},
		{key: "export", name: "export a month as CSV `GET /api/events/export`", explain: true, explainFirst: 2, sample: getAt(exportPath(1), nil)},
		{key: "export-year", name: "export a year as CSV (100,000 events at 1M)", explain: true, explainFirst: 2, sample: getAt(exportPath(12), nil), minStep: 10 * time.Second},
	}
	for _, s := range list {
		switch {
		case s.key == "lifecycle":
			s.targeter = lifecycleTargeter
		case s.sample != nil:
			s.targeter = static(s.sample)
		}
	}
	return list
}

// stepOf is the length of the scenario's steps.
func (s *scenario) stepOf(e *env) time.Duration { return max(e.o.step, s.minStep) }

// sliceOf is the length of a slice of the scenario's steps (measurePair):
// the step over -slices, in whole seconds (pgbench -T counts seconds), at
// least one. A year's export, 10 s steps, has three slices of 3 s.
func (s *scenario) sliceOf(e *env) time.Duration {
	return max(time.Second, (s.stepOf(e) / time.Duration(e.o.slices)).Round(time.Second))
}

// pool is the lifecycle scenario's events: planned tasks, ids base+6+10k.
func pool(e *env) []int64 {
	n := poolSize(e.o.events)
	ids := make([]int64, n)
	for k := range ids {
		ids[k] = int64(poolBase(e.o.events) + 6 + 10*k)
	}
	return ids
}

// lifecycleTargeter completes every event of the pool in turn, then
// reactivates each, and so on: every request is a real step, and two
// requests on one event are a whole pool apart. The pool starts planned
// (cleanup puts it back).
func lifecycleTargeter(e *env) vegeta.Targeter {
	ids := pool(e)
	var next atomic.Uint64
	return func(t *vegeta.Target) error {
		i := next.Add(1) - 1
		op := "complete"
		if (i/uint64(len(ids)))%2 == 1 {
			op = "reactivate"
		}
		t.Method, t.URL, t.Body, t.Header = "POST", fmt.Sprintf("%s/api/events/%d/%s", e.service.Base, ids[i%uint64(len(ids))], op), nil, gzipHeader
		return nil
	}
}

// capture runs one request of each scenario with statement logging on and
// turns the service's statements into pgbench scripts.
func capture(ctx context.Context, e *env, list []*scenario) error {
	for _, s := range list {
		if s.key == "healthz" {
			continue
		}
		var err error
		if s.key == "lifecycle" {
			err = captureLifecycle(ctx, e, s)
		} else {
			var stmts []string
			var res *http.Response
			var body []byte
			stmts, res, body, err = logged(ctx, e, s.sample(e)[0])
			if err == nil {
				s.sql, s.perTx = stmts, 1
				s.script, err = scriptOf(stmts, res)
				if strings.HasPrefix(s.key, "export") {
					s.rows = bytes.Count(body, []byte("\n")) - 1
				}
			}
		}
		if err == nil {
			err = s.putBack(ctx, e)
		}
		if err != nil {
			return fmt.Errorf("capture %s: %w", s.key, err)
		}
		path := filepath.Join(e.o.dir, s.key+".pgbench")
		if err := os.WriteFile(path, []byte(s.script), 0o644); err != nil {
			return err
		}
		say("captured %d statements of %s into %s", len(s.sql), s.key, path)
	}
	return nil
}

// scriptOf makes the pgbench script of one request's statements. A create
// keeps the new id in :id for the history row.
func scriptOf(stmts []string, res *http.Response) (string, error) {
	var b strings.Builder
	var id string
	if loc := res.Header.Get("Location"); loc != "" {
		id = loc[strings.LastIndexByte(loc, '/')+1:]
	}
	for _, st := range stmts {
		if id != "" {
			st = replaceNumber(st, id, ":id")
		}
		if strings.HasPrefix(withoutDeadline(st), `INSERT INTO "events"`) {
			b.WriteString(scriptLine(st, "\n\\gset"))
			continue
		}
		b.WriteString(scriptLine(st, ";"))
	}
	return b.String(), nil
}

// scriptLine is a statement as pgbench is to send it, ended by end (";",
// or \gset to keep its row): as the service sends it, the deadline's SET
// LOCAL and the statement in one message (app/deadline.go). pgbench ends a
// command at each ";" and joins two into one message with "\;": with
// ";", it sent the SET LOCAL alone, a round trip more than the service,
// and outside a transaction block one that PostgreSQL answered with a
// warning and ignored.
func scriptLine(st, end string) string {
	if set, stmt := splitDeadline(st); set != "" {
		st = set + ` \;` + stmt
	}
	return st + end + "\n"
}

// withoutDeadline is a statement without the SET LOCAL statement_timeout
// that the service sends before it (app/deadline.go).
func withoutDeadline(st string) string {
	_, stmt := splitDeadline(strings.TrimSpace(st))
	return strings.TrimSpace(stmt)
}

// splitDeadline splits a statement as the service sends it into the SET
// LOCAL statement_timeout before it (without its ";"; "" when there is
// none) and the statement after it.
func splitDeadline(st string) (set, stmt string) {
	if rest, ok := strings.CutPrefix(st, "SET LOCAL statement_timeout"); ok {
		if value, after, ok := strings.Cut(rest, ";"); ok {
			return "SET LOCAL statement_timeout" + value, after
		}
	}
	return "", st
}

func replaceNumber(s, n, with string) string {
	return regexp.MustCompile(`\b`+regexp.QuoteMeta(n)+`\b`).ReplaceAllString(s, with)
}

// captureLifecycle captures a complete and the reactivate that undoes it,
// on the pool's first event. In the script, each pgbench client works on
// its own part of the pool, so its reactivate always finds its complete.
func captureLifecycle(ctx context.Context, e *env, s *scenario) error {
	ids := pool(e)
	id := strconv.FormatInt(ids[0], 10)
	complete, _, _, err := logged(ctx, e, vegeta.Target{Method: "POST", URL: e.service.Base + "/api/events/" + id + "/complete"})
	if err != nil {
		return err
	}
	var step int64
	if err := e.db.NewRaw("SELECT max(id) FROM event_history WHERE event_id = ? AND change_kind = 'complete'", ids[0]).Scan(ctx, &step); err != nil {
		return err
	}
	reactivate, _, _, err := logged(ctx, e, vegeta.Target{Method: "POST", URL: e.service.Base + "/api/events/" + id + "/reactivate"})
	if err != nil {
		return err
	}
	clients := e.o.conns
	per := len(ids) / clients
	if per < 1 {
		return fmt.Errorf("the pool of %d events is smaller than %d clients", len(ids), clients)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\\set id %d + 10 * (:client_id + %d * random(0, %d))\n", ids[0], clients, per-1)
	for _, st := range complete {
		b.WriteString(scriptLine(replaceNumber(st, id, ":id"), ";"))
	}
	for _, st := range reactivate {
		st = replaceNumber(replaceNumber(st, id, ":id"), strconv.FormatInt(step, 10), ":u_id")
		if strings.Contains(st, "change_kind IN ('complete', 'cancel', 'defer')") {
			b.WriteString(scriptLine(st, "\n\\gset u_"))
			continue
		}
		b.WriteString(scriptLine(st, ";"))
	}
	s.sql, s.script, s.perTx = append(complete, reactivate...), b.String(), 2
	return nil
}

// logged sends one request with statement logging on and returns the
// statements the service ran for it, in order, and the answer.
func logged(ctx context.Context, e *env, t vegeta.Target) (stmts []string, res *http.Response, body []byte, err error) {
	setLog := func(statement, prefix string) error {
		for _, q := range []string{
			"ALTER SYSTEM SET log_statement = '" + statement + "'",
			"ALTER SYSTEM SET log_line_prefix = '" + prefix + "'",
			"SELECT pg_reload_conf()",
		} {
			if _, err := e.db.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		time.Sleep(300 * time.Millisecond) // backends read the new settings before their next statement
		return nil
	}
	fi, err := os.Stat(e.logPath)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := setLog("all", "@@%a@@ "); err != nil {
		return nil, nil, nil, err
	}
	req, err := t.Request()
	if err != nil {
		return nil, nil, nil, err
	}
	res, err = http.DefaultClient.Do(req.WithContext(ctx))
	if err == nil {
		body, err = io.ReadAll(res.Body)
		res.Body.Close()
		if err == nil && res.StatusCode >= 300 {
			err = fmt.Errorf("%s %s: %s", t.Method, t.URL, res.Status)
		}
	}
	if rerr := setLog("none", "%m [%p] "); err == nil {
		err = rerr
	}
	if err != nil {
		return nil, nil, nil, err
	}
	f, err := os.Open(e.logPath)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	if _, err := f.Seek(fi.Size(), io.SeekStart); err != nil {
		return nil, nil, nil, err
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, entry := range strings.Split("\n"+string(b), "\n@@")[1:] {
		if rest, ok := strings.CutPrefix(entry, "events@@ LOG:  statement: "); ok {
			stmts = append(stmts, strings.TrimRight(rest, "\n"))
		}
	}
	if len(stmts) == 0 {
		return nil, nil, nil, errors.New("no statement of the service reached the server log " + e.logPath)
	}
	return stmts, res, body, nil
}

// putBack ends whatever a write scenario sent (its capture, and its
// service, pgbench and latency steps alike): the next step reads the
// database as seeded.
func (s *scenario) putBack(ctx context.Context, e *env) error {
	if !s.write {
		return nil
	}
	return cleanup(ctx, e)
}

// cleanup puts the database back as seeded: the events and history rows
// the write steps added go, with the Idempotency-Keys recorded for them
// (the import's), and the lifecycle pool is planned again with its create
// row only; then the tables are vacuumed and the dirtied pages written.
func cleanup(ctx context.Context, e *env) error {
	n, base := e.o.events, poolBase(e.o.events)
	if err := rewrite(ctx, e,
		fmt.Sprintf(`DELETE FROM event_history WHERE event_id > %d
			OR (event_id > %d AND event_id %% 10 = 6 AND change_kind <> 'create')`, n, base),
		fmt.Sprintf("DELETE FROM idempotency_keys WHERE event_id > %d", n),
		fmt.Sprintf("DELETE FROM events WHERE id > %d", n),
		fmt.Sprintf(`UPDATE events SET status = 'planned', completed_at = NULL, undo_status = NULL, updated_at = created_at
			WHERE id > %d AND id <= %d AND id %% 10 = 6 AND (status <> 'planned' OR undo_status IS NOT NULL)`, base, n),
	); err != nil {
		return fmt.Errorf("cleanup: %w", err)
	}
	for _, q := range []string{
		"VACUUM (ANALYZE) events",
		"VACUUM (ANALYZE) event_history",
		"VACUUM (ANALYZE) idempotency_keys",
		// the pages the step dirtied are written now, not by a checkpoint
		// in the middle of a later step
		"CHECKPOINT",
	} {
		if _, err := e.db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("cleanup: %w", err)
		}
	}
	return nil
}

// rewrite runs stmts on one connection of the harness with history
// writable and the foreign keys off (session_replication_role = replica),
// for that session only: history is append-only for the service, and the
// harness takes back what its steps wrote.
func rewrite(ctx context.Context, e *env, stmts ...string) error {
	conn, err := e.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	stmts = append(append([]string{"SET session_replication_role = replica"}, stmts...), "RESET session_replication_role")
	for _, q := range stmts {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
