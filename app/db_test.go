package app_test

import (
	"testing"
	"time"

	"events/app"
	"events/app/dbtest"
)

// TestOpenDBKeepsSessionParameters: the URL's own session parameters stay,
// beside the UTC time zone and the statement timeout OpenDB adds.
func TestOpenDBKeepsSessionParameters(t *testing.T) {
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
