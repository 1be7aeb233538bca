// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"events/cmd/internal/harness"
)

const soakPassword = "a soak-test password"

// service is the real binary, with its pprof port for counting.
type service struct {
	*harness.Service
	token string
	log   *os.File
}

func startService(ctx context.Context, dir, dsn string) (*service, error) {
	bin := filepath.Join(dir, "events")
	if err := harness.Build(ctx, bin, "pprof"); err != nil {
		return nil, err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(soakPassword), bcrypt.DefaultCost)
	if err != nil {
		return nil, err
	}
	s := &service{token: "soak-token-" + strconv.FormatInt(time.Now().UnixNano(), 36)}
	if s.log, err = os.Create(filepath.Join(dir, "service.log")); err != nil {
		return nil, err
	}
	s.Service, err = harness.Start(ctx, bin, harness.Options{
		Env: []string{"DATABASE_URL=" + dsn,
			"EVENTS_PASSWORD_HASH=" + string(hash), "EVENTS_SESSION_KEY=soak-session-key-" + strings.Repeat("k", 32),
			"EVENTS_API_TOKENS=" + s.token, "EVENTS_TRUSTED_PROXIES=127.0.0.1"},
		Log: s.log, Pprof: true, CPU: -1,
	})
	if err != nil {
		s.log.Close()
		return nil, fmt.Errorf("%w; its log is %s", err, s.log.Name())
	}
	return s, nil
}

func (s *service) stop() {
	s.Stop()
	s.log.Close()
}

// sample is the service's goroutines, heap in use (after a collection) and
// resident memory at one moment.
type sample struct {
	goroutines int
	heap, rss  int64 // bytes
}

func (s *service) sample() (sample, error) {
	var out sample
	// debug=1 starts with "goroutine profile: total N"
	body, err := get(s.Pprof + "/debug/pprof/goroutine?debug=1")
	if err != nil {
		return out, err
	}
	if _, err := fmt.Sscanf(body, "goroutine profile: total %d", &out.goroutines); err != nil {
		return out, fmt.Errorf("goroutine profile: %v", err)
	}
	// gc=1 collects first; the text ends with the runtime's MemStats.
	if body, err = get(s.Pprof + "/debug/pprof/heap?debug=1&gc=1"); err != nil {
		return out, err
	}
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, "# HeapInuse = "); ok {
			out.heap, _ = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	out.rss = harness.StatusKiB(s.Pid(), "VmRSS") << 10
	return out, nil
}

// settle waits up to limit for the goroutines and the heap to come back to
// the starting level: goroutines within 5 of it, the heap within 50% plus
// 4 MiB (what a collection leaves varies a little from one moment to the next).
func (s *service) settle(before sample, limit time.Duration) (sample, bool, error) {
	deadline := time.Now().Add(limit)
	for {
		now, err := s.sample()
		if err != nil {
			return now, false, err
		}
		if back(before, now) {
			return now, true, nil
		}
		if time.Now().After(deadline) {
			return now, false, nil
		}
		time.Sleep(2 * time.Second)
	}
}

func back(before, now sample) bool {
	return now.goroutines <= before.goroutines+5 && now.heap <= before.heap*3/2+4<<20
}

func get(url string) (string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}
