// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"events/app"
)

// embeddedURL is the DSN of the embedded database of pgData, through the
// socket folder its postmaster.pid names.
func embeddedURL(t *testing.T, pgData string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(pgData, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 5 {
		t.Fatalf("postmaster.pid: %q", b)
	}
	return "postgres://events@/events?host=" + strings.TrimSpace(lines[4]) + "/.s.PGSQL.5432&sslmode=disable"
}

// postmasterPID reads the server's pid from postmaster.pid of the data folder.
func postmasterPID(t *testing.T, pgData string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(pgData, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.SplitN(string(b), "\n", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// post sends a JSON body and returns the status, the Retry-After header and the body.
func post(t *testing.T, target, body string) (int, string, string) {
	t.Helper()
	res, err := client.Post(target, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, "", err.Error()
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Retry-After"), string(b)
}

// waitReady polls /readyz until it answers 200 and returns how long that took from since.
func waitReady(t *testing.T, s *server, since time.Time, limit time.Duration) time.Duration {
	t.Helper()
	for time.Since(since) < limit {
		if res, err := client.Get(s.base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return time.Since(since)
			}
		}
		time.Sleep(25 * time.Millisecond)
	}
	return 0
}

// TestKilledPostmasterComesBack: kill -9 of the embedded database's
// postmaster; the service (not restarted) starts it again by itself, /readyz
// is 200 again within 10 s, the log says why with the tail of PostgreSQL's
// log, and every acknowledged event is there.
func TestKilledPostmasterComesBack(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	data := dataDir(t)
	s := start(t, "EVENTS_DATA_DIR="+data)
	var ids []string
	for i := range 5 {
		code, _, body := post(t, s.base+"/api/events", fmt.Sprintf(`{"kind":"task","title":"before the kill %d"}`, i))
		if code != http.StatusCreated {
			t.Fatalf("create: %d %s", code, body)
		}
		ids = append(ids, strings.SplitN(strings.SplitN(body, `"id":`, 2)[1], ",", 2)[0])
	}
	pid := postmasterPID(t, filepath.Join(data, "postgres"))
	killed := time.Now()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Back: a new postmaster runs and /readyz answers 200 (a pooled
	// connection may answer before the old server's backends notice).
	var back time.Duration
	for time.Since(killed) < 30*time.Second {
		if b, err := os.ReadFile(filepath.Join(data, "postgres", "postmaster.pid")); err == nil && !strings.HasPrefix(string(b), strconv.Itoa(pid)+"\n") {
			if waitReady(t, s, time.Now(), 50*time.Millisecond) > 0 {
				back = time.Since(killed)
				break
			}
		}
		time.Sleep(25 * time.Millisecond)
	}
	if back == 0 {
		t.Fatalf("/readyz not 200 within 30 s of the kill:\n%s", s.Logs())
	}
	if back > 10*time.Second {
		t.Errorf("/readyz 200 again %s after the kill, want within 10 s", back)
	}
	if s.cmd.ProcessState != nil {
		t.Fatalf("the service exited")
	}
	for _, id := range ids {
		if code, body := get(t, s.base+"/api/events/"+id); code != http.StatusOK {
			t.Errorf("event %s after the restart: %d %s", id, code, body)
		}
	}
	if code, _, body := post(t, s.base+"/api/events", `{"kind":"task","title":"after the kill"}`); code != http.StatusCreated {
		t.Errorf("create after the restart: %d %s", code, body)
	}
	s.waitLog(t, "postgres started again") // pg_ctl says so a moment after the server answers
	logs := s.Logs()
	if !strings.Contains(logs, "postgres stopped without being asked to: starting it again") ||
		!strings.Contains(logs, fmt.Sprintf("pid=%d", pid)) || !strings.Contains(logs, "log_tail=") ||
		!strings.Contains(logs, "postgres started again") {
		t.Errorf("the log does not say what happened:\n%s", logs)
	}
	t.Logf("kill -9 of the postmaster: /readyz 200 again after %s", back.Round(time.Millisecond))
}

// mountTmpfs mounts a tmpfs of size at a fresh folder, unmounted in
// cleanup. It skips loudly where it cannot (not root, no mount), and fails
// with CI=true.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := dataDir(t)
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0755", "tmpfs", dir).CombinedOutput()
	if err != nil {
		msg := fmt.Sprintf("cannot mount a %s tmpfs for the full-disk test (it needs root and mount): %v %s", size, err, strings.TrimSpace(string(out)))
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and %s", msg)
		}
		fmt.Fprintf(os.Stderr, "\n!!!!!!!!\n!!! SKIPPED: %s\n!!!!!!!!\n\n", msg)
		t.Skip("SKIPPED LOUDLY: " + msg)
	}
	t.Cleanup(func() {
		var out []byte
		for range 50 { // the server's last processes may still be ending
			if out, err = exec.Command("umount", dir).CombinedOutput(); err == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Errorf("umount %s: %v %s", dir, err, out)
		_ = exec.Command("umount", "-l", dir).Run()
	})
	return dir
}

// fill writes a file until the file system is full.
func fill(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var n int64
	for _, size := range []int{1 << 20, 4 << 10, 512} {
		chunk := make([]byte, size)
		for {
			w, err := f.Write(chunk)
			n += int64(w)
			if errors.Is(err, syscall.ENOSPC) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return n
}

// TestFullDiskAnswers503AndRecovers runs the service with its embedded
// database on a small tmpfs and fills it. Writes then answer 503 with a
// problem that says the disk is full and a Retry-After, reads go on while
// PostgreSQL runs, and once the space is freed the service recovers by
// itself; every create answered 201 is stored.
func TestFullDiskAnswers503AndRecovers(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	mnt := mountTmpfs(t, "160m")
	data := filepath.Join(mnt, "data")
	s := start(t, "EVENTS_DATA_DIR="+data)

	noise := func() string { // incompressible, so it takes its room
		b := make([]byte, 6000)
		rand.Read(b)
		return hex.EncodeToString(b)[:12000]
	}
	var acked []string
	create := func() (int, string, string) {
		code, retry, body := post(t, s.base+"/api/events", `{"kind":"task","title":"disk","description":"`+noise()+`"}`)
		if code == http.StatusCreated {
			acked = append(acked, strings.SplitN(strings.SplitN(body, `"id":`, 2)[1], ",", 2)[0])
		}
		return code, retry, body
	}
	for range 5 {
		if code, _, body := create(); code != http.StatusCreated {
			t.Fatalf("create before the disk is full: %d %s", code, body)
		}
	}
	filler := filepath.Join(mnt, "filler")
	filled := fill(t, filler)
	fullAt := time.Now()

	var diskFull503, readsOK, readsTried int
	for i := 0; i < 300 && diskFull503 < 3; i++ {
		code, retry, body := create()
		switch {
		case code == http.StatusCreated:
		case code == http.StatusServiceUnavailable:
			if !strings.Contains(body, "disk is full") || retry == "" {
				t.Errorf("a 503 while the disk is full: Retry-After %q, %s", retry, body)
			}
			if strings.Contains(body, "disk is full") {
				diskFull503++
			}
		default:
			t.Errorf("a create while the disk is full: %d %s", code, body)
		}
		if ready, _ := get(t, s.base+"/readyz"); ready == http.StatusOK {
			readsTried++
			if code, body := get(t, s.base+"/api/events?limit=5"); code == http.StatusOK {
				readsOK++
			} else {
				t.Errorf("a read while PostgreSQL runs on a full disk: %d %s", code, body)
			}
		}
	}
	if diskFull503 == 0 {
		t.Fatalf("no create answered 503 with a full disk (%d bytes filled):\n%s", filled, s.Logs())
	}
	if readsTried == 0 {
		t.Errorf("PostgreSQL never ran while the disk was full, so no read was tried")
	}

	// Then WAL needs a new segment and cannot have it: PostgreSQL stops
	// (PANIC) and cannot start again while the disk is full. Writes and
	// reads answer 503 saying the disk is full; the service keeps trying.
	direct, err := app.OpenDB(embeddedURL(t, filepath.Join(data, "postgres")), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	var walErr error
	for i := 0; i < 200 && walErr == nil; i++ {
		_, walErr = direct.Exec("SELECT pg_switch_wal(); CREATE TEMP TABLE wal_" + strconv.Itoa(i) + " (x int)")
	}
	direct.Close()
	t.Logf("forcing new WAL segments ended with: %v", walErr)
	var downFull503 int
	for began := time.Now(); time.Since(began) < 3*time.Second; time.Sleep(100 * time.Millisecond) {
		code, retry, body := create()
		switch {
		case code == http.StatusServiceUnavailable && strings.Contains(body, "disk is full") && retry != "":
			downFull503++
		case code == http.StatusCreated: // PostgreSQL came back and the row fit in a page it had
		case code != http.StatusServiceUnavailable:
			t.Errorf("a create with PostgreSQL down on a full disk: %d %s", code, body)
		}
	}
	if downFull503 == 0 {
		t.Errorf("no 503 said the disk is full while PostgreSQL was down")
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	freed := time.Now()
	var recovered time.Duration
	for time.Since(freed) < 60*time.Second {
		if code, _, _ := create(); code == http.StatusCreated {
			recovered = time.Since(freed)
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if recovered == 0 {
		t.Fatalf("no create answered 201 within 60 s of freeing the disk:\n%s", s.Logs())
	}
	if waitReady(t, s, time.Now(), 10*time.Second) == 0 {
		t.Errorf("/readyz not 200 after the recovery")
	}
	for _, id := range acked {
		if code, body := get(t, s.base+"/api/events/"+id); code != http.StatusOK {
			t.Errorf("event %s, answered 201, after the recovery: %d %s", id, code, body)
		}
	}
	t.Logf("disk full for %s: %d creates answered 503 saying so (with Retry-After) while PostgreSQL ran, %d reads answered 200 meanwhile; after the WAL failure %d creates answered 503 saying so; the first 201 came %s after the space was freed; %d creates acknowledged, all stored",
		freed.Sub(fullAt).Round(time.Millisecond), diskFull503, readsOK, downFull503, recovered.Round(time.Millisecond), len(acked))
	t.Logf("service log:\n%s", s.Logs())
}
