// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package harness is what the measuring commands (cmd/bench, cmd/soak)
// share: the real service binary built and started on a loopback port, and
// what they read of it from /proc.
package harness

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// FreePort asks the kernel for a free loopback port.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// StatFields are the fields of /proc/<pid>/stat after the command name in
// parentheses: the state (field 3 in proc(5)) is [0], the parent's pid [1],
// utime [11], stime [12], cutime [13], cstime [14] and starttime [19].
func StatFields(pid int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	var f []string
	if i := strings.LastIndexByte(string(b), ')'); i >= 0 && i+2 <= len(b) {
		f = strings.Fields(string(b[i+2:]))
	}
	if len(f) < 20 {
		return nil, fmt.Errorf("cannot read /proc/%d/stat", pid)
	}
	return f, nil
}

// CPUTicks is the user plus system time of a process, in clock ticks.
func CPUTicks(pid int) (int64, error) {
	f, err := StatFields(pid)
	if err != nil {
		return 0, err
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("cannot read the CPU times of %d", pid)
	}
	return u + s, nil
}

// TicksPerSecond is USER_HZ, 100 on Linux.
const TicksPerSecond = 100

// StatusKiB reads a kB field (VmHWM, VmRSS) of /proc/<pid>/status; 0 when
// the process or the field is gone.
func StatusKiB(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// TreeTicks is the CPU time of a process and of its children, alive or
// reaped, in clock ticks: its own user and system time and its children's
// (cutime, cstime: the children it has waited for), plus the times of the
// children still running, with theirs. For a postmaster that is the whole
// of PostgreSQL's work: the backends, the background processes, and the
// backends that ended since the last reading. The sum only grows, so two
// readings bracket the work between them. A child reaped while the
// children are read would be counted nowhere (or twice), so a reading
// during which the parent's own times moved is taken again. Children
// whose command line skip accepts are left out while they run (nil: none).
func TreeTicks(pid int, skip func(cmdline string) bool) (int64, error) {
	for try := 0; ; try++ {
		own, _, err := statTicks(pid)
		if err != nil {
			return 0, err
		}
		total := own
		for _, child := range Children(pid) {
			t, ppid, err := statTicks(child)
			if err != nil || ppid != pid {
				continue
			}
			if skip != nil {
				if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", child)); err == nil && skip(string(cmd)) {
					continue
				}
			}
			total += t
		}
		again, _, err := statTicks(pid)
		if err != nil {
			return 0, err
		}
		if again == own || try == 20 {
			return total, nil
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Children are the pids of pid's children: from the kernel's list of each
// of its threads (/proc/<pid>/task/<tid>/children: a child is listed under
// the thread that forked it), or where the kernel keeps no such list, by
// the parent of every process.
func Children(pid int) []int {
	lists, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/[0-9]*/children", pid))
	var pids []int
	for _, list := range lists {
		b, err := os.ReadFile(list)
		if err != nil {
			lists = nil // no such list, or the thread ended: ask every process
			break
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				pids = append(pids, c)
			}
		}
	}
	if len(lists) > 0 {
		return pids
	}
	return childrenByStat(pid)
}

// childrenByStat are the pids of pid's children, by the parent of every
// process.
func childrenByStat(pid int) []int {
	var pids []int
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		c, _ := strconv.Atoi(filepath.Base(p))
		if f, err := StatFields(c); err == nil && f[1] == strconv.Itoa(pid) {
			pids = append(pids, c)
		}
	}
	return pids
}

// statTicks reads utime, stime, cutime and cstime of a process, and its
// parent's pid.
func statTicks(pid int) (ticks int64, ppid int, err error) {
	f, err := StatFields(pid)
	if err != nil {
		return 0, 0, err
	}
	ppid, _ = strconv.Atoi(f[1])
	for _, s := range f[11:15] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("cannot read the CPU times of %d", pid)
		}
		ticks += n
	}
	return ticks, ppid, nil
}
