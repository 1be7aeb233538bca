// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// Open gives access to the cluster of opts for a command that runs beside the service (backup,
// restore): when the service runs it, Open attaches to it (Stop then leaves it running);
// otherwise it starts it like Start (Stop stops it).
func Open(ctx context.Context, opts Options) (*Cluster, error) {
	dataDir, acct, err := resolve(opts, logger(opts))
	if err != nil {
		return nil, err
	}
	if f, err := os.Open(dataDir + ".owner"); err == nil {
		held := errors.Is(syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB), syscall.EWOULDBLOCK)
		f.Close()
		if held {
			return attach(ctx, opts, dataDir, acct)
		}
	}
	return Start(ctx, opts)
}

func logger(opts Options) *slog.Logger {
	if opts.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return opts.Logger
}

// Exists reports whether the data folder of opts (where Start would find it) holds a cluster.
func Exists(opts Options) bool {
	dataDir, _, err := resolve(opts, slog.New(slog.DiscardHandler))
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(dataDir, "PG_VERSION"))
	return err == nil
}

// attach returns the running cluster of another process.
func attach(ctx context.Context, opts Options, dataDir string, acct *account) (*Cluster, error) {
	bin, err := BinariesFor(dataDir)
	if err != nil {
		return nil, err
	}
	database := opts.database()
	c := &Cluster{bin: bin, dataDir: dataDir, logPath: dataDir + ".log", database: database, acct: acct,
		log: logger(opts), attached: true}
	running, _, err := c.status(ctx)
	if err != nil {
		return nil, err
	}
	sockDir := socketDirOf(filepath.Join(dataDir, "postmaster.pid"))
	if !running || sockDir == "" {
		return nil, fmt.Errorf("the PostgreSQL cluster in %s belongs to a running events serve (process %d) and its server is not running now (it is being started again): try again in a moment", dataDir, readOwnerPID(dataDir+".owner"))
	}
	if _, err := os.Stat(filepath.Join(sockDir, ".s.PGSQL."+strconv.Itoa(port))); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("cannot reach the database: the running events serve (process %d) keeps its socket in %s, which this process cannot see (a systemd unit with PrivateTmp=true gives the service a /tmp of its own); the service takes its own backups (EVENTS_BACKUP_DIR, EVENTS_BACKUP_EVERY), and one by hand runs in its namespace: sudo nsenter --target %d --mount events backup -o FILE", readOwnerPID(dataDir+".owner"), sockDir, readOwnerPID(dataDir+".owner"))
	}
	c.sockDir = sockDir
	return c, nil
}

// ClientProgram returns the path of a client program (pg_dump, pg_restore) fit for a server of
// the given major version: that major's, else the newest installed newer one (pg_dump reads
// older servers), found under /usr/lib/postgresql or on PATH.
func ClientProgram(name string, major int) (string, error) {
	return clientProgram(exec.LookPath, debianLibRoot, name, major)
}

func clientProgram(lookPath func(string) (string, error), libRoot, name string, major int) (string, error) {
	type found struct {
		path  string
		major int
	}
	var all []found
	if entries, err := os.ReadDir(libRoot); err == nil {
		for _, e := range entries {
			v, ok := parseVersion(e.Name())
			if !ok {
				continue
			}
			p := filepath.Join(libRoot, e.Name(), "bin", name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				all = append(all, found{p, v[0]})
			}
		}
	}
	if p, err := lookPath(name); err == nil {
		if out, err := exec.Command(p, "--version").Output(); err == nil {
			if m := versionOutput.FindSubmatch(out); m != nil {
				if v, ok := parseVersion(string(m[1])); ok {
					all = append(all, found{p, v[0]})
				}
			}
		}
	}
	slices.SortStableFunc(all, func(a, b found) int { return a.major - b.major })
	for _, f := range all {
		if f.major == major {
			return f.path, nil
		}
	}
	for _, f := range all {
		if f.major > major {
			return f.path, nil
		}
	}
	m := strconv.Itoa(major)
	return "", fmt.Errorf("%s for PostgreSQL %s or newer is not installed: install your system's PostgreSQL %s client package (Debian/Ubuntu: apt-get install postgresql-client-%s)", name, m, m, m)
}

// ClientEnv is the environment for a client program (pg_dump, pg_restore) that connects to the
// cluster's database: this process's without its PG* variables, plus PGHOST, PGPORT, PGUSER and
// PGDATABASE of the cluster.
func (c *Cluster) ClientEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			env = append(env, kv)
		}
	}
	return append(env, "PGHOST="+c.sockDir, "PGPORT="+strconv.Itoa(port), "PGUSER="+superuser, "PGDATABASE="+c.database)
}
