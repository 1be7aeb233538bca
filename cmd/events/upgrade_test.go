// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptrace/bun/migrate"

	"events/internal/dbtest"
	"events/migrations"
)

// TestUpgradeBacksUpAndOldBinaryRefuses: a service that finds migrations
// to apply on a database that has some writes a backup first, named for
// the first migration it applies. A service that finds a migration it does
// not know (a fake future one, as a newer events would leave) refuses to
// serve or write, in one sentence that names both versions and the backup
// the newer one wrote before it migrated; events migrate refuses the same.
func TestUpgradeBacksUpAndOldBinaryRefuses(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	ms := migrate.NewMigrations()
	if err := ms.Discover(migrations.FS); err != nil {
		t.Fatal(err)
	}
	sorted := ms.Sorted()
	newest := sorted[len(sorted)-1]
	downs, err := fs.Glob(migrations.FS, newest.Name+"_*.down.sql")
	if err != nil || len(downs) != 1 {
		t.Fatal(downs, err)
	}
	down, err := fs.ReadFile(migrations.FS, downs[0])
	if err != nil {
		t.Fatal(err)
	}

	// The database of the release before: the newest migration undone.
	dsn := dbtest.NewURL(t)
	execSQL(t, dsn, append(strings.Split(string(down), "--bun:split"), "DELETE FROM bun_migrations WHERE name = '"+newest.Name+"'")...)
	dir := filepath.Join(t.TempDir(), "backups")
	env := []string{"DATABASE_URL=" + dsn, "EVENTS_BACKUP_DIR=" + dir}
	s := start(t, env...)
	if !strings.Contains(s.Logs(), "backup written before migrating") {
		t.Errorf("the upgrade logged no backup:\n%s", s.Logs())
	}
	before := beforeBackup(dir, newest.Name)
	if before == "" {
		t.Fatalf("no backup before migration %s in %s: %v", newest.Name, dir, backupFiles(dir))
	}
	if got := tableRows(t, dsn, "bun_migrations"); !strings.Contains(got[len(got)-1], newest.Name) {
		t.Errorf("the upgrade did not migrate: %v", got)
	}
	if code, _, body := post(t, s.base+"/api/events", `{"kind":"task","title":"written by this version"}`); code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	if err := s.stop(t, os.Interrupt); err != nil {
		t.Fatal(err)
	}

	// A newer events backs up, then applies a migration this one does not know.
	const future = "29991231000000"
	wayBack := filepath.Join(dir, "events-29991231-000000-before-"+future+".dump")
	if err, out := runCommand(t, []string{"DATABASE_URL=" + dsn}, "backup", "-o", wayBack); err != nil {
		t.Fatalf("events backup: %v\n%s", err, out)
	}
	execSQL(t, dsn, "INSERT INTO bun_migrations (name, group_id) VALUES ('"+future+"', 99)")
	wantMigrations, wantEvents := tableRows(t, dsn, "bun_migrations"), tableRows(t, dsn, "events")

	for _, args := range [][]string{{"serve"}, {"migrate"}} {
		err, out := runCommand(t, append(env, "PORT="+freePort(t)), args...)
		if exitCode(err) != 1 {
			t.Errorf("events %s on newer data: %v\n%s", args[0], err, out)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		last := lines[len(lines)-1]
		for _, want := range []string{"events: refusing to serve or write: this database was migrated on ",
			"by a newer events (its schema has migration " + future + "; this binary, events ",
			"knows migrations up to " + newest.Name + ")", "run the newer events again",
			"restore " + wayBack + " (the backup the newer one wrote before it migrated) into an empty database with events restore"} {
			if !strings.Contains(last, want) {
				t.Errorf("events %s on newer data ends with:\n%s\nwant it to say %q", args[0], last, want)
			}
		}
	}
	if got := tableRows(t, dsn, "bun_migrations"); strings.Join(got, "\n") != strings.Join(wantMigrations, "\n") {
		t.Errorf("the refusing binary changed the migrations:\n%v\nwant:\n%v", got, wantMigrations)
	}
	if got := tableRows(t, dsn, "events"); strings.Join(got, "\n") != strings.Join(wantEvents, "\n") {
		t.Errorf("the refusing binary changed the events")
	}
}
