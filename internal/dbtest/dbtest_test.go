// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package dbtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"events/app"
)

func migrate(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, `
		CREATE TABLE items (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL, at timestamptz NOT NULL DEFAULT now());
		INSERT INTO items (name) VALUES ('seed');`)
	return err
}

func TestMain(m *testing.M) { Main(m, migrate) }

const crashEnv = "DBTEST_TEST_CRASH"

// TestCrashHelper runs in a child process (see TestWatchdogCleansUp): it makes a database and
// exits without cleaning up.
func TestCrashHelper(t *testing.T) {
	if os.Getenv(crashEnv) == "" {
		t.Skip("helper for TestWatchdogCleansUp")
	}
	New(t)
	pid := 0
	if h.cluster != nil {
		b, err := os.ReadFile(filepath.Join(h.tmpDir, "postgres", "postmaster.pid"))
		if err != nil {
			t.Fatal(err)
		}
		pid, _ = strconv.Atoi(strings.SplitN(string(b), "\n", 2)[0])
	}
	fmt.Printf("CRASH %q %d %q %q\n", h.tmpDir, pid, h.template, h.prefix)
	os.Exit(3)
}

func TestWatchdogCleansUp(t *testing.T) {
	New(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$")
	cmd.Env = append(os.Environ(), crashEnv+"=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr // shared with the watchdog, so Output returns once the watchdog is done
	out, err := cmd.Output()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 3 {
		t.Fatalf("helper: %v, output %q, %s", err, out, stderr.String())
	}
	if !strings.Contains(stderr.String(), "dbtest watchdog: the test process ended without cleaning up; its test databases are gone now") {
		t.Errorf("the watchdog said: %s", stderr.String())
	}
	var tmpDir, template, prefix string
	var pid int
	if _, err := fmt.Sscanf(string(out), "CRASH %q %d %q %q", &tmpDir, &pid, &template, &prefix); err != nil {
		t.Fatalf("helper said %q: %v", out, err)
	}

	deadline := time.Now().Add(20 * time.Second)
	for {
		var left []string
		if h.cluster != nil {
			if _, err := os.Stat(tmpDir); err == nil {
				left = append(left, tmpDir)
			}
			if err := syscall.Kill(pid, 0); err == nil && !isZombie(pid) {
				left = append(left, fmt.Sprintf("server pid %d", pid))
			}
		} else {
			var n int
			err := h.admin.QueryRow("SELECT count(*) FROM pg_database WHERE datname = ? OR left(datname, length(?)) = ?", template, prefix, prefix).Scan(&n)
			if err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				left = append(left, fmt.Sprintf("%d databases", n))
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still there after the helper crashed: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func isZombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	return i > 0 && strings.HasPrefix(string(b[i:]), ") Z")
}

func names(t *testing.T, db *bun.DB) []string {
	t.Helper()
	var got []string
	if err := db.NewSelect().ColumnExpr("name").TableExpr("items").OrderExpr("id").Scan(context.Background(), &got); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestIsolated(t *testing.T) {
	ctx := context.Background()
	a, b := New(t), New(t)
	if _, err := a.ExecContext(ctx, "INSERT INTO items (name) VALUES ('only in a')"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.ExecContext(ctx, "DELETE FROM items"); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(names(t, a)); got != "[seed only in a]" {
		t.Errorf("a holds %s", got)
	}
	if got := names(t, b); len(got) != 0 {
		t.Errorf("b holds %v", got)
	}
	var nameA, nameB string
	a.QueryRowContext(ctx, "SELECT current_database()").Scan(&nameA)
	b.QueryRowContext(ctx, "SELECT current_database()").Scan(&nameB)
	if nameA == nameB || !strings.HasPrefix(nameA, h.prefix) {
		t.Errorf("databases %q and %q", nameA, nameB)
	}
}

func TestDroppedAtCleanup(t *testing.T) {
	db := New(t)
	var name string
	t.Run("inner", func(t *testing.T) {
		New(t).QueryRow("SELECT current_database()").Scan(&name)
	})
	if name == "" {
		t.Fatal("no database name")
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM pg_database WHERE datname = ?", name).Scan(&n); err != nil || n != 0 {
		t.Errorf("database %s still exists after its test: %d, %v", name, n, err)
	}
}

func TestNewURLAndUTC(t *testing.T) {
	dsn := NewURL(t)
	db, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tz string
	var at time.Time
	if err := db.QueryRow("SELECT current_setting('TimeZone'), at FROM items").Scan(&tz, &at); err != nil {
		t.Fatal(err)
	}
	if tz != "UTC" || at.Location() != time.UTC {
		t.Errorf("TimeZone %q, time in %v", tz, at.Location())
	}
}

func TestOpenBadURL(t *testing.T) {
	if _, err := app.OpenDB("mysql://x", 0); err == nil {
		t.Error("OpenDB accepted a mysql:// URL")
	}
	if _, err := app.OpenDB("postgres://x/db?sslmode=sometimes", 0); err == nil {
		t.Error("OpenDB accepted sslmode=sometimes")
	}
}

func TestWithDatabase(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://events@/postgres?host=/tmp/evpg1/.s.PGSQL.5432&sslmode=disable": "postgres://events@/x?host=/tmp/evpg1/.s.PGSQL.5432&sslmode=disable",
		"postgresql://u:p@db:5433/admin?sslmode=require":                            "postgresql://u:p@db:5433/x?sslmode=require",
		"postgres://u@localhost":                                                    "postgres://u@localhost/x",
		"unix://u:p@admin/run/pg/.s.PGSQL.5432":                                     "unix://u:p@x/run/pg/.s.PGSQL.5432",
	} {
		if got, err := withDatabase(in, "x"); err != nil || got != want {
			t.Errorf("withDatabase(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestParallelNew clones the template from several tests at once, and reports the time each New
// takes.
func TestParallelNew(t *testing.T) {
	New(t) // the first New pays for starting PostgreSQL and migrating the template
	const n = 12
	var mu sync.Mutex
	var took []time.Duration
	t.Run("group", func(t *testing.T) {
		for i := range n {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				began := time.Now()
				db := New(t)
				d := time.Since(began)
				mu.Lock()
				took = append(took, d)
				mu.Unlock()
				if _, err := db.Exec("INSERT INTO items (name) VALUES (?)", fmt.Sprint(i)); err != nil {
					t.Fatal(err)
				}
				if got := fmt.Sprint(names(t, db)); got != fmt.Sprintf("[seed %d]", i) {
					t.Errorf("database %d holds %s", i, got)
				}
			})
		}
	})
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	if len(took) == n {
		t.Logf("New under %d-way parallel tests: min %v, median %v, max %v", n, took[0], took[n/2], took[n-1])
	}
}

// BenchmarkNewAndFirstQuery is a fresh database and its first query, one
// after another (it was a test that only logged the time).
func BenchmarkNewAndFirstQuery(b *testing.B) {
	New(b)
	for b.Loop() {
		db := New(b)
		var one int
		if err := db.QueryRow("SELECT 1").Scan(&one); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNew(b *testing.B) {
	New(b)
	for b.Loop() {
		New(b)
	}
}
