// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"events/internal/dbtest"
)

// smallDisk mounts a tmpfs of size bytes for the test when it runs as root
// (a disk that can really fill up); elsewhere it returns a temporary
// folder and false.
func smallDisk(t *testing.T, size int) (string, bool) {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() != 0 {
		return dir, false
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d,mode=0755", size), "tmpfs", dir).CombinedOutput(); err != nil {
		t.Logf("cannot mount a small disk (%v: %s)", err, out)
		return dir, false
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir, true
}

// fillDisk writes a file into dir until its disk is full and returns the file.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	file := filepath.Join(dir, "filler")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return file
		}
	}
}

// waitLog waits until the logs of the servers hold want at least n times
// in all, and returns how many; the machine may be busy, so it waits up to
// two minutes.
func waitLog(t *testing.T, want string, n int, servers ...*server) int {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		got := 0
		for _, s := range servers {
			got += strings.Count(s.Logs(), want)
		}
		if got >= n {
			return got
		}
		if time.Now().After(deadline) {
			for _, s := range servers {
				t.Logf("server log:\n%s", s.Logs())
			}
			t.Fatalf("%q logged %d times in two minutes, want %d", want, got, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// readyBackup reads the backup part of /readyz.
func readyBackup(t *testing.T, base string) (status int, b struct {
	Every int64   `json:"every_seconds"`
	Last  *string `json:"last"`
	Age   *int64  `json:"age_seconds"`
	Stale bool    `json:"stale"`
}) {
	t.Helper()
	code, body := get(t, base+"/readyz")
	var r struct {
		Backup *json.RawMessage `json:"backup"`
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil || r.Backup == nil {
		t.Fatalf("/readyz: %d %s", code, body)
	}
	if err := json.Unmarshal(*r.Backup, &b); err != nil {
		t.Fatal(err)
	}
	return code, b
}

// TestScheduledBackups: two instances on one external PostgreSQL, with a
// backup folder that does not exist yet and an interval of a second, take
// turns: the folder is made 0700, each backup is 0600 and logged with its
// size, at most EVENTS_BACKUP_KEEP are kept, /readyz shows the newest, and
// a restore of the newest gives the same rows. When the disk is full, the
// failed backup is logged and retried, a WARN says the newest is stale,
// the service goes on serving, and the backups resume when there is room.
func TestScheduledBackups(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	disk, small := smallDisk(t, 4<<20)
	dir := filepath.Join(disk, "backups")
	dsn := dbtest.NewURL(t)
	env := []string{"DATABASE_URL=" + dsn, "EVENTS_BACKUP_DIR=" + dir, "EVENTS_BACKUP_EVERY=1s", "EVENTS_BACKUP_KEEP=3"}
	a := start(t, env...)
	for i := range 5 {
		if code, _, body := post(t, a.base+"/api/events", fmt.Sprintf(`{"kind":"task","title":"backed up %d","description":"한국어 %d"}`, i, i)); code != http.StatusCreated {
			t.Fatalf("create: %d %s", code, body)
		}
	}
	b := start(t, env...)
	waitLog(t, "backup written", 5, a, b)
	waitLog(t, "old backup deleted", 2, a, b)

	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("the backup folder has mode %v, want 0700", fi.Mode().Perm())
	}
	if !strings.Contains(a.Logs()+b.Logs(), "bytes=") {
		t.Errorf("no backup logged its size:\n%s", a.Logs())
	}
	code, rb := readyBackup(t, a.base)
	if code != http.StatusOK || rb.Last == nil || rb.Age == nil || rb.Every != 1 {
		t.Errorf("/readyz after backups: %d %+v", code, rb)
	}

	// The last backup runs while the instances stop; then the folder is still.
	for _, s := range []*server{a, b} {
		if err := s.stop(t, syscall.SIGTERM); err != nil {
			t.Fatalf("stop: %v\n%s", err, s.Logs())
		}
	}
	files := backupFiles(dir)
	if len(files) != 3 {
		t.Errorf("%d backups kept, want EVENTS_BACKUP_KEEP=3: %v", len(files), files)
	}
	var prev time.Time
	for _, n := range files {
		fi, err := os.Stat(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", n, fi.Mode().Perm())
		}
		if !prev.IsZero() && fi.ModTime().Sub(prev) < 500*time.Millisecond {
			t.Errorf("two backups in one turn of a second: %s at %v after %v", n, fi.ModTime(), prev)
		}
		prev = fi.ModTime()
	}
	if entries, _ := os.ReadDir(dir); len(entries) != len(files) {
		t.Errorf("the folder holds more than the backups (a part left behind?): %v", entries)
	}

	target := dbtest.NewURL(t)
	newest := filepath.Join(dir, files[len(files)-1])
	if err, out := runCommand(t, []string{"DATABASE_URL=" + target}, "restore", newest); err != nil {
		t.Fatalf("events restore %s: %v\n%s", newest, err, out)
	}
	for _, table := range []string{"events", "event_history"} {
		want, got := tableRows(t, dsn, table), tableRows(t, target, table)
		if len(want) < 5 || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s restored from the newest backup:\n%s\nwant:\n%s", table, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}

	if !small {
		t.Log("SKIPPED LOUDLY: a full disk needs root to mount a small one; the rest ran")
		return
	}
	filler := fillDisk(t, disk)
	c := start(t, env...)
	waitLog(t, "the scheduled backup failed", 2, c)
	waitLog(t, "older than twice EVENTS_BACKUP_EVERY", 1, c)
	if !strings.Contains(c.Logs(), "No space left on device") {
		t.Errorf("the failed backup does not say why:\n%s", c.Logs())
	}
	if code, rb := readyBackup(t, c.base); code != http.StatusOK || !rb.Stale {
		t.Errorf("/readyz while the backups fail: %d %+v, want 200 and stale", code, rb)
	}
	if code, _, body := post(t, c.base+"/api/events", `{"kind":"task","title":"written while the disk is full"}`); code != http.StatusCreated {
		t.Errorf("a create while the backups fail: %d %s", code, body)
	}
	os.Remove(filler)
	waitLog(t, "backup written", 1, c)
	if code, rb := readyBackup(t, c.base); code != http.StatusOK || rb.Last == nil {
		t.Errorf("/readyz once there is room: %d %+v", code, rb)
	}
}

// TestBackupByHandBesideAPrivateTmp: events backup by hand, beside a
// service whose socket it cannot see (as a systemd unit's PrivateTmp hides
// it; here a private mount namespace hides its folder), says why and what
// to do instead of pg_dump's "no such file or directory".
func TestBackupByHandBesideAPrivateTmp(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	if os.Geteuid() != 0 {
		t.Skip("SKIPPED LOUDLY: hiding the socket in a mount namespace of its own needs root")
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("SKIPPED LOUDLY: unshare is missing")
	}
	data := dataDir(t)
	s := start(t, "EVENTS_DATA_DIR="+data, "EVENTS_BACKUP_EVERY=off")
	sock := filepath.Dir(strings.SplitN(strings.SplitN(embeddedURL(t, filepath.Join(data, "postgres")), "host=", 2)[1], "&", 2)[0])
	file := filepath.Join(t.TempDir(), "by-hand.dump")
	cmd := exec.Command("unshare", "--mount", "--propagation", "private", "sh", "-c", `mount -t tmpfs tmpfs "$1" && exec "$2" backup -o "$3"`, "sh", sock, build(t), file)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "EVENTS_DATA_DIR=" + data}
	out, err := cmd.CombinedOutput()
	if exitCode(err) != 1 {
		t.Fatalf("a backup that cannot see the socket: %v\n%s", err, out)
	}
	for _, want := range []string{"cannot reach the database: the running events serve (process ", "which this process cannot see (a systemd unit with PrivateTmp=true",
		"the service takes its own backups (EVENTS_BACKUP_DIR, EVENTS_BACKUP_EVERY)", "nsenter --target "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("it says:\n%s\nwant %q", out, want)
		}
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the failed backup left %s: %v", file, err)
	}
	if code, _ := get(t, s.base+"/readyz"); code != http.StatusOK {
		t.Errorf("the service after the refused backup: %d", code)
	}
}
