// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLine(t *testing.T) {
	t.Parallel()
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "events", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "9c708a0"}, {Key: "vcs.time", Value: "2026-11-23T07:33:50Z"}, {Key: "vcs.modified", Value: "true"}}}
	if got, want := versionOf(info), "events v1.2.3, revision 9c708a0 with uncommitted changes of 2026-11-23T07:33:50Z, go1.26.8"; got != want {
		t.Errorf("versionOf = %q, want %q", got, want)
	}
	info = &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "events", Version: "(devel)"}}
	if got, want := versionOf(info), "events (devel), no VCS revision recorded, go1.26.8"; got != want {
		t.Errorf("versionOf = %q, want %q", got, want)
	}
}

// The real binary answers version and -version with its build information.
func TestVersionCommand(t *testing.T) {
	t.Parallel()
	bin := build(t)
	var lines []string
	for _, arg := range []string{"version", "-version", "--version"} {
		out, err := exec.Command(bin, arg).CombinedOutput()
		if err != nil {
			t.Fatalf("events %s: %v\n%s", arg, err, out)
		}
		line := strings.TrimSpace(string(out))
		if !strings.HasPrefix(line, "events ") || !strings.HasSuffix(line, runtime.Version()) {
			t.Errorf("events %s printed %q", arg, line)
		}
		lines = append(lines, line)
	}
	if lines[0] != lines[1] || lines[1] != lines[2] {
		t.Errorf("version and -version differ: %q", lines)
	}
}

// A flag where the service reads the environment says which variable to set.
func TestUnknownFlagSaysWhatToSet(t *testing.T) {
	t.Parallel()
	bin := build(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--port", "3000"}, "use PORT=3000 events serve"},
		{[]string{"--port=3000"}, "use PORT=3000 events serve"},
		{[]string{"serve", "-timezone", "UTC"}, "use EVENTS_TIMEZONE=UTC events serve"},
		{[]string{"migrate", "--force"}, `events migrate takes no flags or arguments (got "--force")`},
	} {
		out, err := exec.Command(bin, tc.args...).CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			t.Errorf("events %v: %v, want exit status 2", tc.args, err)
		}
		if first, _, _ := strings.Cut(string(out), "\n"); !strings.Contains(first, tc.want) {
			t.Errorf("events %v said %q, want %q", tc.args, first, tc.want)
		}
	}
}
