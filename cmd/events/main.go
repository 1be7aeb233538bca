// Command events is the events service: `events serve` (the default) runs
// the web app and its API; `events migrate` applies the database migrations.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"events/app"
	"events/app/pgcluster"
	"events/handlers"
)

const usage = `usage: events [serve | migrate]

  serve    run the service (the default); without DATABASE_URL it runs its
           own PostgreSQL in EVENTS_DATA_DIR
  migrate  apply the database migrations and exit

Configuration is read from the environment; see the README.`

func main() {
	cmd := "serve"
	if len(os.Args) > 1 {
		cmd = os.Args[1]
	}
	if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	var err error
	switch cmd {
	case "serve":
		err = serve(logger)
	case "migrate":
		err = migrateOnly(logger)
	case "help", "-h", "--help":
		fmt.Println(usage)
		return
	default:
		fmt.Fprintf(os.Stderr, "events: unknown command %q\n%s\n", cmd, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "events:", err)
		os.Exit(1)
	}
}

// database opens DATABASE_URL, or starts the embedded default database. The
// returned stop closes the connections and stops what was started.
func database(ctx context.Context, cfg app.Config, logger *slog.Logger) (*app.Service, func(), error) {
	dsn := cfg.DatabaseURL
	stopCluster := func() {}
	if dsn == "" {
		cluster, err := pgcluster.Start(ctx, pgcluster.Options{
			DataDir:  filepath.Join(cfg.DataDir, "postgres"),
			Database: "events",
			Logger:   logger,
		})
		if err != nil {
			return nil, nil, err
		}
		logger.Info("embedded database started", "data", filepath.Join(cfg.DataDir, "postgres"))
		dsn = cluster.URL()
		stopCluster = func() {
			if err := cluster.Stop(); err != nil {
				logger.Error("stopping the embedded database", "error", err)
				return
			}
			logger.Info("embedded database stopped")
		}
	}
	mctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	db, err := app.Connect(mctx, dsn, cfg.RequestTimeout)
	if err != nil {
		stopCluster()
		return nil, nil, err
	}
	if err := app.Migrate(mctx, db); err != nil {
		db.Close()
		stopCluster()
		return nil, nil, err
	}
	return app.NewService(db, cfg.Location, time.Now), func() { db.Close(); stopCluster() }, nil
}

func migrateOnly(logger *slog.Logger) error {
	cfg, err := app.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	_, stop, err := database(context.Background(), cfg, logger)
	if err != nil {
		return err
	}
	stop()
	logger.Info("migrations applied")
	return nil
}

func serve(logger *slog.Logger) error {
	cfg, err := app.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()

	svc, stop, err := database(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer stop()
	web, err := handlers.New(svc, handlers.Options{
		RequestTimeout: cfg.RequestTimeout,
		TrustedProxies: cfg.TrustedProxies,
		NotesURL:       cfg.NotesURL,
		Logger:         logger,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr())
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", cfg.Addr(), err)
	}
	served := make(chan error, 1)
	go func() { served <- web.Listener(ln) }()
	logger.Info("events is serving", "url", "http://"+cfg.Addr(), "timezone", cfg.Location.String())

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
