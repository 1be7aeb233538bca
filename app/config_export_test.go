// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"strings"
	"testing"
	"time"

	"events/app"
)

// TestExportTimeoutFromEnv: EVENTS_EXPORT_TIMEOUT is the deadline of an
// export's whole run, 5 minutes when unset; a value that is no duration,
// or outside 1s to 24h, stops the start with a sentence naming it.
func TestExportTimeoutFromEnv(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	for v, want := range map[string]time.Duration{"": 5 * time.Minute, "90s": 90 * time.Second, "2h": 2 * time.Hour} {
		cfg, err := app.ConfigFromEnv(env(map[string]string{"EVENTS_EXPORT_TIMEOUT": v}))
		if err != nil || cfg.ExportTimeout != want {
			t.Errorf("EVENTS_EXPORT_TIMEOUT=%q: %s, %v; want %s", v, cfg.ExportTimeout, err, want)
		}
	}
	for _, v := range []string{"forever", "0s", "500ms", "25h"} {
		_, err := app.ConfigFromEnv(env(map[string]string{"EVENTS_EXPORT_TIMEOUT": v}))
		if err == nil || !strings.Contains(err.Error(), "EVENTS_EXPORT_TIMEOUT must be a duration from 1s to 24h") {
			t.Errorf("EVENTS_EXPORT_TIMEOUT=%q: %v", v, err)
		}
	}
}

// TestMaxExportsFromEnv: EVENTS_MAX_EXPORTS is how many exports run at
// once, 2 when unset; a value that is no number, or outside 1 to 64, stops
// the start with a sentence naming it.
func TestMaxExportsFromEnv(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	for v, want := range map[string]int{"": 2, "1": 1, "16": 16} {
		cfg, err := app.ConfigFromEnv(env(map[string]string{"EVENTS_MAX_EXPORTS": v}))
		if err != nil || cfg.MaxExports != want {
			t.Errorf("EVENTS_MAX_EXPORTS=%q: %d, %v; want %d", v, cfg.MaxExports, err, want)
		}
	}
	for _, v := range []string{"two", "0", "65", "-1"} {
		_, err := app.ConfigFromEnv(env(map[string]string{"EVENTS_MAX_EXPORTS": v}))
		if err == nil || !strings.Contains(err.Error(), "EVENTS_MAX_EXPORTS must be a number of exports from 1 to 64") {
			t.Errorf("EVENTS_MAX_EXPORTS=%q: %v", v, err)
		}
	}
}
