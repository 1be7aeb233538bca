package pgcluster

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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

func TestUnreachableFolder(t *testing.T) {
	requireBinaries(t)
	if os.Geteuid() != 0 {
		t.Skip("the check applies when running as root")
	}
	blocked := filepath.Join(tempRoot(t), "blocked")
	if err := os.Mkdir(blocked, 0o700); err != nil {
		t.Fatal(err)
	}
	c, err := Start(context.Background(), Options{DataDir: filepath.Join(blocked, "data", "postgres")})
	if err == nil {
		c.Stop()
		t.Fatal("Start succeeded")
	}
	want := fmt.Sprintf("PostgreSQL runs as user postgres, which cannot enter %s (mode 0700): set EVENTS_DATA_DIR to a folder it can reach, or chmod o+x %s", blocked, blocked)
	if err.Error() != want {
		t.Errorf("error:\n%s\nwant:\n%s", err, want)
	}
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

func TestFindBinariesOrder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mk := func(dir string) string {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, p := range serverPrograms {
			if err := os.WriteFile(filepath.Join(dir, p), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	lib := filepath.Join(root, "lib")
	mk(filepath.Join(lib, "9.6", "bin"))
	want := mk(filepath.Join(lib, "10", "bin"))
	if err := os.MkdirAll(filepath.Join(lib, "17", "bin"), 0o755); err != nil { // no programs
		t.Fatal(err)
	}
	mk(filepath.Join(lib, "notaversion", "bin"))
	notFound := func(string) (string, error) { return "", exec.ErrNotFound }

	if got, err := findBinaries(notFound, lib); err != nil || got != want {
		t.Errorf("newest version: got %q, %v; want %q", got, err, want)
	}

	onPath := mk(filepath.Join(root, "path"))
	inPath := func(string) (string, error) { return filepath.Join(onPath, "initdb"), nil }
	if got, err := findBinaries(inPath, lib); err != nil || got != onPath {
		t.Errorf("PATH: got %q, %v; want %q", got, err, onPath)
	}

	links := filepath.Join(root, "links")
	if err := os.Mkdir(links, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(onPath, "initdb"), filepath.Join(links, "initdb")); err != nil {
		t.Fatal(err)
	}
	viaLink := func(string) (string, error) { return filepath.Join(links, "initdb"), nil }
	if got, err := findBinaries(viaLink, lib); err != nil || got != onPath {
		t.Errorf("symlink on PATH: got %q, %v; want %q", got, err, onPath)
	}

	if _, err := findBinaries(notFound, filepath.Join(root, "none")); !errors.Is(err, ErrNoBinaries) {
		t.Errorf("nothing installed: %v, want ErrNoBinaries", err)
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
