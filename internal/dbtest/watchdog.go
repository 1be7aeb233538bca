// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package dbtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"events/app"
	"events/internal/pgcluster"
)

// The watchdog is this test binary again, started with watchdogEnv set. It reads its stdin, a pipe
// from the test process. When the test process ends without dismissing it (a panic, a -timeout,
// Ctrl-C, SIGKILL), the pipe reaches end of file and the watchdog stops the private cluster and
// removes its folder, or drops this run's databases on the TEST_DATABASE_URL server. The
// private cluster runs in its own process group, so nothing else would stop it.
const (
	watchdogEnv         = "EVENTS_DBTEST_WATCHDOG"
	watchdogDataEnv     = "EVENTS_DBTEST_WATCHDOG_DATA"
	watchdogTmpEnv      = "EVENTS_DBTEST_WATCHDOG_TMP"
	watchdogTemplateEnv = "EVENTS_DBTEST_WATCHDOG_TEMPLATE"
	watchdogPrefixEnv   = "EVENTS_DBTEST_WATCHDOG_PREFIX"
	dismissWord         = "done"
)

type watchdogJob struct {
	dataDir, tmpDir  string // a private cluster
	template, prefix string // databases on the TEST_DATABASE_URL server
}

type watchdog struct {
	cmd  *exec.Cmd
	pipe *os.File
}

func startWatchdog(job watchdogJob) (*watchdog, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("starting the cleanup watchdog: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(),
		watchdogEnv+"=1",
		watchdogDataEnv+"="+job.dataDir,
		watchdogTmpEnv+"="+job.tmpDir,
		watchdogTemplateEnv+"="+job.template,
		watchdogPrefixEnv+"="+job.prefix,
	)
	cmd.Stdin = r
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, fmt.Errorf("starting the cleanup watchdog: %w", err)
	}
	return &watchdog{cmd: cmd, pipe: w}, nil
}

// dismiss tells the watchdog that cleanup is done, and waits for it to exit.
func (w *watchdog) dismiss() {
	_, _ = io.WriteString(w.pipe, dismissWord+"\n")
	w.pipe.Close()
	done := make(chan struct{})
	go func() { _ = w.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = w.cmd.Process.Kill()
	}
}

func runWatchdog() int {
	signal.Ignore(syscall.SIGINT, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGPIPE)
	b, _ := io.ReadAll(os.Stdin)
	if strings.TrimSpace(string(b)) == dismissWord {
		return 0
	}
	var errs []error
	if dataDir := os.Getenv(watchdogDataEnv); dataDir != "" {
		errs = append(errs, pgcluster.StopLeftover(dataDir))
		if tmp := os.Getenv(watchdogTmpEnv); tmp != "" {
			errs = append(errs, os.RemoveAll(tmp))
		}
	}
	if tmpl := os.Getenv(watchdogTemplateEnv); tmpl != "" {
		errs = append(errs, dropRunDatabases(tmpl, os.Getenv(watchdogPrefixEnv)))
	}
	if err := errors.Join(errs...); err != nil {
		fmt.Fprintf(os.Stderr, "dbtest watchdog: the test process ended without cleaning up, and cleaning up after it failed: %v\n", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "dbtest watchdog: the test process ended without cleaning up; its test databases are gone now\n")
	return 0
}

func dropRunDatabases(template, prefix string) error {
	dsn := os.Getenv(EnvURL)
	if dsn == "" {
		return nil
	}
	admin, err := app.OpenDB(dsn, 0)
	if err != nil {
		return err
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var names []string
	err = admin.NewSelect().ColumnExpr("datname").TableExpr("pg_database").
		Where("datname = ? OR (? <> '' AND left(datname, length(?)) = ?)", template, prefix, prefix, prefix).
		Scan(ctx, &names)
	if err != nil {
		return err
	}
	var errs []error
	for _, name := range names {
		errs = append(errs, dropDatabase(ctx, admin, name))
	}
	return errors.Join(errs...)
}
