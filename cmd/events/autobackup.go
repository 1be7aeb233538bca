// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// The backups the running service takes itself.
//
// Every EVENTS_BACKUP_EVERY the service writes the same archive as events
// backup into EVENTS_BACKUP_DIR, with the database connection it already
// has (so a private /tmp, a read-only system or an external PostgreSQL
// change nothing), and keeps the newest EVENTS_BACKUP_KEEP. Instances that
// share a database take turns through an advisory lock: the one that holds
// it writes, and the newest archive in the folder tells the others that
// the turn was taken. The age of the newest archive is on /readyz, and a
// WARN says when it is older than twice the interval.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"events/handlers"
)

// backupLock is the pg_advisory_lock key held while an instance writes a
// scheduled backup.
const backupLock = 0x6576656e7462 // "eventb"

// backupPrefix and backupSuffix frame every backup's name:
// events-YYYYMMDD-HHMMSS.dump, in UTC; one taken before migrating adds
// -before-MIGRATION and is not pruned.
const (
	backupPrefix = "events-"
	backupSuffix = ".dump"
	backupStamp  = "20060102-150405"
)

// scheduler takes the service's backups.
type scheduler struct {
	dir   string
	every time.Duration
	keep  int
	t     *target
	db    *bun.DB
	log   *slog.Logger
	now   func() time.Time
	last  atomic.Int64 // modification time of the newest backup in dir, Unix ns; 0: none
}

// retryAfter is how soon a failed backup is tried again.
func (s *scheduler) retryAfter() time.Duration { return min(s.every, 10*time.Minute) }

// Status is what /readyz shows of the backups.
func (s *scheduler) Status() handlers.BackupStatus {
	st := handlers.BackupStatus{Every: s.every}
	if n := s.last.Load(); n != 0 {
		st.Last = time.Unix(0, n)
	}
	return st
}

// run takes a backup whenever one is due, until ctx ends. The first is due
// an interval after the newest in the folder, or, when there is none, an
// interval (at most an hour) after the start.
func (s *scheduler) run(ctx context.Context) {
	started := s.now()
	newest := s.scan()
	next := started.Add(min(s.every, time.Hour))
	if !newest.IsZero() {
		next = newest.Add(s.every)
	}
	s.log.Info("scheduled backups", "folder", s.dir, "every", s.every.String(), "keep", s.keep, "next", next.UTC().Format(time.RFC3339))
	for {
		timer := time.NewTimer(max(next.Sub(s.now()), 0))
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
		took, err := s.take(ctx)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			s.log.Error("the scheduled backup failed; the service goes on and tries again", "error", err, "folder", s.dir, "retry_in", s.retryAfter().String())
			next = s.now().Add(s.retryAfter())
		case took.IsZero(): // another instance holds the turn, or took it
			next = s.now().Add(s.retryAfter())
			if newest := s.scan(); !newest.IsZero() && newest.Add(s.every).After(next) {
				next = newest.Add(s.every)
			}
		default: // an interval from its end, so two are never closer than one
			next = s.now().Add(s.every)
		}
		s.warnIfStale(started)
	}
}

// warnIfStale logs at WARN when the newest backup is older than twice the
// interval, or there is none after twice the interval.
func (s *scheduler) warnIfStale(started time.Time) {
	now := s.now()
	newest := s.scan()
	switch {
	case newest.IsZero() && now.Sub(started) > 2*s.every:
		s.log.Warn("there is no backup yet in "+s.dir+", though the service has run more than twice EVENTS_BACKUP_EVERY", "every", s.every.String())
	case !newest.IsZero() && now.Sub(newest) > 2*s.every:
		s.log.Warn("the newest backup is older than twice EVENTS_BACKUP_EVERY: the scheduled ones fail (see the errors above)", "folder", s.dir,
			"age", now.Sub(newest).Round(time.Second).String(), "every", s.every.String())
	}
}

// take writes one backup unless another instance is writing one or the
// newest in the folder is recent, then prunes; it returns when it took it
// (zero when it did not).
func (s *scheduler) take(ctx context.Context) (time.Time, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return time.Time{}, fmt.Errorf("cannot reach the database: %w", err)
	}
	defer conn.Close()
	var mine bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(?)", backupLock).Scan(&mine); err != nil {
		return time.Time{}, fmt.Errorf("cannot take the backup lock: %w", err)
	}
	if !mine {
		s.log.Info("another instance is writing the scheduled backup")
		return time.Time{}, nil
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", backupLock)
	if newest := s.scan(); !newest.IsZero() && s.now().Sub(newest) < s.every/2 {
		return time.Time{}, nil // another instance took this turn
	}
	began := s.now()
	file, err := s.write(ctx, "")
	if err != nil {
		return time.Time{}, err
	}
	fi, err := os.Stat(file)
	if err != nil {
		return time.Time{}, err
	}
	s.log.Info("backup written", "file", file, "bytes", fi.Size(), "took", s.now().Sub(began).Round(time.Millisecond))
	s.prune()
	return began, nil
}

// write writes a backup named for now (and what it comes before, when not
// ""), in a folder it makes 0700 when missing, and returns its path.
func (s *scheduler) write(ctx context.Context, before string) (string, error) {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return "", fmt.Errorf("cannot make the folder for backups (EVENTS_BACKUP_DIR): %w", err)
	}
	name := backupPrefix + s.now().UTC().Format(backupStamp)
	if before != "" {
		name += "-before-" + before
	}
	file := filepath.Join(s.dir, name+backupSuffix)
	if _, err := os.Stat(file); err == nil {
		return "", fmt.Errorf("%s exists already", file)
	}
	if _, err := s.t.writeBackup(ctx, file); err != nil {
		return "", err
	}
	s.scan()
	return file, nil
}

// backupFiles lists the backups in dir, oldest first (their names sort by
// time).
func backupFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); e.Type().IsRegular() && strings.HasPrefix(n, backupPrefix) && strings.HasSuffix(n, backupSuffix) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// scan reads the time of the newest backup in the folder (the modification
// time of the newest file: a backup appears whole, by a rename), keeps it
// for Status, and returns it; zero when there is none.
func (s *scheduler) scan() time.Time {
	var newest time.Time
	for _, n := range backupFiles(s.dir) {
		if fi, err := os.Stat(filepath.Join(s.dir, n)); err == nil && fi.ModTime().After(newest) {
			newest = fi.ModTime()
		}
	}
	if newest.IsZero() {
		s.last.Store(0)
	} else {
		s.last.Store(newest.UnixNano())
	}
	return newest
}

// prune deletes the scheduled backups beyond the newest keep; those taken
// before migrating stay.
func (s *scheduler) prune() {
	var scheduled []string
	for _, n := range backupFiles(s.dir) {
		if !strings.Contains(n, "-before-") {
			scheduled = append(scheduled, n)
		}
	}
	for len(scheduled) > s.keep {
		file := filepath.Join(s.dir, scheduled[0])
		if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
			s.log.Error("cannot delete an old backup", "file", file, "error", err)
		} else {
			s.log.Info("old backup deleted", "file", file, "keep", s.keep)
		}
		scheduled = scheduled[1:]
	}
}

// beforeMigrating is app.MigrateUpgrade's hook: the backup an upgrade
// takes before it applies its first new migration, the way back.
func (s *scheduler) beforeMigrating(ctx context.Context, pending []string) error {
	began := s.now()
	file, err := s.write(ctx, pending[0])
	if err != nil {
		return fmt.Errorf("refusing to apply the new migrations without a backup first: %w", err)
	}
	s.log.Info("backup written before migrating", "file", file, "migrations", len(pending), "first", pending[0], "took", s.now().Sub(began).Round(time.Millisecond))
	return nil
}

// beforeBackup is the backup an upgrade took before migration first: the
// newest in dir, or "" when there is none.
func beforeBackup(dir, first string) string {
	files := backupFiles(dir)
	for i := len(files) - 1; i >= 0; i-- {
		if strings.HasSuffix(files[i], "-before-"+first+backupSuffix) {
			return filepath.Join(dir, files[i])
		}
	}
	return ""
}
