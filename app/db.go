// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package app holds the use cases of the events service over bun: each write
// runs in one transaction, every query takes the request's context.
package app

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"maps"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/uptrace/bun/migrate"

	"events/migrations"
)

// OpenDB opens the database at dsn; it does not connect yet. Sessions run in
// UTC, a statement may run at most statementTimeout (0: no limit), the
// planner runs with SessionDefaults, and the other session parameters of
// the URL are kept. A URL pgdriver cannot read
// is an error.
//
// Connecting may take dialTimeout. Once sent, a statement is bounded by
// PostgreSQL (statementTimeout, or the deadline of a context marked with
// WithStatementDeadline), not by a socket timeout of the driver, which
// would cut a lock wait short and leave its backend running: the socket
// waits for the statement timeout and socketSlack more, or until the
// context's deadline.
func OpenDB(dsn string, statementTimeout time.Duration) (db *bun.DB, err error) {
	defer func() {
		if r := recover(); r != nil { // pgdriver.WithDSN panics on a URL it cannot read
			db, err = nil, fmt.Errorf("bad database URL: %v", r)
		}
	}()
	params := SessionParams(pgdriver.NewConnector(pgdriver.WithDSN(dsn)).Config().ConnParams)
	if statementTimeout > 0 {
		params["statement_timeout"] = statementTimeout.Milliseconds()
	}
	var socketTimeout time.Duration // 0: none beyond the context's deadline
	if statementTimeout > 0 {
		socketTimeout = statementTimeout + socketSlack
	}
	connector := pgdriver.NewConnector(
		pgdriver.WithDSN(dsn),
		pgdriver.WithConnParams(params),
		pgdriver.WithDialTimeout(dialTimeout),
		pgdriver.WithReadTimeout(socketTimeout),
		pgdriver.WithWriteTimeout(socketTimeout),
		pgdriver.WithApplicationName(ApplicationName),
		pgdriver.WithBufferSize(readBufferSize),
		coarseDeadlines,
	)
	sqldb := sql.OpenDB(deadlineConnector{connector, statementTimeout})
	n := PoolSize()
	sqldb.SetMaxOpenConns(n)
	sqldb.SetMaxIdleConns(n)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	return bun.NewDB(sqldb, pgdialect.New()), nil
}

// SessionDefaults are planner settings of the service's sessions, kept
// unless the database URL sets them itself. The service's statements are
// short, read a few hundred rows at most through an index, and run many at
// once, and PostgreSQL's defaults turned a misestimate into a cliff: at ten
// million events a Korean search whose row count the planner put at a
// hundred thousand (2,000 match) was compiled by JIT (15 to 50 ms) and ran
// in parallel workers, 200 ms against 19 without either, which is what it
// takes at a million (README, Performance, No cliffs). Without parallel
// workers a request also stays on one backend, beside the other requests,
// instead of taking three.
var SessionDefaults = map[string]string{"jit": "off", "max_parallel_workers_per_gather": "0"} // names in lower case

// SessionOptions are SessionDefaults as libpq's PGOPTIONS, for a client
// that should run the service's statements as its sessions do (pgbench,
// in make bench).
func SessionOptions() string {
	keys := slices.Sorted(maps.Keys(SessionDefaults))
	opts := make([]string, len(keys))
	for i, k := range keys {
		opts[i] = "-c " + k + "=" + SessionDefaults[k]
	}
	return strings.Join(opts, " ")
}

// SessionParams are the session parameters of the service's connections
// over those of a database URL (own): own's, but the time zone, which is
// UTC, and SessionDefaults where own does not set them (in any case). The
// bench's own connections take SessionParams(nil), so that they run as the
// service's do.
func SessionParams(own map[string]any) map[string]any {
	params := map[string]any{"TimeZone": "UTC"}
	set := map[string]bool{}
	for k, v := range own {
		if !strings.EqualFold(k, "TimeZone") {
			params[k] = v
		}
		set[strings.ToLower(k)] = true
	}
	for k, v := range SessionDefaults {
		if !set[k] {
			params[k] = v
		}
	}
	return params
}

// ApplicationName is the application_name of the service's connections:
// how pg_stat_activity and the statement log tell them from others (the
// bench counts them by it).
const ApplicationName = "events"

// PoolSize is the number of database connections a service keeps: four per
// CPU the Go scheduler uses (GOMAXPROCS), enough to keep PostgreSQL busy
// while answers are encoded and written.
func PoolSize() int { return 4 * runtime.GOMAXPROCS(0) }

const (
	// readBufferSize is the driver's read buffer per connection. A listing's
	// answer is tens of kilobytes; at pgdriver's default 4 KiB it took a
	// read system call, and often a wake-up, every 4 KiB.
	readBufferSize = 64 << 10
	// dialTimeout bounds making a connection (the context's deadline may
	// come first).
	dialTimeout = 5 * time.Second
	// socketSlack is how much longer than the statement timeout the driver
	// waits for an answer before it gives the connection up (a server that
	// stopped answering at all).
	socketSlack = 10 * time.Second
)

// Connect opens the database at dsn and checks that it answers. A URL
// without sslmode behaves as libpq's default ("prefer"): TLS when the server
// offers it, else a plain connection.
func Connect(ctx context.Context, dsn string, statementTimeout time.Duration) (*bun.DB, error) {
	db, err := OpenDB(dsn, statementTimeout)
	if err != nil {
		return nil, err
	}
	err = db.PingContext(ctx)
	if err != nil && strings.Contains(err.Error(), "SSL is not enabled on the server") && !strings.Contains(dsn, "sslmode=") {
		db.Close()
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		if db, err = OpenDB(dsn+sep+"sslmode=disable", statementTimeout); err != nil {
			return nil, err
		}
		err = db.PingContext(ctx)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("cannot reach the database: %w", err)
	}
	return db, nil
}

// migrationLock is the pg_advisory_lock key held while migrating, so two
// processes starting at once apply each migration once.
const migrationLock = 0x6576656e7473 // "events"

// Migrate applies the embedded migrations that are not applied yet, under an
// advisory lock. A database that holds migrations this binary does not know
// is a *NewerDataError, and nothing is written.
func Migrate(ctx context.Context, db *bun.DB) error {
	return migrateFS(ctx, db, migrations.FS, true, nil)
}

// MigrateUpgrade is Migrate that first calls before, under the migration
// lock, when the database has migrations applied and this binary brings
// more (an upgrade): the service takes a backup there. pending names the
// migrations about to be applied, oldest first. An error from before
// applies nothing.
func MigrateUpgrade(ctx context.Context, db *bun.DB, before func(ctx context.Context, pending []string) error) error {
	return migrateFS(ctx, db, migrations.FS, true, before)
}

// MigrateFS is Migrate with the migrations of fsys (a restore of an older
// backup applies only those its database had, before the rest); the
// database may hold more.
func MigrateFS(ctx context.Context, db *bun.DB, fsys fs.FS) error {
	return migrateFS(ctx, db, fsys, false, nil)
}

// NewerDataError is a database migrated by a newer events: it holds
// migrations this binary does not know.
type NewerDataError struct {
	Known   string    // the newest migration this binary knows
	Unknown []string  // the applied migrations it does not know, oldest first
	At      time.Time // when the first of them was applied
}

func (e *NewerDataError) Error() string {
	return fmt.Sprintf("the database holds migration %s, newer than this binary's newest (%s)", e.Unknown[0], e.Known)
}

func migrateFS(ctx context.Context, db *bun.DB, fsys fs.FS, whole bool, before func(context.Context, []string) error) error {
	ms := migrate.NewMigrations()
	if err := ms.Discover(fsys); err != nil {
		return fmt.Errorf("read migrations: %w", err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(?)", migrationLock); err != nil {
		return fmt.Errorf("migrate: take the migration lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", migrationLock)

	m := migrate.NewMigrator(db, ms, migrate.WithMarkAppliedOnSuccess(true))
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	all, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if whole {
		if err := checkKnown(ctx, m, all); err != nil {
			return err
		}
	}
	if pending := all.Unapplied(); len(pending) > 0 && len(all.Applied()) > 0 && before != nil {
		names := make([]string, len(pending))
		for i, p := range pending {
			names[i] = p.Name
		}
		if err := before(ctx, names); err != nil {
			return err
		}
	}
	if _, err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// checkKnown refuses a database that holds migrations not among all.
func checkKnown(ctx context.Context, m *migrate.Migrator, all migrate.MigrationSlice) error {
	missing, err := m.MissingMigrations(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if len(missing) == 0 {
		return nil
	}
	slices.SortFunc(missing, func(a, b migrate.Migration) int { return strings.Compare(a.Name, b.Name) })
	e := &NewerDataError{At: missing[0].MigratedAt}
	if len(all) > 0 {
		e.Known = all[len(all)-1].Name
	}
	for _, x := range missing {
		e.Unknown = append(e.Unknown, x.Name)
	}
	return e
}
