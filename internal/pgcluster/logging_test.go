// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package pgcluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLogHoldsNoValues: a failed statement and a broken constraint leave
// no value of the statement in PostgreSQL's own log (bun writes arguments
// into the SQL text, so the statement would carry them).
func TestLogHoldsNoValues(t *testing.T) {
	requireBinaries(t)
	t.Parallel()
	c := start(t, Options{DataDir: filepath.Join(tempRoot(t), "postgres"), Database: "events", Fast: true})
	db := open(t, c.URL())
	if _, err := db.Exec("CREATE TABLE notes (body text CHECK (length(body) < 5))"); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		"INSERT INTO notes VALUES ('secret-in-a-broken-row')",
		"SELECT 1 FROM notes WHERE body = 'secret-in-a-failed-statement' AND 1/0 = 1",
		"SELECT 'secret-in-a-syntax-error' FROM",
	} {
		if _, err := db.Exec(stmt); err == nil {
			t.Fatalf("%s: no error", stmt)
		}
	}
	var setting string
	if err := db.QueryRow("SELECT current_setting('log_min_error_statement')").Scan(&setting); err != nil || setting != "panic" {
		t.Errorf("log_min_error_statement = %q (%v), want panic", setting, err)
	}
	// the errors themselves are logged (this is the right file)
	var log string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(c.logPath)
		if log = string(b); strings.Contains(log, "division by zero") {
			break
		}
	}
	if !strings.Contains(log, "division by zero") || !strings.Contains(log, "violates check constraint") {
		t.Fatalf("the errors are not in %s:\n%s", c.logPath, log)
	}
	if strings.Contains(log, "secret-") {
		t.Errorf("PostgreSQL's log holds a value of a statement:\n%s", log)
	}
}
