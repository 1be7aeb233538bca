package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"events/cmd/internal/procfs"
)

// service is the running service binary.
type service struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:<port>
	prof string // http://127.0.0.1:<port> of net/http/pprof, when built with it
	done chan struct{}
}

// startService starts the binary on a free port (on CPU 1 when pinned) and
// waits for /readyz. Its request log goes to /dev/null: writing it is part
// of the work measured, keeping it is not.
func startService(ctx context.Context, bin, dsn string, pin, pprof bool) (*service, error) {
	port, err := procfs.FreePort()
	if err != nil {
		return nil, err
	}
	name, args := bin, []string{"serve"}
	if pin {
		name, args = "taskset", []string{"-c", "1", bin, "serve"}
	}
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dsn, "HOST=127.0.0.1", "PORT="+strconv.Itoa(port))
	s := &service{cmd: cmd, base: fmt.Sprintf("http://127.0.0.1:%d", port), done: make(chan struct{})}
	if pprof {
		pp, err := procfs.FreePort()
		if err != nil {
			return nil, err
		}
		cmd.Env = append(cmd.Env, fmt.Sprintf("EVENTS_PPROF_ADDR=127.0.0.1:%d", pp))
		s.prof = fmt.Sprintf("http://127.0.0.1:%d", pp)
	}
	logFile, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = cmd.Wait(); logFile.Close(); close(s.done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(s.base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("the service exited at start (%v); run %s serve with DATABASE_URL set to see why", cmd.ProcessState, bin)
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("the service did not answer /readyz within a minute")
		}
	}
}

func (s *service) stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// pid is the service's own pid: the one taskset became (taskset execs it).
func (s *service) pid() int { return s.cmd.Process.Pid }

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
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
		if ppid, _ := strconv.Atoi(f[1]); ppid == pid {
			child, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			_ = unix.SchedSetaffinity(child, &set)
		}
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
