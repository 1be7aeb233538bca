// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"events/app"
	"events/internal/pgcluster"
)

// target is the database a backup reads or a restore fills: its DSN for
// the service's own connection, and the environment and major version for
// PostgreSQL's client programs.
type target struct {
	dsn   string
	env   []string // for pg_dump and pg_restore: this process's, PG* replaced
	major int
	bin   string // the embedded cluster's programs; "" with DATABASE_URL
	name  string // for messages
	close func()
}

// openTarget opens DATABASE_URL's database, or the embedded one: attached
// to it while `events serve` runs it, else started for the command.
func openTarget(ctx context.Context, cfg app.Config, logger *slog.Logger) (*target, error) {
	if cfg.DatabaseURL == "" {
		cluster, err := pgcluster.Open(ctx, embeddedOptions(cfg, logger))
		if err != nil {
			return nil, err
		}
		t := &target{dsn: cluster.URL(), env: cluster.ClientEnv(), bin: cluster.Bin(),
			name: "the embedded database in " + cluster.DataDir(), close: func() { _ = cluster.Stop() }}
		if err := t.readMajor(ctx); err != nil {
			t.close()
			return nil, err
		}
		return t, nil
	}
	env, err := clientEnv(cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	t := &target{dsn: cfg.DatabaseURL, env: env, name: "the database of DATABASE_URL", close: func() {}}
	if err := t.readMajor(ctx); err != nil {
		return nil, err
	}
	return t, nil
}

// clientEnv is the environment for PostgreSQL's client programs that
// connect to dsn: this process's without its PG* variables, plus the PG*
// variables that name dsn's server, database, user and password.
func clientEnv(dsn string) ([]string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL does not parse: %w", err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			env = append(env, kv)
		}
	}
	host, port := u.Hostname(), u.Port()
	if h := u.Query().Get("host"); h != "" { // a Unix socket, given as the socket file
		host = filepath.Dir(h)
		if i := strings.LastIndex(h, ".s.PGSQL."); i >= 0 {
			port = h[i+len(".s.PGSQL."):]
		}
	}
	env = append(env, "PGHOST="+host, "PGDATABASE="+strings.TrimPrefix(u.Path, "/"))
	if port != "" {
		env = append(env, "PGPORT="+port)
	}
	if u.User != nil {
		env = append(env, "PGUSER="+u.User.Username())
		if p, ok := u.User.Password(); ok {
			env = append(env, "PGPASSWORD="+p) // not on the command line, where ps shows it
		}
	}
	if mode := u.Query().Get("sslmode"); mode != "" {
		env = append(env, "PGSSLMODE="+mode)
	}
	return env, nil
}

// readMajor asks the server its major version.
func (t *target) readMajor(ctx context.Context) error {
	db, err := app.Connect(ctx, t.dsn, 0)
	if err != nil {
		return err
	}
	defer db.Close()
	var num int
	if err := db.QueryRowContext(ctx, "SELECT current_setting('server_version_num')::int").Scan(&num); err != nil {
		return fmt.Errorf("cannot read the version of %s: %w", t.name, err)
	}
	t.major = num / 10000
	return nil
}

// program is the client program name fit for the server: the embedded
// cluster's own, else the matching major's.
func (t *target) program(name string) (string, error) {
	if t.bin != "" {
		if p := filepath.Join(t.bin, name); isExecutable(p) {
			return p, nil
		}
	}
	return pgcluster.ClientProgram(name, t.major)
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// run runs a client program against the target and returns its error with
// what it said.
func (t *target) run(ctx context.Context, program string, args ...string) error {
	_, err := runClient(ctx, t.env, program, args...)
	return err
}

// usageError is a command line that does not parse: main prints it and
// exits 2, like every other usage error.
type usageError string

func (e usageError) Error() string { return string(e) }

// backupsDir is where a backup without -o goes, from the current folder.
const backupsDir = "backups"

// backup writes a pg_dump archive (custom format) of the service's
// database to -o FILE, by default backups/events-<UTC time>.dump. The file
// is readable by its owner only: it holds every event and the sessions.
func backup(args []string, logger *slog.Logger) error {
	const use = "usage: events backup [-o FILE]"
	fs := flag.NewFlagSet("events backup", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the error is printed once, by main
	out := fs.String("o", "", "the `file` to write (default "+backupsDir+"/events-YYYYMMDD-HHMMSS.dump, in UTC)")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(os.Stdout)
		fmt.Println(use)
		fs.PrintDefaults()
		return err
	} else if err != nil {
		return usageError(err.Error() + "; " + use)
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Sprintf("unexpected argument %q; %s", fs.Arg(0), use))
	}
	file := *out
	cfg, err := app.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	if opts := embeddedOptions(cfg, logger); cfg.DatabaseURL == "" && !pgcluster.Exists(opts) {
		return fmt.Errorf("there is no database to back up in %s: set EVENTS_DATA_DIR to the service's data folder, or DATABASE_URL", opts.DataDir)
	}
	if file == "" {
		if err := os.MkdirAll(backupsDir, 0o700); err != nil {
			return fmt.Errorf("cannot make the folder for backups: %w", err)
		}
		file = filepath.Join(backupsDir, "events-"+time.Now().UTC().Format("20060102-150405")+".dump")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	t, err := openTarget(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer t.close()
	began := time.Now()
	size, err := t.writeBackup(ctx, file)
	if err != nil {
		return err
	}
	logger.Info("backup written", "file", file, "bytes", size, "from", t.name, "took", time.Since(began).Round(time.Millisecond))
	return nil
}

// writeBackup writes a pg_dump archive (custom format) of t's database to
// file and returns its size. The archive appears whole or not at all, and
// with mode 0600 from its first byte: pg_dump truncates the file made here
// (CreateTemp: 0600, a name of its own, so a part left by a killed backup
// is in no one's way) and keeps its mode. What pg_dump wrote must read
// back as an archive (pg_restore --list) before it takes the name.
func (t *target) writeBackup(ctx context.Context, file string) (int64, error) {
	pgDump, err := t.program("pg_dump")
	if err != nil {
		return 0, err
	}
	pgRestore, err := t.program("pg_restore")
	if err != nil {
		return 0, err
	}
	f, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*.part")
	if err != nil {
		return 0, fmt.Errorf("cannot write the backup: %w", err)
	}
	part := f.Name()
	f.Close()
	if err := t.run(ctx, pgDump, "--format=custom", "--file="+part); err != nil {
		os.Remove(part)
		return 0, err
	}
	if _, err := runClient(ctx, t.env, pgRestore, "--list", part); err != nil {
		os.Remove(part)
		return 0, fmt.Errorf("the backup pg_dump wrote does not read back: %w", err)
	}
	if err := os.Rename(part, file); err != nil {
		os.Remove(part)
		return 0, err
	}
	fi, err := os.Stat(file)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

func envValue(env []string, key string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
}
