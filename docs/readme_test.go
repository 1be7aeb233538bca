// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package docs

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeWords is the most words the README may hold: a manual read in ten
// minutes. What does not fit goes into docs/, one link away.
const readmeWords = 2000

// TestReadmeReadInTenMinutes counts the README's words as wc -w does.
func TestReadmeReadInTenMinutes(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(b))); n > readmeWords {
		t.Errorf("README.md holds %d words, more than %d: move what a smaller audience needs into docs/ and link it", n, readmeWords)
	}
}

// TestDesignStatesDecisions: DESIGN.md says what holds and why, not how
// the code came to be so (git keeps that); these phrases tell history.
func TestDesignStatesDecisions(t *testing.T) {
	b, err := os.ReadFile("DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	history := regexp.MustCompile(`(?i:\bused to\b|\bno longer\b|\buntil issue\b|\(before,|\bit was changed\b|\bpreviously\b|\bin the last run\b)|(^|\. )Before, `)
	for i, line := range strings.Split(string(b), "\n") {
		if m := history.FindString(line); m != "" {
			t.Errorf("DESIGN.md:%d tells history (%q): state the decision and its reason instead\n\t%s", i+1, m, line)
		}
	}
}
