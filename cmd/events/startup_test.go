// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPortInUseStopsWithASentence: a port another program holds stops
// `events serve` at once with one sentence that names PORT=, exit status
// 1, and no embedded database left running (none is started: the port is
// taken first).
func TestPortInUseStopsWithASentence(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	data := dataDir(t)
	cmd := exec.Command(build(t), "serve")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOST=127.0.0.1", fmt.Sprintf("PORT=%d", port), "EVENTS_DATA_DIR=" + data}
	began := time.Now()
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("serve on a taken port: %v, want exit status 1\n%s", err, out)
	}
	want := fmt.Sprintf("events: port %d is in use: stop the other program or start with PORT=%d events serve (PORT=%d make run)\n", port, port+1, port+1)
	if string(out) != want {
		t.Errorf("serve on a taken port said:\n%s\nwant only:\n%s", out, want)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("the refusal took %v; want it before any database is started", took)
	}
	if _, err := os.Stat(filepath.Join(data, "postgres", "postmaster.pid")); !os.IsNotExist(err) {
		t.Errorf("a PostgreSQL server was left in the data folder: %v", err)
	}
}

// runResetData runs `events reset-data` on data and returns its exit error and output.
func runResetData(t *testing.T, data string) (error, string) {
	t.Helper()
	cmd := exec.Command(build(t), "reset-data")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "EVENTS_DATA_DIR=" + data}
	out, err := cmd.CombinedOutput()
	return err, string(out)
}

func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !regexp.MustCompile(`\) Z `).Match(b)
}

// TestResetDataRefusesWhileServingAndRemovesAfter is make reset-data as a
// newcomer meets it: refused, with a sentence, while the service runs (and
// nothing removed); after Ctrl-C it names the folder and removes the
// database, leaving what events did not put there; a second run has
// nothing to remove.
func TestResetDataRefusesWhileServingAndRemovesAfter(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	data := dataDir(t)
	s := start(t, "EVENTS_DATA_DIR="+data)
	if err := os.WriteFile(filepath.Join(data, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}

	err, out := runResetData(t, data)
	want := fmt.Sprintf("events: the embedded database in %s is in use by process %d (events serve, or a backup): stop it first (Ctrl-C where make run runs), then run make reset-data again\n",
		filepath.Join(data, "postgres"), s.cmd.Process.Pid)
	if err == nil || out != want {
		t.Errorf("reset-data while serving: %v\n%s\nwant an error saying only:\n%s", err, out, want)
	}
	if _, err := os.Stat(filepath.Join(data, "postgres", "PG_VERSION")); err != nil {
		t.Errorf("the refused reset-data removed the database: %v", err)
	}
	if code, _ := get(t, s.base+"/readyz"); code != 200 {
		t.Errorf("the service after a refused reset-data: /readyz %d", code)
	}

	if err := s.stop(t, os.Interrupt); err != nil {
		t.Fatalf("Ctrl-C: %v", err)
	}
	err, out = runResetData(t, data)
	want = fmt.Sprintf("removing the embedded database and make edge's files from %s; left there, as events did not make them: notes.txt\ndone: the next start makes a new, empty database\n", data)
	if err != nil || out != want {
		t.Errorf("reset-data after the service stopped: %v\n%s\nwant:\n%s", err, out, want)
	}
	left, _ := os.ReadDir(data)
	if len(left) != 1 || left[0].Name() != "notes.txt" {
		t.Errorf("left in the data folder: %v, want notes.txt alone", left)
	}

	os.Remove(filepath.Join(data, "notes.txt"))
	err, out = runResetData(t, data)
	if want := fmt.Sprintf("removing the data folder %s: the embedded database and make edge's certificate and logs\ndone: the next start makes a new, empty database\n", data); err != nil || out != want {
		t.Errorf("reset-data of an emptied folder: %v\n%s\nwant:\n%s", err, out, want)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("the data folder is still there: %v", err)
	}
	err, out = runResetData(t, data)
	if want := fmt.Sprintf("nothing to remove: there is no data folder %s\n", data); err != nil || out != want {
		t.Errorf("reset-data with no data folder: %v\n%s\nwant:\n%s", err, out, want)
	}
}

// TestResetDataStopsALeftoverServer: a service killed with SIGKILL leaves
// its PostgreSQL server running (it runs in a process group of its own);
// reset-data says so, stops it and removes the data folder.
func TestResetDataStopsALeftoverServer(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	data := dataDir(t)
	s := start(t, "EVENTS_DATA_DIR="+data)
	pg := filepath.Join(data, "postgres")
	server := postmasterPID(t, pg)
	if err := s.stop(t, syscall.SIGKILL); err == nil {
		t.Fatal("SIGKILL: the service exited cleanly")
	}
	if !alive(server) {
		t.Fatalf("the killed service's PostgreSQL server (pid %d) is gone; the test needs it left running", server)
	}
	t.Cleanup(func() { // should the test fail before reset-data stops it
		if alive(server) {
			_ = syscall.Kill(server, syscall.SIGQUIT)
		}
	})
	err, out := runResetData(t, data)
	want := fmt.Sprintf("stopping the PostgreSQL server (pid %d) left running in %s by a service that is gone\nremoving the data folder %s: the embedded database and make edge's certificate and logs\ndone: the next start makes a new, empty database\n", server, pg, data)
	if err != nil || out != want {
		t.Errorf("reset-data after a killed service: %v\n%s\nwant:\n%s", err, out, want)
	}
	deadline := time.Now().Add(10 * time.Second)
	for alive(server) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if alive(server) {
		t.Errorf("the leftover PostgreSQL server (pid %d) still runs", server)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("the data folder is still there: %v", err)
	}
}

// TestResetDataRemovesAMovedCluster: run as root with a data folder the
// postgres user cannot enter, the cluster lives under /var/lib/events
// instead (internal/pgcluster); reset-data names that folder and removes it
// with the data folder.
func TestResetDataRemovesAMovedCluster(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	if os.Geteuid() != 0 {
		t.Skip("only root's clusters are moved out of the project folder")
	}
	project := t.TempDir() // 0700: closed to the postgres user
	data := filepath.Join(project, "data")
	s := start(t, "EVENTS_DATA_DIR="+data)
	m := regexp.MustCompile(`msg="embedded database started" data=(\S+)`).FindStringSubmatch(s.Logs())
	if m == nil || !strings.HasPrefix(m[1], "/var/lib/events/") {
		t.Fatalf("the cluster was not moved under /var/lib/events:\n%s", s.Logs())
	}
	moved := filepath.Dir(m[1])
	t.Cleanup(func() { os.RemoveAll(moved) })

	err, out := runResetData(t, data)
	if err == nil || !strings.Contains(out, "the embedded database in "+m[1]+" is in use by process") {
		t.Errorf("reset-data while serving a moved cluster: %v\n%s", err, out)
	}
	if err := s.stop(t, syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	err, out = runResetData(t, data)
	want := fmt.Sprintf("removing %s: the embedded database, kept there because PostgreSQL's user cannot enter %s\n", moved, data)
	if err != nil || !strings.HasPrefix(out, want) {
		t.Errorf("reset-data of a moved cluster: %v\n%s\nwant it to begin:\n%s", err, out, want)
	}
	for _, dir := range []string{moved, data} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", dir, err)
		}
	}
}
