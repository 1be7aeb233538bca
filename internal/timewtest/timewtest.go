// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package timewtest runs the real Timewarrior (Debian's timewarrior) for
// tests that compare the service's numbers with `timew summary`: a
// throwaway database, its commands, and the total of a summary's table.
package timewtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// New finds timew and makes it an empty database in a temporary
// directory; it returns a function that runs one timew command on that
// database in the zone Asia/Seoul and returns its output (a failing
// command fails the test). Without timew the test fails under CI (.ci/run
// installs it) and is skipped elsewhere.
func New(t *testing.T) func(args ...string) string {
	t.Helper()
	timew, err := exec.LookPath("timew")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("timew (Debian's timewarrior) is not installed: .ci/run installs it")
		}
		t.Skip("timew (Debian's timewarrior) is not installed")
	}
	db := t.TempDir()
	if err := os.MkdirAll(filepath.Join(db, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(db, "timewarrior.cfg"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return func(args ...string) string {
		t.Helper()
		cmd := exec.Command(timew, args...)
		cmd.Env = append(os.Environ(), "TIMEWARRIORDB="+db, "TZ=Asia/Seoul")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("timew %q: %v\n%s", args, err, out)
		}
		return string(out)
	}
}

// Total reads the total of `timew summary`'s table: its last word
// (H:MM:SS), in seconds; 0 when nothing matched.
func Total(t *testing.T, out string) int64 {
	t.Helper()
	if strings.Contains(out, "No filtered data") {
		return 0
	}
	words := strings.Fields(strings.TrimSpace(out))
	if len(words) == 0 {
		t.Fatal("timew summary printed nothing")
	}
	var h, m, sec int64
	if _, err := fmt.Sscanf(words[len(words)-1], "%d:%d:%d", &h, &m, &sec); err != nil {
		t.Fatalf("cannot read the total of timew summary:\n%s", out)
	}
	return h*3600 + m*60 + sec
}

// HMS writes seconds as timew does: H:MM:SS.
func HMS(s int64) string { return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60) }
