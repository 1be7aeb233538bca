// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"events/app"
	"events/internal/dbtest"
	"events/internal/pgcluster"
	"events/migrations"
)

// pgClient runs one of PostgreSQL's client programs against dsn and
// returns its standard output.
func pgClient(t *testing.T, dsn, program string, args ...string) string {
	t.Helper()
	bin, err := pgcluster.FindBinaries()
	if err != nil {
		t.Fatal(err)
	}
	env, err := clientEnv(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, program), args...)
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", program, args, err, stderr.String())
	}
	return string(out)
}

// dumpText is what pg_dump args writes of a database, without the random
// key of its \restrict lines.
func dumpText(t *testing.T, dsn string, args ...string) string {
	t.Helper()
	var keep []string
	for _, line := range strings.Split(pgClient(t, dsn, "pg_dump", args...), "\n") {
		if !strings.HasPrefix(line, `\restrict `) && !strings.HasPrefix(line, `\unrestrict `) {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// snapshot is the whole of a database, its schema and its rows.
func snapshot(t *testing.T, dsn string) string {
	t.Helper()
	return dumpText(t, dsn, "--no-owner")
}

// schemaOf is the schema of a database, without owners.
func schemaOf(t *testing.T, dsn string) string {
	t.Helper()
	return dumpText(t, dsn, "--schema-only", "--no-owner")
}

// execSQL runs SQL statements on dsn.
func execSQL(t *testing.T, dsn string, stmts ...string) {
	t.Helper()
	db, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.ExecContext(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// craftedArchive makes a database with our schema and one event, lets
// craft change it, and dumps it with pg_dump -Fc, as a backup would be.
// In the statements of craft, {db} is the database's name: a crafted
// object that is to run only where it is restored compares it.
func craftedArchive(t *testing.T, craft ...string) string {
	t.Helper()
	dsn := dbtest.NewURL(t)
	stmts := []string{`INSERT INTO events (kind, status, title) VALUES ('task', 'planned', 'kept')`}
	db, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	var name string
	err = db.QueryRowContext(context.Background(), "SELECT current_database()").Scan(&name)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range craft {
		stmts = append(stmts, strings.ReplaceAll(s, "{db}", name))
	}
	execSQL(t, dsn, stmts...)
	file := filepath.Join(t.TempDir(), "crafted.dump")
	pgClient(t, dsn, "pg_dump", "--format=custom", "--file="+file)
	return file
}

// markerDir is a folder the server's user (postgres, when the tests run as
// root) may write into: a crafted object that ran leaves a file there.
func markerDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "events-marker")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func assertNothingRan(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("a crafted object ran during the restore: it made %s", e.Name())
	}
}

// TestRestoreRefusesObjectsTheMigrationsDoNotCreate: an archive of our
// schema plus a function that runs a shell command (COPY ... TO PROGRAM),
// a materialized view whose refresh calls it, a view and a trigger is
// refused with the names of the four, before anything runs: no file
// appears, and the target database, on which the service runs, is
// unchanged to the last row, with no scratch database left behind.
func TestRestoreRefusesObjectsTheMigrationsDoNotCreate(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	marks := markerDir(t)
	file := craftedArchive(t,
		`CREATE FUNCTION pwn() RETURNS int LANGUAGE plpgsql AS $$
		BEGIN
			IF current_database() <> '{db}' THEN
				COPY (SELECT 1) TO PROGRAM 'touch `+marks+`/shell-command-ran';
			END IF;
			RETURN 1;
		END $$`,
		`CREATE MATERIALIZED VIEW pwned AS SELECT pwn() AS x`,
		`CREATE VIEW pwned_view AS SELECT pwn() AS x`,
		`CREATE FUNCTION pwn_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pwn(); RETURN NEW; END $$`,
		`CREATE TRIGGER pwn_on_insert BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION pwn_row()`,
	)

	data := dataDir(t)
	start(t, "EVENTS_DATA_DIR="+data) // migrated, without events
	target := embeddedURL(t, filepath.Join(data, "postgres"))
	execSQL(t, target, `INSERT INTO login_attempts (client, window_start, failures) VALUES ('192.0.2.1', now(), 2)`)
	before := snapshot(t, target)

	err, out := runCommand(t, []string{"EVENTS_DATA_DIR=" + data}, "restore", file)
	assertNothingRan(t, marks)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("the restore of a crafted archive: %v\n%s", err, out)
	}
	for _, want := range []string{"events: refusing to restore: " + file + " holds what the events migrations do not create (none of it ran, no row was written): ",
		"FUNCTION public pwn()", "MATERIALIZED VIEW public pwned", "MATERIALIZED VIEW DATA public pwned",
		"VIEW public pwned_view", "FUNCTION public pwn_row()", "TRIGGER public events pwn_on_insert"} {
		if !strings.Contains(out, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, out)
		}
	}
	assertLinesOnce(t, out)
	if strings.Contains(out, "TABLE public events;") || strings.Contains(out, "pg_trgm") {
		t.Errorf("the refusal names objects the migrations create:\n%s", out)
	}
	if after := snapshot(t, target); after != before {
		t.Errorf("the refused restore changed the target:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	db, err := app.OpenDB(target, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var left []string
	if err := db.NewSelect().Table("pg_database").Column("datname").Where("datname LIKE 'events_restore%'").Scan(context.Background(), &left); err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("scratch databases left behind: %v", left)
	}
}

// TestRestoreRunsNoDefinitionOfTheArchive: an archive that holds only
// what the migrations create, but whose events table checks each row with
// a call that writes a large object, and whose history trigger's function
// runs a shell command, restores its rows into the tables the migrations
// made: the check never runs, the target keeps the migration's constraint
// and trigger function, and a DELETE of history meets the migration's
// refusal, not the shell command. Its GRANTs to PUBLIC are not applied.
func TestRestoreRunsNoDefinitionOfTheArchive(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	marks := markerDir(t)
	file := craftedArchive(t,
		`ALTER TABLE events DROP CONSTRAINT calendar_event_has_start`,
		`ALTER TABLE events ADD CONSTRAINT calendar_event_has_start CHECK (CASE WHEN current_database() = '{db}' THEN true
			ELSE lo_from_bytea(4242, 'the check ran'::bytea) > 0 END)`,
		`CREATE OR REPLACE FUNCTION event_history_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN COPY (SELECT 1) TO PROGRAM 'touch `+marks+`/function-ran'; RETURN NULL; END $$`,
		`GRANT ALL ON events, event_history, sessions TO PUBLIC`,
	)
	data := dataDir(t)
	if err, out := runCommand(t, []string{"EVENTS_DATA_DIR=" + data}, "restore", file); err != nil {
		t.Fatalf("events restore: %v\n%s", err, out)
	}
	assertNothingRan(t, marks)
	s := start(t, "EVENTS_DATA_DIR="+data)
	code, body := get(t, s.base+"/api/events/1")
	if code != http.StatusOK || !strings.Contains(body, `"title":"kept"`) {
		t.Errorf("the restored event: %d %s", code, body)
	}
	schema := pgClient(t, embeddedURL(t, filepath.Join(data, "postgres")), "pg_dump", "--schema-only")
	if strings.Contains(schema, "lo_from_bytea") || strings.Contains(schema, "TO PROGRAM") {
		t.Errorf("the archive's definitions reached the target:\n%s", schema)
	}
	if !strings.Contains(schema, "CONSTRAINT calendar_event_has_start CHECK (((kind <> 'calendar_event'::public.event_kind) OR (start_at IS NOT NULL)))") {
		t.Errorf("the target lacks the migration's constraint:\n%s", schema)
	}
	// The migration's trigger holds: history stays append-only.
	db, err := app.OpenDB(embeddedURL(t, filepath.Join(data, "postgres")), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), "DELETE FROM event_history"); err == nil || !strings.Contains(err.Error(), "event_history rows are facts") {
		t.Errorf("a DELETE of history after the restore: %v", err)
	}
	var objects int
	if err := db.QueryRowContext(context.Background(), "SELECT count(*) FROM pg_largeobject_metadata").Scan(&objects); err != nil || objects != 0 {
		t.Errorf("%d large objects after the restore (%v): the archive's check ran", objects, err)
	}
	var granted int
	if err := db.QueryRowContext(context.Background(), "SELECT count(*) FROM pg_class WHERE relacl IS NOT NULL AND relnamespace = 'public'::regnamespace").Scan(&granted); err != nil || granted != 0 {
		t.Errorf("%d tables with the archive's privileges after the restore (%v)", granted, err)
	}
	assertNothingRan(t, marks)
}

// TestRestoreRefusesRowsOfAnotherSchema: an archive whose database has
// a migration this binary does not know, or whose events table has a
// column the migrations do not make, is refused with a sentence that says
// which, and nothing is written.
func TestRestoreRefusesRowsOfAnotherSchema(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	newer := craftedArchive(t, `INSERT INTO bun_migrations (name, group_id) VALUES ('29991231000000', 9)`)
	wider := craftedArchive(t, `ALTER TABLE events ADD COLUMN extra text DEFAULT 'x'`)
	restoresRefused(t, map[string]string{
		newer: "events: refusing to restore: " + newer + " was written by a newer events (its database has the migration 29991231000000, which this one does not know): restore it with that version\n",
		wider: "events: refusing to restore: " + wider + " holds rows for a table this version of events does not have, or not with these columns (none of it ran, no row was written): COPY public.events (id, kind, ",
	})
}

// restoresRefused restores each archive into one empty data folder and
// wants each refused (exit 1) with its sentence, and the folder's database
// empty afterwards.
func restoresRefused(t *testing.T, says map[string]string) {
	t.Helper()
	data := dataDir(t)
	for file, want := range says {
		err, out := runCommand(t, []string{"EVENTS_DATA_DIR=" + data}, "restore", file)
		if exitCode(err) != 1 || !strings.Contains(out, want) {
			t.Errorf("events restore: %v\n%s\nwant it to say:\n%s", err, out, want)
		}
	}
	s := start(t, "EVENTS_DATA_DIR="+data)
	if code, body := get(t, s.base+"/api/events"); code != http.StatusOK || !strings.Contains(body, `"items":[]`) {
		t.Errorf("events after the refusals: %d %s", code, body)
	}
}

// TestRestoreWithoutSuperuser: with DATABASE_URL naming a role that is
// neither a superuser nor allowed to create databases, the owner of an
// empty database, a restore checks the archive against that database,
// migrated, and loads the rows as that role.
func TestRestoreWithoutSuperuser(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	file := craftedArchive(t)
	admin := dbtest.NewURL(t)
	role := "events_restorer_" + strconv.Itoa(os.Getpid())
	target := role + "_db"
	execSQL(t, admin, "CREATE ROLE "+role+" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE",
		"CREATE DATABASE "+target+" OWNER "+role)
	t.Cleanup(func() {
		db, err := app.OpenDB(admin, 0)
		if err != nil {
			return
		}
		defer db.Close()
		ctx := context.Background()
		_, _ = db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+target+" WITH (FORCE)")
		_, _ = db.ExecContext(ctx, "DROP ROLE IF EXISTS "+role)
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.User, u.Path = url.User(role), "/"+target
	dsn := u.String()
	err, out := runCommand(t, []string{"DATABASE_URL=" + dsn}, "restore", file)
	if err != nil {
		t.Fatalf("events restore as %s: %v\n%s", role, err, out)
	}
	if !strings.Contains(out, "the database role may not create a scratch database") || !strings.Contains(out, "events=1") {
		t.Errorf("events restore says:\n%s", out)
	}
	if got := tableRows(t, dsn, "events"); len(got) != 1 || !strings.Contains(got[0], "kept") {
		t.Errorf("events after the restore: %v", got)
	}
}

// TestRestoreOlderBackup: an archive written before the newest migration
// (its database made by the older migrations only) restores into a new
// database, which is migrated as far as the archive, loaded, then
// migrated to this version: its schema is then the migrations' own. Into
// a database already migrated past the archive it is refused with a
// sentence.
func TestRestoreOlderBackup(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	ups, err := fs.Glob(migrations.FS, "*.up.sql")
	if err != nil || len(ups) == 0 {
		t.Fatal(ups, err)
	}
	newest, _, _ := strings.Cut(ups[len(ups)-1], "_")
	down, err := fs.ReadFile(migrations.FS, strings.Replace(ups[len(ups)-1], ".up.sql", ".down.sql", 1))
	if err != nil {
		t.Fatal(err)
	}
	file := craftedArchive(t, string(down), "DELETE FROM bun_migrations WHERE name = '"+newest+"'")

	data := dataDir(t)
	err, out := runCommand(t, []string{"EVENTS_DATA_DIR=" + data}, "restore", file)
	if err != nil || !strings.Contains(out, "events=1") {
		t.Fatalf("events restore of an older backup: %v\n%s", err, out)
	}
	s := start(t, "EVENTS_DATA_DIR="+data)
	if code, body := get(t, s.base+"/api/events/1"); code != http.StatusOK || !strings.Contains(body, `"title":"kept"`) {
		t.Errorf("the restored event: %d %s", code, body)
	}
	dsn := embeddedURL(t, filepath.Join(data, "postgres"))
	if got := tableRows(t, dsn, "bun_migrations"); len(got) == 0 || !strings.Contains(got[len(got)-1], newest) {
		t.Errorf("the migrations after the restore: %v", got)
	}
	if got, want := schemaOf(t, dsn), schemaOf(t, dbtest.NewURL(t)); got != want {
		t.Errorf("the schema after the restore is not the migrations' own:\n%s\nwant:\n%s", got, want)
	}

	// Into a database migrated to this version.
	migrated := dataDir(t)
	if err, out := runCommand(t, []string{"EVENTS_DATA_DIR=" + migrated}, "migrate"); err != nil {
		t.Fatalf("events migrate: %v\n%s", err, out)
	}
	err, out = runCommand(t, []string{"EVENTS_DATA_DIR=" + migrated}, "restore", file)
	want := "events: refusing to restore: " + file + " was written by an older events, and the embedded database in " + filepath.Join(migrated, "postgres") + " is already migrated past it (migration " + newest + "): restore into a new EVENTS_DATA_DIR or an empty database, which the restore migrates as far as the backup, loads, then migrates to this version\n"
	if exitCode(err) != 1 || !strings.HasSuffix(out, want) {
		t.Errorf("events restore of an older backup into a migrated database: %v\n%s\nwant it to end with:\n%s", err, out, want)
	}
}

// TestRestoreRefusesBrokenSequences: a backup whose sequence is set to the
// last bigint (every later create failed with 400) or behind the largest
// id (the next create collides) is refused, writing nothing; and a
// sequence at its end, however it got there, is the server's 500, not the
// request's 400.
func TestRestoreRefusesBrokenSequences(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	ended := craftedArchive(t, `SELECT setval('events_id_seq', 9223372036854775807)`)
	behind := craftedArchive(t, `INSERT INTO events (id, kind, status, title) VALUES (500, 'task', 'planned', 'explicit id')`, `SELECT setval('events_id_seq', 3)`)
	restoresRefused(t, map[string]string{
		ended:  "events: refusing to restore: " + ended + " sets the sequence events_id_seq to 9223372036854775807, within 4294967296 of its end",
		behind: "events: refusing to restore: " + behind + " sets the sequence events_id_seq to 3, not past the largest events.id, 500",
	})
}
