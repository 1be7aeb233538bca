// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package harness

import (
	"os"
	"os/exec"
	"slices"
	"testing"
)

// TestChildrenFindsAChild: a process started by this one is among its
// children, read from the kernel's lists and by every process's parent.
func TestChildrenFindsAChild(t *testing.T) {
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pid := cmd.Process.Pid
	for name, list := range map[string][]int{"children": Children(os.Getpid()), "by stat": childrenByStat(os.Getpid())} {
		if !slices.Contains(list, pid) {
			t.Errorf("%s: %v holds no %d", name, list, pid)
		}
	}
}
