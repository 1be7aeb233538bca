package models

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Capture text: one line that says what happened (an activity log) or what
// is to be done (a task), read into fields by ParseCapture. The grammar is
// DESIGN.md's "Capture text"; the decisions it leaves open are taken here:
//
//   - Words are separated by white space; what is not understood stays in the
//     title, in order, joined by single spaces. A word with a leading
//     backslash is never understood and stays without its backslash; a lone
//     backslash is dropped. English words are read without regard to case.
//   - A word that has the shape of a grammar word but cannot be one stays in
//     the title (`25:00`, `13/45`, `2026-02-30`, `!urgent`, a lone `#`).
//     A duration out of bounds (`0m`, `25h`) is refused, as are two words
//     for one field: a second `#tag`, a second priority, a second day or
//     clock time of a task, a second time word of a log (a duration, a
//     range and `since` each set the log's span).
//   - Activity log times: a duration ends now; `since 9:30` (`9:30부터`,
//     `9:30 부터`, or any clock form below) starts at the latest 9:30 not
//     ahead of now and ends now; a range `9:30-10:15` (`–`, `~`, or the
//     separator as a word of its own) is placed on today's date, an end
//     before the start on the next day, and the whole range a day earlier
//     when its start is ahead of now (a log records what happened: at 01:30,
//     `23:00-01:00` is last night) or when it would end tomorrow (at 23:08,
//     `23:00-01:00` is yesterday 23:00 to today 01:00, as Timewarrior reads
//     it). A range that still ends ahead of now (`9:30-10:15` at 10:00,
//     `23:00-01:00` at 00:30) is refused: a finished log never ends in the
//     future. A range whose ends are equal is refused.
//     `9:30` alone is no word of a log.
//   - Clock forms: `9:30`, `18:00` (24-hour), `9am`, `5:30pm`, `12am`
//     (00:00), `12pm` (noon), `9시`, `9시30분`, `9시 30분`, `오후 5시`,
//     `오후5시`, `오전 9시` (`오후 12시` is noon, `오전 12시` midnight).
//   - A task's day without a clock time is due at the end of that local day:
//     due_at is stored as the last microsecond of the day in the request's
//     zone (the next local midnight minus 1 µs, so 23:59:59.999999 on the
//     local clock), and Capture.DueHasTime is false. The day lists and
//     sorts as that day (last of its day) and is overdue from the next day.
//     A page tells such a due from a due with a clock time by
//     DueDayOnly(due_at, zone): a form or a typed time never carries
//     microseconds. A clock time alone is today, tomorrow when it has
//     passed; a clock time with a day is that day at that time.
//   - `11/25` is the next 25 November that is not before today's local
//     date (`2/29` the next leap day); `2026-11-25` is that date even in the
//     past; a weekday is the next such day after today, a week ahead when
//     today is that weekday.
//   - Priority words are a task's; `since`, durations and ranges a log's;
//     in the other kind they are literal title words. `#tag` is both kinds'.

// MaxCaptureText is the longest capture text, in characters.
const MaxCaptureText = 500

// MinCaptureDuration and MaxCaptureDuration bound a duration word.
const (
	MinCaptureDuration = time.Minute
	MaxCaptureDuration = 24 * time.Hour
)

// Capture is what a capture text says. Times are UTC at microsecond
// precision; nil where the text says nothing.
type Capture struct {
	Title      string
	ProjectTag *string
	// StartedAt and EndedAt: an activity log's span (a duration, a range or
	// since); both nil when the text holds no time word.
	StartedAt *time.Time
	EndedAt   *time.Time
	// Duration is the duration word's length (0 without one), so that an
	// explicit ended_at in the same body can carry the start with it.
	Duration time.Duration
	// DueAt is a task's due time; DueHasTime is false when the text named a
	// day without a clock time (DueAt is then the day's last microsecond).
	DueAt      *time.Time
	DueHasTime bool
	// Priority is 1 to 3 from !low, !medium, !high; 0 when the text names none.
	Priority int
}

// ParseCapture reads a capture text of the kind activity_log or task, with
// the clock at now and times read in loc. A refusal is FieldErrors naming
// "text".
func ParseCapture(kind Kind, text string, now time.Time, loc *time.Location) (Capture, error) {
	var fe FieldErrors
	if kind != KindActivityLog && kind != KindTask {
		fe.add("text", "is read only for an activity_log or a task")
		return Capture{}, fe
	}
	checkText(&fe, "text", text, MaxCaptureText, true)
	if len(fe) > 0 {
		return Capture{}, fe
	}
	p := captureParser{kind: kind, words: strings.Fields(text), now: now.Truncate(time.Microsecond), loc: loc}
	p.run()
	if p.err != "" {
		fe.add("text", "%s", p.err)
		return Capture{}, fe
	}
	c := p.c
	c.Title = strings.Join(p.title, " ")
	if kind == KindTask {
		p.due()
		if p.err != "" {
			fe.add("text", "%s", p.err)
			return Capture{}, fe
		}
		c.DueAt, c.DueHasTime = p.c.DueAt, p.c.DueHasTime
		if c.Title == "" {
			fe.add("text", "leaves no title: a task needs words besides its day, time, tag and priority")
			return Capture{}, fe
		}
	}
	return c, nil
}

// DueDayOnly reports whether due is a day without a clock time in loc: the
// last microsecond of a local day, as ParseCapture stores a task day given
// without a time.
func DueDayOnly(due time.Time, loc *time.Location) bool {
	l := due.In(loc)
	return l.Hour() == 23 && l.Minute() == 59 && l.Second() == 59 && l.Nanosecond() == 999999000
}

// EndOfDay is the last microsecond of the local date y-m-d (normalised) in
// loc: the next day's first instant minus one microsecond.
func EndOfDay(y int, m time.Month, d int, loc *time.Location) time.Time {
	return dayStart(y, m, d+1, loc).Add(-time.Microsecond)
}

type captureParser struct {
	kind  Kind
	words []string
	now   time.Time
	loc   *time.Location

	title []string
	c     Capture
	err   string

	// a task's day and clock time, combined by due
	day          *civilDate
	clock        int // minutes after midnight; -1 for none
	clockSet     bool
	logTimeWord  string // the log's time word, for the refusal of a second one
	prioritySeen bool
}

type civilDate struct {
	y int
	m time.Month
	d int
}

func (p *captureParser) run() {
	for i := 0; i < len(p.words) && p.err == ""; {
		w := p.words[i]
		if strings.HasPrefix(w, `\`) {
			if lit := w[1:]; lit != "" {
				p.title = append(p.title, lit)
			}
			i++
			continue
		}
		if n := p.tag(w); n > 0 {
			i += n
			continue
		}
		var n int
		if p.kind == KindActivityLog {
			n = p.logWord(i)
		} else {
			n = p.taskWord(i)
		}
		if n == 0 {
			p.title = append(p.title, w)
			n = 1
		}
		i += n
	}
}

// tag reads a #tag word; 0 when w is not one.
func (p *captureParser) tag(w string) int {
	if len(w) < 2 || w[0] != '#' {
		return 0
	}
	if p.c.ProjectTag != nil {
		p.err = "holds two #tags (" + "#" + *p.c.ProjectTag + " and " + w + "): an event has one project_tag"
		return 1
	}
	tag := w[1:]
	if n := utf8.RuneCountInString(tag); n > MaxProjectTag {
		p.err = "the #tag must be at most " + strconv.Itoa(MaxProjectTag) + " characters (it has " + strconv.Itoa(n) + ")"
		return 1
	}
	p.c.ProjectTag = &tag
	return 1
}

// logWord reads the activity log words at i and returns how many words they
// took (0: i is a title word).
func (p *captureParser) logWord(i int) int {
	w := p.words[i]
	if strings.EqualFold(w, "since") {
		if m, n, suffix, ok := p.clockAt(i+1, false); ok && !suffix {
			p.since(m, w+" "+strings.Join(p.words[i+1:i+1+n], " "))
			return 1 + n
		}
		return 0
	}
	if m, n, suffix, ok := p.clockAt(i, true); ok {
		if suffix {
			p.since(m, strings.Join(p.words[i:i+n], " "))
			return n
		}
		if i+n < len(p.words) && p.words[i+n] == "부터" {
			p.since(m, strings.Join(p.words[i:i+n+1], " "))
			return n + 1
		}
	}
	if n := p.rangeAt(i); n > 0 {
		return n
	}
	if d, n, ok := p.durationAt(i); ok {
		phrase := strings.Join(p.words[i:i+n], " ")
		if !p.logTime(phrase) {
			return n
		}
		if d < MinCaptureDuration || d > MaxCaptureDuration {
			p.err = "the duration " + phrase + " must be from 1 minute to 24 hours"
			return n
		}
		end := p.now
		start := end.Add(-d)
		p.c.StartedAt, p.c.EndedAt, p.c.Duration = utcPtr(start), utcPtr(end), d
		return n
	}
	return 0
}

// logTime records the log's one time word; false (and a refusal) for a second.
func (p *captureParser) logTime(phrase string) bool {
	if p.logTimeWord != "" {
		p.err = "holds two times (" + p.logTimeWord + " and " + phrase + "): give one duration, range or since"
		return false
	}
	p.logTimeWord = phrase
	return true
}

// since starts the log at the latest clock time m (minutes after midnight)
// not ahead of now, and ends it now.
func (p *captureParser) since(m int, phrase string) {
	if !p.logTime(phrase) {
		return
	}
	l := p.now.In(p.loc)
	start := atClock(l.Year(), l.Month(), l.Day(), m, p.loc)
	if start.After(p.now) {
		start = atClock(l.Year(), l.Month(), l.Day()-1, m, p.loc)
	}
	p.c.StartedAt, p.c.EndedAt = utcPtr(start), utcPtr(p.now)
}

// rangeAt reads a clock range at i: one word `9:30-10:15` (or – or ~), or
// three words `9:30 - 10:15`.
func (p *captureParser) rangeAt(i int) int {
	w := p.words[i]
	var a, b string
	n := 0
	if cut := strings.IndexAny(w, "-–~"); cut > 0 {
		_, size := utf8.DecodeRuneInString(w[cut:])
		a, b, n = w[:cut], w[cut+size:], 1
	} else if i+2 < len(p.words) && isRangeSep(p.words[i+1]) {
		a, b, n = w, p.words[i+2], 3
	} else {
		return 0
	}
	from, ok1 := parseClock(a)
	to, ok2 := parseClock(b)
	if !ok1 || !ok2 {
		return 0
	}
	phrase := strings.Join(p.words[i:i+n], " ")
	if !p.logTime(phrase) {
		return n
	}
	if from == to {
		p.err = "the range " + phrase + " is empty: its start and end are the same time"
		return n
	}
	l := p.now.In(p.loc)
	day := l.Day()
	if atClock(l.Year(), l.Month(), day, from, p.loc).After(p.now) {
		day--
	}
	if to < from && day == l.Day() && atClock(l.Year(), l.Month(), day+1, to, p.loc).After(p.now) {
		// It would end tomorrow: a log records what happened, so the
		// end is today's and the start yesterday's (as Timewarrior reads
		// `23:00 - 01:00`).
		day--
	}
	start := atClock(l.Year(), l.Month(), day, from, p.loc)
	endDay := day
	if to < from {
		endDay++
	}
	end := atClock(l.Year(), l.Month(), endDay, to, p.loc)
	if !end.After(start) {
		// a clock that a zone's transition skips or repeats: keep the order
		end = start
	}
	if end.After(p.now) {
		p.err = "the range " + phrase + " has not ended yet (it ends at " + end.In(p.loc).Format("15:04") +
			"), and a log cannot end in the future: record it once it has ended, or what has passed with since " +
			start.In(p.loc).Format("15:04")
		return n
	}
	p.c.StartedAt, p.c.EndedAt = utcPtr(start), utcPtr(end)
	return n
}

func isRangeSep(w string) bool { return w == "-" || w == "–" || w == "~" }

// durationAt reads a duration at i: `15m`, `15min`, `2h`, `1h30m`, `1.5h`,
// `15분`, `2시간`, `1시간30분`, or an hours word followed by a minutes word
// (`1시간 30분`, `1h 30m`). ok is false when i holds none.
func (p *captureParser) durationAt(i int) (time.Duration, int, bool) {
	d, hoursOnly, ok := parseDuration(p.words[i])
	if !ok {
		return 0, 0, false
	}
	if hoursOnly && i+1 < len(p.words) {
		if m, ok := parseMinutes(p.words[i+1]); ok {
			return addCapped(d, m), 2, true
		}
	}
	return d, 1, true
}

// taskWord reads the task words at i and returns how many words they took.
func (p *captureParser) taskWord(i int) int {
	w := p.words[i]
	switch strings.ToLower(w) {
	case "!high":
		return p.priority(3, w)
	case "!medium":
		return p.priority(2, w)
	case "!low":
		return p.priority(1, w)
	}
	if d, ok := p.dayWord(w); ok {
		if p.day != nil {
			p.err = "names two days (" + w + " and another): give one"
			return 1
		}
		p.day = &d
		return 1
	}
	if m, n, _, ok := p.clockAt(i, false); ok {
		if p.clockSet {
			p.err = "names two clock times (" + strings.Join(p.words[i:i+n], " ") + " and another): give one"
			return n
		}
		p.clock, p.clockSet = m, true
		return n
	}
	return 0
}

func (p *captureParser) priority(v int, w string) int {
	if p.prioritySeen {
		p.err = "names two priorities (" + w + " and another): give one"
		return 1
	}
	p.prioritySeen, p.c.Priority = true, v
	return 1
}

// dayWord reads a task's day word: today, tomorrow, 오늘, 내일, 모레, a
// weekday, 2026-11-25 or 11/25.
func (p *captureParser) dayWord(w string) (civilDate, bool) {
	l := p.now.In(p.loc)
	today := civilDate{l.Year(), l.Month(), l.Day()}
	plus := func(n int) civilDate {
		t := time.Date(today.y, today.m, today.d+n, 12, 0, 0, 0, time.UTC)
		return civilDate{t.Year(), t.Month(), t.Day()}
	}
	switch strings.ToLower(w) {
	case "today", "오늘":
		return today, true
	case "tomorrow", "내일":
		return plus(1), true
	case "모레":
		return plus(2), true
	}
	if wd, ok := weekdays[strings.ToLower(w)]; ok {
		ahead := (int(wd) - int(l.Weekday()) + 7) % 7
		if ahead == 0 {
			ahead = 7
		}
		return plus(ahead), true
	}
	if y, m, d, ok := parseISODate(w); ok {
		return civilDate{y, m, d}, true
	}
	if m, d, ok := parseMonthDay(w); ok {
		for y := today.y; y <= today.y+8; y++ {
			if !validDate(y, m, d) {
				continue
			}
			c := civilDate{y, m, d}
			if c.y > today.y || c.m > today.m || (c.m == today.m && c.d >= today.d) {
				return c, true
			}
		}
	}
	return civilDate{}, false
}

var weekdays = map[string]time.Weekday{
	"mon": time.Monday, "monday": time.Monday, "월요일": time.Monday,
	"tue": time.Tuesday, "tuesday": time.Tuesday, "화요일": time.Tuesday,
	"wed": time.Wednesday, "wednesday": time.Wednesday, "수요일": time.Wednesday,
	"thu": time.Thursday, "thursday": time.Thursday, "목요일": time.Thursday,
	"fri": time.Friday, "friday": time.Friday, "금요일": time.Friday,
	"sat": time.Saturday, "saturday": time.Saturday, "토요일": time.Saturday,
	"sun": time.Sunday, "sunday": time.Sunday, "일요일": time.Sunday,
}

// due combines a task's day and clock time into DueAt.
func (p *captureParser) due() {
	if p.day == nil && !p.clockSet {
		return
	}
	var t time.Time
	switch {
	case p.day != nil && !p.clockSet:
		t = EndOfDay(p.day.y, p.day.m, p.day.d, p.loc)
	case p.day != nil:
		t = atClock(p.day.y, p.day.m, p.day.d, p.clock, p.loc)
		p.c.DueHasTime = true
	default:
		l := p.now.In(p.loc)
		t = atClock(l.Year(), l.Month(), l.Day(), p.clock, p.loc)
		if t.Before(p.now) {
			t = atClock(l.Year(), l.Month(), l.Day()+1, p.clock, p.loc)
		}
		p.c.DueHasTime = true
	}
	if u := t.UTC(); u.Year() < 1 || u.Year() > 9999 {
		p.err = "the due day must be in the years 0001 to 9999"
		return
	}
	p.c.DueAt = utcPtr(t)
}

// clockAt reads a clock time starting at word i: an optional 오전/오후 word,
// a clock word, and after an `N시` word an optional `M분` word. With
// allowSuffix, the last word may end in 부터 (suffix reports it). It returns
// the minutes after midnight and the words taken.
func (p *captureParser) clockAt(i int, allowSuffix bool) (m, n int, suffix, ok bool) {
	if i >= len(p.words) {
		return 0, 0, false, false
	}
	words := p.words[i:]
	strip := func(w string) (string, bool) {
		if allowSuffix {
			if s, found := strings.CutSuffix(w, "부터"); found && s != "" {
				return s, true
			}
		}
		return w, false
	}
	meridiem := ""
	if words[0] == "오전" || words[0] == "오후" {
		meridiem, words, n = words[0], words[1:], 1
		if len(words) == 0 {
			return 0, 0, false, false
		}
	}
	first, suf := strip(words[0])
	n++
	h, mi, korean, ok := parseClockWord(meridiem, first)
	if !ok {
		return 0, 0, false, false
	}
	// `9시 30분`: the minutes as a word of their own
	if korean && !suf && mi == 0 && !strings.Contains(first, "분") && len(words) > 1 {
		second, suf2 := strip(words[1])
		if mm, ok := parseKoreanMinutes(second); ok {
			mi, suf, n = mm, suf2, n+1
		}
	}
	return h*60 + mi, n, suf, true
}

// parseClock reads one word as a clock time (attached 오전/오후 allowed).
func parseClock(w string) (int, bool) {
	h, m, _, ok := parseClockWord("", w)
	return h*60 + m, ok
}

// parseClockWord reads `9:30`, `18:00`, `9am`, `5:30pm`, `9시`, `9시30분`,
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
	ms, found := strings.CutSuffix(w, "분")
	if !found {
		return 0, false
	}
	m, ok := smallInt(ms, 1, 2)
	return m, ok && m <= 59
}

// parseDuration reads one duration word. hoursOnly reports a word of hours
// alone (`1h`, `1시간`) that a minutes word may follow. A length too large to
// count is MaxCaptureDuration+1 minute (out of bounds, refused by the caller).
func parseDuration(w string) (d time.Duration, hoursOnly, ok bool) {
	lower := strings.ToLower(w)
	var hours, rest string
	switch {
	case strings.Contains(lower, "시간"):
		hours, rest, _ = strings.Cut(lower, "시간")
	case strings.Contains(lower, "h"):
		hours, rest, _ = strings.Cut(lower, "h")
	default:
		m, ok := parseMinutes(lower)
		return m, false, ok
	}
	h, ok := decimalHours(hours)
	if !ok {
		return 0, false, false
	}
	if rest == "" {
		return h, true, true
	}
	m, ok := parseMinutes(rest)
	if !ok || strings.Contains(hours, ".") {
		return 0, false, false
	}
	return addCapped(h, m), false, true
}

// parseMinutes reads `15m`, `15min`, `15분`.
func parseMinutes(w string) (time.Duration, bool) {
	lower := strings.ToLower(w)
	var digits string
	switch {
	case strings.HasSuffix(lower, "min"):
		digits = strings.TrimSuffix(lower, "min")
	case strings.HasSuffix(lower, "m"):
		digits = strings.TrimSuffix(lower, "m")
	case strings.HasSuffix(lower, "분"):
		digits = strings.TrimSuffix(lower, "분")
	default:
		return 0, false
	}
	n, ok := smallInt(digits, 1, 19)
	if !ok {
		return 0, false
	}
	if n > 24*60 {
		return tooLong, true
	}
	return time.Duration(n) * time.Minute, true
}

// tooLong stands for a length beyond every bound.
const tooLong = MaxCaptureDuration + time.Minute

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
	if a > MaxCaptureDuration || b > MaxCaptureDuration {
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

// parseISODate reads 2026-11-25 (a real date).
func parseISODate(w string) (int, time.Month, int, bool) {
	if len(w) != 10 || w[4] != '-' || w[7] != '-' {
		return 0, 0, 0, false
	}
	y, ok1 := smallInt(w[:4], 4, 4)
	m, ok2 := smallInt(w[5:7], 2, 2)
	d, ok3 := smallInt(w[8:], 2, 2)
	if !ok1 || !ok2 || !ok3 || y < 1 || !validDate(y, time.Month(m), d) {
		return 0, 0, 0, false
	}
	return y, time.Month(m), d, true
}

// parseMonthDay reads 11/25 (month/day; the year is chosen by the caller).
func parseMonthDay(w string) (time.Month, int, bool) {
	ms, ds, found := strings.Cut(w, "/")
	if !found {
		return 0, 0, false
	}
	m, ok1 := smallInt(ms, 1, 2)
	d, ok2 := smallInt(ds, 1, 2)
	if !ok1 || !ok2 || m < 1 || m > 12 || d < 1 || d > 31 || !validDate(2028, time.Month(m), d) {
		return 0, 0, false
	}
	return time.Month(m), d, true
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
