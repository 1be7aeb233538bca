// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package capture

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"events/internal/i18n"
)

// Capture text: one line that says what happened (an activity log), what
// is to be done (a task) or what is planned (a calendar entry), read into
// fields by Parse. The grammar is DESIGN.md's "Capture text"; the
// decisions it leaves open are taken here:
//
//   - Words are separated by white space; what is not understood stays in the
//     title, in order, joined by single spaces. A word with a leading
//     backslash is never understood and stays without its backslash; a lone
//     backslash is dropped. English words are read without regard to case.
//   - A word that has the shape of a grammar word but cannot be one stays in
//     the title (`25:00`, `13/45`, `2026-02-30`, `!urgent`, a lone `#`).
//     A duration out of bounds (`0m`, `25h`) is refused, as are two words
//     for one field: a second `#tag`, a second priority, a second day or
//     clock time, a second time word of a log (a duration, a range and
//     `since` each set the log's span).
//   - A word the grammar nearly read is refused, naming it, rather than
//     left in the title: a number with a misspelt or unreadable time unit
//     where durations are read (`30 mns`, `30mns`, `2hs`, `30 sec`), a
//     range of durations (`5-10 min`), and an 오전/오후 before a number it
//     cannot be read with (`오후 25시`, `오후 3`). A number followed by a
//     word far from any unit (`5 parsecs`, `read 5 pages`) is a title.
//   - Durations (a log's, or a calendar entry's length): `15m`, `15min`,
//     `30 min`, `30 mins`, `45 minutes`, `2h`, `1 hr`, `2 hours`, `1.5h`,
//     `1h30m`, `1h30`, `1h 30m`, `1 hr 30 min`, `15분`, `30 분`, `2시간`,
//     `1시간30분`, `1시간 30분`, `1시간30`, `1시간 반`, `한시간`, `두 시간`,
//     `한시간 반`, `반시간`, `an hour`, `half an hour`; a Korean duration
//     may end in 간, 동안, 쯤 or 정도 (`30분간`, `1시간 동안`). A unit
//     written apart from its number has at least two letters (`30 m` is
//     no duration).
//   - Activity log times: a duration ends now; `since 9:30` (`9:30부터`,
//     `9:30 부터`, or any clock form below) starts at the latest 9:30 not
//     ahead of now and ends now; a range (below) is placed on today's date,
//     an end before the start on the next day, and the whole range a day
//     earlier when its start is ahead of now (a log records what happened:
//     at 01:30, `23:00-01:00` is last night) or when it would end tomorrow
//     (at 23:08, `23:00-01:00` is yesterday 23:00 to today 01:00, as
//     Timewarrior reads it). A range that still ends ahead of now
//     (`9:30-10:15` at 10:00, `23:00-01:00` at 00:30) is refused: a
//     finished log never ends in the future. A range whose ends are equal
//     is refused. `9:30` alone is no word of a log.
//   - Clock forms: `9:30`, `18:00` (24-hour), `9am`, `5:30pm`, `5 pm`,
//     `12am` (00:00), `12pm` (noon), `9시`, `9시30분`, `9시 30분`, `9시 반`,
//     `오후 5시`, `오후5시`, `오전 9시` (`오후 12시` is noon, `오전 12시`
//     midnight).
//   - Ranges (a log's or a calendar entry's): two clock times joined by
//     `-`, `–` or `~` (in one word or with spaces: `9:30 - 10:15`), or
//     `2시부터 3시까지`. A meridiem written once applies to both ends:
//     `2-3pm` and `오후 2시-3시` are 14:00–15:00 (`11-1pm` is 11:00–13:00:
//     the start takes the other half of the day when it would not come
//     before the end; an end without one is the first such time after the
//     start). A range without any meridiem whose ends are bare numbers or
//     `N시` hours of 1 to 12 (`12-1`, `3-4`, `12시~1시`) is read as the
//     nearest sensible span: a start hour of 1 to 6 is afternoon, 7 to 11
//     morning, 12 noon, and the end is the first such hour after the start
//     (`12-1` is 12:00–13:00, `9-10` 09:00–10:00, `3-4` 15:00–16:00);
//     when that differs from the written 24-hour reading, or an end was a
//     bare number, Capture.Note says so ("Read “12-1” as 12:00–13:00.").
//     Colon times (`1:00-2:00`) stay 24-hour.
//   - A task's day without a clock time is due at the end of that local day:
//     due_at is stored as the last microsecond of the day in the request's
//     zone (the next local midnight minus 1 µs, so 23:59:59.999999 on the
//     local clock), and Capture.DueHasTime is false. The day lists and
//     sorts as that day (last of its day) and is overdue from the next day.
//     A page tells such a due from a due with a clock time by
//     models.DueDayOnly(due_at, zone): a form or a typed time never carries
//     microseconds. A clock time alone is today, tomorrow when it has
//     passed; a clock time with a day is that day at that time.
//   - Days: `today`, `tomorrow`, `오늘`, `내일`, `모레`, a weekday (the next
//     such day after today, a week ahead when today is that weekday),
//     `11/25` and `11월 25일` (the next 25 November that is not before
//     today's local date; `2/29` the next leap day), `2026-11-25` (that
//     date even in the past).
//   - A calendar entry takes a day, a clock time or a range, a duration
//     and a #tag: `Dentist tue 15:00-16:00`, `치과 화요일 오후 3시-4시`.
//     A day alone is all day (`휴가 12/24`); two days joined like a range
//     (`12/3-12/5`, `12/3-5`, `12월 3일~5일`) are all day from the first
//     to the last, the last included. A clock time alone starts it and it
//     lasts an hour, or the duration given (`tue 3pm 30 min`). Without a
//     day, its start is the next such time (today, tomorrow when it has
//     passed). A duration without a start time, and clock times with two
//     days, are refused.
//   - Priority words are a task's (`!high`, `!medium`, `!low`, and
//     Todoist's `p1`, `p2`, `p3` for 3, 2, 1; `p4` is no priority);
//     `since`, durations and ranges a log's (a calendar entry's too, but
//     `since`); in another kind they are literal title words. `#tag` is
//     every kind's, and so are `@label` words (any number; only a leading
//     `@` marks one, so `bob@example.com` is a title word). A name with
//     spaces is written in double quotes after its marker:
//     `#"Acme website"`, `@"client acme"`.

// MinDuration and MaxDuration bound a duration word.
const (
	MinDuration = time.Minute
	MaxDuration = 24 * time.Hour
)

// Kind is the kind of event a line is read for; its values are the event
// kinds' names (models.Kind).
type Kind string

// The kinds a line is read for.
const (
	ActivityLog   Kind = "activity_log"
	Task          Kind = "task"
	CalendarEvent Kind = "calendar_event"
)

// Capture is what a capture text says. Times are UTC at microsecond
// precision; nil where the text says nothing.
type Capture struct {
	Title      string
	ProjectTag *string
	// Labels are the @label words, in order, each once.
	Labels []string
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
	// Priority is 1 to 3 from !low, !medium, !high (p3, p2, p1); 0 when
	// the text names none.
	Priority int
	// StartAt, EndAt and AllDay: a calendar entry's span. An all-day span
	// runs from the local midnight of its first day to the local midnight
	// after its last, in the zone the text was read in.
	StartAt *time.Time
	EndAt   *time.Time
	AllDay  bool
	// DayNamed and Ranged: the calendar entry's text named a day, and a
	// clock range (models.LineKind reads a log's or task's line with them).
	DayNamed, Ranged bool
	// Note is one sentence saying how a word that could mean more than one
	// thing was read ("Read “12-1” as 12:00–13:00."), as a catalogue
	// message the page writes in its language; zero when none did.
	Note i18n.Msg
}

// Rules are the domain's bounds a line is read within (models' field table
// holds them).
type Rules struct {
	// MaxTag is the longest #tag, in characters.
	MaxTag int
	// MaxLabel is the longest @label, in characters; MaxLabels how many
	// a line may name.
	MaxLabel, MaxLabels int
}

// Parse reads a capture text of a kind, with the clock at now and times
// read in loc, within the rules r. The caller (models.ParseCapture) has checked the kind and
// the text's length and characters; an error is an i18n.Msg (its
// sentence, in English as an error, says which word could not be read,
// or that no title is left), so that a page writes it in its language.
func Parse(kind Kind, text string, now time.Time, loc *time.Location, r Rules) (Capture, error) {
	p := captureParser{kind: kind, rules: r, words: strings.Fields(text), now: now.Truncate(time.Microsecond), loc: loc}
	p.run()
	switch {
	case !p.err.IsZero():
	case kind == Task:
		p.due()
	case kind == CalendarEvent:
		p.calendar()
	}
	if !p.err.IsZero() {
		return Capture{}, p.err
	}
	c := p.c
	c.Title = strings.Join(p.title, " ")
	if c.Title == "" && kind != ActivityLog {
		return Capture{}, i18n.M("capture_no_title_" + string(kind))
	}
	return c, nil
}

// DayStart is the first instant of the local date y-m-d (normalised) in loc:
// its midnight, or, where the clocks jump over midnight (America/Havana,
// America/Santiago), the instant they jump to. time.Date alone may answer an
// hour of the day before there.
func DayStart(y int, m time.Month, d int, loc *time.Location) time.Time {
	t := time.Date(y, m, d, 0, 0, 0, 0, loc)
	wy, wm, wd := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Date()
	if ty, tm, td := t.Date(); ty != wy || tm != wm || td != wd {
		_, t = t.ZoneBounds()
	}
	return t
}

// EndOfDay is the last microsecond of the local date y-m-d (normalised) in
// loc: the next day's first instant minus one microsecond. A task's day
// without a clock time is due then (models.DueDayOnly tells it apart).
func EndOfDay(y int, m time.Month, d int, loc *time.Location) time.Time {
	return DayStart(y, m, d+1, loc).Add(-time.Microsecond)
}

type captureParser struct {
	kind  Kind
	rules Rules
	words []string
	now   time.Time
	loc   *time.Location

	title []string
	c     Capture
	err   i18n.Msg

	// a task's or calendar entry's day (and last day of a calendar
	// entry's days), clock time, range and duration, combined by due or
	// calendar
	day          *civilDate
	lastDay      *civilDate
	clock        int // minutes after midnight
	clockSet     bool
	rng          *clockRange
	dur          time.Duration
	logTimeWord  string // the log's time word, for the refusal of a second one
	prioritySeen bool
}

type civilDate struct {
	y int
	m time.Month
	d int
}

func (c civilDate) plus(n int) civilDate {
	t := time.Date(c.y, c.m, c.d+n, 12, 0, 0, 0, time.UTC)
	return civilDate{t.Year(), t.Month(), t.Day()}
}

func (c civilDate) before(o civilDate) bool {
	if c.y != o.y {
		return c.y < o.y
	}
	if c.m != o.m {
		return c.m < o.m
	}
	return c.d < o.d
}

func (p *captureParser) today() civilDate {
	l := p.now.In(p.loc)
	return civilDate{l.Year(), l.Month(), l.Day()}
}

func (p *captureParser) run() {
	for i := 0; i < len(p.words) && p.err.IsZero(); {
		w := p.words[i]
		if strings.HasPrefix(w, `\`) {
			if lit := w[1:]; lit != "" {
				p.title = append(p.title, lit)
			}
			i++
			continue
		}
		if n := p.tag(i); n > 0 {
			i += n
			continue
		}
		if n := p.label(i); n > 0 {
			i += n
			continue
		}
		var n int
		switch p.kind {
		case ActivityLog:
			n = p.logWord(i)
		case Task:
			n = p.taskWord(i)
		default:
			n = p.calendarWord(i)
		}
		if n == 0 && p.err.IsZero() {
			p.nearMiss(i)
		}
		if n == 0 {
			p.title = append(p.title, w)
			n = 1
		}
		i += n
	}
}

// marked reads the name after marker at word i: `#work`, or a name with
// spaces in double quotes, `#"Acme website"` (the words up to the one that
// ends in a quote). n is the words it takes; 0 when word i is not one.
func (p *captureParser) marked(i int, marker byte) (name string, n int) {
	w := p.words[i]
	if len(w) < 2 || w[0] != marker {
		return "", 0
	}
	if w[1] != '"' {
		return w[1:], 1
	}
	for j := i; j < len(p.words); j++ {
		if end := p.words[j]; (j > i || len(end) > 2) && strings.HasSuffix(end, `"`) {
			name = strings.Join(p.words[i:j+1], " ")
			name = strings.TrimSpace(name[2 : len(name)-1])
			if name == "" {
				return "", 0
			}
			return name, j - i + 1
		}
	}
	return "", 0 // no closing quote: the words are title words
}

// tag reads a #tag word; 0 when word i is not one.
func (p *captureParser) tag(i int) int {
	tag, n := p.marked(i, '#')
	if n == 0 {
		return 0
	}
	if p.c.ProjectTag != nil {
		p.err = i18n.M("capture_two_tags", "Tag", *p.c.ProjectTag, "Other", tag)
		return n
	}
	if l := utf8.RuneCountInString(tag); l > p.rules.MaxTag {
		p.err = i18n.M("capture_tag_too_long", "Max", p.rules.MaxTag, "Has", l)
		return n
	}
	p.c.ProjectTag = &tag
	return n
}

// label reads an @label word (Todoist's habit); 0 when word i is not one.
// Only a leading @ marks a label: bob@example.com is a title word.
func (p *captureParser) label(i int) int {
	label, n := p.marked(i, '@')
	if n == 0 {
		return 0
	}
	if l := utf8.RuneCountInString(label); p.rules.MaxLabel > 0 && l > p.rules.MaxLabel {
		p.err = i18n.M("capture_label_too_long", "Max", p.rules.MaxLabel, "Has", l)
		return n
	}
	if slices.Contains(p.c.Labels, label) {
		return n
	}
	if p.rules.MaxLabels > 0 && len(p.c.Labels) == p.rules.MaxLabels {
		p.err = i18n.M("capture_too_many_labels", "Max", p.rules.MaxLabels)
		return n
	}
	p.c.Labels = append(p.c.Labels, label)
	return n
}

// nearMiss refuses the word at i, which is no grammar word, when the
// grammar nearly read it (see the file's comment): a number with a time
// unit it cannot read, where durations are read, and an 오전/오후 before
// a number it cannot be read with.
func (p *captureParser) nearMiss(i int) {
	w := p.words[i]
	next := ""
	if i+1 < len(p.words) {
		next = p.words[i+1]
	}
	if w == "오전" || w == "오후" {
		if next != "" && next[0] >= '0' && next[0] <= '9' {
			p.err = i18n.M("capture_meridiem_no_time", "Word", w, "Next", next)
		}
		return
	}
	if p.kind == Task {
		return // a task reads no duration
	}
	if phrase, ok := unitNearMiss(w, next); ok {
		p.err = i18n.M("capture_not_duration", "Phrase", phrase, "Word", w)
	}
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
	if r, n := p.rangeAt(i); n > 0 {
		if p.err.IsZero() && p.logTime(r.phrase) {
			p.logRange(r)
		}
		return n
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
	if d, n, ok := p.durationAt(i); ok {
		phrase := strings.Join(p.words[i:i+n], " ")
		if !p.logTime(phrase) || !p.durationInBounds(d, phrase) {
			return n
		}
		end := p.now
		start := end.Add(-d)
		p.c.StartedAt, p.c.EndedAt, p.c.Duration = utcPtr(start), utcPtr(end), d
		return n
	}
	return 0
}

func (p *captureParser) durationInBounds(d time.Duration, phrase string) bool {
	if d < MinDuration || d > MaxDuration {
		p.err = i18n.M("capture_duration_bounds", "Phrase", phrase)
		return false
	}
	return true
}

// logTime records the log's one time word; false (and a refusal) for a second.
func (p *captureParser) logTime(phrase string) bool {
	if p.logTimeWord != "" {
		p.err = i18n.M("capture_two_times", "First", p.logTimeWord, "Second", phrase)
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

// rangeAt reads a clock range at i (see clockRange) and returns how many
// words it took (0: none). A range whose ends are equal, and a range of
// bare numbers followed by a duration unit (`5-10 min`), are refused.
func (p *captureParser) rangeAt(i int) (clockRange, int) {
	r, n, ok := scanWords(p.words, i, 6, parseClockRange)
	if !ok {
		return clockRange{}, 0
	}
	if r.bare && i+n < len(p.words) && isUnitWord(p.words[i+n]) {
		p.err = i18n.M("capture_range_not_duration", "Phrase", r.phrase, "Unit", p.words[i+n])
		return r, n
	}
	if r.from == r.to {
		p.err = i18n.M("capture_range_empty", "Phrase", r.phrase)
		return r, n
	}
	if !r.note.IsZero() {
		p.c.Note = r.note
	}
	return r, n
}

// logRange places a log's range: on today's date, an end before the start
// on the next day, a day earlier when the start is ahead of now or the end
// would fall tomorrow; a range that still ends ahead of now is refused.
func (p *captureParser) logRange(r clockRange) {
	from, to := r.from, r.to
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
		p.err = i18n.M("capture_range_not_ended", "Phrase", r.phrase, "End", end.In(p.loc).Format("15:04"), "Start", start.In(p.loc).Format("15:04"))
		return
	}
	p.c.StartedAt, p.c.EndedAt = utcPtr(start), utcPtr(end)
}

// durationAt reads a duration at i, of up to four words (`1 hr 30 min`);
// ok is false when i holds none.
func (p *captureParser) durationAt(i int) (time.Duration, int, bool) {
	return scanWords(p.words, i, 4, parseDurationText)
}

// taskWord reads the task words at i and returns how many words they took.
func (p *captureParser) taskWord(i int) int {
	w := p.words[i]
	if v, ok := priorityWords[strings.ToLower(w)]; ok {
		if p.prioritySeen {
			p.err = i18n.M("capture_two_priorities", "Word", w)
			return 1
		}
		p.prioritySeen, p.c.Priority = true, v
		return 1
	}
	if n := p.dayAt(i); n > 0 {
		return n
	}
	return p.clockWord(i)
}

// priorityWords are a task's priority words: Todoist's p1 is the highest,
// and p4 its "no priority".
var priorityWords = map[string]int{
	"!high": 3, "!medium": 2, "!low": 1,
	"p1": 3, "p2": 2, "p3": 1, "p4": 0,
}

// clockWord reads a task's or calendar entry's one clock time at i.
func (p *captureParser) clockWord(i int) int {
	m, n, _, ok := p.clockAt(i, false)
	if !ok {
		return 0
	}
	if p.clockSet || p.rng != nil {
		p.err = i18n.M("capture_two_clocks", "Phrase", strings.Join(p.words[i:i+n], " "))
		return n
	}
	p.clock, p.clockSet = m, true
	return n
}

// dayAt reads a day at i (one or two words) into p.day; 0 when i holds none.
func (p *captureParser) dayAt(i int) int {
	d, n, ok := scanWords(p.words, i, 2, p.parseDay)
	if !ok {
		return 0
	}
	if p.day != nil {
		p.err = i18n.M("capture_two_days", "Phrase", strings.Join(p.words[i:i+n], " "))
		return n
	}
	p.day = &d
	return n
}

// calendarWord reads the calendar entry words at i: two days joined as a
// range, a day, a clock range, a clock time or a duration.
func (p *captureParser) calendarWord(i int) int {
	if dr, n, ok := scanWords(p.words, i, 5, p.parseDayRange); ok {
		if p.day != nil {
			p.err = i18n.M("capture_two_days", "Phrase", strings.Join(p.words[i:i+n], " "))
			return n
		}
		if dr[0].plus(183).before(dr[1]) {
			// a year-less last day before the first (12/5-12/3) would
			// run most of a year
			p.err = i18n.M("capture_days_backwards", "Phrase", strings.Join(p.words[i:i+n], " "))
			return n
		}
		p.day, p.lastDay = &dr[0], &dr[1]
		return n
	}
	if n := p.dayAt(i); n > 0 {
		return n
	}
	if r, n := p.rangeAt(i); n > 0 {
		if p.err.IsZero() {
			if p.clockSet || p.rng != nil {
				p.err = i18n.M("capture_two_clocks", "Phrase", r.phrase)
			}
			p.rng = &r
		}
		return n
	}
	if n := p.clockWord(i); n > 0 {
		return n
	}
	if d, n, ok := p.durationAt(i); ok {
		phrase := strings.Join(p.words[i:i+n], " ")
		switch {
		case p.dur != 0:
			p.err = i18n.M("capture_two_lengths", "Phrase", phrase)
		case p.durationInBounds(d, phrase):
			p.dur = d
		}
		return n
	}
	return 0
}

// parseDay reads a day: today, tomorrow, 오늘, 내일, 모레, a weekday,
// 2026-11-25, 11/25 or 11월 25일.
func (p *captureParser) parseDay(s string) (civilDate, bool) {
	today := p.today()
	switch strings.ToLower(s) {
	case "today", "오늘":
		return today, true
	case "tomorrow", "내일":
		return today.plus(1), true
	case "모레":
		return today.plus(2), true
	}
	if wd, ok := weekdays[strings.ToLower(s)]; ok {
		ahead := (int(wd) - int(p.now.In(p.loc).Weekday()) + 7) % 7
		if ahead == 0 {
			ahead = 7
		}
		return today.plus(ahead), true
	}
	d, end, ok := scanDate(s, 0, 0)
	if !ok || end != len(s) {
		return civilDate{}, false
	}
	return p.resolveDate(d, today)
}

// resolveDate gives a date without a year (y 0) the year of its next
// occurrence not before from; a date with a year is that date.
func (p *captureParser) resolveDate(d civilDate, from civilDate) (civilDate, bool) {
	if d.y != 0 {
		return d, true
	}
	for y := from.y; y <= from.y+8; y++ {
		c := civilDate{y, d.m, d.d}
		if validDate(y, d.m, d.d) && !c.before(from) {
			return c, true
		}
	}
	return civilDate{}, false
}

// parseDayRange reads two days joined like a range: 12/3-12/5, 12/3-5,
// 12/3 ~ 12/5, 12월 3일~5일, 12월 3일부터 5일까지, 2026-12-03~2026-12-05.
// The last day is the next such date not before the first.
func (p *captureParser) parseDayRange(s string) ([2]civilDate, bool) {
	a, pos, ok := scanDate(s, 0, 0)
	if !ok {
		return [2]civilDate{}, false
	}
	pos, sep, ok := scanSep(s, pos)
	if !ok {
		return [2]civilDate{}, false
	}
	b, pos, ok := scanDate(s, pos, a.m)
	if !ok {
		return [2]civilDate{}, false
	}
	if sep == "부터" {
		if pos, ok = scanWord(s, pos, "까지"); !ok {
			return [2]civilDate{}, false
		}
	}
	if pos != len(s) {
		return [2]civilDate{}, false
	}
	first, ok1 := p.resolveDate(a, p.today())
	last, ok2 := p.resolveDate(b, first)
	if !ok1 || !ok2 || last.before(first) {
		return [2]civilDate{}, false
	}
	return [2]civilDate{first, last}, true
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
		t = p.nextAt(p.clock)
		p.c.DueHasTime = true
	}
	if !inYears(t) {
		p.err = i18n.M("capture_due_years")
		return
	}
	p.c.DueAt = utcPtr(t)
}

// nextAt is the next instant at the clock time m: today, tomorrow when it
// has passed.
func (p *captureParser) nextAt(m int) time.Time {
	l := p.now.In(p.loc)
	t := atClock(l.Year(), l.Month(), l.Day(), m, p.loc)
	if t.Before(p.now) {
		t = atClock(l.Year(), l.Month(), l.Day()+1, m, p.loc)
	}
	return t
}

func inYears(t time.Time) bool {
	u := t.UTC()
	return u.Year() >= 1 && u.Year() <= 9999
}

// calendar combines a calendar entry's days, clock time or range and
// duration into StartAt, EndAt and AllDay.
func (p *captureParser) calendar() {
	timed := p.clockSet || p.rng != nil
	var start, end time.Time
	switch {
	case p.lastDay != nil && (timed || p.dur != 0):
		p.err = i18n.M("capture_days_and_time")
		return
	case p.rng != nil && p.dur != 0:
		p.err = i18n.M("capture_range_and_length")
		return
	case p.rng != nil:
		if p.day != nil {
			start = atClock(p.day.y, p.day.m, p.day.d, p.rng.from, p.loc)
		} else {
			start = p.nextAt(p.rng.from)
		}
		l := start.In(p.loc)
		endDay := l.Day()
		if p.rng.to < p.rng.from {
			endDay++
		}
		end = atClock(l.Year(), l.Month(), endDay, p.rng.to, p.loc)
		if end.Before(start) {
			end = start // a clock a zone's transition skips: keep the order
		}
	case p.clockSet:
		if p.day != nil {
			start = atClock(p.day.y, p.day.m, p.day.d, p.clock, p.loc)
		} else {
			start = p.nextAt(p.clock)
		}
		d := p.dur
		if d == 0 {
			d = time.Hour
		}
		end = start.Add(d)
	case p.dur != 0:
		p.err = i18n.M("capture_length_no_start")
		return
	case p.day != nil:
		last := *p.day
		if p.lastDay != nil {
			last = *p.lastDay
		}
		start = DayStart(p.day.y, p.day.m, p.day.d, p.loc)
		end = DayStart(last.y, last.m, last.d+1, p.loc)
		p.c.AllDay = true
	default:
		return
	}
	if !inYears(start) || !inYears(end) {
		p.err = i18n.M("capture_days_years")
		return
	}
	p.c.StartAt, p.c.EndAt = utcPtr(start), utcPtr(end)
	p.c.DayNamed, p.c.Ranged = p.day != nil, p.rng != nil
}

// clockAt reads a clock time starting at word i: an optional 오전/오후 word,
// a clock word, after an `N시` word an optional `M분` or `반` word, and
// after a number or `9:30` an `am`/`pm` word. With allowSuffix, the last
// word may end in 부터 (suffix reports it). It returns the minutes after
// midnight and the words taken.
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
	if meridiem == "" && !suf && len(words) > 1 && isNumberOrColon(first) {
		// `5 pm`, `5:30 pm`
		if mer := strings.ToLower(words[1]); mer == "am" || mer == "pm" {
			second, suf2 := strip(words[1])
			if h, mi, _, ok := parseClockWord("", first+strings.ToLower(second)); ok {
				return h*60 + mi, n + 1, suf2, true
			}
		}
	}
	h, mi, korean, ok := parseClockWord(meridiem, first)
	if !ok {
		return 0, 0, false, false
	}
	// `9시 30분`, `9시 반`: the minutes as a word of their own
	if korean && !suf && mi == 0 && !strings.Contains(first, "분") && !strings.HasSuffix(first, "반") && len(words) > 1 {
		second, suf2 := strip(words[1])
		if mm, ok := parseKoreanMinutes(second); ok {
			mi, suf, n = mm, suf2, n+1
		}
	}
	return h*60 + mi, n, suf, true
}
