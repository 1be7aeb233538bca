// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"

	"events/static"
	"events/views"
)

// The names of the page contract are written once, in contract.go: the
// templates take them from its functions and app.js from the page, so
// neither spells one out.
func TestThePageContractIsNamedOnce(t *testing.T) {
	t.Parallel()
	names := []string{idDetail, idNewForm, idFlash, idList, idQuickRecord, idQuickTitle, idQuickError, idHistory, idDeferMenu, triggerChanged}
	for _, p := range deferPresets {
		names = append(names, p.Key)
	}
	js, err := fs.ReadFile(static.FS, "app.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		for _, quoted := range []string{`"` + n + `"`, `'` + n + `'`, "#" + n + `"`} {
			if strings.Contains(string(js), quoted) {
				t.Errorf("app.js spells out %s", quoted)
			}
		}
	}
	err = fs.WalkDir(views.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		b, err := fs.ReadFile(views.FS, path)
		if err != nil {
			return err
		}
		for _, n := range names[:len(names)-len(deferPresets)] {
			for _, literal := range []string{`id="` + n + `"`, `"#` + n + `"`, `"` + n + ` from:body"`} {
				if strings.Contains(string(b), literal) {
					t.Errorf("%s spells out %s", path, literal)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The defer menu is drawn once, when the templates load, and every page's
// foot places it as its own template draws it: once, with every preset.
func TestEveryPageCarriesTheDeferMenuOnce(t *testing.T) {
	t.Parallel()
	engine, loc := testEngine(t)
	var menu, foot bytes.Buffer
	if err := engine.Render(&menu, "partials/defer_menu", nil); err != nil {
		t.Fatal(err)
	}
	if err := engine.Render(&foot, "partials/foot", chrome{Zone: loc.String()}); err != nil {
		t.Fatal(err)
	}
	m := menu.String()
	if !strings.HasPrefix(m, `<template id="`+idDeferMenu+`">`) || strings.Count(m, `class="defer-preset"`) != len(deferPresets) {
		t.Fatalf("the defer menu drawn: %s", m)
	}
	if n := strings.Count(foot.String(), m); n != 1 {
		t.Fatalf("the foot holds the defer menu %d times:\n%s", n, foot.String())
	}
}
