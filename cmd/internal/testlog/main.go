// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Command testlog shows a `go test -json` run as it goes, for make test: a
// line when a package starts and when each of its top-level tests starts,
// the whole output of a test that fails, and go test's own closing line of
// each package. At the very end it names every failed test and package
// again, each test with the first lines of its last messages (why it
// failed, when a long log after it scrolls that away), so the names are
// the last thing on the screen. A package that ends while some of its tests
// still run (its timeout, a panic in another goroutine) shows their output
// too, the panic included, and names them in that list (not the parallel
// tests still waiting their turn). It exits 1 when a package failed or did
// not build.
//
//	go test -json ./... | go run ./cmd/internal/testlog
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"
)

type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string // of build-output and build-fail
}

func main() {
	if !show(os.Stdin, os.Stdout) {
		os.Exit(1)
	}
}

// show writes the run read from in to out and reports whether it passed.
func show(r io.Reader, w io.Writer) bool {
	start := time.Now()
	failed := false
	var failures []string            // "package Test", in the order they failed
	testFailed := map[string]bool{}  // packages with a failed test
	why := map[string][]string{}     // the last messages of each failed test
	outputs := map[string][]string{} // the output of each running test, by package and test
	said := map[string][]string{}    // the first line of each message of a test, by package and test
	var running []string             // the top-level tests started and not ended, "package Test", in order
	paused := map[string]bool{}      // the top-level parallel tests waiting their turn
	saidAll := map[string][]string{} // said, of a top-level test and its subtests together
	// ended forgets what was kept of a test that passed, failed or was
	// skipped
	ended := func(key string, top bool) {
		if top {
			running = slices.DeleteFunc(running, func(k string) bool { return k == key })
			delete(paused, key)
			delete(outputs, key)
			delete(saidAll, key)
		}
		delete(said, key)
	}
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	for in.Scan() {
		line := in.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			fmt.Fprintln(w, string(line)) // not JSON: go's own message
			continue
		}
		key := e.Package + " " + e.Test
		top := e.Test != "" && !strings.Contains(e.Test, "/")
		elapsed := time.Since(start).Round(time.Second)
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "build-fail":
			failed = true
			failures = append(failures, e.ImportPath+" (does not build)")
		case "start":
			fmt.Fprintf(w, "[%s] %s: running its tests\n", elapsed, e.Package)
		case "run":
			if top {
				fmt.Fprintf(w, "[%s]   %s\n", elapsed, e.Test)
				running = append(running, key)
			}
		case "output":
			if e.Test == "" {
				// the package's own lines: ok, FAIL, a panic outside a test
				if !strings.HasPrefix(e.Output, "=== ") && e.Output != "PASS\n" {
					fmt.Fprint(w, e.Output)
				}
				continue
			}
			root := e.Package + " " + strings.SplitN(e.Test, "/", 2)[0]
			outputs[root] = append(outputs[root], e.Output)
			if m := messageLine(e.Output); m != "" {
				said[key] = append(said[key], m)
				saidAll[root] = append(saidAll[root], m)
			}
			if top {
				paused[key] = strings.HasPrefix(e.Output, "=== PAUSE ") || paused[key] && !strings.HasPrefix(e.Output, "=== CONT ")
			}
		case "fail":
			failed = true
			if e.Test != "" {
				failures = append(failures, key)
				testFailed[e.Package] = true
				why[key] = lastMessages(said[key])
				if top {
					fmt.Fprint(w, strings.Join(outputs[key], ""))
				}
			} else {
				if !testFailed[e.Package] { // a panic or a timeout outside any test, or TestMain
					failures = append(failures, e.Package+" (the package: see its output above)")
				}
				// the package ended with these tests still running: go
				// test's timeout panic is in their output
				for _, k := range running {
					if !paused[k] && strings.HasPrefix(k, e.Package+" ") {
						fmt.Fprint(w, strings.Join(outputs[k], ""))
						failures = append(failures, k+" (had not ended)")
						why[k+" (had not ended)"] = lastMessages(saidAll[k])
					}
				}
			}
			ended(key, top)
		case "pass", "skip":
			ended(key, top)
		}
	}
	if failed {
		fmt.Fprintf(w, "\nFAILED after %s (the output of each is above):\n", time.Since(start).Round(time.Second))
		for _, f := range failures {
			fmt.Fprintln(w, "  "+f)
			for _, m := range why[f] {
				fmt.Fprintln(w, "      "+m)
			}
		}
	}
	return !failed
}

// messageLine is the first line of a test's message ("x_test.go:12: text")
// or of a panic ("panic: test timed out after 40m0s") from a line of its
// output, or "" for any other line.
func messageLine(out string) string {
	trimmed := strings.TrimSpace(out)
	if !fileLine.MatchString(trimmed) {
		return ""
	}
	const max = 300
	if len(trimmed) > max {
		trimmed = trimmed[:max] + "…"
	}
	return trimmed
}

var fileLine = regexp.MustCompile(`^([\w.-]+\.go:\d+|panic): `)

// lastMessages keeps the last few messages of a failed test: the failure
// is among them, before whatever its cleanup logged.
func lastMessages(all []string) []string {
	const keep = 4
	if len(all) > keep {
		all = all[len(all)-keep:]
	}
	return all
}
