package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
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
	u, err := url.Parse(cfg.DatabaseURL)
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
	t := &target{dsn: cfg.DatabaseURL, env: env, name: "the database of DATABASE_URL", close: func() {}}
	if err := t.readMajor(ctx); err != nil {
		return nil, err
	}
	return t, nil
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

// run runs a client program and returns its error with what it said.
func (t *target) run(ctx context.Context, program string, args ...string) error {
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Env = t.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s failed (%v): %s", filepath.Base(program), err, strings.TrimSpace(out.String()))
	}
	return nil
}

// backup writes a pg_dump archive (custom format) of the service's
// database to -o FILE (default events-<UTC time>.dump).
func backup(args []string, logger *slog.Logger) error {
	fs := flag.NewFlagSet("events backup", flag.ContinueOnError)
	out := fs.String("o", "", "the `file` to write (default events-YYYYMMDD-HHMMSS.dump, in UTC)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q; usage: events backup [-o FILE]", fs.Arg(0))
	}
	file := *out
	if file == "" {
		file = "events-" + time.Now().UTC().Format("20060102-150405") + ".dump"
	}
	cfg, err := app.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	if opts := embeddedOptions(cfg, logger); cfg.DatabaseURL == "" && !pgcluster.Exists(opts) {
		return fmt.Errorf("there is no database to back up in %s: set EVENTS_DATA_DIR to the service's data folder, or DATABASE_URL", opts.DataDir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	t, err := openTarget(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer t.close()
	pgDump, err := t.program("pg_dump")
	if err != nil {
		return err
	}
	began := time.Now()
	part := file + ".part" // the archive appears whole or not at all
	if err := t.run(ctx, pgDump, "--format=custom", "--file="+part); err != nil {
		os.Remove(part)
		return err
	}
	if err := os.Rename(part, file); err != nil {
		os.Remove(part)
		return err
	}
	fi, err := os.Stat(file)
	if err != nil {
		return err
	}
	logger.Info("backup written", "file", file, "bytes", fi.Size(), "from", t.name, "pg_dump", pgDump, "took", time.Since(began).Round(time.Millisecond))
	return nil
}

// errNotEmpty is the one sentence of a refused restore.
func errNotEmpty(name string, n int64) error {
	return fmt.Errorf("refusing to restore: %s already holds %d events, and a restore goes only into a database without any (use a new EVENTS_DATA_DIR or an empty DATABASE_URL)", name, n)
}

// restore loads a pg_dump archive into the service's database, which must
// hold no events.
func restore(args []string, logger *slog.Logger) error {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return errors.New("usage: events restore FILE")
	}
	file := args[0]
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("cannot read the backup: %w", err)
	}
	head := make([]byte, 5)
	_, err = io.ReadFull(f, head)
	f.Close()
	if err != nil || string(head) != "PGDMP" {
		return fmt.Errorf("%s is not a backup made by events backup (a pg_dump archive in custom format)", file)
	}
	cfg, err := app.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	t, err := openTarget(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer t.close()
	if n, err := countEvents(ctx, t.dsn); err != nil {
		return err
	} else if n > 0 {
		return errNotEmpty(t.name, n)
	}
	pgRestore, err := t.program("pg_restore")
	if err != nil {
		return err
	}
	began := time.Now()
	// --clean --if-exists: a database the service has migrated but that
	// holds no events takes the archive too.
	if err := t.run(ctx, pgRestore, "--clean", "--if-exists", "--no-owner", "--no-acl",
		"--single-transaction", "--exit-on-error", "--dbname="+envValue(t.env, "PGDATABASE"), file); err != nil {
		return err
	}
	n, err := countEvents(ctx, t.dsn)
	if err != nil {
		return err
	}
	logger.Info("backup restored", "file", file, "into", t.name, "events", n, "took", time.Since(began).Round(time.Millisecond))
	return nil
}

// countEvents counts the events of the database; none when it has no
// events table yet.
func countEvents(ctx context.Context, dsn string) (int64, error) {
	db, err := app.Connect(ctx, dsn, 0)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var exists bool
	if err := db.QueryRowContext(ctx, "SELECT to_regclass('public.events') IS NOT NULL").Scan(&exists); err != nil || !exists {
		return 0, err
	}
	var n int64
	err = db.QueryRowContext(ctx, "SELECT count(*) FROM events").Scan(&n)
	return n, err
}

func envValue(env []string, key string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
}
