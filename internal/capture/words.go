// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package capture

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"events/internal/i18n"
)

// The words of capture text (capture.go): clock times, ranges, durations,
// dates and the near misses the parser refuses. A phrase of several words
// is read from the words joined by single spaces (scanWords), so that
// `오후 2시~오후 3시`, `2 - 3pm` and `1 hr 30 min` read as one phrase
// however the spaces fall.

// scanWords reads the longest phrase of at most max words from i with
// parse (never across a word that starts with a backslash or a #); n is
// the number of words it took.
func scanWords[T any](words []string, i, max int, parse func(string) (T, bool)) (v T, n int, ok bool) {
	end := i + 1
	for end < len(words) && end < i+max && words[end][0] != '\\' && words[end][0] != '#' {
		end++
	}
	for ; end > i; end-- {
		if v, ok := parse(strings.Join(words[i:end], " ")); ok {
			return v, end - i, true
		}
	}
	return v, 0, false
}

// clockRange is a range of clock times, in minutes after midnight (to <
// from: it ends the next day).
type clockRange struct {
	from, to int
	phrase   string
	bare     bool     // both ends bare numbers without a meridiem (`5-10`)
	note     i18n.Msg // how an end without a meridiem was read; none when as written
}

// clockTok is one end of a range as written.
type clockTok struct {
	h, m int
	mer  string // "am", "pm" or "" (from am/pm or 오전/오후)
	form byte   // ':' 9:30, 's' 9시, 'b' a bare number (with or without am/pm)
}

// at is the end's minutes after midnight read with the meridiem mer.
func (t clockTok) at(mer string) int {
	h := t.h
	switch mer {
	case "am":
		h %= 12
	case "pm":
		h = h%12 + 12
	}
	return h*60 + t.m
}

// ambiguous reports an end without a meridiem that may be morning or
// afternoon: a bare number, or an `N시` hour of 1 to 12.
func (t clockTok) ambiguous() bool {
	return t.mer == "" && (t.form == 'b' || t.form == 's' && t.h >= 1 && t.h <= 12)
}

// parseClockRange reads `9:30-10:15`, `9:30 – 10:15`, `2pm-3pm`, `2-3pm`,
// `2 - 3 pm`, `14시-15시`, `오후 2시-3시`, `오후 2시~오후 3시`,
// `2시부터 3시까지`, `12-1` (see capture.go for how ends are read).
func parseClockRange(s string) (clockRange, bool) {
	a, pos, ok := scanClockTok(s, 0)
	if !ok {
		return clockRange{}, false
	}
	pos, sep, ok := scanSep(s, pos)
	if !ok {
		return clockRange{}, false
	}
	b, pos, ok := scanClockTok(s, pos)
	if !ok {
		return clockRange{}, false
	}
	if sep == "부터" {
		if pos, ok = scanWord(s, pos, "까지"); !ok {
			return clockRange{}, false
		}
	}
	if pos != len(s) {
		return clockRange{}, false
	}
	r := clockRange{phrase: s, bare: a.form == 'b' && b.form == 'b' && a.mer == "" && b.mer == ""}
	// an hour of 0 or 13 to 23 is read as written, whatever the other end says
	fixed := func(t clockTok) bool { return t.h == 0 || t.h > 12 }
	switch {
	case a.mer != "" && b.mer != "":
		r.from, r.to = a.at(a.mer), b.at(b.mer)
	case b.mer != "":
		// `2-3pm`: the start takes the end's meridiem, or the other half
		// of the day when it would not come before the end (`11-1pm`)
		r.to = b.at(b.mer)
		if fixed(a) {
			r.from = a.at("")
		} else if r.from = a.at(b.mer); r.from >= r.to {
			r.from = a.at(other(b.mer))
		}
	case a.mer != "":
		// `오후 2시-3시`, `2pm-3`: the end is the first such time after the start
		r.from = a.at(a.mer)
		if fixed(b) {
			r.to = b.at("")
		} else {
			r.to = firstAfter(r.from, b.at("am"), b.at("pm"))
		}
	default:
		r.from, r.to = a.at(""), b.at("")
		if a.ambiguous() {
			r.from = daytime(a.h)*60 + a.m
		}
		if b.ambiguous() {
			r.to = firstAfter(r.from, b.at("am"), b.at("pm"))
		}
		if a.form == 'b' || b.form == 'b' || r.from != a.at("") || r.to != b.at("") {
			r.note = i18n.M("capture_note_range", "Phrase", s, "From", fmt.Sprintf("%02d:%02d", r.from/60, r.from%60), "To", fmt.Sprintf("%02d:%02d", r.to/60, r.to%60))
		}
	}
	return r, true
}

func other(mer string) string {
	if mer == "am" {
		return "pm"
	}
	return "am"
}

// daytime is the hour h (1 to 12) written without a meridiem read in the
// waking day: 1 to 6 in the afternoon, 7 to 11 in the morning, 12 at noon.
func daytime(h int) int {
	if h <= 6 {
		return h + 12
	}
	return h
}

// firstAfter is whichever of a and b comes first after from (a day wraps).
func firstAfter(from, a, b int) int {
	ahead := func(m int) int {
		d := (m - from + 24*60) % (24 * 60)
		if d == 0 {
			d = 24 * 60
		}
		return d
	}
	if ahead(b) < ahead(a) {
		return b
	}
	return a
}

// scanClockTok reads one end of a range from pos: an optional 오전/오후, an
// hour, then `:MM`, or `시` (with `M분` or `반`), or nothing, then an
// optional am/pm.
func scanClockTok(s string, pos int) (clockTok, int, bool) {
	var t clockTok
	pos = skipSpaces(s, pos)
	for _, pre := range [...]struct{ word, mer string }{{"오전", "am"}, {"오후", "pm"}} {
		if strings.HasPrefix(s[pos:], pre.word) {
			t.mer, pos = pre.mer, skipSpaces(s, pos+len(pre.word))
			break
		}
	}
	h, pos, ok := scanDigits(s, pos, 1, 2)
	if !ok {
		return t, 0, false
	}
	t.h = h
	switch {
	case pos < len(s) && s[pos] == ':':
		if t.m, pos, ok = scanDigits(s, pos+1, 2, 2); !ok {
			return t, 0, false
		}
		t.form = ':'
	case strings.HasPrefix(s[pos:], "시"):
		t.form, pos = 's', pos+len("시")
		q := skipSpaces(s, pos)
		if m, q2, ok := scanDigits(s, q, 1, 2); ok && strings.HasPrefix(s[q2:], "분") {
			t.m, pos = m, q2+len("분")
		} else if strings.HasPrefix(s[q:], "반") {
			t.m, pos = 30, q+len("반")
		}
	default:
		t.form = 'b'
	}
	if t.mer == "" && t.form != 's' {
		q := skipSpaces(s, pos)
		if q+2 <= len(s) {
			if w := strings.ToLower(s[q : q+2]); (w == "am" || w == "pm") && (q+2 == len(s) || !isLetterAt(s, q+2)) {
				t.mer, pos = w, q+2
			}
		}
	}
	switch {
	case t.m > 59:
		return t, 0, false
	case t.mer != "" || t.form == 'b':
		ok = t.h >= 1 && t.h <= 12
	default:
		ok = t.h <= 23
	}
	return t, pos, ok
}

func isLetterAt(s string, pos int) bool {
	r, _ := utf8.DecodeRuneInString(s[pos:])
	return unicode.IsLetter(r)
}

// scanSep reads a range's separator, with spaces around it: -, –, ~ or 부터.
func scanSep(s string, pos int) (int, string, bool) {
	pos = skipSpaces(s, pos)
	for _, sep := range []string{"-", "–", "~", "부터"} {
		if strings.HasPrefix(s[pos:], sep) {
			return skipSpaces(s, pos+len(sep)), sep, true
		}
	}
	return 0, "", false
}

// scanWord reads w at pos, after optional spaces.
func scanWord(s string, pos int, w string) (int, bool) {
	pos = skipSpaces(s, pos)
	if !strings.HasPrefix(s[pos:], w) {
		return 0, false
	}
	return pos + len(w), true
}

func skipSpaces(s string, pos int) int {
	for pos < len(s) && s[pos] == ' ' {
		pos++
	}
	return pos
}

// scanDigits reads a run of minLen to maxLen ASCII digits at pos (a longer
// run is none).
func scanDigits(s string, pos, minLen, maxLen int) (int, int, bool) {
	end := pos
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, ok := smallInt(s[pos:end], minLen, maxLen)
	return n, end, ok
}

// scanDate reads a date at pos: 2026-11-25 (y set), 11/25 or 11월 25일
// (y 0: the caller gives it a year). With month, the end of a range of
// days, a day alone (`5`, `5일`) is a day of that month.
func scanDate(s string, pos int, month time.Month) (civilDate, int, bool) {
	if y, p1, ok := scanDigits(s, pos, 4, 4); ok {
		if p1 >= len(s) || s[p1] != '-' {
			return civilDate{}, 0, false
		}
		m, p2, ok := scanDigits(s, p1+1, 2, 2)
		if !ok || p2 >= len(s) || s[p2] != '-' {
			return civilDate{}, 0, false
		}
		d, p3, ok := scanDigits(s, p2+1, 2, 2)
		if !ok || y < 1 || !validDate(y, time.Month(m), d) {
			return civilDate{}, 0, false
		}
		return civilDate{y, time.Month(m), d}, p3, true
	}
	a, p1, ok := scanDigits(s, pos, 1, 2)
	if !ok {
		return civilDate{}, 0, false
	}
	var c civilDate
	switch {
	case p1 < len(s) && s[p1] == '/':
		d, p2, ok := scanDigits(s, p1+1, 1, 2)
		if !ok {
			return civilDate{}, 0, false
		}
		c, pos = civilDate{0, time.Month(a), d}, p2
	case strings.HasPrefix(s[p1:], "월"):
		d, p2, ok := scanDigits(s, skipSpaces(s, p1+len("월")), 1, 2)
		if !ok || !strings.HasPrefix(s[p2:], "일") {
			return civilDate{}, 0, false
		}
		c, pos = civilDate{0, time.Month(a), d}, p2+len("일")
	case month != 0 && strings.HasPrefix(s[p1:], "일"):
		c, pos = civilDate{0, month, a}, p1+len("일")
	case month != 0:
		c, pos = civilDate{0, month, a}, p1
	default:
		return civilDate{}, 0, false
	}
	if !validDate(2028, c.m, c.d) {
		return civilDate{}, 0, false
	}
	return c, pos, true
}

// Units of a duration; a unit written apart from its number has at least
// two letters.
var (
	hourUnits   = []string{"hours", "hour", "hrs", "hr", "h", "시간"}
	minuteUnits = []string{"minutes", "minute", "mins", "min", "m", "분"}
	// koreanHours are the native numbers that count hours (한 시간).
	koreanHours = []struct {
		word string
		n    int
	}{{"열한", 11}, {"열두", 12}, {"다섯", 5}, {"여섯", 6}, {"일곱", 7}, {"여덟", 8}, {"아홉", 9}, {"한", 1}, {"두", 2}, {"세", 3}, {"네", 4}, {"열", 10}}
)

// parseDurationText reads a duration of one or more words (see capture.go).
func parseDurationText(s string) (time.Duration, bool) {
	s = strings.ToLower(s)
	switch s {
	case "an hour":
		return time.Hour, true
	case "half an hour", "half hour", "a half hour":
		return 30 * time.Minute, true
	}
	var d time.Duration
	pos, ok := 0, false
	if strings.HasPrefix(s, "반") {
		// 반시간, 반 시간: half an hour
		if pos, ok = scanWord(s, len("반"), "시간"); !ok {
			return 0, false
		}
		d = 30 * time.Minute
	} else if h, p, whole, glued, ok := scanHours(s); ok {
		d, pos = h, p
		q := skipSpaces(s, pos)
		switch {
		case glued && pos < len(s) && s[pos] >= '0' && s[pos] <= '9':
			// 1h30m, 1h30, 1시간30분, 1시간30
			m, p2, ok := scanMinutes(s, pos, true)
			if !ok {
				mm, p3, ok3 := scanDigits(s, pos, 1, 2)
				if !ok3 || mm > 59 {
					return 0, false
				}
				m, p2 = time.Duration(mm)*time.Minute, p3
			}
			if !whole {
				return 0, false
			}
			d, pos = addCapped(d, m), p2
		case strings.HasPrefix(s[q:], "반"):
			// 1시간 반, 한시간반
			if !whole {
				return 0, false
			}
			d, pos = addCapped(d, 30*time.Minute), q+len("반")
		case q > pos:
			// 1h 30m, 1 hr 30 min, 1시간 30분
			if m, p2, ok := scanMinutes(s, q, false); ok {
				if !whole {
					return 0, false
				}
				d, pos = addCapped(d, m), p2
			}
		}
	} else if d, pos, ok = scanMinutes(s, 0, false); !ok {
		return 0, false
	}
	// a Korean ending: 30분간, 1시간 동안, 30분쯤, 1시간 정도
	for _, end := range []string{"간", "쯤", "동안", " 동안", "정도", " 정도"} {
		if strings.HasPrefix(s[pos:], end) && pos+len(end) == len(s) {
			pos = len(s)
		}
	}
	return d, pos == len(s)
}

// scanHours reads hours at the start of s: a number and an hours unit
// (`2h`, `1.5 hours`, `1시간`) or a native Korean number (`한시간`,
// `두 시간`). whole reports hours without a fraction; glued, a unit
// written against its number.
func scanHours(s string) (d time.Duration, pos int, whole, glued, ok bool) {
	for _, k := range koreanHours {
		if strings.HasPrefix(s, k.word) {
			if p, ok := scanWord(s, len(k.word), "시간"); ok {
				return time.Duration(k.n) * time.Hour, p, true, true, true
			}
		}
	}
	num, p := scanNumber(s, 0)
	if num == "" {
		return 0, 0, false, false, false
	}
	_, p2, glued, ok := scanUnit(s, p, hourUnits)
	if !ok {
		return 0, 0, false, false, false
	}
	h, ok := decimalHours(num)
	return h, p2, !strings.Contains(num, "."), glued, ok
}

// scanMinutes reads a whole number and a minutes unit at pos; with
// gluedOnly the unit must be written against the number.
func scanMinutes(s string, pos int, gluedOnly bool) (time.Duration, int, bool) {
	num, p := scanNumber(s, pos)
	if num == "" || strings.Contains(num, ".") {
		return 0, 0, false
	}
	_, p2, glued, ok := scanUnit(s, p, minuteUnits)
	if !ok || gluedOnly && !glued {
		return 0, 0, false
	}
	n, ok := smallInt(num, 1, 19)
	if !ok {
		return 0, 0, false
	}
	if n > 24*60 {
		return tooLong, p2, true
	}
	return time.Duration(n) * time.Minute, p2, true
}

// scanNumber reads `2` or `1.5` at pos ("" for none).
func scanNumber(s string, pos int) (string, int) {
	end := pos
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.') {
		end++
	}
	return s[pos:end], end
}

// scanUnit reads one of units at pos, against the number or after one
// space (then of two letters at least); the unit must end there: at the
// end, a space, a digit (1h30) or a Korean ending.
func scanUnit(s string, pos int, units []string) (unit string, end int, glued, ok bool) {
	q := pos
	if q < len(s) && s[q] == ' ' {
		q++
	}
	for _, u := range units {
		if !strings.HasPrefix(s[q:], u) || q > pos && utf8.RuneCountInString(u) < 2 && u != "분" {
			continue
		}
		e := q + len(u)
		if e < len(s) && isLetterAt(s, e) && !strings.ContainsRune("반간쯤동정", firstRune(s[e:])) {
			continue
		}
		return u, e, q == pos, true
	}
	return "", 0, false, false
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// isUnitWord reports a word that is a duration unit by itself (`min`, `분`).
func isUnitWord(w string) bool {
	w = strings.ToLower(w)
	for _, u := range append(append([]string{}, hourUnits...), minuteUnits...) {
		if w == u {
			return true
		}
	}
	return false
}

// unitNearMiss reports a number with a unit the grammar nearly read: a
// misspelt minutes or hours unit (`30 mns`, `30mns`, `2hs`, `30 minuts`)
// or seconds (`30 sec`, `30초`), against the number or as the next word.
// A word far from every unit (`5 parsecs`, `5 pages`) is none.
func unitNearMiss(w, next string) (phrase string, ok bool) {
	num, p := scanNumber(w, 0)
	switch {
	case num == "" || strings.Trim(num, ".") != num:
		return "", false
	case p < len(w):
		return w, nearUnit(w[p:]) || isUnitWord(w[p:]) // 1.5m: no whole minutes
	case next != "" && (nearUnit(next) || isUnitWord(next) && utf8.RuneCountInString(next) > 1):
		return w + " " + next, true // 30 mns, 1.5 min
	}
	return "", false
}

var (
	secondUnits = map[string]bool{"sec": true, "secs": true, "second": true, "seconds": true, "초": true}
	// nearUnitWords are words within one letter of a unit that are words
	// of their own (`2 main points`, `5 mm`).
	notNearUnits = map[string]bool{"mi": true, "mm": true, "man": true, "mid": true, "mix": true, "main": true, "mine": true,
		"mint": true, "mind": true, "mink": true, "minx": true, "mil": true, "ming": true, "mic": true, "his": true,
		"minuet": true, "minuets": true, "hue": true}
	nearUnitTargets = []string{"min", "mins", "minute", "minutes", "hrs", "hour", "hours"}
)

func nearUnit(u string) bool {
	u = strings.ToLower(u)
	if secondUnits[u] {
		return true
	}
	if utf8.RuneCountInString(u) < 2 || notNearUnits[u] || strings.IndexFunc(u, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
		return false
	}
	for _, t := range nearUnitTargets {
		if u[0] == t[0] && u != t && editDistance(u, t) <= 1 {
			return true
		}
	}
	return false
}

// editDistance is the optimal string alignment distance of a and b (an
// adjacent swap counts one), over runes.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	if len(x) > 20 || len(y) > 20 {
		return 99
	}
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// isNumberOrColon reports `5` or `5:30` (a clock that am/pm may follow).
func isNumberOrColon(w string) bool {
	_, pos, ok := scanDigits(w, 0, 1, 2)
	if ok && pos < len(w) && w[pos] == ':' {
		_, pos, ok = scanDigits(w, pos+1, 2, 2)
	}
	return ok && pos == len(w)
}

// parseClockWord reads `9:30`, `18:00`, `9am`, `5:30pm`, `9시`, `9시30분`, `9시반`,
// each optionally after 오전/오후 (given as meridiem, or attached to w).
// korean reports the 시 form.
func parseClockWord(meridiem, w string) (h, m int, korean, ok bool) {
	if meridiem == "" {
		for _, pre := range []string{"오전", "오후"} {
			if s, found := strings.CutPrefix(w, pre); found {
				meridiem, w = pre, s
				break
			}
		}
	}
	lower := strings.ToLower(w)
	twelve := ""
	switch {
	case strings.HasSuffix(w, "시반"):
		h, ok = smallInt(strings.TrimSuffix(w, "시반"), 1, 2)
		return applyMeridiem(meridiem, h, 30, true, ok && h <= 23)
	case strings.HasSuffix(w, "시"):
		hs := strings.TrimSuffix(w, "시")
		h, ok = smallInt(hs, 1, 2)
		return applyMeridiem(meridiem, h, 0, true, ok && h <= 23)
	case strings.Contains(w, "시") && strings.HasSuffix(w, "분"):
		hs, ms, _ := strings.Cut(strings.TrimSuffix(w, "분"), "시")
		h, ok1 := smallInt(hs, 1, 2)
		m, ok2 := smallInt(ms, 1, 2)
		return applyMeridiem(meridiem, h, m, true, ok1 && ok2 && h <= 23 && m <= 59)
	case strings.HasSuffix(lower, "am"), strings.HasSuffix(lower, "pm"):
		if meridiem != "" {
			return 0, 0, false, false
		}
		twelve, lower = lower[len(lower)-2:], lower[:len(lower)-2]
	}
	hs, ms, colon := strings.Cut(lower, ":")
	h, ok = smallInt(hs, 1, 2)
	if !ok {
		return 0, 0, false, false
	}
	if colon {
		if m, ok = smallInt(ms, 2, 2); !ok || m > 59 {
			return 0, 0, false, false
		}
	} else if twelve == "" {
		return 0, 0, false, false // a bare number is no clock
	}
	if twelve != "" {
		if h < 1 || h > 12 {
			return 0, 0, false, false
		}
		h %= 12
		if twelve == "pm" {
			h += 12
		}
		return h, m, false, true
	}
	return applyMeridiem(meridiem, h, m, false, h <= 23)
}

func applyMeridiem(meridiem string, h, m int, korean, ok bool) (int, int, bool, bool) {
	if !ok {
		return 0, 0, false, false
	}
	switch meridiem {
	case "":
		return h, m, korean, true
	case "오전", "오후":
		if h < 1 || h > 12 {
			return 0, 0, false, false
		}
		h %= 12
		if meridiem == "오후" {
			h += 12
		}
	}
	return h, m, korean, true
}

func parseKoreanMinutes(w string) (int, bool) {
	if w == "반" {
		return 30, true
	}
	ms, found := strings.CutSuffix(w, "분")
	if !found {
		return 0, false
	}
	m, ok := smallInt(ms, 1, 2)
	return m, ok && m <= 59
}

// tooLong stands for a length beyond every bound.
const tooLong = MaxDuration + time.Minute

// decimalHours reads `2` or `1.5` (at most six decimals) as hours, to the second.
func decimalHours(s string) (time.Duration, bool) {
	whole, frac, dot := strings.Cut(s, ".")
	h, ok := smallInt(whole, 1, 19)
	if !ok {
		return 0, false
	}
	f := 0
	if dot {
		if f, ok = smallInt(frac, 1, 6); !ok {
			return 0, false
		}
	}
	if h > 24 {
		return tooLong, true
	}
	d := time.Duration(h) * time.Hour
	if dot {
		scale := 1
		for range len(frac) {
			scale *= 10
		}
		d += (time.Duration(f) * time.Hour / time.Duration(scale)).Round(time.Second)
	}
	return d, true
}

func addCapped(a, b time.Duration) time.Duration {
	if a > MaxDuration || b > MaxDuration {
		return tooLong
	}
	return a + b
}

// smallInt reads a run of ASCII digits of length minLen..maxLen.
func smallInt(s string, minLen, maxLen int) (int, bool) {
	if len(s) < minLen || len(s) > maxLen {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > (1<<62)/10 {
			n = 1 << 62
			continue
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func validDate(y int, m time.Month, d int) bool {
	return m >= 1 && m <= 12 && d >= 1 && d <= DaysIn(y, m)
}

// DaysIn is the number of days of month m (1–12) in year y of the
// proleptic Gregorian calendar, as time.Date counts them.
func DaysIn(y int, m time.Month) int {
	switch m {
	case time.February:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// atClock is the instant of the local date y-m-d (normalised) at m minutes
// after midnight in loc (a time a transition skips moves as time.Date moves it).
func atClock(y int, mo time.Month, d, m int, loc *time.Location) time.Time {
	return time.Date(y, mo, d, m/60, m%60, 0, 0, loc)
}

func utcPtr(t time.Time) *time.Time {
	u := t.UTC().Truncate(time.Microsecond)
	return &u
}
