// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"events/app"
	"events/internal/pgcluster"
)

// resetData is `events reset-data` (make reset-data): it deletes the
// embedded database wherever it lives, in EVENTS_DATA_DIR or in the folder
// under /var/lib/events it was moved to (run as root, when PostgreSQL's user
// cannot enter the project folder), and what make edge keeps in the data
// folder, saying which folders first. It refuses while a service uses the
// database: the cluster's owner file is locked by the live process that
// runs it (a lock the kernel drops when that process ends, however it
// ends), which no port check could tell apart from another program. A
// PostgreSQL server left running by a service that was killed is stopped
// first. Entries of the data folder that events does not make are left,
// and named: EVENTS_DATA_DIR may point at a folder that holds other things.
// A database named by DATABASE_URL is never touched.
func resetData(w io.Writer, logger *slog.Logger) error {
	cfg, err := app.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	opts := embeddedOptions(cfg, logger)
	moved, err := pgcluster.Moved(opts)
	if err != nil {
		return err
	}
	clusters := []string{opts.DataDir}
	if moved != "" {
		clusters = append(clusters, filepath.Join(moved, filepath.Base(opts.DataDir)))
	}
	for _, dir := range clusters {
		owner, server := pgcluster.Users(dir)
		switch {
		case owner > 0:
			return fmt.Errorf("the embedded database in %s is in use by process %d (events serve, or a backup): stop it first (Ctrl-C where make run runs), then run make reset-data again", dir, owner)
		case owner < 0:
			return fmt.Errorf("the embedded database in %s is being started by another process: stop it first, then run make reset-data again", dir)
		case server > 0:
			fmt.Fprintf(w, "stopping the PostgreSQL server (pid %d) left running in %s by a service that is gone\n", server, dir)
			if err := pgcluster.StopLeftover(dir); err != nil {
				return err
			}
		}
	}
	if pid := liveNginx(filepath.Join(cfg.DataDir, "edge", "nginx.pid")); pid > 0 {
		return fmt.Errorf("make edge's nginx (pid %d) runs from %s: stop make edge first (Ctrl-C), then run make reset-data again", pid, filepath.Join(cfg.DataDir, "edge"))
	}

	removed := false
	if moved != "" {
		fmt.Fprintf(w, "removing %s: the embedded database, kept there because PostgreSQL's user cannot enter %s\n", moved, cfg.DataDir)
		if err := os.RemoveAll(moved); err != nil {
			return fmt.Errorf("cannot remove %s: %w", moved, err)
		}
		removed = true
	}
	entries, err := os.ReadDir(cfg.DataDir)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("cannot read the data folder %s: %w", cfg.DataDir, err)
	default:
		ours := append(pgcluster.Files(filepath.Base(opts.DataDir)), "edge")
		var others []string
		for _, e := range entries {
			if !slices.Contains(ours, e.Name()) {
				others = append(others, e.Name())
			}
		}
		if len(others) == 0 {
			fmt.Fprintf(w, "removing the data folder %s: the embedded database and make edge's certificate and logs\n", cfg.DataDir)
			if err := os.RemoveAll(cfg.DataDir); err != nil {
				return fmt.Errorf("cannot remove %s: %w", cfg.DataDir, err)
			}
		} else {
			fmt.Fprintf(w, "removing the embedded database and make edge's files from %s; left there, as events did not make them: %s\n", cfg.DataDir, strings.Join(others, ", "))
			for _, name := range ours {
				if err := os.RemoveAll(filepath.Join(cfg.DataDir, name)); err != nil {
					return fmt.Errorf("cannot remove %s: %w", filepath.Join(cfg.DataDir, name), err)
				}
			}
		}
		removed = true
	}
	switch {
	case !removed:
		fmt.Fprintf(w, "nothing to remove: there is no data folder %s\n", cfg.DataDir)
	default:
		fmt.Fprintln(w, "done: the next start makes a new, empty database")
	}
	if cfg.DatabaseURL != "" {
		fmt.Fprintln(w, "DATABASE_URL is set: that database is not touched; reset-data removes only the embedded one")
	}
	return nil
}

// liveNginx is the pid in an nginx pid file when that process runs and is
// nginx; 0 otherwise.
func liveNginx(pidFile string) int {
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return 0
	}
	if comm, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm"); err == nil && strings.TrimSpace(string(comm)) != "nginx" {
		return 0
	}
	return pid
}
