// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Command events is the events service: `events serve` (the default) runs
// the web app and its API; `events migrate` applies the database migrations;
// `events edge-config` prints the nginx configuration of the edge in front.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"events/app"
	"events/edge"
	"events/handlers"
	"events/internal/pgcluster"

	"github.com/uptrace/bun"
	"golang.org/x/term"
)

const usage = `usage: events [serve | migrate | backup [-o FILE] | restore FILE | import [flags] FILE | reset-data | hash-password | version | edge-config [flags]]
       events [log TEXT | start TEXT | stop | add TEXT | today | inbox | done ID | undo ID | review [--week]] [--json]

  serve          run the service (the default); without DATABASE_URL it runs
                 its own PostgreSQL in EVENTS_DATA_DIR
  migrate        apply the database migrations and exit
  backup         write a pg_dump archive of the database to FILE (default
                 backups/events-<UTC time>.dump, readable by its owner
                 only); works while events serve runs
  restore        load the rows of such an archive into a database that
                 holds no events; an archive that holds anything the
                 migrations do not create is refused
  import         create the events of a calendar (.ics), Timewarrior, Toggl
                 or Todoist file through the API of the service at
                 EVENTS_URL; events import -h lists its flags
  reset-data     delete the embedded database (wherever it is kept) and make
                 edge's files in EVENTS_DATA_DIR; refused while serve runs
  hash-password  read a password and print its hash for EVENTS_PASSWORD_HASH
  version        print the version and VCS revision it was built from
  edge-config    print the nginx.conf of the edge in front of the service;
                 events edge-config -h lists its flags and their defaults
  log, start, stop, add, today, inbox, done, undo, review
                 the terminal client of the service at EVENTS_URL: record,
                 time, add and list; events log -h tells each

Configuration is read from the environment; see the README.`

func main() {
	cmd, args := command(os.Args[1:])
	if len(args) > 0 && cmd != "edge-config" && cmd != "backup" && cmd != "restore" && cmd != "import" && !cliCommands[cmd] {
		fmt.Fprintf(os.Stderr, "%s\n\n%s\n", argsProblem(cmd, args), usage)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	var err error
	switch cmd {
	case "serve":
		err = serve(logger)
	case "migrate":
		err = migrateOnly(logger)
	case "backup":
		err = backup(args, logger)
		if errors.Is(err, flag.ErrHelp) {
			return
		}
	case "restore":
		err = restore(args, logger)
	case "import":
		err = importFile(args, os.Getenv, os.Stdout, os.Stderr)
		if errors.Is(err, flag.ErrHelp) {
			return
		}
	case "log", "start", "stop", "add", "today", "inbox", "done", "undo", "cancel", "review":
		err = terminalCommand(cmd, args, os.Getenv, os.Stdout, os.Stderr)
		if errors.Is(err, flag.ErrHelp) {
			return
		}
	case "reset-data":
		err = resetData(os.Stdout, logger)
	case "hash-password":
		err = hashPassword(os.Stdin, os.Stdout, os.Stderr)
	case "edge-config":
		err = edgeConfig(args, os.Getenv, os.Stdout)
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "events edge-config:", err)
			os.Exit(2)
		}
		return
	case "help", "-h", "--help":
		fmt.Println(usage)
		return
	case "version", "-version", "--version":
		fmt.Println(version())
		return
	default:
		fmt.Fprintf(os.Stderr, "events: unknown command %q\n%s\n", cmd, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "events:", err)
		if errors.As(err, new(usageError)) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// opened is the service's database, open and migrated.
type opened struct {
	svc *app.Service
	db  *bun.DB
	// fault says why the embedded database is away (nil with DATABASE_URL).
	fault func() error
	// stop closes the connections and stops what was started.
	stop func()
	// backups takes the service's own backups of it.
	backups *scheduler
}

// database opens DATABASE_URL, or starts the embedded default database, and
// migrates it: an upgrade takes a backup first, and a database migrated by
// a newer events is refused.
func database(ctx context.Context, cfg app.Config, logger *slog.Logger) (*opened, error) {
	dsn := cfg.DatabaseURL
	stopCluster := func() {}
	o := &opened{fault: func() error { return nil }}
	t := &target{dsn: dsn, name: "the database of DATABASE_URL", close: func() {}}
	if dsn == "" {
		cluster, err := pgcluster.Start(ctx, embeddedOptions(cfg, logger))
		if err != nil {
			return nil, err
		}
		logger.Info("embedded database started", "data", cluster.DataDir())
		dsn = cluster.URL()
		t = &target{dsn: dsn, env: cluster.ClientEnv(), bin: cluster.Bin(), name: "the embedded database in " + cluster.DataDir(), close: func() {}}
		o.fault = func() error {
			if errors.Is(cluster.Fault(), pgcluster.ErrDiskFull) {
				return app.ErrDiskFull
			}
			return nil
		}
		stopCluster = func() {
			if err := cluster.Stop(); err != nil {
				logger.Error("stopping the embedded database", "error", err)
				return
			}
			logger.Info("embedded database stopped")
		}
	} else {
		env, err := clientEnv(dsn)
		if err != nil {
			return nil, err
		}
		t.env = env
	}
	mctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	db, err := app.Connect(mctx, dsn, cfg.RequestTimeout)
	if err != nil {
		stopCluster()
		return nil, err
	}
	fail := func(err error) (*opened, error) {
		db.Close()
		stopCluster()
		return nil, err
	}
	if err := t.readMajor(mctx); err != nil {
		return fail(err)
	}
	o.backups = &scheduler{dir: cfg.BackupDir, every: cfg.BackupEvery, keep: cfg.BackupKeep, t: t, db: db, log: logger, now: time.Now}
	// not under mctx: an upgrade writes a backup of the whole database
	// first, and on a large one that takes longer than connecting may
	uctx, cancelUpgrade := context.WithTimeout(ctx, time.Hour)
	defer cancelUpgrade()
	if err := app.MigrateUpgrade(uctx, db, o.backups.beforeMigrating); err != nil {
		if newer := (*app.NewerDataError)(nil); errors.As(err, &newer) {
			err = refuseNewer(newer, cfg.BackupDir)
		}
		return fail(err)
	}
	// not under mctx: on a large database of an older version it takes
	// longer than the migrations' budget, a batch a statement
	if n, err := app.FillZones(ctx, db, cfg.Location); err != nil {
		return fail(err)
	} else if n > 0 {
		logger.Info("events stored without a zone are given EVENTS_TIMEZONE", "events", n, "zone", cfg.Location.String())
	}
	if ok, ctype, err := app.SearchReadsHangul(mctx, db); err == nil && !ok {
		logger.Warn("this database was made with LC_CTYPE "+ctype+": searches answer correctly, but the search index cannot narrow a Korean one; docs/operations.md (Korean search and the database's locale) says how to move it to C.UTF-8", "lc_ctype", ctype)
	}
	o.svc, o.db = app.NewService(db, cfg.Location, clock), db
	o.stop = func() { db.Close(); stopCluster() }
	return o, nil
}

// refuseNewer is the one sentence of a binary that finds its database
// migrated by a newer events.
func refuseNewer(e *app.NewerDataError, backupDir string) error {
	back := "restore the backup the newer one wrote before it migrated (events-*-before-" + e.Unknown[0] + ".dump in EVENTS_BACKUP_DIR, " + backupDir + ")"
	if file := beforeBackup(backupDir, e.Unknown[0]); file != "" {
		back = "restore " + file + " (the backup the newer one wrote before it migrated)"
	}
	return fmt.Errorf("refusing to serve or write: this database was migrated on %s by a newer events (its schema has migration %s; this binary, %s, knows migrations up to %s): run the newer events again, or, to go back to this one, %s into an empty database with events restore",
		e.At.UTC().Format("2006-01-02 15:04 UTC"), e.Unknown[len(e.Unknown)-1], version(), e.Known, back)
}

// embeddedOptions are the options of the embedded database.
func embeddedOptions(cfg app.Config, logger *slog.Logger) pgcluster.Options {
	return pgcluster.Options{
		DataDir:  filepath.Join(cfg.DataDir, "postgres"),
		Database: "events",
		Logger:   logger,
	}
}

// edgeConfig renders the edge's nginx.conf to w from the flags in args. It
// refuses while the service it fronts would run without authentication, as
// its environment (getenv) tells: such a service answers only loopback
// clients, so behind the edge it would refuse everyone (or, before that
// rule, serve everyone).
func edgeConfig(args []string, getenv func(string) string, w io.Writer) error {
	cfg := edge.Defaults()
	fs := flag.NewFlagSet("events edge-config", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: events edge-config [flags] > nginx.conf\n\n"+
			"Prints the nginx configuration of the edge in front of the service; see the README,\n"+
			"\"Behind nginx, with systemd\". The service's EVENTS_PASSWORD_HASH and EVENTS_SESSION_KEY,\n"+
			"or EVENTS_API_TOKENS (or EVENTS_AUTH=off), must be in the environment.\n"+
			"Flags and their defaults:\n\n")
		fs.PrintDefaults()
	}
	https := fs.String("https", strings.Join(cfg.HTTPS, ","), "listen `addresses` of TLS, comma-separated: 443, 127.0.0.1:8443, [::]:443")
	http := fs.String("http", strings.Join(cfg.HTTP, ","), "listen `addresses` of plain HTTP, which redirects to the first HTTPS one")
	fs.StringVar(&cfg.ServerName, "server-name", cfg.ServerName, "server_name: host `names` separated by spaces; _ answers any")
	upstream := fs.String("upstream", strings.Join(cfg.Upstreams, ","), "`host:port` of events serve; several instances comma-separated")
	fs.StringVar(&cfg.Certificate, "cert", cfg.Certificate, "`path` of the PEM certificate (with its chain); nginx does not start without it")
	fs.StringVar(&cfg.Key, "key", cfg.Key, "`path` of the certificate's private key")
	fs.StringVar(&cfg.Prefix, "prefix", cfg.Prefix, "existing `folder` for the pid file and nginx's temporary files")
	fs.StringVar(&cfg.PidFile, "pid", cfg.PidFile, "`path` of the pid file (default PREFIX/nginx.pid)")
	fs.StringVar(&cfg.ACMERoot, "acme-root", cfg.ACMERoot, "`folder` served under /.well-known/acme-challenge/, certbot's webroot (default PREFIX/acme)")
	fs.StringVar(&cfg.AccessLog, "access-log", cfg.AccessLog, "`path` of the access log")
	fs.StringVar(&cfg.ErrorLog, "error-log", cfg.ErrorLog, "`path` of the error log")
	fs.StringVar(&cfg.User, "user", cfg.User, "`user` (and group) of nginx's worker processes (default nginx's own, nobody)")
	fs.StringVar(&cfg.Workers, "workers", cfg.Workers, "worker processes: auto or a `number`")
	fs.IntVar(&cfg.ConnPerClient, "conn", cfg.ConnPerClient, "requests in progress at once per client address")
	fs.StringVar(&cfg.Rate, "rate", cfg.Rate, "sustained request `rate` per client address: 10r/s, 600r/m")
	fs.IntVar(&cfg.Burst, "burst", cfg.Burst, "requests beyond the rate answered at once before 429")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q; every value is a flag (-h lists them)", fs.Arg(0))
	}
	cfg.HTTPS, cfg.HTTP, cfg.Upstreams = splitList(*https), splitList(*http), splitList(*upstream)
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := serviceAuthenticates(getenv); err != nil {
		return err
	}
	return edge.Render(w, cfg)
}

// serviceAuthenticates tells whether a service started with this
// environment would authenticate: a password or API tokens, or
// EVENTS_AUTH=off for a layer in front that does.
func serviceAuthenticates(getenv func(string) string) error {
	auth, err := app.AuthFromEnv(getenv)
	if err != nil {
		return err
	}
	if !auth.Enabled() && !auth.Off() {
		return errors.New("refusing to print a configuration for a service without authentication: set EVENTS_PASSWORD_HASH (made by `events hash-password`) and EVENTS_SESSION_KEY, or EVENTS_API_TOKENS, here as in the service's environment, or EVENTS_AUTH=off when a layer in front of the service authenticates")
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func migrateOnly(logger *slog.Logger) error {
	cfg, err := app.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	o, err := database(context.Background(), cfg, logger)
	if err != nil {
		return err
	}
	o.stop()
	logger.Info("migrations applied")
	return nil
}

func serve(logger *slog.Logger) error {
	cfg, err := app.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	paceCollector(os.Getenv)
	if err := cfg.CheckExposure(); err != nil {
		return err
	}
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()

	// The port first: taken by another program, it stops the start before
	// any database is started, with a sentence that says what to do. Held
	// from here, connections wait in its queue until the service serves.
	ln, err := listen(cfg)
	if err != nil {
		return err
	}
	serving := false
	defer func() {
		if !serving {
			ln.Close()
		}
	}()
	o, err := database(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer o.stop()
	svc := o.svc
	svc.SetLogger(logger)
	var backups func() handlers.BackupStatus
	if cfg.BackupEvery > 0 {
		backups = o.backups.Status
		o.backups.scan()
		go o.backups.run(ctx)
	}
	web, err := handlers.New(svc, handlers.Options{
		Backups:        backups,
		RequestTimeout: cfg.RequestTimeout,
		TrustedProxies: cfg.TrustedProxies,
		NotesURL:       cfg.NotesURL,
		Language:       cfg.Language,
		Auth:           cfg.Auth,
		Logger:         logger,
		DatabaseFault:  o.fault,
		MaxInFlight:    cfg.MaxInFlight,
		QueueWait:      cfg.QueueWait,
		ExportTimeout:  cfg.ExportTimeout,
		MaxExports:     cfg.MaxExports,
	})
	if err != nil {
		return err
	}
	serving = true // the server closes the listener when it shuts down
	served := make(chan error, 1)
	go func() { served <- web.Listener(handlers.Listener(ln)) }()
	logger.Info("events is serving", "url", "http://"+cfg.Addr()+"/events", "timezone", cfg.Location.String(), "authentication", authMode(cfg.Auth))

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	stopSignals() // a second Ctrl-C or SIGTERM ends the process at once
	logger.Info("shutting down: finishing the requests in flight", "deadline", cfg.ShutdownTimeout.String())
	switch err := web.ShutdownWithTimeout(cfg.ShutdownTimeout); {
	case errors.Is(err, context.DeadlineExceeded):
		logger.Warn("shutdown deadline passed: the requests still in flight are cut off", "deadline", cfg.ShutdownTimeout.String())
	case err != nil:
		logger.Error("shutdown", "error", err)
	}
	return nil
}

// listen takes the service's port, or says in one sentence why it cannot.
func listen(cfg app.Config) (net.Listener, error) {
	ln, err := net.Listen("tcp", cfg.Addr())
	switch {
	case err == nil:
		return ln, nil
	case errors.Is(err, syscall.EADDRINUSE):
		other := cfg.Port + 1
		if other > 65535 {
			other = 3000
		}
		return nil, fmt.Errorf("port %d is in use: stop the other program or start with PORT=%d events serve (PORT=%d make run)", cfg.Port, other, other)
	case errors.Is(err, syscall.EACCES):
		return nil, fmt.Errorf("port %d needs more privileges than this user has (ports below 1024 do): start with PORT=3000 events serve, and put the edge in front for ports 80 and 443", cfg.Port)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return nil, fmt.Errorf("HOST=%s is not an address of this machine: use 127.0.0.1, or 0.0.0.0 for every address", cfg.Host)
	}
	return nil, fmt.Errorf("cannot listen on %s (HOST and PORT): %w", cfg.Addr(), err)
}

// authMode names how requests authenticate, for the start-up line.
func authMode(a *app.Auth) string {
	switch {
	case a.Off():
		return "off (EVENTS_AUTH=off)"
	case !a.Enabled():
		return "none (loopback only)"
	case a.HasPassword() && a.Tokens() > 0:
		return fmt.Sprintf("a password (the pages) and %s", tokens(a.Tokens()))
	case a.HasPassword():
		return "a password (the pages); no API tokens"
	}
	return tokens(a.Tokens()) + "; no password (the pages answer 401)"
}

func tokens(n int) string {
	if n == 1 {
		return "1 API token"
	}
	return fmt.Sprintf("%d API tokens", n)
}

// hashPassword reads a password (without echo from a terminal, else the
// first line of stdin) and prints its hash.
func hashPassword(stdin *os.File, stdout, stderr io.Writer) error {
	var password string
	if term.IsTerminal(int(stdin.Fd())) {
		fmt.Fprint(stderr, "Password: ")
		b, err := term.ReadPassword(int(stdin.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return err
		}
		fmt.Fprint(stderr, "Again: ")
		again, err := term.ReadPassword(int(stdin.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return err
		}
		if string(again) != string(b) {
			return errors.New("the two passwords differ")
		}
		password = string(b)
	} else {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		password = strings.TrimRight(line, "\r\n")
	}
	hash, err := app.HashPassword(password)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, hash)
	return nil
}

// paceCollector sets the garbage collector's pace, unless GOGC or
// GOMEMLIMIT say otherwise. The service keeps a few MiB live (templates,
// compressed static files, pooled buffers) and allocates a few hundred KB
// an answer; at the runtime's default (GOGC=100, a cycle whenever the heap
// doubles) it collected every few dozen requests under load, a sixth of its
// CPU on the pages and long lists. It collects when the heap has grown
// fivefold instead, and more often as it nears 48 MiB, so a flood of
// connections still leaves it far under 100 MiB (README, Performance).
func paceCollector(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(gcSoftLimit)
	}
}

// gcSoftLimit is the heap size near which the collector runs more often.
const gcSoftLimit = 48 << 20
