// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"events/internal/i18n"
	"events/models"
)

// TestCatalogueHasEveryLabel: every field the forms label, every kind,
// status, operation, change and problem type has its words in the
// catalogue, and the English of a field's label is the field table's
// (models.EventFields declares it; the catalogue repeats it for the
// other languages).
func TestCatalogueHasEveryLabel(t *testing.T) {
	var ids []string
	for _, f := range models.EventFields {
		if f.Label == "" {
			continue
		}
		ids = append(ids, "field_"+f.Name)
		if got := i18n.English.T("field_" + f.Name); got != f.Label {
			t.Errorf("en.toml field_%s = %q, the field table says %q", f.Name, got, f.Label)
		}
	}
	for _, k := range []models.Kind{models.KindTask, models.KindCalendarEvent, models.KindActivityLog} {
		ids = append(ids, "kind_label_"+string(k), "kind_choice_"+string(k), "kind_hint_"+string(k))
	}
	for _, s := range models.Statuses {
		ids = append(ids, "status_"+string(s))
	}
	for _, a := range []models.Actor{models.ActorUser, models.ActorAPI, models.ActorImport} {
		ids = append(ids, "actor_"+string(a))
	}
	for _, op := range models.Ops {
		ids = append(ids, "op_"+string(op))
	}
	for _, c := range models.Codes() {
		ids = append(ids, "error_"+c.Code.String())
	}
	for _, p := range problemTypes {
		ids = append(ids, problemID(p)+"_name", problemID(p)+"_about", problemID(p)+"_detail")
	}
	for _, id := range ids {
		for _, l := range i18n.Langs() {
			if !l.Has(id) {
				t.Errorf("%s.toml has no %s", l.Code, id)
			}
		}
	}
}

// TestScriptWordsInCatalogue: every word the pages' scripts say (say("…")
// in app.js and queue.js) is among the words the page hands them, in each
// language, and the scripts carry no English sentence of their own.
func TestScriptWordsInCatalogue(t *testing.T) {
	// the names in a say(…) call (not a value it compares with ===), and
	// the shortcut list's names, which the dialog says in turn
	call := regexp.MustCompile(`say\(([^;\n]*)|\[("[^"]+", "key_[a-z_]+")\]`)
	name := regexp.MustCompile(`(===\s*)?"([a-z][a-z_]*)"`)
	english := regexp.MustCompile(`(?:textContent|flash|button)\s*(?:=|\()\s*"[A-Za-z]+ [a-z]`)
	for _, l := range i18n.Langs() {
		js, err := scriptWords(l)
		if err != nil {
			t.Fatal(err)
		}
		var words map[string]any
		if err := json.Unmarshal([]byte(js), &words); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"app.js", "queue.js"} {
			b, err := os.ReadFile(filepath.Join("..", "static", f))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, c := range call.FindAllStringSubmatch(string(b), -1) {
				for _, n := range name.FindAllStringSubmatch(c[1]+c[2], -1) {
					if n[1] == "" && !strings.HasPrefix(c[0], "[\"") || strings.HasPrefix(n[2], "key_") {
						names = append(names, n[2])
					}
				}
			}
			if min := map[string]int{"app.js": 30, "queue.js": 8}[f]; len(names) < min {
				t.Fatalf("%s: found %d words said, want at least %d; the pattern is stale", f, len(names), min)
			}
			for _, name := range names {
				if w, _ := words[name].(string); w == "" {
					t.Errorf("%s says %q, which the %s page does not hand it", f, name, l.Code)
				}
			}
			if m := english.FindString(string(b)); m != "" {
				t.Errorf("%s writes English of its own: %s", f, m)
			}
		}
		for _, k := range []string{"weekdays", "months"} {
			if list, _ := words[k].([]any); len(list) != map[string]int{"weekdays": 7, "months": 12}[k] {
				t.Errorf("%s: %s is %v", l.Code, k, words[k])
			}
		}
	}
	if ko := i18n.Korean; !strings.Contains(must(scriptWords(ko)), "단축키") {
		t.Error("the Korean page hands its scripts no Korean")
	}
}

func must(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}
