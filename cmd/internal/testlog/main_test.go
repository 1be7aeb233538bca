// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"strings"
	"testing"
)

// TestFailedNamesComeLast: a run with a failed subtest, a failed
// package without a failed test (a panic in TestMain) and a package that
// does not build ends with their names, after every package's output, a
// failed test with its last messages (not the lines logged after them),
// and reports the failure; a passing run adds nothing.
func TestFailedNamesComeLast(t *testing.T) {
	run := `{"Action":"start","Package":"events/a"}
{"Action":"run","Package":"events/a","Test":"TestSlow"}
{"Action":"run","Package":"events/a","Test":"TestSlow/busy"}
{"Action":"output","Package":"events/a","Test":"TestSlow/busy","Output":"    slow_test.go:9: failed after 13s\n"}
{"Action":"output","Package":"events/a","Test":"TestSlow/busy","Output":"    main_test.go:150: server log:\n"}
{"Action":"output","Package":"events/a","Test":"TestSlow/busy","Output":"        time=2026-12-06T20:55:39Z level=INFO msg=request\n"}
{"Action":"fail","Package":"events/a","Test":"TestSlow/busy"}
{"Action":"fail","Package":"events/a","Test":"TestSlow"}
{"Action":"run","Package":"events/a","Test":"TestFine"}
{"Action":"pass","Package":"events/a","Test":"TestFine"}
{"Action":"output","Package":"events/a","Output":"FAIL\tevents/a\t14.2s\n"}
{"Action":"fail","Package":"events/a"}
{"Action":"build-output","ImportPath":"events/c [events/c.test]","Output":"c.go:3:1: syntax error\n"}
{"Action":"build-fail","ImportPath":"events/c [events/c.test]"}
{"Action":"start","Package":"events/b"}
{"Action":"output","Package":"events/b","Output":"panic: no database\n"}
{"Action":"fail","Package":"events/b"}
{"Action":"start","Package":"events/d"}
{"Action":"output","Package":"events/d","Output":"ok  \tevents/d\t0.1s\n"}
{"Action":"pass","Package":"events/d"}
`
	got, before, names := closing(t, run)
	want := "  events/a TestSlow/busy\n      slow_test.go:9: failed after 13s\n      main_test.go:150: server log:\n  events/a TestSlow\n  events/c [events/c.test] (does not build)\n  events/b (the package: see its output above)\n"
	if names != want {
		t.Errorf("the run ends with:\n%s\nwant:\n%s", names, want)
	}
	if !strings.Contains(before, "failed after 13s") {
		t.Errorf("the failed test's output is not before the list:\n%s", got)
	}

	var out strings.Builder
	if !show(strings.NewReader(`{"Action":"start","Package":"events/d"}
{"Action":"pass","Package":"events/d"}
`), &out) || strings.Contains(out.String(), "FAILED") {
		t.Errorf("a passing run:\n%s", out.String())
	}
}

// TestTestsThatHadNotEndedAreNamed: a package that ends while tests still
// run (go test's timeout) shows their output, the timeout's panic
// included, and names each in the closing list with its last messages, its
// subtests' among them; neither a test that ended nor a parallel test still
// waiting its turn is named, while one that resumed is.
func TestTestsThatHadNotEndedAreNamed(t *testing.T) {
	run := `{"Action":"start","Package":"events/a"}
{"Action":"run","Package":"events/a","Test":"TestQuick"}
{"Action":"output","Package":"events/a","Test":"TestQuick","Output":"    quick_test.go:5: not shown\n"}
{"Action":"pass","Package":"events/a","Test":"TestQuick"}
{"Action":"run","Package":"events/a","Test":"TestWaits"}
{"Action":"output","Package":"events/a","Test":"TestWaits","Output":"=== PAUSE TestWaits\n"}
{"Action":"run","Package":"events/a","Test":"TestResumed"}
{"Action":"output","Package":"events/a","Test":"TestResumed","Output":"=== PAUSE TestResumed\n"}
{"Action":"output","Package":"events/a","Test":"TestResumed","Output":"=== CONT  TestResumed\n"}
{"Action":"run","Package":"events/a","Test":"TestHangs"}
{"Action":"run","Package":"events/a","Test":"TestHangs/inner"}
{"Action":"output","Package":"events/a","Test":"TestHangs/inner","Output":"    hang_test.go:9: waiting for the lock\n"}
{"Action":"output","Package":"events/a","Test":"TestHangs","Output":"panic: test timed out after 40m0s\n"}
{"Action":"output","Package":"events/a","Test":"TestHangs","Output":"\trunning tests:\n"}
{"Action":"output","Package":"events/a","Test":"TestHangs","Output":"goroutine 7 [select]:\n"}
{"Action":"output","Package":"events/a","Output":"FAIL\tevents/a\t2400.1s\n"}
{"Action":"fail","Package":"events/a"}
`
	got, before, names := closing(t, run)
	for _, line := range []string{"hang_test.go:9: waiting for the lock", "panic: test timed out after 40m0s", "goroutine 7 [select]:"} {
		if !strings.Contains(before, line) {
			t.Errorf("the output before the list lacks %q:\n%s", line, before)
		}
	}
	if strings.Contains(got, "not shown") {
		t.Errorf("a passed test's output is shown:\n%s", got)
	}
	want := "  events/a (the package: see its output above)\n  events/a TestResumed (had not ended)\n" +
		"  events/a TestHangs (had not ended)\n      hang_test.go:9: waiting for the lock\n      panic: test timed out after 40m0s\n"
	if names != want {
		t.Errorf("the run ends with:\n%s\nwant:\n%s", names, want)
	}
}

// closing shows run, which must fail, and returns what was shown, what
// came before the closing list, and the list's lines after its first.
func closing(t *testing.T, run string) (got, before, names string) {
	t.Helper()
	var out strings.Builder
	if show(strings.NewReader(run), &out) {
		t.Error("a run with failures passed")
	}
	got = out.String()
	before, tail, ok := strings.Cut(got, "\nFAILED after ")
	if !ok {
		t.Fatalf("no closing list:\n%s", got)
	}
	_, names, _ = strings.Cut(tail, "\n")
	return got, before, names
}
