// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"events/cmd/internal/harness"
	"events/internal/dbtest"
)

// The terminal client's line runs the real binary against a real service
// and counts the rows of its table.
func TestCLITodayLineRunsTheClient(t *testing.T) {
	ctx := context.Background()
	bin := filepath.Join(t.TempDir(), "events")
	if out, err := exec.Command("go", "build", "-o", bin, "../events").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	svc, err := harness.Start(ctx, bin, harness.Options{Env: []string{"DATABASE_URL=" + dbtest.NewURL(t)}, CPU: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Stop()
	for _, text := range []string{"standup 15m #work", "회의 30분", "review 10m"} {
		res, err := http.Post(svc.Base+"/api/events", "application/json", strings.NewReader(`{"kind":"activity_log","text":"`+text+`"}`))
		if err != nil || res.StatusCode != http.StatusCreated {
			t.Fatalf("create %q: %v %v", text, err, res)
		}
		res.Body.Close()
	}
	line, err := cliTodayLine(ctx, bin, svc.Base, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`its table of 3 rows to a pipe: p50 \d+\.\d ms, slowest \d+\.\d ms over 3 runs, (NOT )?under the goal of 100 ms`).MatchString(line) {
		t.Errorf("the line: %q", line)
	}
	t.Log(line)
}
