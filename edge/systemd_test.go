// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package edge_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSystemdUnitVerifies runs systemd-analyze verify on the unit the README
// installs (edge/events.service). verify refuses an ExecStart whose program
// does not exist, so the copy it reads points at this test's own binary
// instead of /usr/local/bin/events; every other line is the shipped one.
// verify exits 0 on an unknown key or a bad value and only warns, so any
// output at all fails the test.
func TestSystemdUnitVerifies(t *testing.T) {
	t.Parallel()
	unit, err := os.ReadFile("events.service")
	if err != nil {
		t.Fatal(err)
	}
	text := string(unit)
	for _, want := range []string{
		"\nExecStart=/usr/local/bin/events serve\n",
		"\nUser=events\n",
		"\nEnvironmentFile=/etc/events/env\n",
		"\nRestart=on-failure\n",
		// The embedded PostgreSQL lives in the one folder the sandbox
		// leaves writable: the state directory systemd makes for the user.
		"\nStateDirectory=events\n",
		"\nEnvironment=EVENTS_DATA_DIR=/var/lib/events\n",
		"\nProtectSystem=strict\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("edge/events.service lacks the line %q", strings.TrimSpace(want))
		}
	}

	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI: systemd-analyze is needed to verify edge/events.service: %v", err)
		}
		t.Skip("SKIPPED LOUDLY: systemd-analyze is not installed (apt-get install systemd), so edge/events.service is not verified")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "events.service")
	text = strings.Replace(text, "ExecStart=/usr/local/bin/events serve", "ExecStart="+self+" serve", 1)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("systemd-analyze verify edge/events.service: %v\n%s", err, out)
	}
}
