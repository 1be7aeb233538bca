// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"events/app"
	"events/cmd/internal/harness"
	"events/internal/dbtest"
	"events/internal/importer"
	"events/models"
)

// The generated export is what the importer reads as n new closed
// intervals: every one accepted, each with its own source_ref and key,
// none overlapping the next, all over before the service's clock.
func TestTimewExportIsNewIntervalsBeforeTheClock(t *testing.T) {
	end := time.Date(2026, 11, 26, 18, 0, 0, 0, time.FixedZone("KST", 9*3600))
	zone, err := models.LoadZone("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	const n = 1000
	data := timewExport(n, end)
	p, err := importer.Parse(data, importer.Options{Zone: zone, Now: end, Name: "timew.json", ProjectTags: importProjects}) // told from the content
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != importer.FormatTimew || len(p.Records) != n || len(p.Refused) != 0 {
		t.Fatalf("parsed as %q: %d records, %d refused; want timew, %d and 0", p.Format, len(p.Records), len(p.Refused), n)
	}
	refs, keys := map[string]bool{}, map[string]bool{}
	var korean, fromTags int
	for i, r := range p.Records {
		c := r.Create
		if c.Kind != "activity_log" || c.Source == nil || *c.Source != "import" || c.StartedAt == nil || c.EndedAt == nil || c.Status != "" || r.Then != "" {
			t.Fatalf("record %d is not a closed interval: %+v", i, r)
		}
		if refs[*c.SourceRef] || keys[r.Key()] {
			t.Fatalf("record %d repeats a source_ref or key: %s", i, *c.SourceRef)
		}
		refs[*c.SourceRef], keys[r.Key()] = true, true
		if !c.EndedAt.After(*c.StartedAt) || !c.EndedAt.Before(end) {
			t.Errorf("record %d runs %v to %v; want a positive length, ended before %v", i, c.StartedAt, c.EndedAt, end)
		}
		if i > 0 && c.StartedAt.Before(*p.Records[i-1].Create.EndedAt) {
			t.Errorf("record %d starts at %v, before the one before it ends", i, c.StartedAt)
		}
		if strings.ContainsRune(c.Title, '회') {
			korean++
		}
		if c.Title == strings.Join(strings.Fields(c.Title), " ") && (c.Title == "work" || c.Title == "code work" || c.Title == "home") {
			fromTags++
		}
		if c.ProjectTag == nil || c.Title == "" {
			t.Errorf("record %d has no project or no title: %+v", i, c)
		}
	}
	if korean == 0 || fromTags == 0 {
		t.Errorf("%d Korean titles and %d titles from tags; want some of each", korean, fromTags)
	}
	if first := p.Records[0].Create.StartedAt; end.Sub(*first) > time.Duration(n)*2*time.Hour {
		t.Errorf("the first interval starts %v before the clock; want within %d two-hour slots", end.Sub(*first), n)
	}
}

// The script inserts a new event, history row and Idempotency-Key row in
// each transaction: the sample's source_ref and key become a pgbench
// variable drawn anew each time, the new id is kept for the rows after
// the event's, and nothing of the sample's identity is left.
func TestImportScriptMakesEachTransactionNew(t *testing.T) {
	start, end := time.Date(2024, 8, 16, 1, 0, 0, 0, time.UTC), time.Date(2024, 8, 16, 1, 15, 0, 0, time.UTC)
	tag, src, ref := "work", models.Source("import"), "timew:20240816T010000Z"
	rec := importer.Record{Create: importer.Create{Kind: "activity_log", Title: "work", StartedAt: &start, EndedAt: &end,
		ProjectTag: &tag, Source: &src, SourceRef: &ref}}
	key := rec.Key()
	stmts := []string{
		"BEGIN",
		"SET LOCAL statement_timeout = 9977; SELECT pg_try_advisory_xact_lock(1768187245, hashtext('none " + key + "'))",
		"SET LOCAL statement_timeout = 9976; SELECT \"idempotency_row\".\"key\" FROM \"idempotency_keys\" AS \"idempotency_row\" WHERE (credential = 'none' AND key = '" + key + "')",
		"SET LOCAL statement_timeout = 9976; SELECT e.id FROM events AS e WHERE e.span && tstzrange('2024-08-16 00:09:23.577625+00:00', '2024-08-16 00:24:23.577625+00:00', '[)') AND coalesce(e.ended_at, '2026-11-27 09:00:06.842729+00:00') > e.started_at LIMIT 50",
		"SET LOCAL statement_timeout = 9975; INSERT INTO \"events\" AS \"e\" (\"id\", \"kind\", \"started_at\", \"ended_at\", \"source\", \"source_ref\", \"created_at\") VALUES (DEFAULT, 'activity_log', '2024-08-16 01:00:00+00:00', '2024-08-16 01:15:00+00:00', 'import', '" + ref + "', '2026-11-27 09:00:06.842729+00:00') ON CONFLICT (source, source_ref) WHERE source IS NOT NULL DO NOTHING RETURNING id",
		"SET LOCAL statement_timeout = 9975; INSERT INTO \"event_history\" (\"id\", \"event_id\", \"change_kind\", \"changes\") VALUES (DEFAULT, 100003, 'create', '{\"source_ref\":\"" + ref + "\"}')",
		"SET LOCAL statement_timeout = 9974; INSERT INTO \"idempotency_keys\" (\"credential\", \"key\", \"event_id\", \"location\", \"etag\", \"created_at\") VALUES ('none', '" + key + "', 100003, '/api/events/100003', '\"100003.1795770006842729\"', '2026-11-27 09:00:06.839203+00:00')",
		"COMMIT",
		"SET LOCAL statement_timeout = 9972; DELETE FROM idempotency_keys WHERE created_at <= '2026-11-26 09:00:06.839203+00:00'",
	}
	res := &http.Response{Header: http.Header{"Location": {"/api/events/100003"}}}
	script, err := importScript(stmts, res, rec)
	if err != nil {
		t.Fatal(err)
	}
	if head := "\\set import_slot :import_n\n\\set import_n :import_n + 1\nBEGIN;\n"; !strings.HasPrefix(script, head) {
		t.Errorf("the script does not begin with %q:\n%s", head, script)
	}
	for _, gone := range []string{ref, key, "100003,", "/100003'", "'2024-08-16 01:00:00+00:00',", "'2024-08-16 00:24:23.577625+00:00')"} {
		if strings.Contains(script, gone) {
			t.Errorf("the script still holds %q:\n%s", gone, script)
		}
	}
	moved := func(ts string) string {
		return "('" + ts + "+00:00'::timestamptz + :import_slot * interval '2 hours')"
	}
	for _, want := range []string{
		"hashtext('none import-bench-:import_slot')",
		"key = 'import-bench-:import_slot')",
		"tstzrange(" + moved("2024-08-16 00:09:23.577625") + ", " + moved("2024-08-16 00:24:23.577625") + ", '[)')",
		// the service's clock stays
		"coalesce(e.ended_at, '2026-11-27 09:00:06.842729+00:00')",
		"VALUES (DEFAULT, 'activity_log', " + moved("2024-08-16 01:00:00") + ", " + moved("2024-08-16 01:15:00") + ", 'import', 'timew-:import_slot', '2026-11-27 09:00:06.842729+00:00') ON CONFLICT",
		"RETURNING id\n\\gset\n",
		`'{"source_ref":"timew-:import_slot"}'`,
		"('none', 'import-bench-:import_slot', :id, '/api/events/:id', '\":id.1795770006842729\"', '2026-11-27 09:00:06.839203+00:00')",
		"created_at <= '2026-11-26 09:00:06.839203+00:00'",
		`SET LOCAL statement_timeout = 9975 \; INSERT INTO "events"`,
	} {
		if !strings.Contains(script, want) {
			t.Errorf("the script lacks %q:\n%s", want, script)
		}
	}

	// statements that do not name the record would insert one row
	// again and again, or leave its times where they are: refused
	for name, bad := range map[string][]string{
		"no source_ref": {stmts[0], stmts[1], strings.ReplaceAll(stmts[4], ref, "other"), stmts[7]},
		"no key":        {stmts[0], stmts[4], stmts[7]},
		"no insert":     {stmts[0], stmts[1], stmts[2], stmts[7]},
		"no time":       {stmts[0], stmts[1], strings.ReplaceAll(stmts[4], "2024-08-16", "2025-01-01"), stmts[6], stmts[7]},
	} {
		if _, err := importScript(bad, res, rec); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// pgbench's side runs one client for exactly n transactions, kept to the
// import's rate when paced.
func TestImportPgbenchArgs(t *testing.T) {
	e := &env{sockDir: "/run/pg", o: options{conns: 4}}
	got := strings.Join(importPgbenchArgs(e, "import.pgbench", 10000, 0, "log/tx"), " ")
	if want := "-n -M simple -c 1 -j 1 -t 10000 -D import_n=0 -l --log-prefix=log/tx -f import.pgbench -h /run/pg -p 5432 -U events events"; got != want {
		t.Errorf("flat out:\n got %s\nwant %s", got, want)
	}
	if got := strings.Join(importPgbenchArgs(e, "import.pgbench", 10000, 712.34, "log/tx"), " "); !strings.Contains(got, "-t 10000 -D import_n=0 -R 712.3 -l") {
		t.Errorf("paced: %s", got)
	}
}

// The service's side runs the real binary's import against a real
// service, and takes only a run that created every interval as new: a
// second run of the same file (every one already there) is an error.
// cleanup takes the import back whole, its Idempotency-Keys with its
// events, so the next run creates every interval again.
func TestRunImportCreatesEveryInterval(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	bin := filepath.Join(dir, "events")
	if out, err := exec.Command("go", "build", "-o", bin, "../events").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	url := dbtest.NewURL(t)
	db, err := app.OpenDB(url, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc, err := harness.Start(ctx, bin, harness.Options{Env: []string{"DATABASE_URL=" + url}, CPU: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Stop()
	file := filepath.Join(dir, "timew.json")
	if err := os.WriteFile(file, timewExport(40, time.Now()), 0o644); err != nil {
		t.Fatal(err)
	}
	run, err := runImport(ctx, bin, svc.Base, file, 40)
	if err != nil {
		t.Fatal(err)
	}
	if run.wall <= 0 || run.cpu <= 0 || run.rssKiB <= 0 {
		t.Errorf("the run: %+v", run)
	}
	res, err := http.Get(svc.Base + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(body), `"source_ref":"timew:`); n != 40 {
		t.Errorf("the service lists %d imported intervals; want 40", n)
	}
	if _, err := runImport(ctx, bin, svc.Base, file, 40); err == nil || !strings.Contains(err.Error(), "already there 40") {
		t.Errorf("a second run of the same file: %v; want an error quoting \"already there 40\"", err)
	}

	if err := cleanup(ctx, &env{db: db}); err != nil { // a seed of no events: every row is the import's
		t.Fatal(err)
	}
	var events, keys int
	if err := db.NewRaw("SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM idempotency_keys)").Scan(ctx, &events, &keys); err != nil {
		t.Fatal(err)
	}
	if events != 0 || keys != 0 {
		t.Errorf("after cleanup: %d events and %d Idempotency-Keys; want none", events, keys)
	}
	if _, err := runImport(ctx, bin, svc.Base, file, 40); err != nil {
		t.Errorf("a run after cleanup: %v", err)
	}
}

// The import's row reads as the main table's do: medians with their
// spread, so a later run compares its ratios with this one's.
func TestImportTableIsReadAsTheOthers(t *testing.T) {
	pairs := []pair{
		{svc: 100, pg: 200, svcCPU: 1.2, dbCPU: 1.8, pgCPU: 1.5, pacedCPU: 1.8, rssKiB: 30 * 1024},
		{svc: 150, pg: 250, svcCPU: 1.0, dbCPU: 2.0, pgCPU: 1.8, pacedCPU: 2.1, rssKiB: 36 * 1024},
	}
	runs := []importRun{{wall: 100 * time.Second, cpu: 2 * time.Second, rssKiB: 31 * 1024}, {wall: 66 * time.Second, cpu: 3 * time.Second, rssKiB: 30 * 1024}}
	table := importTable(10_000, pairs, runs)
	row := "| `events import` of 10,000 Timewarrior intervals | 125 | 225 | 55% (50–60) | 55% (50–60) | 65% (60–70) | 1.100 + 1.900 | 1.650 | 1.950 | 0.250 | 83.0 | 36.0 / 31.0 |"
	if !strings.Contains(table, row) {
		t.Errorf("the table lacks\n%s\n%s", row, table)
	}
	_, ratios, _ := readRatios(table)
	if got := ratios[importName(10_000)]; got != [2]int{55, 55} {
		t.Errorf("readRatios: %v; want 55 and 55", got)
	}
}

// With -scenarios import the main table has no scenario: the report says
// so instead of drawing a table without rows.
func TestReportWithoutScenariosSaysSo(t *testing.T) {
	e := &env{db: dbtest.New(t), o: options{events: 100, pairs: 1, slices: 1, step: time.Second}}
	got := report(e, pick(scenarios(), importKey), nil, 0, "0 0 0")
	if !strings.Contains(got, "None of the table's scenarios was asked for (-scenarios).") || strings.Contains(got, "| scenario |") {
		t.Errorf("the report:\n%s", got)
	}
}
