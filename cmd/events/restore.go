// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// events restore FILE.
//
// A restore runs nothing an archive says; it only takes its rows. It reads
// the archive's table of contents (pg_restore --list) and refuses any entry
// that a database made by this binary's migrations does not hold: the
// reference is such a database, made for the purpose beside the target (a
// scratch database, migrated, dumped with the same pg_dump and listed), so
// the allow-list is what the migrations create today and cannot drift. The
// schema of the target then comes from the migrations too, never from the
// archive: pg_restore only writes the archive's rows out as text (--file=-,
// it never connects to a database), and this process loads them into the
// migrated tables with COPY FROM STDIN, in one transaction, after checking
// each COPY statement against the reference's, and sets the sequences from
// the archive's values. So a function, view, trigger, extension, grant or
// owner in a crafted archive is refused before anything is written, and a
// definition changed under one of our names (a CHECK that calls lo_export,
// say) is never run: its rows meet our constraints instead.
//
// The reference and the target are migrated as far as the archive's
// database was (its bun_migrations), so a backup written by an older
// events restores too; the target is migrated the rest of the way after
// the load. An archive written by a newer events is refused.

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"

	"events/app"
	"events/migrations"
)

// errNotEmpty is the one sentence of a refused restore.
func errNotEmpty(name string, n int64) error {
	return fmt.Errorf("refusing to restore: %s already holds %d events, and a restore goes only into a database without any (use a new EVENTS_DATA_DIR or an empty DATABASE_URL)", name, n)
}

// restore loads a pg_dump archive written by events backup into the
// service's database, which must hold no events.
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
	pgDump, err := t.program("pg_dump")
	if err != nil {
		return err
	}
	began := time.Now()

	entries, err := listArchive(ctx, t.env, pgRestore, file)
	if err != nil {
		return err
	}
	theirs, err := archiveMigrations(ctx, t.env, pgRestore, file, entries)
	if err != nil {
		return err
	}
	if err := checkTargetMigrations(ctx, t, file, theirs); err != nil {
		return err
	}
	fsys := migrationsOnly(theirs)
	ref, err := reference(ctx, t, logger, pgDump, pgRestore, fsys)
	if err != nil {
		return err
	}
	if bad := ref.unknown(entries); len(bad) > 0 {
		if len(bad) > 12 {
			bad = append(bad[:12], fmt.Sprintf("and %d more", len(bad)-12))
		}
		return fmt.Errorf("refusing to restore: %s holds what the events migrations do not create (none of it ran, no row was written): %s", file, strings.Join(bad, "; "))
	}
	if n := len(slices.DeleteFunc(slices.Clone(entries), func(e tocEntry) bool { return !isPrivilege(e) })); n > 0 {
		logger.Info("the backup's privileges are not restored: the migrations' own hold", "entries", n)
	}
	if err := checkData(ctx, t.env, pgRestore, file, entries, ref); err != nil {
		return err
	}
	n, err := load(ctx, t, pgRestore, file, entries, ref, fsys)
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

// tocEntry is one line of pg_restore --list.
type tocEntry struct {
	line string // as pg_restore printed it: "3513; 0 16470 TABLE DATA public events events"
	key  string // its kind, schema and name, without ids and owner: "TABLE DATA public events"
}

// listArchive reads the table of contents of an archive.
func listArchive(ctx context.Context, env []string, pgRestore, file string) ([]tocEntry, error) {
	out, err := runClient(ctx, env, pgRestore, "--list", file)
	if err != nil {
		return nil, err
	}
	var entries []tocEntry
	for _, line := range strings.Split(string(out), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, ";") {
			continue
		}
		_, rest, ok := strings.Cut(line, "; ")
		f := strings.SplitN(rest, " ", 3)
		if !ok || len(f) < 3 {
			return nil, fmt.Errorf("%s: pg_restore --list printed a line this program cannot read: %q", file, line)
		}
		key := f[2]
		if i := strings.LastIndex(key, " "); i >= 0 {
			key = key[:i] // the owner, empty for some kinds
		}
		entries = append(entries, tocEntry{line: line, key: key})
	}
	return entries, nil
}

// schemaRef is what a database made by the migrations holds, as its
// archive lists it.
type schemaRef struct {
	keys   map[string]bool   // every entry's kind, schema and name
	copies map[string]string // a table's COPY statement -> the table
	seqs   map[string]bool   // the sequences
}

// unknown returns the entries of an archive that the reference does not
// hold. Privileges (GRANT, ALTER DEFAULT PRIVILEGES) are not among them: a
// restore never applies them, like pg_restore --no-privileges, and a
// database behind DATABASE_URL often grants some to another role.
func (ref *schemaRef) unknown(entries []tocEntry) []string {
	var bad []string
	for _, e := range entries {
		if !ref.keys[e.key] && !isPrivilege(e) {
			bad = append(bad, e.key)
		}
	}
	return bad
}

func isPrivilege(e tocEntry) bool {
	return strings.HasPrefix(e.key, "ACL ") || strings.HasPrefix(e.key, "DEFAULT ACL ")
}

// reference migrates a scratch database beside the target's, dumps it and
// reads what the archive of a database made by the migrations holds. When
// DATABASE_URL's role may not create a database, the target itself is
// migrated and read instead (a restore goes only into a database without
// events, which the service would migrate at its start anyway).
func reference(ctx context.Context, t *target, logger *slog.Logger, pgDump, pgRestore string, fsys fs.FS) (*schemaRef, error) {
	admin, err := app.Connect(ctx, t.dsn, 0)
	if err != nil {
		return nil, err
	}
	defer admin.Close()
	dsn, env := t.dsn, t.env
	scratch := "events_restore_check_" + strconv.Itoa(os.Getpid())
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+quoteIdent(scratch)); err != nil {
		var pgErr pgdriver.Error
		if !errors.As(err, &pgErr) || pgErr.Field('C') != "42501" {
			return nil, fmt.Errorf("cannot make a scratch database to check the backup against: %w", err)
		}
		logger.Warn("the database role may not create a scratch database: the backup is checked against "+t.name+", migrated first", "error", pgErr.Field('M'))
	} else {
		defer func() {
			if _, err := admin.ExecContext(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+quoteIdent(scratch)+" WITH (FORCE)"); err != nil {
				logger.Warn("cannot drop the scratch database", "database", scratch, "error", err)
			}
		}()
		if dsn, err = withDatabase(t.dsn, scratch); err != nil {
			return nil, err
		}
		env = append(slices.Clone(t.env), "PGDATABASE="+scratch) // the later one counts
	}
	db, err := app.Connect(ctx, dsn, 0)
	if err != nil {
		return nil, err
	}
	err = app.MigrateFS(ctx, db, fsys)
	db.Close()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "events-restore-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "reference.dump")
	if _, err := runClient(ctx, env, pgDump, "--format=custom", "--file="+file); err != nil {
		return nil, err
	}
	entries, err := listArchive(ctx, env, pgRestore, file)
	if err != nil {
		return nil, err
	}
	ref := &schemaRef{keys: map[string]bool{}, copies: map[string]string{}, seqs: map[string]bool{}}
	for _, e := range entries {
		ref.keys[e.key] = true
	}
	out, err := runClient(ctx, env, pgRestore, "--data-only", "--file=-", file)
	if err != nil {
		return nil, err
	}
	err = readData(strings.NewReader(string(out)), dataHandler{
		copy: func(stmt string, rows io.Reader) error {
			ref.copies[stmt] = strings.TrimPrefix(strings.Fields(stmt)[1], "public.")
			return nil
		},
		setval: func(seq string, _ int64, _ bool) error {
			ref.seqs[seq] = true
			return nil
		},
	})
	return ref, err
}

// ourMigrations are the names of the embedded migrations, as bun records
// them in bun_migrations.
func ourMigrations() ([]string, error) {
	files, err := fs.Glob(migrations.FS, "*.up.sql")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range files {
		name, _, _ := strings.Cut(f, "_")
		names = append(names, name)
	}
	return names, nil
}

// archiveMigrations returns the migrations the archive's database had,
// and refuses an archive written by a newer events, whose tables this one
// does not know.
func archiveMigrations(ctx context.Context, env []string, pgRestore, file string, entries []tocEntry) ([]string, error) {
	i := slices.IndexFunc(entries, func(e tocEntry) bool { return e.key == "TABLE DATA public bun_migrations" })
	if i < 0 {
		return nil, fmt.Errorf("%s is not a backup made by events backup: it has no bun_migrations table", file)
	}
	list, err := writeList(entries[i : i+1])
	if err != nil {
		return nil, err
	}
	defer os.Remove(list)
	out, err := runClient(ctx, env, pgRestore, "--data-only", "--file=-", "--use-list="+list, file)
	if err != nil {
		return nil, err
	}
	var theirs []string
	err = readData(strings.NewReader(string(out)), dataHandler{copy: func(stmt string, rows io.Reader) error {
		col := slices.Index(copyColumns(stmt), "name")
		if col < 0 {
			return fmt.Errorf("%s is not a backup made by events backup: its bun_migrations has no name", file)
		}
		sc := bufio.NewScanner(rows)
		for sc.Scan() {
			if f := strings.Split(sc.Text(), "\t"); col < len(f) {
				theirs = append(theirs, f[col])
			}
		}
		return sc.Err()
	}})
	if err != nil {
		return nil, err
	}
	ours, err := ourMigrations()
	if err != nil {
		return nil, err
	}
	for _, m := range theirs {
		if !slices.Contains(ours, m) {
			return nil, fmt.Errorf("refusing to restore: %s was written by a newer events (its database has the migration %.40s, which this one does not know): restore it with that version", file, m)
		}
	}
	return theirs, nil
}

// checkTargetMigrations refuses a target that is migrated past the
// archive (an older backup): its tables would not take the archive's rows.
func checkTargetMigrations(ctx context.Context, t *target, file string, theirs []string) error {
	db, err := app.Connect(ctx, t.dsn, 0)
	if err != nil {
		return err
	}
	defer db.Close()
	var exists bool
	if err := db.QueryRowContext(ctx, "SELECT to_regclass('public.bun_migrations') IS NOT NULL").Scan(&exists); err != nil || !exists {
		return err
	}
	var applied []string
	if err := db.NewSelect().Table("bun_migrations").Column("name").Scan(ctx, &applied); err != nil {
		return err
	}
	for _, m := range applied {
		if !slices.Contains(theirs, m) {
			return fmt.Errorf("refusing to restore: %s was written by an older events, and %s is already migrated past it (migration %s): restore into a new EVENTS_DATA_DIR or an empty database, which the restore migrates as far as the backup, loads, then migrates to this version", file, t.name, m)
		}
	}
	return nil
}

// migrationsOnly is the embedded migrations folder with only the named
// migrations in it.
func migrationsOnly(names []string) fs.FS {
	return onlyMigrations{migrations.FS, names}
}

type onlyMigrations struct {
	fs.FS
	names []string
}

func (o onlyMigrations) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(o.FS, name)
	return slices.DeleteFunc(entries, func(e fs.DirEntry) bool {
		prefix, _, _ := strings.Cut(e.Name(), "_")
		return !e.IsDir() && !slices.Contains(o.names, prefix)
	}), err
}

// copyColumns returns the columns of "COPY public.t (a, b) FROM stdin;".
func copyColumns(stmt string) []string {
	_, cols, _ := strings.Cut(stmt, " (")
	cols, _, _ = strings.Cut(cols, ") FROM stdin;")
	return strings.Split(cols, ", ")
}

// writeList writes a list file for pg_restore --use-list: the entries, in
// the order they are to be restored.
func writeList(entries []tocEntry) (string, error) {
	f, err := os.CreateTemp("", "events-restore-*.list")
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		fmt.Fprintln(f, e.line)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// dataEntries picks the entries of an archive that a restore takes: the
// rows of each of our tables (not bun's, which the target's migrations
// write) by table, and the values of the sequences.
func dataEntries(entries []tocEntry) (map[string]tocEntry, []tocEntry) {
	data := map[string]tocEntry{}
	var seqs []tocEntry
	for _, e := range entries {
		if strings.Contains(e.key, " public bun_") {
			continue
		}
		if table, ok := strings.CutPrefix(e.key, "TABLE DATA public "); ok {
			data[table] = e
		} else if strings.HasPrefix(e.key, "SEQUENCE SET public ") {
			seqs = append(seqs, e)
		}
	}
	return data, seqs
}

// ourCopies are the COPY statements of our tables (not bun's), each with
// its table.
func (ref *schemaRef) ourCopies() map[string]string {
	ours := map[string]string{}
	for stmt, table := range ref.copies {
		if !strings.HasPrefix(table, "bun_") {
			ours[stmt] = table
		}
	}
	return ours
}

// checked wraps h so that only the reference's COPY statements of our
// tables and setval of our sequences reach it; anything else refuses the
// restore.
func (ref *schemaRef) checked(file string, h dataHandler) dataHandler {
	ours := ref.ourCopies()
	return dataHandler{
		copy: func(stmt string, rows io.Reader) error {
			if _, ok := ours[stmt]; !ok {
				return fmt.Errorf("refusing to restore: %s holds rows for a table this version of events does not have, or not with these columns (none of it ran, no row was written): %.200s", file, stmt)
			}
			if h.copy == nil {
				return nil
			}
			return h.copy(stmt, rows)
		},
		setval: func(seq string, value int64, called bool) error {
			if !ref.seqs[seq] || strings.HasPrefix(seq, "bun_") {
				return fmt.Errorf("refusing to restore: %s sets a sequence this version of events does not have (none of it ran, no row was written): %s", file, seq)
			}
			if h.setval == nil {
				return nil
			}
			return h.setval(seq, value, called)
		},
	}
}

// checkData reads the rows an archive would restore, before anything is
// written, and refuses it when they are not only rows of our tables and
// values of our sequences.
func checkData(ctx context.Context, env []string, pgRestore, file string, entries []tocEntry, ref *schemaRef) error {
	data, seqs := dataEntries(entries)
	list, err := writeList(append(slices.Collect(maps.Values(data)), seqs...))
	if err != nil {
		return err
	}
	defer os.Remove(list)
	cmd := exec.CommandContext(ctx, pgRestore, "--data-only", "--file=-", "--use-list="+list, file)
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	if err := readData(stdout, ref.checked(file, dataHandler{})); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return err
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("pg_restore failed (%v): %s", err, strings.ReplaceAll(strings.TrimSpace(stderr.String()), "pg_restore: ", ""))
	}
	return nil
}

// load migrates the target and fills its tables with the archive's rows,
// in one transaction that first makes sure it holds no events. It returns
// the number of events restored.
func load(ctx context.Context, t *target, pgRestore, file string, entries []tocEntry, ref *schemaRef, fsys fs.FS) (int64, error) {
	db, err := app.Connect(ctx, t.dsn, 0)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	if err := app.MigrateFS(ctx, db, fsys); err != nil {
		return 0, err
	}
	list, err := restoreList(ctx, db, entries)
	if err != nil {
		return 0, err
	}
	defer os.Remove(list)
	allowed := ref.ourCopies()
	var all []string
	for _, table := range allowed {
		all = append(all, "public."+quoteIdent(table))
	}
	slices.Sort(all)

	cdb, err := copyDB(ctx, t.dsn)
	if err != nil {
		return 0, err
	}
	defer cdb.Close()
	conn, err := cdb.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return 0, err
	}
	committed := false
	defer func() {
		if !committed {
			_, _ = conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		}
	}()
	if err := emptyTarget(ctx, conn, t, all); err != nil {
		return 0, err
	}
	if err := restoreRows(ctx, conn, t, pgRestore, file, list, ref, allowed); err != nil {
		return 0, err
	}
	if err := checkSequences(ctx, conn, file); err != nil {
		return 0, err
	}
	var n int64
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM events").Scan(&n); err != nil {
		return 0, err
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return 0, err
	}
	committed = true
	// The migrations of this version the backup's database did not have
	// yet, over its rows.
	if err := app.Migrate(ctx, db); err != nil {
		return n, fmt.Errorf("the backup is restored, but migrating it to this version failed (the service tries again at its start): %w", err)
	}
	return n, nil
}

// restoreList writes the list of the archive's entries to restore, for
// pg_restore --use-list: the rows of our tables, each table after those it
// refers to, then the sequences. The caller removes the file.
func restoreList(ctx context.Context, db *bun.DB, entries []tocEntry) (string, error) {
	data, seqs := dataEntries(entries)
	tables, err := parentsFirst(ctx, db, slices.Sorted(maps.Keys(data)))
	if err != nil {
		return "", err
	}
	var chosen []tocEntry
	for _, table := range tables {
		chosen = append(chosen, data[table])
	}
	return writeList(append(chosen, seqs...))
}

// emptyTarget, in conn's transaction, locks the tables all, refuses a
// target that holds events and empties the rest.
func emptyTarget(ctx context.Context, conn bun.Conn, t *target, all []string) error {
	// Locked before they are counted, so a service running on the target
	// cannot write an event between the count and the load.
	if _, err := conn.ExecContext(ctx, "LOCK TABLE "+strings.Join(all, ", ")+" IN ACCESS EXCLUSIVE MODE"); err != nil {
		return err
	}
	var n int64
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM events").Scan(&n); err != nil {
		return err
	} else if n > 0 {
		return errNotEmpty(t.name, n)
	}
	// Sessions, login attempts and idempotency keys of the target give way
	// to the archive's.
	_, err := conn.ExecContext(ctx, "TRUNCATE "+strings.Join(all, ", "))
	return err
}

// restoreRows runs pg_restore over the entries of list and copies the rows
// it writes into conn's transaction, and sets the sequences, as ref checks
// them; allowed are our tables' COPY statements.
func restoreRows(ctx context.Context, conn bun.Conn, t *target, pgRestore, file, list string, ref *schemaRef, allowed map[string]string) error {
	cmd := exec.CommandContext(ctx, pgRestore, "--data-only", "--file=-", "--use-list="+list, file)
	cmd.Env = t.env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	err = readData(stdout, ref.checked(file, dataHandler{
		copy: func(stmt string, rows io.Reader) error {
			if _, err := pgdriver.CopyFrom(ctx, conn, rows, stmt); err != nil {
				return fmt.Errorf("cannot restore the rows of %s: %w", allowed[stmt], err)
			}
			return nil
		},
		setval: func(seq string, value int64, called bool) error {
			_, err := conn.ExecContext(ctx, "SELECT pg_catalog.setval(?::regclass, ?, ?)", "public."+quoteIdent(seq), value, called)
			return err
		},
	}))
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return err
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("pg_restore failed (%v): %s", err, strings.ReplaceAll(strings.TrimSpace(stderr.String()), "pg_restore: ", ""))
	}
	return nil
}

// copyDB opens dsn with pgdriver's own connections, which COPY FROM STDIN
// needs (app.OpenDB wraps them to enforce deadlines).
func copyDB(ctx context.Context, dsn string) (*bun.DB, error) {
	open := func(dsn string) *bun.DB {
		params := app.SessionParams(pgdriver.NewConnector(pgdriver.WithDSN(dsn)).Config().ConnParams)
		sqldb := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn), pgdriver.WithConnParams(params)))
		return bun.NewDB(sqldb, pgdialect.New())
	}
	db := open(dsn)
	err := db.PingContext(ctx)
	if err != nil && strings.Contains(err.Error(), "SSL is not enabled on the server") && !strings.Contains(dsn, "sslmode=") {
		db.Close()
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		db = open(dsn + sep + "sslmode=disable")
		err = db.PingContext(ctx)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("cannot reach the database: %w", err)
	}
	return db, nil
}

// parentsFirst orders tables so that each comes after the tables its
// foreign keys refer to (a table referring to itself is loaded in one
// COPY, whose checks run at its end).
func parentsFirst(ctx context.Context, db *bun.DB, tables []string) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT a.relname, b.relname FROM pg_constraint k
		JOIN pg_class a ON a.oid = k.conrelid JOIN pg_class b ON b.oid = k.confrelid
		WHERE k.contype = 'f' AND a.relnamespace = 'public'::regnamespace AND a.oid <> b.oid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	parents := map[string][]string{}
	for rows.Next() {
		var child, parent string
		if err := rows.Scan(&child, &parent); err != nil {
			return nil, err
		}
		parents[child] = append(parents[child], parent)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var ordered []string
	placed := map[string]bool{}
	for len(ordered) < len(tables) {
		progress := false
		for _, table := range tables {
			if placed[table] {
				continue
			}
			ready := true
			for _, p := range parents[table] {
				if slices.Contains(tables, p) && !placed[p] {
					ready = false
				}
			}
			if ready {
				ordered, placed[table], progress = append(ordered, table), true, true
			}
		}
		if !progress {
			return nil, fmt.Errorf("the foreign keys of %v form a cycle: cannot order their rows", tables)
		}
	}
	return ordered, nil
}

// dataHandler receives what pg_restore --data-only --file=- writes: each
// table's COPY statement with its rows, and each sequence's value.
type dataHandler struct {
	copy   func(stmt string, rows io.Reader) error
	setval func(seq string, value int64, called bool) error
}

var (
	setLine    = regexp.MustCompile(`^SET [a-z_]+ = [^;]*;$`)
	setvalLine = regexp.MustCompile(`^SELECT pg_catalog\.setval\('public\.([a-z_][a-z0-9_]*)', (\d+), (true|false)\);$`)
)

// readData reads a data-only script. None of it is run as written: a COPY
// statement's rows go to h.copy, a setval's values to h.setval, the
// session settings are skipped, and anything else is refused.
func readData(r io.Reader, h dataHandler) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF && line == "" {
			return nil
		} else if err != nil && err != io.EOF {
			return err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "", strings.HasPrefix(line, "--"),
			strings.HasPrefix(line, `\restrict `), strings.HasPrefix(line, `\unrestrict `),
			line == "SELECT pg_catalog.set_config('search_path', '', false);":
		case strings.HasPrefix(line, "SET client_encoding = "):
			if line != "SET client_encoding = 'UTF8';" {
				return fmt.Errorf("refusing to restore: the backup's rows are not in UTF8 (%s)", line)
			}
		case setLine.MatchString(line):
		case strings.HasPrefix(line, "COPY public.") && strings.HasSuffix(line, " FROM stdin;"):
			rows := &copyRows{r: br}
			if h.copy != nil {
				if err := h.copy(line, rows); err != nil {
					return err
				}
			}
			if _, err := io.Copy(io.Discard, rows); err != nil {
				return err
			}
			if rows.err != nil {
				return rows.err
			}
		case setvalLine.MatchString(line):
			m := setvalLine.FindStringSubmatch(line)
			value, err := strconv.ParseInt(m[2], 10, 64)
			if err != nil {
				return fmt.Errorf("refusing to restore: a sequence value out of range: %s", line)
			}
			if h.setval != nil {
				if err := h.setval(m[1], value, m[3] == "true"); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("refusing to restore: the backup's data holds a statement that is not data: %.200q", line)
		}
	}
}

// copyRows reads the rows of one COPY, up to the line `\.` that ends them
// (which pg_dump's text format never writes inside a value: a backslash
// in a value is doubled). It always ends with io.EOF, so the COPY is
// finished normally; a script that ends inside the rows leaves err set.
type copyRows struct {
	r       *bufio.Reader
	pending []byte
	done    bool
	err     error
}

func (c *copyRows) Read(p []byte) (int, error) {
	for len(c.pending) == 0 {
		if c.done {
			return 0, io.EOF
		}
		line, err := c.r.ReadBytes('\n')
		if err != nil {
			c.done, c.err = true, errors.New("refusing to restore: the backup's rows of a table end without their end mark")
			return 0, io.EOF
		}
		if string(line) == "\\.\n" {
			c.done = true
			return 0, io.EOF
		}
		c.pending = line
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
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

// withDatabase returns dsn with its database replaced.
func withDatabase(dsn, database string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", fmt.Errorf("DATABASE_URL does not parse: %w", err)
	}
	u.Path, u.RawPath = "/"+database, ""
	return u.String(), nil
}

func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// sequenceRoom is the fewest ids a restored sequence must leave before its
// end: a backup whose sequence is nearer (a crafted setval to the last
// bigint) would make every later create fail.
const sequenceRoom = 1 << 32

// checkSequences refuses a restore whose sequences would break the next
// create: one behind the largest id of its column (the next id is taken),
// or within sequenceRoom of its end. Each sequence owned by a column of
// our tables is checked, in the load's transaction, so a refusal writes
// nothing.
func checkSequences(ctx context.Context, conn bun.Conn, file string) error {
	rows, err := conn.QueryContext(ctx, `SELECT s.relname, t.relname, a.attname, q.seqmax
		FROM pg_catalog.pg_class s
		JOIN pg_catalog.pg_sequence q ON q.seqrelid = s.oid
		JOIN pg_catalog.pg_depend d ON d.objid = s.oid AND d.classid = 'pg_catalog.pg_class'::regclass AND d.deptype IN ('a', 'i')
		JOIN pg_catalog.pg_class t ON t.oid = d.refobjid
		JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
		JOIN pg_catalog.pg_namespace n ON n.oid = s.relnamespace
		WHERE s.relkind = 'S' AND n.nspname = 'public'
		ORDER BY s.relname`)
	if err != nil {
		return err
	}
	type seq struct {
		name, table, column string
		max                 int64
	}
	var seqs []seq
	for rows.Next() {
		var q seq
		if err := rows.Scan(&q.name, &q.table, &q.column, &q.max); err != nil {
			rows.Close()
			return err
		}
		seqs = append(seqs, q)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, q := range seqs {
		var top sql.NullInt64
		if err := conn.QueryRowContext(ctx, "SELECT max("+quoteIdent(q.column)+") FROM public."+quoteIdent(q.table)).Scan(&top); err != nil {
			return err
		}
		var last int64
		var called bool
		if err := conn.QueryRowContext(ctx, "SELECT last_value, is_called FROM public."+quoteIdent(q.name)).Scan(&last, &called); err != nil {
			return err
		}
		if last > q.max-sequenceRoom {
			return fmt.Errorf("refusing to restore: %s sets the sequence %s to %d, within %d of its end, %d: the creates after it would fail (no row was written)", file, q.name, last, int64(sequenceRoom), q.max)
		}
		next := last // the id nextval gives next
		if called {
			next++
		}
		if top.Valid && next <= top.Int64 {
			return fmt.Errorf("refusing to restore: %s sets the sequence %s to %d, not past the largest %s.%s, %d: the next create would take an id already there (no row was written)", file, q.name, last, q.table, q.column, top.Int64)
		}
	}
	return nil
}
