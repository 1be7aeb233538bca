package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"events/app"
)

// errNotEmpty is the one sentence of a refused restore.
func errNotEmpty(name string, n int64) error {
	return fmt.Errorf("refusing to restore: %s already holds %d events, and a restore goes only into a database without any (use a new EVENTS_DATA_DIR or an empty DATABASE_URL)", name, n)
}

// restore loads a pg_dump archive into the service's database, which must
// hold no events.
func restore(args []string, logger *slog.Logger) error {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return usageError("usage: events restore FILE, where FILE is a backup written by events backup")
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

// runClient runs a client program with env and returns what it wrote to
// its standard output; its error carries what it wrote to its standard
// error, without the program's name before each line.
func runClient(ctx context.Context, env []string, program string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Env = env
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		name := filepath.Base(program)
		return nil, fmt.Errorf("%s failed (%v): %s", name, err, strings.ReplaceAll(strings.TrimSpace(errOut.String()), name+": ", ""))
	}
	return []byte(out.String()), nil
}
