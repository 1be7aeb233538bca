// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package docs

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// licenseNotice opens every Go file of the module, as Apache-2.0's
// appendix asks of each source file; LICENSE holds the whole text.
const licenseNotice = "// Copyright 2026 The events authors.\n// SPDX-License-Identifier: Apache-2.0\n"

// TestEveryGoFileNamesTheLicense: a file added without the notice is named
// here (a file made by a tool goes under testdata or is not committed).
func TestEveryGoFileNamesTheLicense(t *testing.T) {
	root := ".."
	license, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil || !bytes.Contains(license, []byte("Apache License")) || !bytes.Contains(license, []byte("Version 2.0")) {
		t.Fatalf("LICENSE is not the Apache License 2.0: %v", err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil || !bytes.Contains(readme, []byte("(LICENSE)")) {
		t.Errorf("README.md does not link LICENSE: %v", err)
	}
	var n int
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		if !bytes.HasPrefix(b, []byte(licenseNotice)) {
			t.Errorf("%s does not open with the license notice:\n%s", path, licenseNotice)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("found %d Go files; want the module's", n)
	}
}
