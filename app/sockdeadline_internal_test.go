// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"
)

// TestCoarseDeadlines: a read deadline at most deadlineStep later than the
// one in place is left unset, so the socket gives up at the earlier one; a
// later one beyond the step, an earlier one and none are set at once. The
// bounds leave most of a second for a busy machine's late timers.
func TestCoarseDeadlines(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	c := &coarseConn{Conn: a}
	// timesOut reports how long a read waited before its deadline passed.
	timesOut := func() time.Duration {
		t.Helper()
		start := time.Now()
		_, err := c.Read(make([]byte, 1))
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("read: %v, want the deadline passed", err)
		}
		return time.Since(start)
	}

	now := time.Now()
	if err := c.SetReadDeadline(now.Add(50 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := c.SetReadDeadline(now.Add(50*time.Millisecond + deadlineStep)); err != nil {
		t.Fatal(err)
	}
	if d := timesOut(); d >= deadlineStep {
		t.Errorf("a deadline a step later was set: the read waited %s", d)
	}

	now = time.Now()
	if err := c.SetReadDeadline(now.Add(50 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := c.SetReadDeadline(now.Add(deadlineStep + 300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if d := timesOut(); d < deadlineStep {
		t.Errorf("a deadline more than a step later was not set: the read gave up after %s", d)
	}

	if err := c.SetReadDeadline(time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := c.SetReadDeadline(time.Now().Add(30 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if d := timesOut(); d > time.Second {
		t.Errorf("an earlier deadline was not set: the read waited %s", d)
	}

	if err := c.SetReadDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(200 * time.Millisecond); b.Write([]byte{1}) }()
	if _, err := c.Read(make([]byte, 1)); err != nil {
		t.Errorf("with no deadline the read failed: %v", err)
	}
}
