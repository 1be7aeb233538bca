// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"events/app"
	"events/cmd/internal/harness"
	"events/internal/importer"
	"events/models"
)

// The import (issue 49): a Timewarrior export of -import intervals moved
// in with `events import`, a process a run as a person runs it, against
// pgbench inserting the same rows. The importer sends one create at a
// time, each with its Idempotency-Key, so the service's side is one
// request in flight and pgbench's is one client: the statements of one
// such create, captured from the service as the scenarios' are, run
// -import times. Each side's rows are deleted after it (cleanup), so
// every run imports into the seed as it was and the scenarios after it
// read the seed unchanged.

var (
	importRecords = flag.Int("import", 10_000, "Timewarrior intervals of the import scenario (`events import` against pgbench inserting the same rows), at least 100; 0 leaves it out")
	importPairs   = flag.Int("import-pairs", 3, "pairs of an import run and a pgbench run of the import scenario")
)

// importKey names the scenario in -scenarios and its pgbench script.
const importKey = "import"

// importProjects are the generated tags that name projects (events import
// --project-tags): every interval carries one, so each record has a project
// as well as its labels, on both sides of the comparison.
var importProjects = []string{"work", "home", "health"}

// importName is the scenario's name in its table (and in the comparison
// with the previous run).
func importName(n int) string {
	return fmt.Sprintf("`events import` of %s Timewarrior intervals", thousands(n))
}

// importSection is the section of the import: it runs when -import is
// above 0 and -scenarios is empty or names it.
func importSection(ctx context.Context, e *env) (string, error) {
	if *importRecords < 1 || (e.o.scenarios != "" && !slices.Contains(strings.Split(e.o.scenarios, ","), importKey)) {
		return "", nil
	}
	// at least 100: the file then reaches days before the service's clock,
	// and the sample's times are told from the clock's (importNear)
	n := max(100, *importRecords)
	zone, err := models.LoadZone(app.DefaultZone)
	if err != nil {
		return "", err
	}
	file, err := filepath.Abs(filepath.Join(e.o.dir, "import-timew.json"))
	if err != nil {
		return "", err
	}
	data := timewExport(n, e.now)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return "", err
	}
	parsed, err := importer.Parse(data, importer.Options{Format: "timew", Zone: zone, Now: e.now, Name: filepath.Base(file), ProjectTags: importProjects})
	if err != nil {
		return "", fmt.Errorf("import: the generated file: %w", err)
	}
	if len(parsed.Records) != n || len(parsed.Refused) != 0 {
		return "", fmt.Errorf("import: the generated file holds %d records and %d refused, not %d records", len(parsed.Records), len(parsed.Refused), n)
	}

	// The script: the statements of the first record's create, sent as
	// the importer sends it; the record goes again with cleanup.
	sample := parsed.Records[0]
	stmts, res, _, err := logged(ctx, e, vegeta.Target{Method: "POST", URL: e.service.Base + "/api/events", Body: sample.Body(),
		Header: http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}, "Idempotency-Key": {sample.Key()}}})
	if err != nil {
		return "", fmt.Errorf("capture import: %w", err)
	}
	script, err := importScript(stmts, res, sample)
	if err != nil {
		return "", fmt.Errorf("capture import: %w", err)
	}
	if err := cleanup(ctx, e); err != nil {
		return "", err
	}
	path := filepath.Join(e.o.dir, importKey+".pgbench")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		return "", err
	}
	say("captured %d statements of an imported interval into %s", len(stmts), path)

	bin, err := filepath.Abs(filepath.Join(e.o.dir, "events"))
	if err != nil {
		return "", err
	}
	var pairs []pair
	var runs []importRun
	for i := range max(1, *importPairs) {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		p, run, err := importPair(ctx, e, bin, file, n)
		if err != nil {
			return "", fmt.Errorf("import: %w", err)
		}
		say("%-10s pair %d  import %7.0f/s  pgbench %7.0f/s  ratio %3.0f%%  cpu ratio %3.0f%% (same pace %3.0f%%)  service %.3f + db %.3f ms/record, pgbench db %.3f ms/record (same pace %.3f)  client %.3f ms/record  load %s",
			importKey, i+1, p.svc, p.pg, 100*p.ratio(), 100*p.cpuRatio(), 100*p.pacedRatio(), p.svcCPU, p.dbCPU, p.pgCPU, p.pacedCPU,
			ms(run.cpu)/float64(n), loadavg())
		pairs, runs = append(pairs, p), append(runs, run)
	}
	return importTable(n, pairs, runs), nil
}

// importPair runs the import of file, n intervals, against the service,
// then pgbench's n transactions of the script flat out and, with -paced,
// again kept to the import's rate; each side's rows are deleted after it.
func importPair(ctx context.Context, e *env, bin, file string, n int) (pair, importRun, error) {
	p := pair{at: time.Now()}
	pid := e.service.Pid()
	svc0, err := harness.CPUTicks(pid)
	if err != nil {
		return pair{}, importRun{}, err
	}
	db0, _ := dbTicks(e)
	stopRSS, peak := sampleRSS(pid, 50*time.Millisecond)
	run, err := runImport(ctx, bin, e.service.Base, file, n)
	stopRSS()
	if err != nil {
		return pair{}, importRun{}, err
	}
	svc1, err := harness.CPUTicks(pid)
	if err != nil {
		return pair{}, importRun{}, err
	}
	db1, _ := dbTicks(e)
	p.svc = float64(n) / run.wall.Seconds()
	p.svcCPU = tickMs(svc1-svc0) / float64(n)
	p.dbCPU = tickMs(db1-db0) / float64(n) // 0 when PostgreSQL is not ours
	p.rssKiB = *peak
	if err := cleanup(ctx, e); err != nil {
		return pair{}, importRun{}, err
	}
	flat, err := pgbenchWith(ctx, e, importKey, func(script, logPrefix string) []string {
		return importPgbenchArgs(e, script, n, 0, logPrefix)
	})
	if err != nil {
		return pair{}, importRun{}, err
	}
	if err := cleanup(ctx, e); err != nil {
		return pair{}, importRun{}, err
	}
	if flat.tx > 0 && flat.time > 0 {
		p.pg = float64(flat.tx) / flat.time.Seconds()
		p.pgCPU = flat.cpuPer(1)
	}
	if e.o.paced {
		paced, err := pgbenchWith(ctx, e, importKey, func(script, logPrefix string) []string {
			return importPgbenchArgs(e, script, n, p.svc, logPrefix)
		})
		if err != nil {
			return pair{}, importRun{}, err
		}
		if err := cleanup(ctx, e); err != nil {
			return pair{}, importRun{}, err
		}
		p.pacedCPU = paced.cpuPer(1)
	}
	return p, run, nil
}

// importRun is what one run of `events import` took.
type importRun struct {
	wall   time.Duration // the whole process: its start, reading the file, every create
	cpu    time.Duration // the client's own CPU, user and system
	rssKiB int64         // the client's peak RSS
}

// importSummary is the importer's line of counts.
var importSummary = regexp.MustCompile(`(?m)^created (\d+), already there (\d+), refused (\d+)`)

// runImport runs `bin import --from timew file` against the service at
// base, as a person runs it (its summary to a pipe), and checks that it
// created every one of the file's n intervals and refused none.
func runImport(ctx context.Context, bin, base, file string, n int) (importRun, error) {
	cmd := exec.CommandContext(ctx, bin, "import", "--from", "timew", "--project-tags", strings.Join(importProjects, ","), file)
	cmd.Env = append(os.Environ(), "EVENTS_URL="+base, "EVENTS_TIMEZONE="+app.DefaultZone)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	began := time.Now()
	err := cmd.Run()
	wall := time.Since(began)
	if err != nil {
		return importRun{}, fmt.Errorf("events import: %v\n%s%s", err, out.String(), lastLines(errOut.String(), 10))
	}
	m := importSummary.FindStringSubmatch(out.String())
	if m == nil || m[1] != strconv.Itoa(n) || m[2] != "0" || m[3] != "0" {
		return importRun{}, fmt.Errorf("events import did not create the %d intervals of %s as new events:\n%s", n, file, out.String())
	}
	run := importRun{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		run.rssKiB = ru.Maxrss // KiB on Linux
	}
	return run, nil
}

// importPgbenchArgs are the arguments of pgbench's side of the import: one
// client, as the importer sends one create at a time, n transactions, flat
// out or, when rate > 0, kept to rate a second, the slots counted from 0
// (importScript); its per-transaction log
// written to files named logPrefix.<pid>.
func importPgbenchArgs(e *env, script string, n int, rate float64, logPrefix string) []string {
	args := []string{"-n", "-M", "simple", "-c", "1", "-j", "1", "-t", strconv.Itoa(n), "-D", importCounter + "=0"}
	if rate > 0 {
		args = append(args, "-R", strconv.FormatFloat(rate, 'f', 1, 64))
	}
	return append(args, "-l", "--log-prefix="+logPrefix, "-f", script, "-h", e.sockDir, "-p", "5432", "-U", "events", "events")
}

// Each pgbench transaction stands for the next interval of the file: a
// client's variables last from one transaction to the next, so
// import_slot counts 0, 1, 2, ... (import_n starts at 0, -D). Slot k
// gets its own source_ref and Idempotency-Key, and the sample's times
// (the first interval's, and the windows the overlap check reads around
// it) moved k two-hour slots on, as the file's k-th interval lies: each
// transaction inserts a new row where the import put one, and its overlap
// check reads the seed's events of that slot. pgbench puts a variable's
// value wherever ":name" stands, inside quotes too, but not right after
// another colon ("::" is a cast to it), so "timew:" + an instant becomes
// "timew-" + the slot.
const (
	importCounter = "import_n"
	importVar     = "import_slot"
	importRefFmt  = "timew-:" + importVar
	importKeyFmt  = "import-bench-:" + importVar
	importSlot    = 2 * time.Hour // timewExport's
	// importNear: a time literal this close to the sample's start is the
	// sample's (its start, its end, an overlap window); the service's
	// clock and the key's expiry lie days after it (importSection)
	importNear = 6 * time.Hour
)

// timeLiteral is a time as bun writes it into a statement (in UTC, the
// session's zone).
var timeLiteral = regexp.MustCompile(`'(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?\+00:00)'`)

// importScript makes the pgbench script of one imported interval's create
// from the statements the service ran for it (res its answer, rec the
// record): the create's script (scriptOf), with the record's source_ref,
// key and times made those of the transaction's slot, so that each
// transaction inserts a new event, its history row and its
// Idempotency-Key's row, as each of the importer's creates does. The
// title, the tags and the recorded answer stay the sample's.
func importScript(stmts []string, res *http.Response, rec importer.Record) (string, error) {
	ref, key, start := "", rec.Key(), rec.Create.StartedAt
	if rec.Create.SourceRef != nil {
		ref = *rec.Create.SourceRef
	}
	if !strings.Contains(ref, ":") || key == "" || start == nil {
		return "", fmt.Errorf("the sample (source_ref %q, key %q) is not an imported interval", ref, key)
	}
	script, err := scriptOf(stmts, res)
	if err != nil {
		return "", err
	}
	if !strings.Contains(script, `INSERT INTO "events"`) {
		return "", errors.New("the captured statements insert no event")
	}
	for _, want := range []string{ref, key} {
		if !strings.Contains(script, want) {
			return "", fmt.Errorf("the captured statements do not hold %q: each pgbench transaction would insert the same row", want)
		}
	}
	if strings.Contains(script, ":"+importVar) || strings.Contains(script, ":"+importCounter) {
		return "", errors.New("the captured statements already hold the script's variables")
	}
	script = strings.ReplaceAll(script, ref, importRefFmt)
	script = strings.ReplaceAll(script, key, importKeyFmt)
	moved := 0
	script = timeLiteral.ReplaceAllStringFunc(script, func(lit string) string {
		t, err := time.Parse("2006-01-02 15:04:05.999999-07:00", timeLiteral.FindStringSubmatch(lit)[1])
		if err != nil || t.Sub(*start).Abs() > importNear {
			return lit
		}
		moved++
		return fmt.Sprintf("(%s::timestamptz + :%s * interval '%d hours')", lit, importVar, int(importSlot.Hours()))
	})
	if moved == 0 {
		return "", fmt.Errorf("the captured statements hold no time near the sample's start %v", start.UTC())
	}
	return fmt.Sprintf("\\set %s :%s\n\\set %s :%s + 1\n", importVar, importCounter, importCounter, importCounter) + script, nil
}

// timewInterval is an interval as `timew export` writes it.
type timewInterval struct {
	ID         int      `json:"id"`
	Start      string   `json:"start"`
	End        string   `json:"end"`
	Tags       []string `json:"tags,omitempty"`
	Annotation string   `json:"annotation,omitempty"`
}

// timewExport is a `timew export` of n closed intervals, oldest first, the
// last ending before end (the service's clock): one in each two-hour slot
// back from end, starting up to 29 minutes into it and lasting 15 to 89
// minutes, so that no two share a start (each is a new source_ref) and
// none overlaps another, as Timewarrior keeps them. Tags, sorted as
// Timewarrior sorts them, and annotations in English and Korean; a third
// have no annotation and take their tags as the title.
func timewExport(n int, end time.Time) []byte {
	const layout = "20060102T150405Z"
	tags := [][]string{{"work"}, {"code", "work"}, {"home"}, {"health"}, {"meeting", "work"}, {"work", "회의"}}
	notes := []string{"standup", "code review", "회의 준비", "email", "주간 점검", "deploy"}
	first := end.UTC().Truncate(time.Minute).Add(-time.Duration(n) * 2 * time.Hour)
	var b bytes.Buffer
	b.WriteString("[\n")
	for i := range n {
		start := first.Add(time.Duration(i)*2*time.Hour + time.Duration(i*7%30)*time.Minute)
		iv := timewInterval{ID: n - i, Start: start.Format(layout), End: start.Add(time.Duration(15+i*37%75) * time.Minute).Format(layout),
			Tags: tags[i%len(tags)]}
		if i%3 != 0 {
			iv.Annotation = notes[i%len(notes)]
		}
		line, _ := json.Marshal(iv) // a struct of strings: cannot fail
		b.Write(line)
		if i < n-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return b.Bytes()
}

// importTable is the section's table, its columns the main table's where
// they mean the same (so that againstPrevious compares its ratios), and a
// sentence on what each pair did.
func importTable(n int, pairs []pair, runs []importRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Import\n\n`events import --from timew FILE` of %s closed intervals (a generated `timew export`, one each two hours back from the service's clock), "+
		"a process a run, one create at a time with its Idempotency-Key, against pgbench running the statements of one such create from one client %s times, "+
		"a new source_ref and key each time; %d pairs, each side's rows deleted after it. "+
		"The import's rate is over the process's whole wall time; the client's CPU counts on neither side.\n\n",
		thousands(n), thousands(n), len(pairs))
	b.WriteString("| scenario | import records/s | pgbench records/s | throughput ratio | CPU ratio | same pace | CPU ms/record: service + PostgreSQL | PostgreSQL under pgbench | same pace | client CPU ms/record | wall s | peak RSS MiB: service / client |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	s := &scenario{script: "import"} // for the cells: a scenario with a script
	med := func(f func(pair) float64) float64 { return median(pairs, f) }
	pg, pgCPU := pgbenchCells(s, med(func(p pair) float64 { return p.pg }), med(func(p pair) float64 { return p.pgCPU }))
	var rss, clientRSS int64
	for i := range pairs {
		rss, clientRSS = max(rss, pairs[i].rssKiB), max(clientRSS, runs[i].rssKiB)
	}
	fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %.3f + %.3f | %s | %s | %.3f | %.1f | %.1f / %.1f |\n", importName(n),
		perSecond(med(func(p pair) float64 { return p.svc })), pg,
		spread(pairs, pair.ratio), spread(pairs, pair.cpuRatio), spread(pairs, pair.pacedRatio),
		med(func(p pair) float64 { return p.svcCPU }), med(func(p pair) float64 { return p.dbCPU }), pgCPU,
		cpuCell(s, med(func(p pair) float64 { return p.pacedCPU })),
		median(runs, func(r importRun) float64 { return ms(r.cpu) / float64(n) }),
		median(runs, func(r importRun) float64 { return r.wall.Seconds() }),
		float64(rss)/1024, float64(clientRSS)/1024)
	fmt.Fprintf(&b, "\nEvery run created %s events and refused none.\n", thousands(n))
	return b.String()
}
