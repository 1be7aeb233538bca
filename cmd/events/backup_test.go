// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"events/app"
)

// runCommand runs `events args...` with env on top of a clean environment
// and returns its exit error and what it wrote.
func runCommand(t *testing.T, env []string, args ...string) (error, string) {
	t.Helper()
	return runCommandIn(t, "", env, args...)
}

// runCommandIn is runCommand in the folder dir.
func runCommandIn(t *testing.T, dir string, env []string, args ...string) (error, string) {
	t.Helper()
	cmd := exec.Command(build(t), args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return err, out.String()
}

// tableRows reads every row of table, in id order, as text. An event's
// change position (change_xid, change_seq) is left out: it is the writing
// transaction's id in its own cluster, which a restore into another
// cluster gives anew, as it must (an id from the old cluster could lie
// ahead of every transaction of the new one, and sync would never list
// the row).
func tableRows(t *testing.T, dsn, table string) []string {
	t.Helper()
	db, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	row := "t::text"
	if table == "events" {
		row = "(to_jsonb(t) - 'change_xid' - 'change_seq')::text"
	}
	rows, err := db.Query("SELECT " + row + " FROM " + table + " t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBackupRestore: events backup, while the service runs on its embedded
// database, writes an archive that events restore loads into a fresh
// database: every row of events and event_history is the same, the service
// started on it answers the same event, and new ids follow the old ones. A
// restore into a database that holds events is refused with one sentence.
func TestBackupRestore(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	dataA, dataB := dataDir(t), dataDir(t)
	a := start(t, "EVENTS_DATA_DIR="+dataA)
	var last string
	for i := range 6 {
		code, _, body := post(t, a.base+"/api/events", fmt.Sprintf(`{"kind":"task","title":"backed up %d","description":"한국어 %d"}`, i, i))
		if code != http.StatusCreated {
			t.Fatalf("create: %d %s", code, body)
		}
		last = strings.SplitN(strings.SplitN(body, `"id":`, 2)[1], ",", 2)[0]
		for _, op := range []string{"complete", "reactivate", "cancel"}[:i%4] {
			if code, _, body := post(t, a.base+"/api/events/"+last+"/"+op, ""); code != http.StatusOK {
				t.Fatalf("%s: %d %s", op, code, body)
			}
		}
	}
	file := filepath.Join(t.TempDir(), "events.dump")
	if err, out := runCommand(t, []string{"EVENTS_DATA_DIR=" + dataA}, "backup", "-o", file); err != nil {
		t.Fatalf("events backup while the service runs: %v\n%s", err, out)
	} else if !strings.Contains(out, "backup written") {
		t.Errorf("events backup says:\n%s", out)
	} else {
		assertLinesOnce(t, out)
	}
	if a.cmd.ProcessState != nil {
		t.Fatal("the service stopped during the backup")
	}
	urlA := embeddedURL(t, filepath.Join(dataA, "postgres"))
	wantEvents, wantHistory := tableRows(t, urlA, "events"), tableRows(t, urlA, "event_history")
	if len(wantEvents) != 6 || len(wantHistory) < 9 {
		t.Fatalf("%d events, %d history rows", len(wantEvents), len(wantHistory))
	}

	// Nothing to back up in a data folder without a database.
	if err, out := runCommand(t, []string{"EVENTS_DATA_DIR=" + dataB}, "backup", "-o", file+".empty"); err == nil ||
		!strings.Contains(out, "there is no database to back up in "+filepath.Join(dataB, "postgres")) {
		t.Errorf("a backup of an empty data folder: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dataB, "postgres")); !os.IsNotExist(err) {
		t.Errorf("the refused backup made a cluster: %v", err)
	}

	if err, out := runCommand(t, []string{"EVENTS_DATA_DIR=" + dataB}, "restore", file); err != nil {
		t.Fatalf("events restore into a fresh database: %v\n%s", err, out)
	} else {
		assertLinesOnce(t, out)
	}
	b := start(t, "EVENTS_DATA_DIR="+dataB)
	urlB := embeddedURL(t, filepath.Join(dataB, "postgres"))
	for _, c := range []struct {
		table string
		want  []string
	}{{"events", wantEvents}, {"event_history", wantHistory}} {
		got := tableRows(t, urlB, c.table)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s after the restore:\n%s\nwant:\n%s", c.table, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
	_, fromA := get(t, a.base+"/api/events/"+last)
	if code, fromB := get(t, b.base+"/api/events/"+last); code != http.StatusOK || fromB != fromA {
		t.Errorf("event %s: %d %s; before the backup: %s", last, code, fromB, fromA)
	}
	code, _, body := post(t, b.base+"/api/events", `{"kind":"task","title":"after the restore"}`)
	if code != http.StatusCreated || !strings.Contains(body, `"id":7,`) {
		t.Errorf("a create after the restore: %d %s; want id 7", code, body)
	}

	// Into a database that holds events (the running service's): refused.
	err, out := runCommand(t, []string{"EVENTS_DATA_DIR=" + dataB}, "restore", file)
	if err == nil {
		t.Fatalf("a restore into a database with events succeeded:\n%s", out)
	}
	want := "events: refusing to restore: the embedded database in " + filepath.Join(dataB, "postgres") + " already holds 7 events, and a restore goes only into a database without any (use a new EVENTS_DATA_DIR or an empty DATABASE_URL)\n"
	if !strings.HasSuffix(out, want) {
		t.Errorf("the refusal says:\n%s\nwant it to end with:\n%s", out, want)
	}
	if got := tableRows(t, urlB, "events"); len(got) != 7 {
		t.Errorf("%d events after the refused restore, want 7", len(got))
	}
}

// exitCode is the exit status of a finished command: 0 for no error, -1
// when it did not run.
func exitCode(err error) int {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	return -1
}

// assertLinesOnce fails when the output of a command holds a line twice.
func assertLinesOnce(t *testing.T, out string) {
	t.Helper()
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		// a log line's time differs; what it says must not repeat
		if _, rest, ok := strings.Cut(line, " level="); ok {
			line = rest
		}
		if seen[line] {
			t.Errorf("a line is printed twice:\n%s", out)
		}
		seen[line] = true
	}
}

// TestBackupFiles: events backup without -o writes
// backups/events-<UTC time>.dump, making the folder with mode 0700; every
// backup is written with mode 0600, and its output holds each line once.
func TestBackupFiles(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	data, work := dataDir(t), t.TempDir()
	env := []string{"EVENTS_DATA_DIR=" + data}
	if err, out := runCommand(t, env, "migrate"); err != nil {
		t.Fatalf("events migrate: %v\n%s", err, out)
	}
	err, out := runCommandIn(t, work, env, "backup")
	if err != nil {
		t.Fatalf("events backup: %v\n%s", err, out)
	}
	assertLinesOnce(t, out)
	folder := filepath.Join(work, "backups")
	if fi, err := os.Stat(folder); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the folder of backups: %v %v", fi, err)
	}
	files, _ := filepath.Glob(filepath.Join(folder, "*"))
	if len(files) != 1 || !regexp.MustCompile(`/backups/events-\d{8}-\d{6}\.dump$`).MatchString(files[0]) {
		t.Fatalf("in backups/: %v", files)
	}
	if !strings.Contains(out, "file="+filepath.Join("backups", filepath.Base(files[0]))) {
		t.Errorf("the backup does not name its file:\n%s", out)
	}
	// -o over a file that others may read: replaced by one they may not.
	named := filepath.Join(work, "named.dump")
	if err := os.WriteFile(named, []byte("an older backup"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err, out := runCommand(t, env, "backup", "-o", named); err != nil {
		t.Fatalf("events backup -o: %v\n%s", err, out)
	}
	for _, f := range []string{files[0], named} {
		if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v, want mode 0600", f, fi, err)
		}
	}
	if all, _ := filepath.Glob(filepath.Join(work, "*")); len(all) != 2 {
		t.Errorf("in the folder after two backups: %v", all)
	}
	// The database holds no events: the backup goes back into it.
	if err, out := runCommandIn(t, work, env, "restore", named); err != nil || !strings.Contains(out, "backup restored") {
		t.Errorf("a restore into the database it came from: %v\n%s", err, out)
	} else {
		assertLinesOnce(t, out)
	}
}

// TestBackupRestoreUsage: a command line that does not parse exits 2 with
// one sentence that says how to call the command, printed once.
func TestBackupRestoreUsage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"restore"}, "events: usage: events restore FILE, where FILE is a backup written by events backup\n"},
		{[]string{"restore", "a.dump", "b.dump"}, "events: usage: events restore FILE, where FILE is a backup written by events backup\n"},
		{[]string{"restore", "-x"}, "events: usage: events restore FILE, where FILE is a backup written by events backup\n"},
		{[]string{"backup", "-x"}, "events: flag provided but not defined: -x; usage: events backup [-o FILE]\n"},
		{[]string{"backup", "-o"}, "events: flag needs an argument: -o; usage: events backup [-o FILE]\n"},
		{[]string{"backup", "extra"}, "events: unexpected argument \"extra\"; usage: events backup [-o FILE]\n"},
	} {
		err, out := runCommand(t, nil, c.args...)
		if code := exitCode(err); code != 2 || out != c.want {
			t.Errorf("events %s: exit %d, said:\n%s\nwant exit 2 and:\n%s", strings.Join(c.args, " "), code, out, c.want)
		}
	}
	if err, out := runCommand(t, nil, "backup", "-h"); err != nil || !strings.HasPrefix(out, "usage: events backup [-o FILE]\n") {
		t.Errorf("events backup -h: %v\n%s", err, out)
	}
}
