// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Command bench measures the events service against PostgreSQL's own limit:
// it starts a private PostgreSQL, seeds a realistic history, starts the real
// service binary, drives every scenario over loopback with vegeta, runs the
// same SQL statements with pgbench, and prints one Markdown table.
//
//	go run ./cmd/bench [-events 1000000] [-step 3s] [-slices 3] [-pairs 9] [-connections 0] [-out bin/bench.md]
//
// `make bench` runs it. See the README's Performance section.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"

	"events/app"
	"events/cmd/internal/harness"
	"events/internal/pgcluster"
	"events/models"
)

type options struct {
	events    int
	step      time.Duration
	pairs     int
	slices    int
	conns     int
	out       string
	dir       string
	pin       bool
	svcCPU    int // with pin: the CPU of the service
	reuse     bool
	pprof     string
	scenarios string
	cliff     int
	paced     bool
}

func main() {
	var o options
	flag.IntVar(&o.events, "events", 1_000_000, "events to seed (rounded to a multiple of 10)")
	flag.DurationVar(&o.step, "step", 3*time.Second, "duration of each measurement step (whole seconds)")
	// Nine, not five: with five, two runs in a row agreed within ±10 points on
	// nine to eleven of fourteen scenarios; with nine, three in a row agreed
	// on every scenario by both CPU ratios (README, Performance).
	flag.IntVar(&o.pairs, "pairs", 9, "pairs of a service step and a pgbench step for each scenario, taken in rounds over the scenarios; the table quotes medians and the spread")
	flag.IntVar(&o.slices, "slices", 3, "slices each step is cut into, a service slice and a pgbench slice taken in turn, so that both sides of a pair see the same seconds of the machine (a slice is at least 1 s)")
	flag.IntVar(&o.conns, "connections", 0, "HTTP connections and pgbench clients (0: the service's database pool size)")
	flag.StringVar(&o.out, "out", "bin/bench.md", "file the Markdown table is written to")
	flag.StringVar(&o.dir, "dir", "bin/bench", "folder for the PostgreSQL cluster, the service binary and the pgbench scripts")
	flag.BoolVar(&o.pin, "pin", runtime.NumCPU() >= 2, "pin the load generators (this process, pgbench) and the service to CPU 0, and PostgreSQL to CPU 1 alone")
	flag.IntVar(&o.svcCPU, "service-cpu", 0, "with -pin, the CPU of the service: 0, beside the load generators, as pgbench's client is (default), or 1, beside PostgreSQL")
	flag.BoolVar(&o.reuse, "reuse", false, "reuse a database seeded by an earlier run with the same -events instead of seeding again")
	flag.StringVar(&o.pprof, "pprof", "", "folder for CPU and allocation profiles of the service during each saturation step of the first run (builds the service with -tags pprof)")
	flag.StringVar(&o.scenarios, "scenarios", "", "comma-separated scenarios to run (default: all but readyz, the floor)")
	flag.IntVar(&o.cliff, "cliff", 0, "after the main run, seed a second database with this many events (kept for the next run with -reuse) and compare each listing's p50 on it with the main one (0: off)")
	flag.BoolVar(&o.paced, "paced", true, "run each pgbench slice a second time at the rate the service reached in the slice before it (pgbench -R): PostgreSQL then idles between statements as it does under the service, and the CPU ratio at the same pace compares the two like for like (false: flat out only, a shorter run)")
	flag.Parse()
	o.events = max(10, o.events/10*10)
	o.step = max(time.Second, o.step.Round(time.Second))
	o.pairs = max(1, o.pairs)
	o.slices = max(1, o.slices)
	if o.svcCPU != 0 && o.svcCPU != 1 {
		fmt.Fprintln(os.Stderr, "bench: -service-cpu is 0 or 1")
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func say(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// serviceCPU is the CPU the service is pinned to (-pin, -service-cpu), -1
// for none: the main run's service and the cliff's alike.
func (o options) serviceCPU() int {
	if !o.pin {
		return -1
	}
	return o.svcCPU
}

// env is what a run works with.
type env struct {
	o        options
	db       *bun.DB // the harness's own connections
	dsn      string
	sockDir  string // for pgbench
	logPath  string // the server log, read to capture the service's statements
	postgres int    // the postmaster's pid, 0 when not ours
	service  *harness.Service
	seedTime time.Duration
	poolSize int       // the service's database pool
	now      time.Time // the service's clock at its start (seedClock)
}

func run(ctx context.Context, o options) error {
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return err
	}
	e := &env{o: o}

	// The database: BENCH_DATABASE_URL, or a private cluster.
	e.dsn = os.Getenv("BENCH_DATABASE_URL")
	if e.dsn == "" {
		dataDir, err := filepath.Abs(filepath.Join(o.dir, "postgres"))
		if err != nil {
			return err
		}
		if !o.reuse {
			if err := pgcluster.StopLeftover(dataDir); err != nil {
				return err
			}
			if err := os.RemoveAll(dataDir); err != nil {
				return err
			}
		}
		cluster, err := pgcluster.Start(ctx, pgcluster.Options{
			DataDir: dataDir, Database: "events", Fast: true,
			Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		})
		if err != nil {
			return err
		}
		defer cluster.Stop()
		e.dsn = cluster.URL()
		e.logPath = dataDir + ".log"
		e.postgres = postmasterPID(dataDir)
	} else {
		e.logPath = os.Getenv("BENCH_POSTGRES_LOG")
		if e.logPath == "" {
			return errors.New("with BENCH_DATABASE_URL, set BENCH_POSTGRES_LOG to the server's log file, where the service's statements are captured")
		}
	}
	var err error
	if e.sockDir, err = socketDir(e.dsn); err != nil {
		return err
	}
	// the harness's own connections: application_name "bench", so that the
	// statement log tells them from the service's, and the service's session
	// settings, so that the plans it prints are the ones the service gets
	sqldb := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(e.dsn), pgdriver.WithApplicationName("bench"),
		pgdriver.WithConnParams(app.SessionParams(nil)), pgdriver.WithTimeout(30*time.Minute)))
	sqldb.SetMaxOpenConns(4)
	e.db = bun.NewDB(sqldb, pgdialect.New())
	defer e.db.Close()
	if err := e.db.PingContext(ctx); err != nil {
		return err
	}

	var seeded int
	_ = e.db.NewRaw("SELECT events FROM bench_seed").Scan(ctx, &seeded)
	if seeded != o.events {
		if seeded != 0 {
			return fmt.Errorf("the database in %s holds another seed (%d events): run without -reuse", o.dir, seeded)
		}
		if err := app.Migrate(ctx, e.db); err != nil {
			return err
		}
		if e.seedTime, err = seed(ctx, e.db, o.events, say); err != nil {
			return err
		}
		say("seeded %d events in %s", o.events, e.seedTime.Round(100*time.Millisecond))
	} else {
		// a seed made before the latest migrations gets them, as the
		// service would refuse it
		if err := app.Migrate(ctx, e.db); err != nil {
			return err
		}
		say("reusing the seed of %d events", seeded)
	}

	if e.now, err = seedClock(ctx, e.db); err != nil {
		return err
	}
	bin, err := buildService(ctx, o)
	if err != nil {
		return err
	}
	cpus := runtime.NumCPU()
	if o.pin {
		if cpus < 2 {
			return errors.New("-pin needs two CPUs")
		}
		if e.postgres != 0 {
			if err := pinTree(e.postgres, 1); err != nil {
				return fmt.Errorf("pin PostgreSQL: %w", err)
			}
		}
		if err := pinSelf(0); err != nil {
			return fmt.Errorf("pin the harness: %w", err)
		}
		cpus = 1
	}
	e.poolSize = 4 * cpus // app.OpenDB: 4 × GOMAXPROCS, and GOMAXPROCS follows the CPUs it may use
	if o.conns == 0 {
		e.o.conns = e.poolSize
	}
	// The service's log is discarded: writing it is part of the work
	// measured, keeping it is not.
	if e.service, err = harness.Start(ctx, bin, harness.Options{Env: e.serviceEnv(), Pprof: o.pprof != "", CPU: o.serviceCPU()}); err != nil {
		return err
	}
	defer e.service.Stop()
	say("service pid %d on %s; %d connections", e.service.Pid(), e.service.Base, e.o.conns)

	return measure(ctx, e)
}

// buildService builds the real service binary, with pprof for profiling.
func buildService(ctx context.Context, o options) (string, error) {
	bin, err := filepath.Abs(filepath.Join(o.dir, "events"))
	if err != nil {
		return "", err
	}
	tags := []string{"bench"} // EVENTS_BENCH_NOW (cmd/events/clock_bench.go)
	if o.pprof != "" {
		tags = append(tags, "pprof")
	}
	return bin, harness.Build(ctx, bin, tags...)
}

// seedClock is the moment the bench's service starts its clock at: 18:00
// in the service's zone (app.DefaultZone, Seoul) on the day before the
// seed's last. The seed lays ten years of events up to the moment it ran;
// at that clock Today is a whole day of them, Activity and the summary a
// whole week, whatever the hour the bench runs at and however old a reused
// seed is (the real clock made Today 150 rows just after midnight in Seoul
// and 290 late in the evening, and a seed a few days old had emptied the
// last days).
func seedClock(ctx context.Context, db *bun.DB) (time.Time, error) {
	var last time.Time
	if err := db.NewRaw(`SELECT max(created_at) FROM events
		WHERE id BETWEEN (SELECT events FROM bench_seed) - 999 AND (SELECT events FROM bench_seed)`).Scan(ctx, &last); err != nil {
		return time.Time{}, fmt.Errorf("the seed's last moment: %w", err)
	}
	zone, err := models.LoadZone(app.DefaultZone)
	if err != nil {
		return time.Time{}, err
	}
	l := last.In(zone)
	return time.Date(l.Year(), l.Month(), l.Day()-1, 18, 0, 0, 0, zone), nil
}

// serviceEnv is the environment of the service over e's database.
func (e *env) serviceEnv() []string {
	// as many exports at once as the bench has clients: a step measures the
	// export's throughput against pgbench's at the same concurrency, not
	// the service's refusal of a third export
	return []string{"DATABASE_URL=" + e.dsn, "EVENTS_BENCH_NOW=" + e.now.Format(time.RFC3339),
		"EVENTS_MAX_EXPORTS=" + strconv.Itoa(min(max(e.o.conns, 1), 64))}
}

// socketDir is the folder of the Unix socket of a pgdriver DSN, for pgbench.
func socketDir(dsn string) (string, error) {
	i := strings.Index(dsn, "host=")
	if i < 0 {
		return "", errors.New("the database URL names no Unix socket (host=<dir>/.s.PGSQL.<port>): pgbench needs one")
	}
	host := dsn[i+len("host="):]
	if j := strings.IndexByte(host, '&'); j >= 0 {
		host = host[:j]
	}
	return filepath.Dir(host), nil
}
