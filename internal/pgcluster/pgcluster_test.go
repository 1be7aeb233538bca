// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package pgcluster

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
)

const helperEnv = "PGCLUSTER_TEST_HELPER_DATADIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		runHelper(dir)
		return
	}
	if _, err := FindBinaries(); err != nil {
		what := "are SKIPPED (with CI=true they fail)"
		if os.Getenv("CI") == "true" {
			what = "FAIL, as CI=true"
		}
		fmt.Fprintf(os.Stderr, "\n!!!!!!!!\n!!! pgcluster: %v\n!!! The tests that need PostgreSQL %s.\n!!!!!!!!\n\n", err, what)
	}
	os.Exit(m.Run())
}

// runHelper starts a cluster, says so on stdout, and waits to be killed: the parent test kills it
// to leave an orphan cluster behind.
func runHelper(dataDir string) {
	c, err := Start(context.Background(), Options{DataDir: dataDir, Fast: true})
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	fmt.Println("READY", c.sockDir)
	select {}
}

func requireBinaries(t *testing.T) {
	t.Helper()
	if _, err := FindBinaries(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and %v", err)
		}
		t.Skipf("SKIPPED, PostgreSQL is not installed: %v", err)
	}
}

// tempRoot returns a fresh folder the server's user can enter.
func tempRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pgcluster-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func start(t *testing.T, opts Options) *Cluster {
	t.Helper()
	began := time.Now()
	c, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Start took %v", time.Since(began).Round(time.Millisecond))
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	return c
}

func open(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
	t.Cleanup(func() { db.Close() })
	return db
}

func TestStartStopRestart(t *testing.T) {
	requireBinaries(t)
	t.Parallel()
	dataDir := filepath.Join(tempRoot(t), "postgres")
	c := start(t, Options{DataDir: dataDir, Database: `odd "name"`, Fast: true})

	url := c.URL()
	if !strings.HasPrefix(url, "postgres://events@/odd%20%22name%22?host=/") || !strings.HasSuffix(url, "/.s.PGSQL.5432&sslmode=disable") {
		t.Errorf("URL() = %q", url)
	}
	db := open(t, url)
	var database, user, listen string
	if err := db.QueryRow("SELECT current_database(), current_user, current_setting('listen_addresses')").Scan(&database, &user, &listen); err != nil {
		t.Fatal(err)
	}
	if database != `odd "name"` || user != "events" || listen != "" {
		t.Errorf("database %q, user %q, listen_addresses %q", database, user, listen)
	}
	if _, err := db.Exec("CREATE TABLE kept (x int); INSERT INTO kept VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	db.Close()

	fi, err := os.Stat(c.sockDir)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); fi.Mode().Perm() != 0o700 || st.Uid != c.acct.uid {
		t.Errorf("socket folder mode %v owner %d, want 0700 owned by %d", fi.Mode().Perm(), st.Uid, c.acct.uid)
	}
	if os.Geteuid() == 0 && c.acct.name != "postgres" {
		t.Errorf("as root, the server runs as %q, want postgres", c.acct.name)
	}

	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	if _, err := os.Stat(c.sockDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket folder still there after Stop: %v", err)
	}

	c2 := start(t, Options{DataDir: dataDir, Database: `odd "name"`, Fast: true})
	var x int
	if err := open(t, c2.URL()).QueryRow("SELECT x FROM kept").Scan(&x); err != nil || x != 42 {
		t.Fatalf("after restart: x = %d, %v", x, err)
	}
}

func TestSecondStartRefused(t *testing.T) {
	requireBinaries(t)
	t.Parallel()
	dataDir := filepath.Join(tempRoot(t), "postgres")
	c := start(t, Options{DataDir: dataDir, Fast: true})

	c2, err := Start(context.Background(), Options{DataDir: dataDir, Fast: true})
	if err == nil {
		c2.Stop()
		t.Fatal("second Start succeeded")
	}
	t.Log(err)
	want := fmt.Sprintf("the PostgreSQL cluster in %s is already in use: its server (pid ", dataDir)
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), fmt.Sprintf("belongs to process %d, which is still running", os.Getpid())) {
		t.Errorf("error %q, want the in-use sentence", err)
	}

	var one int
	if err := open(t, c.URL()).QueryRow("SELECT 1").Scan(&one); err != nil {
		t.Fatalf("the first cluster no longer answers: %v", err)
	}
}

func TestOrphanTakenOver(t *testing.T) {
	requireBinaries(t)
	t.Parallel()
	dataDir := filepath.Join(tempRoot(t), "postgres")

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dataDir)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "READY ") {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper said %q, %v", line, err)
	}
	oldSockDir := strings.TrimSpace(strings.TrimPrefix(line, "READY "))
	orphanPID := postmasterPID(t, dataDir)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if err := syscall.Kill(orphanPID, 0); err != nil {
		t.Fatalf("the server did not outlive its owner: %v", err)
	}

	c := start(t, Options{DataDir: dataDir, Fast: true})
	if pid := postmasterPID(t, dataDir); pid == orphanPID {
		t.Errorf("the orphan server %d still runs the cluster", pid)
	}
	if !processGone(orphanPID, 5*time.Second) {
		t.Errorf("the orphan server %d is still alive", orphanPID)
	}
	if _, err := os.Stat(oldSockDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the orphan's socket folder %s is still there: %v", oldSockDir, err)
	}
	var one int
	if err := open(t, c.URL()).QueryRow("SELECT 1").Scan(&one); err != nil {
		t.Fatal(err)
	}
}

// processGone waits for pid to end; a zombie counts as gone, since whether it is reaped soon
// depends on this machine's init process.
func processGone(pid int, wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if i := strings.LastIndexByte(string(b), ')'); i > 0 && strings.HasPrefix(string(b[i:]), ") Z") {
				return true
			}
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestStalePIDFile: after a crash of the machine, postmaster.pid may name a pid that now belongs
// to another process of the same user. Start must neither refuse nor signal that process.
func TestStalePIDFile(t *testing.T) {
	requireBinaries(t)
	t.Parallel()
	dataDir := filepath.Join(tempRoot(t), "postgres")
	c := start(t, Options{DataDir: dataDir, Fast: true})
	pidFile := filepath.Join(dataDir, "postmaster.pid")
	content, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}

	other := exec.Command("sleep", "60")
	other.SysProcAttr = &syscall.SysProcAttr{Credential: c.acct.cred}
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	lines := strings.SplitN(string(content), "\n", 2)
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(other.Process.Pid)+"\n"+lines[1]), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := c.acct.chown(pidFile); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dataDir+".owner", []byte("999999999\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	c2 := start(t, Options{DataDir: dataDir, Fast: true})
	if err := other.Process.Signal(syscall.Signal(0)); err != nil || other.ProcessState != nil {
		t.Errorf("the unrelated process was hurt: %v", err)
	}
	var one int
	if err := open(t, c2.URL()).QueryRow("SELECT 1").Scan(&one); err != nil {
		t.Fatal(err)
	}
}

func postmasterPID(t *testing.T, dataDir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.SplitN(string(b), "\n", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// TestUnreachableFolderMovesTheCluster: run as root from a project in a folder the postgres user
// cannot enter (a home folder such as /root, mode 0700), the cluster lives under the shared root
// instead, one folder per project data folder, says where, and is found again at the next start;
// the home folder's mode is left alone.
func TestUnreachableFolderMovesTheCluster(t *testing.T) {
	requireBinaries(t)
	if os.Geteuid() != 0 {
		t.Skip("the move applies when running as root")
	}
	t.Parallel()
	root := tempRoot(t)
	home := filepath.Join(root, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(root, "shared")
	projectData := filepath.Join(home, "events", ".data", "postgres")
	var logs syncBuffer
	opts := Options{DataDir: projectData, SharedRoot: shared, Fast: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	c := start(t, opts)
	want := sharedDataDir(shared, projectData)
	if c.dataDir != want || !strings.HasPrefix(want, filepath.Join(shared, "events-")) {
		t.Errorf("the cluster lives in %s, want %s", c.dataDir, want)
	}
	if !strings.Contains(logs.String(), "postgres data kept outside the project folder") || !strings.Contains(logs.String(), "data="+want) {
		t.Errorf("the start does not say where the data is:\n%s", logs.String())
	}
	if origin, err := os.ReadFile(filepath.Join(filepath.Dir(want), "origin")); err != nil || strings.TrimSpace(string(origin)) != projectData {
		t.Errorf("origin file: %q, %v", origin, err)
	}
	if _, err := open(t, c.URL()).Exec("CREATE TABLE kept (x int); INSERT INTO kept VALUES (7)"); err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(home); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the home folder's mode changed: %v, %v", fi.Mode(), err)
	}

	c2 := start(t, opts)
	var x int
	if err := open(t, c2.URL()).QueryRow("SELECT x FROM kept").Scan(&x); err != nil || x != 7 || c2.dataDir != want {
		t.Errorf("second start: %s, x = %d, %v", c2.dataDir, x, err)
	}
	if other := sharedDataDir(shared, filepath.Join(home, "events-copy", ".data", "postgres")); other == want {
		t.Errorf("two project folders share %s", other)
	}

	// When the shared root is unreachable too, the sentence says what to change.
	_, err := Start(context.Background(), Options{DataDir: projectData, SharedRoot: filepath.Join(home, "shared"), Fast: true})
	wantErr := fmt.Sprintf("PostgreSQL runs as user postgres, which cannot enter %s (mode 0700): set EVENTS_DATA_DIR to a folder it can reach, or chmod o+x %s", home, home)
	if err == nil || err.Error() != wantErr {
		t.Errorf("shared root unreachable too:\n%v\nwant:\n%s", err, wantErr)
	}
}

// syncBuffer is a log destination read while the cluster writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestNonEmptyFolderRefused(t *testing.T) {
	requireBinaries(t)
	dataDir := filepath.Join(tempRoot(t), "postgres")
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Start(context.Background(), Options{DataDir: dataDir})
	if err == nil {
		c.Stop()
		t.Fatal("Start succeeded")
	}
	if !strings.Contains(err.Error(), "is not empty and holds no PostgreSQL cluster") {
		t.Errorf("error %q", err)
	}
}

func TestStartFailureShowsLog(t *testing.T) {
	requireBinaries(t)
	dataDir := filepath.Join(tempRoot(t), "postgres")
	c := start(t, Options{DataDir: dataDir, Fast: true})
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dataDir, "postgresql.conf")
	f, err := os.OpenFile(conf, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "shared_buffers = 'plenty'")
	f.Close()

	c2, err := Start(context.Background(), Options{DataDir: dataDir, Fast: true})
	if err == nil {
		c2.Stop()
		t.Fatal("Start succeeded with a broken postgresql.conf")
	}
	t.Log(err)
	if !strings.Contains(err.Error(), `"shared_buffers"`) {
		t.Errorf("the error does not show the server log: %v", err)
	}
}

func TestFindBinaries(t *testing.T) {
	t.Parallel()
	requireBinaries(t)
	dir, err := FindBinaries()
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(dir) || !hasServerPrograms(dir) {
		t.Errorf("FindBinaries() = %q", dir)
	}
}

// fakeBinaries makes dir with initdb, pg_ctl and postgres scripts; postgres --version prints
// version.
func fakeBinaries(t *testing.T, dir, version string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range serverPrograms {
		script := "#!/bin/sh\necho '" + p + " (PostgreSQL) " + version + "'\n"
		if err := os.WriteFile(filepath.Join(dir, p), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFindBinariesOrder: a new cluster gets the newest installed major, whether it is under the
// library folder or on PATH; a folder without the programs, or not named by a version, is not one.
func TestFindBinariesOrder(t *testing.T) {
	root := t.TempDir()
	lib := filepath.Join(root, "lib")
	fakeBinaries(t, filepath.Join(lib, "9.6", "bin"), "9.6.24")
	want := fakeBinaries(t, filepath.Join(lib, "10", "bin"), "10.23")
	if err := os.MkdirAll(filepath.Join(lib, "17", "bin"), 0o755); err != nil { // no programs
		t.Fatal(err)
	}
	fakeBinaries(t, filepath.Join(lib, "notaversion", "bin"), "18.0")
	notFound := func(string) (string, error) { return "", exec.ErrNotFound }

	if got, err := findBinaries(notFound, lib, ""); err != nil || got != want {
		t.Errorf("newest version: got %q, %v; want %q", got, err, want)
	}

	newer := fakeBinaries(t, filepath.Join(root, "path"), "16.2")
	inPath := func(string) (string, error) { return filepath.Join(newer, "initdb"), nil }
	if got, err := findBinaries(inPath, lib, ""); err != nil || got != newer {
		t.Errorf("a newer major on PATH: got %q, %v; want %q", got, err, newer)
	}
	older := fakeBinaries(t, filepath.Join(root, "oldpath"), "9.5.1")
	inOldPath := func(string) (string, error) { return filepath.Join(older, "initdb"), nil }
	if got, err := findBinaries(inOldPath, lib, ""); err != nil || got != want {
		t.Errorf("an older major on PATH: got %q, %v; want %q", got, err, want)
	}

	links := filepath.Join(root, "links")
	if err := os.Mkdir(links, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(newer, "initdb"), filepath.Join(links, "initdb")); err != nil {
		t.Fatal(err)
	}
	viaLink := func(string) (string, error) { return filepath.Join(links, "initdb"), nil }
	if got, err := findBinaries(viaLink, filepath.Join(root, "none"), ""); err != nil || got != newer {
		t.Errorf("symlink on PATH: got %q, %v; want %q", got, err, newer)
	}

	if _, err := findBinaries(notFound, filepath.Join(root, "none"), ""); !errors.Is(err, ErrNoBinaries) {
		t.Errorf("nothing installed: %v, want ErrNoBinaries", err)
	}
}

// TestBinariesByPGVersion: an existing cluster runs with the programs of the major its
// PG_VERSION names, wherever a newer one is installed; a major that is not installed stops with
// one sentence naming the package, and the upgrade when a newer major is there.
func TestBinariesByPGVersion(t *testing.T) {
	root := t.TempDir()
	lib := filepath.Join(root, "lib")
	v13 := fakeBinaries(t, filepath.Join(lib, "13", "bin"), "13.16")
	v16 := fakeBinaries(t, filepath.Join(lib, "16", "bin"), "16.4")
	onPath := fakeBinaries(t, filepath.Join(root, "path"), "14.2")
	inPath := func(string) (string, error) { return filepath.Join(onPath, "initdb"), nil }
	notFound := func(string) (string, error) { return "", exec.ErrNotFound }
	cluster := func(version string) string {
		dir := filepath.Join(t.TempDir(), "postgres")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "PG_VERSION"), []byte(version+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, c := range []struct {
		version string
		path    func(string) (string, error)
		want    string
	}{
		{"13", notFound, v13},
		{"16", notFound, v16},
		{"13", inPath, v13},
		{"14", inPath, onPath},
	} {
		if got, err := findBinaries(c.path, lib, cluster(c.version)); err != nil || got != c.want {
			t.Errorf("PG_VERSION %s: got %q, %v; want %q", c.version, got, err, c.want)
		}
	}
	if got, err := findBinaries(notFound, lib, filepath.Join(root, "new", "postgres")); err != nil || got != v16 {
		t.Errorf("a new cluster: got %q, %v; want the newest, %q", got, err, v16)
	}

	dir := cluster("15")
	_, err := findBinaries(notFound, lib, dir)
	want := fmt.Sprintf("the PostgreSQL cluster in %s was made by PostgreSQL 15, whose server programs are not installed (PostgreSQL 16 is): install them with your system's PostgreSQL 15 server package (Debian/Ubuntu: apt-get install postgresql-15), or upgrade the cluster to PostgreSQL 16 with pg_upgrade, which needs both versions' programs", dir)
	if err == nil || err.Error() != want {
		t.Errorf("PG_VERSION 15, 13 and 16 installed:\n%v\nwant:\n%s", err, want)
	}
	dir = cluster("17")
	_, err = findBinaries(notFound, lib, dir)
	want = fmt.Sprintf("the PostgreSQL cluster in %s was made by PostgreSQL 17, whose server programs are not installed: install them with your system's PostgreSQL 17 server package (Debian/Ubuntu: apt-get install postgresql-17)", dir)
	if err == nil || err.Error() != want {
		t.Errorf("PG_VERSION 17, older installed:\n%v\nwant:\n%s", err, want)
	}
}

// TestStartWithAnotherMajorsCluster: Start on a cluster whose PG_VERSION names a major that is
// not installed stops with the sentence, before running any server program (it used to run the
// newest, which failed with "database files are incompatible with server" in its log).
func TestStartWithAnotherMajorsCluster(t *testing.T) {
	requireBinaries(t)
	dataDir := filepath.Join(tempRoot(t), "postgres")
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, "PG_VERSION"), []byte("9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Start(context.Background(), Options{DataDir: dataDir, Fast: true})
	if err == nil {
		c.Stop()
		t.Fatal("Start succeeded")
	}
	want := fmt.Sprintf("the PostgreSQL cluster in %s was made by PostgreSQL 9, whose server programs are not installed", dataDir)
	if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "apt-get install postgresql-9") {
		t.Errorf("error %q, want it to start with %q and name the package", err, want)
	}
	if _, err := os.Stat(dataDir + ".log"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a server program ran: the log exists (%v)", err)
	}
}

func TestShellJoin(t *testing.T) {
	t.Parallel()
	got := shellJoin([]string{"-k", "/tmp/a b", "-c", "listen_addresses=", "it's"})
	want := `-k '/tmp/a b' -c listen_addresses= 'it'\''s'`
	if got != want {
		t.Errorf("shellJoin = %s, want %s", got, want)
	}
}

// TestKilledServerComesBack: the watcher finds a postmaster killed with SIGKILL and starts it
// again, with no call from the program, well within 10 s; it logs why, with the tail of the
// server's log, and the data is all there.
func TestKilledServerComesBack(t *testing.T) {
	requireBinaries(t)
	t.Parallel()
	var logs syncBuffer
	c := start(t, Options{DataDir: filepath.Join(tempRoot(t), "postgres"), Fast: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	db := open(t, c.URL())
	// Fast runs with synchronous_commit off: the checkpoint makes the commit durable.
	if _, err := db.Exec("CREATE TABLE kept (x int); INSERT INTO kept VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	pid := postmasterPID(t, c.dataDir)
	killed := time.Now()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var back time.Duration
	var sawFault bool
	var lastErr error
	for time.Since(killed) < 30*time.Second {
		if c.Fault() != nil {
			sawFault = true
		}
		var x int
		err := db.QueryRow("SELECT x FROM kept").Scan(&x)
		if err == nil && x == 1 && postmasterPIDOf(c.dataDir) != pid {
			back = time.Since(killed)
			break
		}
		lastErr = err
		time.Sleep(20 * time.Millisecond)
	}
	if back == 0 || back > 10*time.Second {
		pglog, _ := os.ReadFile(c.logPath)
		t.Fatalf("the cluster answered again after %s (0: not within 30 s; last error %v); log:\n%s\npostgres log:\n%s", back, lastErr, logs.String(), pglog)
	}
	t.Logf("killed postmaster: the cluster answered again after %s", back.Round(time.Millisecond))
	if !sawFault {
		t.Errorf("Fault() never reported the server down")
	}
	// pg_ctl may take a moment after the server answers to say it started.
	for began := time.Now(); c.Fault() != nil && time.Since(began) < 5*time.Second; {
		time.Sleep(20 * time.Millisecond)
	}
	if err := c.Fault(); err != nil {
		t.Errorf("Fault() = %v after the restart", err)
	}
	l := logs.String()
	if !strings.Contains(l, "postgres stopped without being asked to: starting it again") || !strings.Contains(l, fmt.Sprintf("pid=%d", pid)) ||
		!strings.Contains(l, "log_tail=") || !strings.Contains(l, "postgres started again") {
		t.Errorf("the log does not say what happened:\n%s", l)
	}
}

// TestServerLogCapped: past LogLimit, the server log moves to <log>.1 and starts again empty,
// and the server goes on writing into it.
func TestServerLogCapped(t *testing.T) {
	requireBinaries(t)
	t.Parallel()
	const limit = 64 << 10
	c := start(t, Options{DataDir: filepath.Join(tempRoot(t), "postgres"), Fast: true, LogLimit: limit})
	db := open(t, c.URL())
	shout := func(n int, text string) {
		t.Helper()
		if _, err := db.Exec(fmt.Sprintf(`DO $$ BEGIN FOR i IN 1..%d LOOP RAISE LOG '%%', %s; END LOOP; END $$`, n, text)); err != nil {
			t.Fatal(err)
		}
	}
	for range 5 {
		shout(100, "repeat('x', 1000)") // 500 KB in all
		time.Sleep(2 * watchInterval)
	}
	time.Sleep(2 * watchInterval)
	shout(1, "'after the rotation'")
	time.Sleep(100 * time.Millisecond)
	cur, err := os.Stat(c.logPath)
	if err != nil {
		t.Fatal(err)
	}
	prev, err := os.Stat(c.logPath + ".1")
	if err != nil {
		t.Fatalf("no previous log: %v", err)
	}
	if cur.Size() > 2*limit || prev.Size() > 4*limit || prev.Size() < limit {
		t.Errorf("log %d bytes, previous %d bytes; limit %d", cur.Size(), prev.Size(), limit)
	}
	b, err := os.ReadFile(c.logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "after the rotation") || bytes.Contains(b[:min(len(b), 16)], []byte{0}) {
		t.Errorf("the server does not write at the start of the emptied log: %q", b[:min(len(b), 200)])
	}
}
