// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package i18n

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCatalogueSameIDs fails when a message id is in one language only.
func TestCatalogueSameIDs(t *testing.T) {
	if len(English.IDs()) < 30 {
		t.Fatalf("en.toml has %d ids: it did not load", len(English.IDs()))
	}
	for _, l := range langs[1:] {
		for _, id := range English.IDs() {
			if !slices.Contains(l.IDs(), id) {
				t.Errorf("%s is in en.toml, not in %s.toml", id, l.Code)
			}
		}
		for _, id := range l.IDs() {
			if !slices.Contains(English.IDs(), id) {
				t.Errorf("%s is in %s.toml, not in en.toml", id, l.Code)
			}
		}
	}
	t.Logf("%d ids in each language", len(English.IDs()))
}

var placeholder = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

// placeholders are the names a message's forms fill, sorted, once each.
func placeholders(forms []string) []string {
	var out []string
	for _, f := range forms {
		for _, m := range placeholder.FindAllStringSubmatch(f, -1) {
			if !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestCataloguePlaceholders fails when a message's placeholders differ
// between the languages. A plural message's forms are taken together:
// English may write "One event." where Korean has only the other form.
func TestCataloguePlaceholders(t *testing.T) {
	en := English.Messages()
	for _, l := range langs[1:] {
		for id, forms := range l.Messages() {
			want, got := placeholders(en[id]), placeholders(forms)
			if plural := len(en[id]) > 1; plural {
				want = slices.DeleteFunc(want, func(s string) bool { return s == "Count" })
				got = slices.DeleteFunc(got, func(s string) bool { return s == "Count" })
			}
			if !slices.Equal(want, got) {
				t.Errorf("%s: en fills %v, %s fills %v", id, want, l.Code, got)
			}
		}
	}
	for _, l := range langs {
		for id, forms := range l.Messages() {
			for _, f := range forms {
				if strings.Count(f, "{{") != len(placeholder.FindAllString(f, -1)) {
					t.Errorf("%s.toml %s: %q has a placeholder other than {{.Name}}", l.Code, id, f)
				}
			}
		}
	}
}

func TestAccept(t *testing.T) {
	for _, c := range []struct {
		header string
		def    *Lang
		want   *Lang
	}{
		{"", English, English},
		{"", Korean, Korean},
		{"ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7", English, Korean},
		{"en-US,en;q=0.9,ko;q=0.8", Korean, English},
		{"en;q=0.5, ko;q=0.9", English, Korean}, // q-values, not the order, decide
		{"ko;q=0, en", Korean, English},         // q=0 refuses
		{"fr-FR, de;q=0.5", English, English},   // neither: the default
		{"fr-FR, de;q=0.5", Korean, Korean},
		{"fr, ko;q=0.3", English, Korean},
		{"q=;;;", English, English}, // malformed: the default
	} {
		if got := Accept(c.header, c.def); got != c.want {
			t.Errorf("Accept(%q, %s) = %s, want %s", c.header, c.def.Code, got.Code, c.want.Code)
		}
	}
}

func TestFromEnv(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want *Lang
	}{
		{map[string]string{}, English},
		{map[string]string{"LANG": "ko_KR.UTF-8"}, Korean},
		{map[string]string{"LANG": "ko_KR.UTF-8", "LC_ALL": "C"}, English},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_ALL": "ko_KR.UTF-8"}, Korean},
		{map[string]string{"LC_MESSAGES": "ko_KR.UTF-8", "LANG": "en_GB.UTF-8"}, Korean},
		{map[string]string{"LANG": "de_DE.UTF-8"}, English},
	} {
		if got := FromEnv(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("FromEnv(%v) = %s, want %s", c.env, got.Code, c.want.Code)
		}
	}
}

// TestDatesPerLanguage holds the forms docs/DESIGN.md decides: English
// keeps its forms, Korean writes 11월 29일 (일), 오늘, 내일, 1시간 30분.
func TestDatesPerLanguage(t *testing.T) {
	seoul, _ := time.LoadLocation("Asia/Seoul")
	today := time.Date(2026, 11, 27, 0, 0, 0, 0, seoul)
	day := func(l *Lang, t time.Time) string { b, _ := l.AppendDay(nil, t, today); return string(b) }
	for _, c := range []struct {
		l    *Lang
		got  string
		want string
	}{
		{English, day(English, today.Add(9*time.Hour)), "today"},
		{Korean, day(Korean, today.Add(9*time.Hour)), "오늘"},
		{Korean, day(Korean, today.AddDate(0, 0, 1)), "내일"},
		{Korean, day(Korean, today.AddDate(0, 0, -1)), "어제"},
		{English, day(English, today.AddDate(0, 0, 3)), "Mon"},
		{Korean, day(Korean, today.AddDate(0, 0, 3)), "월요일"},
		{English, day(English, today.AddDate(0, 0, 2)), "Sun"},
		{English, day(English, today.AddDate(0, 0, -2)), "Wed 25 Nov"},
		{Korean, day(Korean, today.AddDate(0, 0, 9)), "12월 6일 (일)"},
		{English, day(English, today.AddDate(0, 2, 0)), "Wed 27 Jan 2027"},
		{Korean, day(Korean, today.AddDate(0, 2, 0)), "2027년 1월 27일 (수)"},
		{Korean, Korean.Date(time.Date(2026, 11, 29, 0, 0, 0, 0, seoul), false), "11월 29일 (일)"},
		{English, English.Duration(60 * 90), "1 h 30 min"},
		{Korean, Korean.Duration(60 * 90), "1시간 30분"},
		{Korean, Korean.Duration(3600 * 2), "2시간"},
		{Korean, Korean.Duration(60 * 25), "25분"},
		{English, English.Duration(10), "under 1 min"},
		{English, English.Elapsed(60 * 65), "1 h 05 min"},
		{Korean, Korean.Elapsed(60 * 65), "1시간 5분"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.l.Code, c.got, c.want)
		}
	}
}

// TestPlural holds CLDR's plural rules: English one/other, Korean other.
func TestPlural(t *testing.T) {
	if got := English.T("search_count", "Count", 1); got != "One event." {
		t.Errorf("en one: %q", got)
	}
	if got := English.T("search_count", "Count", 3); got != "3 events, in time order." {
		t.Errorf("en other: %q", got)
	}
	if got := Korean.T("search_count", "Count", 1); !strings.Contains(got, "1") {
		t.Errorf("ko: %q", got)
	}
}

// TestOverlapLengthAndMsg: an overlap's length in each language, rounded
// up to the minute; a Msg reads in English as an error, in l by In.
func TestOverlapLengthAndMsg(t *testing.T) {
	for _, c := range []struct {
		l       *Lang
		seconds int64
		want    string
	}{
		{English, 20, "1 min"}, {English, 1800, "30 min"}, {English, 3600, "1 h"}, {English, 3900, "1 h 05 min"},
		{Korean, 20, "1분"}, {Korean, 1800, "30분"}, {Korean, 3600, "1시간"}, {Korean, 3900, "1시간 5분"},
	} {
		if got := c.l.OverlapLength(c.seconds); got != c.want {
			t.Errorf("%s %d s: %q, want %q", c.l.Code, c.seconds, got, c.want)
		}
	}
	m := M("capture_two_days", "Phrase", "tue")
	if got := m.Error(); got != "names two days (tue and another): give one" {
		t.Errorf("in English: %q", got)
	}
	if got := m.In(Korean); got != "날짜가 둘입니다(tue 외 하나): 하나만 쓰세요" {
		t.Errorf("in Korean: %q", got)
	}
	if (Msg{}).In(Korean) != "" || !(Msg{}).IsZero() {
		t.Error("the zero Msg says something")
	}
}
