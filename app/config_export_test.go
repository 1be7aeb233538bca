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
