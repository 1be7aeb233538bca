// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package harness

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Build compiles the service (./cmd/events) into bin, with the build tags
// given (pprof for profiling).
func Build(ctx context.Context, bin string, tags ...string) error {
	args := []string{"build", "-o", bin}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	cmd := exec.CommandContext(ctx, "go", append(args, "./cmd/events")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/events: %v\n%s", err, out)
	}
	return nil
}

// Service is the real binary serving on a free loopback port.
type Service struct {
	Cmd   *exec.Cmd
	Addr  string // 127.0.0.1:<port>
	Base  string // http://127.0.0.1:<port>
	Pprof string // http://127.0.0.1:<port> of net/http/pprof; "" when not asked for
	done  chan struct{}
}

// Options of Start.
type Options struct {
	Env   []string  // added to this process's environment (DATABASE_URL, ...)
	Log   io.Writer // the service's output; nil: discarded
	Pprof bool      // serve net/http/pprof too (the binary must be built with -tags pprof)
	CPU   int       // pin the service to this CPU with taskset; -1: no pinning
}

// Start runs `bin serve` on a free port and waits for /readyz.
func Start(ctx context.Context, bin string, o Options) (*Service, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	name, args := bin, []string{"serve"}
	if o.CPU >= 0 {
		name, args = "taskset", []string{"-c", strconv.Itoa(o.CPU), bin, "serve"}
	}
	s := &Service{Cmd: exec.Command(name, args...), Addr: "127.0.0.1:" + strconv.Itoa(port), done: make(chan struct{})}
	s.Base = "http://" + s.Addr
	s.Cmd.Env = append(append(os.Environ(), o.Env...), "HOST=127.0.0.1", "PORT="+strconv.Itoa(port))
	if o.Pprof {
		pp, err := FreePort()
		if err != nil {
			return nil, err
		}
		s.Cmd.Env = append(s.Cmd.Env, "EVENTS_PPROF_ADDR=127.0.0.1:"+strconv.Itoa(pp))
		s.Pprof = "http://127.0.0.1:" + strconv.Itoa(pp)
	}
	s.Cmd.Stdout, s.Cmd.Stderr = o.Log, o.Log // nil: the null device
	if err := s.Cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = s.Cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(time.Minute)
	for {
		res, err := http.Get(s.Base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("the service exited at start (%v); run %s serve with the same environment to see why", s.Cmd.ProcessState, bin)
		case <-ctx.Done():
			s.Stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("the service did not answer /readyz within a minute")
		}
	}
}

// Pid is the service's own pid (taskset execs it).
func (s *Service) Pid() int { return s.Cmd.Process.Pid }

// Stop interrupts the service, which drains and exits; after 20 s it is killed.
func (s *Service) Stop() {
	_ = s.Cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		_ = s.Cmd.Process.Kill()
		<-s.done
	}
}
