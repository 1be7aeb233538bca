// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package views

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

var (
	action    = regexp.MustCompile(`(?s)\{\{.*?\}\}`)
	tag       = regexp.MustCompile(`(?s)<[^>]*>`)
	entity    = regexp.MustCompile(`&#?\w+;`)
	shownAttr = regexp.MustCompile(`\b(aria-label|placeholder|title|alt|label|aria-description|aria-roledescription)="([^"]*)"`)
	word      = regexp.MustCompile(`\pL{2,}`)
	// a data- attribute a script shows: its value is a sentence, words
	// with a space between (a contract value such as data-kind="task" is
	// one word)
	dataSentence = regexp.MustCompile(`\bdata-[a-z-]+="(\pL{2,}[^"]*\s\pL[^"]*)"`)
)

// TestTemplatesCarryNoWords fails when a template carries words of a
// language outside the catalogue (internal/i18n): every word a page shows,
// in its text or in the attributes people read or hear (aria-label,
// placeholder, title, alt), comes from {{t "id"}} or from data. A new
// word goes into en.toml and ko.toml under an id.
func TestTemplatesCarryNoWords(t *testing.T) {
	n := 0
	err := fs.WalkDir(FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		b, err := FS.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		src := action.ReplaceAllString(string(b), "")
		for _, m := range shownAttr.FindAllStringSubmatch(src, -1) {
			if w := word.FindString(entity.ReplaceAllString(m[2], "")); w != "" {
				t.Errorf("%s: %s=%q holds %q outside the catalogue", path, m[1], m[2], w)
			}
		}
		for _, m := range dataSentence.FindAllStringSubmatch(src, -1) {
			t.Errorf("%s: %q holds words outside the catalogue", path, m[0])
		}
		text := entity.ReplaceAllString(tag.ReplaceAllString(src, "\n"), "")
		for _, line := range strings.Split(text, "\n") {
			if w := word.FindString(line); w != "" {
				t.Errorf("%s: %q holds %q outside the catalogue", path, strings.TrimSpace(line), w)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Fatalf("read %d templates", n)
	}
}
