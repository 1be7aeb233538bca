// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package migrations

import (
	"io/fs"
	"strings"
	"testing"
)

// TestVersionsAreUnique: bun's migrator orders migrations by the number
// that starts their names, so two with the same number (easy when work
// lands from several branches the same day) have no order; each version
// has exactly one up and one down file.
func TestVersionsAreUnique(t *testing.T) {
	names, err := fs.Glob(FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]string{} // version -> names
	for _, n := range names {
		version, _, ok := strings.Cut(n, "_")
		if !ok {
			t.Errorf("%s: want <version>_<name>.(tx.)up|down.sql", n)
			continue
		}
		files[version] = append(files[version], n)
	}
	if len(files) == 0 {
		t.Fatal("no migrations embedded")
	}
	for version, ns := range files {
		var up, down int
		for _, n := range ns {
			switch {
			case strings.HasSuffix(n, ".up.sql"):
				up++
			case strings.HasSuffix(n, ".down.sql"):
				down++
			}
		}
		if up != 1 || down != 1 || len(ns) != 2 {
			t.Errorf("version %s has %v; want one up and one down file", version, ns)
		}
	}
}
