// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMakeBuildSaysWhatItDoes: the first make build says that it downloads
// and compiles the modules and how long that usually takes, before the
// long quiet part; a later one says only that it builds.
func TestMakeBuildSaysWhatItDoes(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("SKIPPED LOUDLY: make is not installed")
	}
	bin := filepath.Join(t.TempDir(), "events")
	run := func() string {
		t.Helper()
		cmd := exec.Command("make", "-C", "../..", "--no-print-directory", "build", "BIN="+bin)
		cmd.Env = os.Environ()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make build: %v\n%s", err, out)
		}
		return string(out)
	}
	first := run()
	want := "make: building " + bin + " for the first time: downloading the Go modules, then compiling them (about 4 minutes on two cores; later builds take seconds)\n" +
		"make: the modules are here; compiling (the longest part)\n"
	if first != want {
		t.Errorf("the first make build says:\n%s\nwant:\n%s", first, want)
	}
	if again := run(); again != "make: building "+bin+"\n" {
		t.Errorf("a later make build says:\n%s", again)
	}
}
