// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package i18n is the one message catalogue of the pages, the error
// answers and the terminal client, one file a language (en.toml, ko.toml),
// read with go-i18n and its CLDR plural rules; the choice of a language
// from Accept-Language, a cookie, EVENTS_LANGUAGE or LANG; and the dates,
// times and durations as each language writes them (dates.go).
//
// Code refers to a message by its id: Lang.T in Go, {{t "id"}} in the
// templates. The catalogue tests fail when an id is in one language only,
// when a message's placeholders differ between the languages, and when a
// template or a page-drawing Go file carries words outside the catalogue.
package i18n

import (
	"embed"
	"fmt"
	"html/template"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

//go:embed en.toml ko.toml
var files embed.FS

// Lang is one language of the catalogue.
type Lang struct {
	Code string       // the BCP 47 code <html lang> carries: "en", "ko"
	Name string       // the language's name in itself, for the sidebar's links: "English", "한국어"
	Tag  language.Tag // the code parsed
	loc  *goi18n.Localizer
	// plain holds every message of the language as it reads with no
	// placeholder filled: T of an id without arguments is a map lookup,
	// which rows drawn by the hundred call several times each.
	plain map[string]string
	// ids are the catalogue's ids in this language's file
	ids   []string
	msgs  []*goi18n.Message
	words dateWords // dates.go
	// wraps are the messages with one placeholder, split around it (Wrap)
	wraps map[string][2]string
}

// The languages, English first: it is the fallback when nothing asked for
// is in the catalogue.
var (
	English = &Lang{Code: "en", Name: "English", Tag: language.English}
	Korean  = &Lang{Code: "ko", Name: "한국어", Tag: language.Korean}
	langs   = []*Lang{English, Korean}
	matcher = language.NewMatcher([]language.Tag{language.English, language.Korean})
	bundle  = goi18n.NewBundle(language.English)
	// plural are the ids whose English has more than one form: only
	// those choose a form by their Count
	plural = map[string]bool{}
)

func init() {
	bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	for _, l := range langs {
		f, err := bundle.LoadMessageFileFS(files, l.Code+".toml")
		if err != nil {
			panic(fmt.Sprintf("i18n: %s.toml: %v", l.Code, err))
		}
		l.loc = goi18n.NewLocalizer(bundle, l.Code)
		l.plain = make(map[string]string, len(f.Messages))
		l.wraps = make(map[string][2]string)
		l.msgs = f.Messages
		for _, m := range f.Messages {
			l.ids = append(l.ids, m.ID)
			if l == English && m.Zero+m.One+m.Two+m.Few+m.Many != "" {
				plural[m.ID] = true
			}
			if m.Zero+m.One+m.Two+m.Few+m.Many == "" && strings.Count(m.Other, "{{") == 1 {
				before, rest, _ := strings.Cut(m.Other, "{{")
				_, after, _ := strings.Cut(rest, "}}")
				l.wraps[m.ID] = [2]string{before, after}
			}
			if !strings.Contains(m.Other, "{{") && m.Zero+m.One+m.Two+m.Few+m.Many == "" {
				l.plain[m.ID] = m.Other
			}
		}
		sort.Strings(l.ids)
		l.loadDateWords()
	}
}

// Langs are the languages of the catalogue, English first.
func Langs() []*Lang { return langs }

// Parse is the language of a code ("ko", "ko-KR", "en_US", and a POSIX
// locale such as "ko_KR.UTF-8"), or nil when it is not one of the
// catalogue's.
func Parse(code string) *Lang {
	code, _, _ = strings.Cut(code, ".") // ko_KR.UTF-8
	code, _, _ = strings.Cut(code, "@") // ko_KR@euro
	code = strings.ReplaceAll(code, "_", "-")
	if code == "" || code == "C" || code == "POSIX" {
		return nil
	}
	t, err := language.Parse(code)
	if err != nil {
		return nil
	}
	base, _ := t.Base()
	for _, l := range langs {
		if b, _ := l.Tag.Base(); b == base {
			return l
		}
	}
	return nil
}

// Accept is the language an Accept-Language header asks for, its q-values
// honoured, or def when it asks for none of the catalogue's (or is empty
// or malformed).
func Accept(header string, def *Lang) *Lang {
	if strings.TrimSpace(header) == "" {
		return def
	}
	tags, _, err := language.ParseAcceptLanguage(header) // sorted by q, q=0 dropped
	if err != nil || len(tags) == 0 {
		return def
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return def
	}
	return langs[i]
}

// FromEnv is the language the terminal's locale variables name, in POSIX
// order: LC_ALL, then LC_MESSAGES, then LANG; English otherwise. getenv
// is os.Getenv, or a test's map.
func FromEnv(getenv func(string) string) *Lang {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			if l := Parse(v); l != nil {
				return l
			}
			return English // a locale set to another language: the first set decides
		}
	}
	return English
}

// T is the message id in l, its placeholders filled from args, which are
// name and value pairs ("Name", x, "Count", n). A "Count" argument chooses
// the plural form by l's CLDR rules. An id the catalogue lacks reads as
// the id itself (the catalogue tests keep that from happening).
func (l *Lang) T(id string, args ...any) string {
	if len(args) == 0 {
		if s, ok := l.plain[id]; ok {
			return s
		}
	}
	s, err := l.localize(id, args)
	if err != nil {
		return id
	}
	return s
}

// Has tells whether the catalogue has id.
func (l *Lang) Has(id string) bool {
	_, err := l.localize(id, nil)
	return err == nil || l.plain[id] != ""
}

func (l *Lang) localize(id string, args []any) (string, error) {
	cfg := &goi18n.LocalizeConfig{MessageID: id}
	if len(args) > 0 {
		if len(args)%2 != 0 {
			return "", fmt.Errorf("i18n: %s: arguments must be name and value pairs", id)
		}
		data := make(map[string]any, len(args)/2)
		for i := 0; i < len(args); i += 2 {
			name, ok := args[i].(string)
			if !ok {
				return "", fmt.Errorf("i18n: %s: argument %d is not a name", id, i)
			}
			data[name] = args[i+1]
			if name == "Count" && plural[id] {
				cfg.PluralCount = args[i+1]
			}
		}
		cfg.TemplateData = data
	}
	s, tag, err := l.loc.LocalizeWithTag(cfg)
	if err != nil {
		return "", err
	}
	if tag != l.Tag { // go-i18n fell back to English: the id is not in l's file
		return "", fmt.Errorf("i18n: %s is not in %s.toml", id, l.Code)
	}
	return s, nil
}

// Func is the template function t of l's templates: {{t "id"}},
// {{t "id" "Name" .Value}}. Unlike T it fails on an id the catalogue
// lacks, so that the templates' first render at start stops the process.
func (l *Lang) Func(id string, args ...any) (string, error) {
	if len(args) == 0 {
		if s, ok := l.plain[id]; ok {
			return s, nil
		}
	}
	return l.localize(id, args)
}

// HTMLFunc is the template function th: a message that holds markup of
// its own (<kbd>, <code>, a link), given as HTML. The catalogue is trusted;
// the arguments are not, and are escaped first.
func (l *Lang) HTMLFunc(id string, args ...any) (template.HTML, error) {
	esc := make([]any, len(args))
	for i, a := range args {
		if s, ok := a.(string); ok && i%2 == 1 {
			a = template.HTMLEscapeString(s)
		}
		esc[i] = a
	}
	s, err := l.Func(id, esc...)
	return template.HTML(s), err
}

// Raw is the message id of l as written, its placeholders unfilled, for
// a pattern code fills itself (a date's order, a script's words); "" when
// l lacks it.
func (l *Lang) Raw(id string) string {
	for _, m := range l.msgs {
		if m.ID == id {
			return m.Other
		}
	}
	return ""
}

// IDs are the ids of l's file, sorted.
func (l *Lang) IDs() []string { return l.ids }

// Messages are the messages of l's file by id, each form of a plural
// message in turn (for the catalogue tests).
func (l *Lang) Messages() map[string][]string {
	out := make(map[string][]string, len(l.msgs))
	for _, m := range l.msgs {
		for _, s := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
			if s != "" {
				out[m.ID] = append(out[m.ID], s)
			}
		}
	}
	return out
}

// Wrap is the message id, which fills one placeholder, split around it:
// the words before and after (the words of "until {{.Time}}" are "until "
// and ""; of "{{.Time}}까지", "" and "까지"). Rows drawn by the hundred
// append the parts around their value rather than run the message's
// template. An id without exactly one placeholder wraps nothing.
func (l *Lang) Wrap(id string) (before, after string) {
	if w, ok := l.wraps[id]; ok {
		return w[0], w[1]
	}
	return "", ""
}
