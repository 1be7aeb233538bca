package app_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"

	"events/app"
	"events/app/dbtest"
)

// TestOpenDBKeepsSessionParameters: the URL's own session parameters stay,
// beside the UTC time zone and the statement timeout OpenDB adds.
func TestOpenDBKeepsSessionParameters(t *testing.T) {
	t.Parallel()
	db, err := app.OpenDB(dbtest.NewURL(t)+"&lock_timeout=1234", 1500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tz, lock, stmt string
	if err := db.QueryRow("SELECT current_setting('TimeZone'), current_setting('lock_timeout'), current_setting('statement_timeout')").Scan(&tz, &lock, &stmt); err != nil {
		t.Fatal(err)
	}
	if tz != "UTC" || lock != "1234ms" || stmt != "1500ms" {
		t.Errorf("TimeZone %q, lock_timeout %q, statement_timeout %q; want UTC, 1234ms, 1500ms", tz, lock, stmt)
	}
	if _, err := app.OpenDB("postgres://x/db?sslmode=sometimes", 0); err == nil {
		t.Error("OpenDB accepted sslmode=sometimes")
	}
}

// TestStatementTimeout: a statement that runs past the timeout OpenDB sets
// is ended by PostgreSQL (57014) at that timeout, without a context
// deadline; the 3 s bound proves it (the statement asks for 30 s).
func TestStatementTimeout(t *testing.T) {
	t.Parallel()
	db, err := app.OpenDB(dbtest.NewURL(t), 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	began := time.Now()
	_, err = db.ExecContext(context.Background(), "SELECT pg_sleep(30)")
	took := time.Since(began)
	var pgErr pgdriver.Error
	if !errors.As(err, &pgErr) || pgErr.Field('C') != "57014" || took > 3*time.Second {
		t.Errorf("pg_sleep(30) with a 300 ms statement timeout: %v after %s; want 57014 within 3 s", err, took)
	}
	if _, err := db.Exec("SELECT 1"); err != nil {
		t.Errorf("the pool after a timeout: %v", err)
	}
}
