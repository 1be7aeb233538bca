// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

//go:build pprof

package main

import (
	"log/slog"
	"net/http"
	_ "net/http/pprof" // registers /debug/pprof on http.DefaultServeMux
	"os"
	"strings"
)

// With -tags pprof (make bench -pprof builds it so), EVENTS_PPROF_ADDR
// serves net/http/pprof on a loopback address. Production builds have none
// of it.
func init() {
	addr := os.Getenv("EVENTS_PPROF_ADDR")
	if addr == "" {
		return
	}
	if !strings.HasPrefix(addr, "127.0.0.1:") && !strings.HasPrefix(addr, "[::1]:") && !strings.HasPrefix(addr, "localhost:") {
		slog.Error("EVENTS_PPROF_ADDR must be a loopback address", "addr", addr)
		os.Exit(1)
	}
	go func() { slog.Error("pprof", "error", http.ListenAndServe(addr, nil)) }()
}
