package main

import (
	"slices"
	"testing"
	"time"
)

// TestEveryKeepsRatesBelowOneASecond: the latency step of a scenario that
// answers about once a second runs at half of that, not at all of it.
func TestEveryKeepsRatesBelowOneASecond(t *testing.T) {
	for _, c := range []struct {
		rate float64
		gap  time.Duration
	}{
		{0.52, 1923076923 * time.Nanosecond},
		{2.5, 400 * time.Millisecond},
		{600, 1666666 * time.Nanosecond},
	} {
		// the wait before the second request, the first one sent at 0
		wait, stop := every(c.rate).Pace(0, 1)
		if stop || wait != 2*c.gap {
			t.Errorf("every(%v): second request after %v (stop %v), want %v", c.rate, wait, stop, 2*c.gap)
		}
	}
}

// TestPerSecondShowsSlowRates: below ten a second a rate keeps two decimals,
// so an export's 1.05 a second does not read as pgbench's half.
func TestPerSecondShowsSlowRates(t *testing.T) {
	for v, want := range map[float64]string{1.05: "1.05", 0.524: "0.52", 2.2: "2.20", 9.994: "9.99", 10.4: "10", 599.6: "600"} {
		if got := perSecond(v); got != want {
			t.Errorf("perSecond(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestPickLeavesTheFloorOut: a run without -scenarios runs every scenario
// but the optional floor (/readyz); naming it runs it, in the table's order.
func TestPickLeavesTheFloorOut(t *testing.T) {
	keys := func(list []*scenario) []string {
		var out []string
		for _, s := range list {
			out = append(out, s.key)
		}
		return out
	}
	all := pick(scenarios(), "")
	if len(all) != len(scenarios())-1 || slices.Contains(keys(all), "readyz") || !slices.Contains(keys(all), "export-year") {
		t.Errorf("default run: %v", keys(all))
	}
	if got := keys(pick(scenarios(), "inbox,readyz,healthz")); !slices.Equal(got, []string{"healthz", "readyz", "inbox"}) {
		t.Errorf("-scenarios inbox,readyz,healthz: %v", got)
	}
}
