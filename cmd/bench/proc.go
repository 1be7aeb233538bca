// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"events/cmd/internal/harness"
)

// postmasterPID reads the first line of postmaster.pid.
func postmasterPID(dataDir string) int {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	return pid
}

// pinTree pins pid and its children to one CPU; processes it forks later
// inherit the mask (a PostgreSQL backend is forked by the postmaster).
func pinTree(pid, cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(pid, &set); err != nil {
		return err
	}
	for _, child := range harness.Children(pid) {
		_ = unix.SchedSetaffinity(child, &set)
	}
	return nil
}

// pinSelf pins every thread of this process to one CPU; threads started
// later, and child processes, inherit it.
func pinSelf(cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	tasks, err := filepath.Glob("/proc/self/task/[0-9]*")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		tid, _ := strconv.Atoi(filepath.Base(t))
		if err := unix.SchedSetaffinity(tid, &set); err != nil {
			return err
		}
	}
	return nil
}

// cpuSample is the CPU each watched backend had spent at a moment.
type cpuSample struct {
	at  time.Time
	cpu map[int]time.Duration
}

// backendWatch samples, every interval, the CPU of the children of a
// postmaster that start after it is made and whose command line begins
// with title: the backends of one pgbench run. A nil watch does nothing.
type backendWatch struct {
	pm             int
	title          string
	every          time.Duration
	seen           map[int]bool  // children decided on: the ones before, and each new one once it has a title
	started        map[int]int64 // the ones watched: when each started, in clock ticks since boot
	done, finished chan struct{}
	samples        []cpuSample
}

func watchBackends(pm int, title string, every time.Duration) *backendWatch {
	w := &backendWatch{pm: pm, title: title, every: every, seen: map[int]bool{}, started: map[int]int64{},
		done: make(chan struct{}), finished: make(chan struct{})}
	for _, pid := range harness.Children(pm) {
		w.seen[pid] = true
	}
	return w
}

func (w *backendWatch) start() {
	if w == nil {
		return
	}
	go func() {
		defer close(w.finished)
		t := time.NewTicker(w.every)
		defer t.Stop()
		for {
			for _, pid := range harness.Children(w.pm) {
				if w.seen[pid] {
					continue
				}
				// a backend just forked still shows the postmaster's command
				// line; it is decided on once it shows its own title
				cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
				if err != nil || !strings.HasPrefix(string(cmd), "postgres: ") {
					continue
				}
				w.seen[pid] = true
				if start, err := startTicks(pid); err == nil && strings.HasPrefix(string(cmd), w.title) {
					w.started[pid] = start
				}
			}
			s := cpuSample{at: time.Now(), cpu: make(map[int]time.Duration, len(w.started))}
			for pid := range w.started {
				if v, err := taskCPU(pid); err == nil {
					s.cpu[pid] = v
				}
			}
			w.samples = append(w.samples, s)
			select {
			case <-w.done:
				return
			case <-t.C:
			}
		}
	}()
}

// stop ends the sampling and gives the samples, and the backends watched
// in the order they started (by pid where they started in the same tick).
func (w *backendWatch) stop() ([]cpuSample, []int) {
	if w == nil {
		return nil, nil
	}
	close(w.done)
	<-w.finished
	pids := make([]int, 0, len(w.started))
	for pid := range w.started {
		pids = append(pids, pid)
	}
	sort.Slice(pids, func(i, j int) bool {
		if w.started[pids[i]] != w.started[pids[j]] {
			return w.started[pids[i]] < w.started[pids[j]]
		}
		return pids[i] < pids[j]
	})
	return w.samples, pids
}

// startTicks is when a process started, in clock ticks since boot.
func startTicks(pid int) (int64, error) {
	f, err := harness.StatFields(pid)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(f[19], 10, 64)
}

// taskCPU is the CPU time a single-threaded process has run: from
// /proc/<pid>/schedstat, in nanoseconds, or where the kernel keeps no
// schedstat, from its clock ticks.
func taskCPU(pid int) (time.Duration, error) {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid)); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				return time.Duration(ns), nil
			}
		}
	}
	ticks, err := harness.CPUTicks(pid)
	return time.Duration(ticks) * time.Second / harness.TicksPerSecond, err
}
