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

// TestLogHoldsNoValues: a failed statement, a broken constraint and a
// value refused leave no value of the statement in PostgreSQL's own log
// (bun writes arguments into the SQL text, so the statement would carry
// them, and a refused value is quoted in the error's message): errors are
// not logged at all, only what is LOG and up. Before, the error message
// 'invalid input syntax for type integer: "…"' was logged at ERROR.
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
		"SELECT 'secret-in-an-error-message'::int",
		"SELECT 'secret-in-an-enum'::pg_catalog.regclass",
	} {
		if _, err := db.Exec(stmt); err == nil {
			t.Fatalf("%s: no error", stmt)
		}
	}
	var setting string
	if err := db.QueryRow("SELECT current_setting('log_min_error_statement')").Scan(&setting); err != nil || setting != "panic" {
		t.Errorf("log_min_error_statement = %q (%v), want panic", setting, err)
	}
	if err := db.QueryRow("SELECT current_setting('log_min_messages')").Scan(&setting); err != nil || setting != "log" {
		t.Errorf("log_min_messages = %q (%v), want log", setting, err)
	}
	// a LOG line comes after the statements (this is the right file, and
	// every line before it is written)
	if _, err := db.Exec("CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	var log string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(c.logPath)
		if log = string(b); strings.Contains(log, "checkpoint complete") {
			break
		}
	}
	if !strings.Contains(log, "checkpoint complete") {
		t.Fatalf("no checkpoint in %s:\n%s", c.logPath, log)
	}
	if strings.Contains(log, "secret-") {
		t.Errorf("PostgreSQL's log holds a value of a statement:\n%s", log)
	}
}
