// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Command testlog shows a `go test -json` run as it goes, for make test: a
// line when a package starts and when each of its top-level tests starts,
// the whole output of a test that fails, and go test's own closing line of
// each package. It exits 1 when a package failed or did not build.
//
//	go test -json ./... | go run ./cmd/internal/testlog
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
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
	start := time.Now()
	failed := false
	outputs := map[string][]string{} // the output of each running test, by package and test
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	for in.Scan() {
		line := in.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			fmt.Println(string(line)) // not JSON: go's own message
			continue
		}
		key := e.Package + " " + e.Test
		top := e.Test != "" && !strings.Contains(e.Test, "/")
		elapsed := time.Since(start).Round(time.Second)
		switch e.Action {
		case "build-output":
			fmt.Print(e.Output)
		case "build-fail":
			failed = true
		case "start":
			fmt.Printf("[%s] %s: running its tests\n", elapsed, e.Package)
		case "run":
			if top {
				fmt.Printf("[%s]   %s\n", elapsed, e.Test)
			}
		case "output":
			if e.Test == "" {
				// the package's own lines: ok, FAIL, a panic outside a test
				if !strings.HasPrefix(e.Output, "=== ") && e.Output != "PASS\n" {
					fmt.Print(e.Output)
				}
				continue
			}
			root := e.Package + " " + strings.SplitN(e.Test, "/", 2)[0]
			outputs[root] = append(outputs[root], e.Output)
		case "fail":
			failed = true
			if top {
				fmt.Print(strings.Join(outputs[key], ""))
				delete(outputs, key)
			}
		case "pass", "skip":
			if top {
				delete(outputs, key)
			}
		}
	}
	if failed {
		os.Exit(1)
	}
}
