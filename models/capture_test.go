package models

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// captureNow is Monday 23 November 2026, 14:00 in Seoul.
const captureNow = "2026-11-23T14:00:00+09:00"

type captureCase struct {
	kind Kind
	text string
	now  string // RFC 3339; captureNow when empty
	zone string // Asia/Seoul when empty

	title  string
	tag    string // "" for none
	start  string // RFC 3339 or ""
	end    string
	dur    time.Duration
	due    string
	noTime bool // the due is a day without a clock time
	prio   int
	err    string // a part of the refusal, "" for none
}

const (
	aLog  = KindActivityLog
	aTask = KindTask
)

var captureCases = []captureCase{
	// activity log: durations, English and Korean
	{kind: aLog, text: "standup 15m #work", title: "standup", tag: "work", start: "2026-11-23T13:45:00+09:00", end: captureNow, dur: 15 * time.Minute},
	{kind: aLog, text: "standup 15min", title: "standup", start: "2026-11-23T13:45:00+09:00", end: captureNow, dur: 15 * time.Minute},
	{kind: aLog, text: "STANDUP 15M", title: "STANDUP", start: "2026-11-23T13:45:00+09:00", end: captureNow, dur: 15 * time.Minute},
	{kind: aLog, text: "review 2h", title: "review", start: "2026-11-23T12:00:00+09:00", end: captureNow, dur: 2 * time.Hour},
	{kind: aLog, text: "review 1h30m", title: "review", start: "2026-11-23T12:30:00+09:00", end: captureNow, dur: 90 * time.Minute},
	{kind: aLog, text: "review 1h 30m", title: "review", start: "2026-11-23T12:30:00+09:00", end: captureNow, dur: 90 * time.Minute},
	{kind: aLog, text: "review 1.5h", title: "review", start: "2026-11-23T12:30:00+09:00", end: captureNow, dur: 90 * time.Minute},
	{kind: aLog, text: "review 0.25h", title: "review", start: "2026-11-23T13:45:00+09:00", end: captureNow, dur: 15 * time.Minute},
	{kind: aLog, text: "회의 15분", title: "회의", start: "2026-11-23T13:45:00+09:00", end: captureNow, dur: 15 * time.Minute},
	{kind: aLog, text: "회의 2시간", title: "회의", start: "2026-11-23T12:00:00+09:00", end: captureNow, dur: 2 * time.Hour},
	{kind: aLog, text: "회의 1시간30분", title: "회의", start: "2026-11-23T12:30:00+09:00", end: captureNow, dur: 90 * time.Minute},
	{kind: aLog, text: "회의 1시간 30분 #팀", title: "회의", tag: "팀", start: "2026-11-23T12:30:00+09:00", end: captureNow, dur: 90 * time.Minute},
	{kind: aLog, text: "15m", title: "", start: "2026-11-23T13:45:00+09:00", end: captureNow, dur: 15 * time.Minute},
	// duration bounds: 1 minute to 24 hours
	{kind: aLog, text: "blink 1m", title: "blink", start: "2026-11-23T13:59:00+09:00", end: captureNow, dur: time.Minute},
	{kind: aLog, text: "marathon 24h", title: "marathon", start: "2026-11-22T14:00:00+09:00", end: captureNow, dur: 24 * time.Hour},
	{kind: aLog, text: "marathon 1440m", title: "marathon", start: "2026-11-22T14:00:00+09:00", end: captureNow, dur: 24 * time.Hour},
	{kind: aLog, text: "x 0m", err: "from 1 minute to 24 hours"},
	{kind: aLog, text: "x 0분", err: "from 1 minute to 24 hours"},
	{kind: aLog, text: "x 0.01h", err: "from 1 minute to 24 hours"},
	{kind: aLog, text: "x 25h", err: "from 1 minute to 24 hours"},
	{kind: aLog, text: "x 25시간", err: "from 1 minute to 24 hours"},
	{kind: aLog, text: "x 24h1m", err: "from 1 minute to 24 hours"},
	{kind: aLog, text: "x 1441m", err: "from 1 minute to 24 hours"},
	{kind: aLog, text: "x 24시간 1분", err: "from 1 minute to 24 hours"},
	{kind: aLog, text: "x 99999999999h", err: "from 1 minute to 24 hours"},
	// clock ranges: today's date; the next day for an end before the start
	{kind: aLog, text: "deep work 9:30-10:15", title: "deep work", start: "2026-11-23T09:30:00+09:00", end: "2026-11-23T10:15:00+09:00"},
	{kind: aLog, text: "deep work 9:30–10:15", title: "deep work", start: "2026-11-23T09:30:00+09:00", end: "2026-11-23T10:15:00+09:00"},
	{kind: aLog, text: "deep work 9:30~10:15", title: "deep work", start: "2026-11-23T09:30:00+09:00", end: "2026-11-23T10:15:00+09:00"},
	{kind: aLog, text: "deep work 9:30 ~ 10:15", title: "deep work", start: "2026-11-23T09:30:00+09:00", end: "2026-11-23T10:15:00+09:00"},
	{kind: aLog, text: "deep work 9:30 - 10:15", title: "deep work", start: "2026-11-23T09:30:00+09:00", end: "2026-11-23T10:15:00+09:00"},
	// 1시 is 01:00, so this range crosses midnight; it would end tomorrow,
	// so it ends today at 01:00 (오후 1시 is 13:00, below)
	{kind: aLog, text: "점심 12시~1시", title: "점심", start: "2026-11-22T12:00:00+09:00", end: "2026-11-23T01:00:00+09:00"},
	{kind: aLog, text: "점심 오후12시~오후1시", title: "점심", start: "2026-11-23T12:00:00+09:00", end: "2026-11-23T13:00:00+09:00"},
	{kind: aLog, text: "lunch 12pm-1:15pm", title: "lunch", start: "2026-11-23T12:00:00+09:00", end: "2026-11-23T13:15:00+09:00"},
	{kind: aLog, text: "night 12am-1am", title: "night", start: "2026-11-23T00:00:00+09:00", end: "2026-11-23T01:00:00+09:00"},
	{kind: aLog, text: "x 9:30-9:30", err: "is empty"},
	// a range across midnight, typed before and after it: it never ends in
	// the future, so before midnight it is the one that ended this morning
	// (as Timewarrior reads it), and one still running is refused
	{kind: aLog, text: "late 23:00-01:00", now: "2026-11-23T23:08:00+09:00", title: "late", start: "2026-11-22T23:00:00+09:00", end: "2026-11-23T01:00:00+09:00"},
	{kind: aLog, text: "late 23:00-01:00", now: "2026-11-23T23:50:00+09:00", title: "late", start: "2026-11-22T23:00:00+09:00", end: "2026-11-23T01:00:00+09:00"},
	{kind: aLog, text: "late 23:00-01:00", now: "2026-11-23T22:59:00+09:00", title: "late", start: "2026-11-22T23:00:00+09:00", end: "2026-11-23T01:00:00+09:00"},
	{kind: aLog, text: "late 23:00-01:00", now: "2026-11-24T01:30:00+09:00", title: "late", start: "2026-11-23T23:00:00+09:00", end: "2026-11-24T01:00:00+09:00"},
	{kind: aLog, text: "late 23:00-01:00", now: "2026-11-24T01:00:00+09:00", title: "late", start: "2026-11-23T23:00:00+09:00", end: "2026-11-24T01:00:00+09:00"},
	{kind: aLog, text: "late 23:00-01:00", now: "2026-11-24T00:30:00+09:00", err: "has not ended yet (it ends at 01:00)"},
	{kind: aLog, text: "late 23:00-01:00", now: "2026-11-23T23:00:00+09:00", title: "late", start: "2026-11-22T23:00:00+09:00", end: "2026-11-23T01:00:00+09:00"},
	{kind: aLog, text: "late 23:00-01:00", zone: "America/New_York", now: "2026-11-23T23:08:00-05:00", title: "late", start: "2026-11-22T23:00:00-05:00", end: "2026-11-23T01:00:00-05:00"},
	// a range that has begun but not ended is refused, not moved a day back
	{kind: aLog, text: "deep work 13:30-14:30", err: "has not ended yet (it ends at 14:30)"},
	{kind: aLog, text: "deep work 13:30-14:00", title: "deep work", start: "2026-11-23T13:30:00+09:00", end: captureNow},
	{kind: aLog, text: "deep work 13:30-14:01", err: "since 13:30"},
	{kind: aLog, text: "to midnight 22:00-0:00", title: "to midnight", start: "2026-11-22T22:00:00+09:00", end: "2026-11-23T00:00:00+09:00"},
	// a range whose start is ahead of now is yesterday's
	{kind: aLog, text: "gym 18:00-19:00 #health", title: "gym", tag: "health", start: "2026-11-22T18:00:00+09:00", end: "2026-11-22T19:00:00+09:00"},
	{kind: aLog, text: "gym 18:00-19:00 #health", now: "2026-11-23T19:05:00+09:00", title: "gym", tag: "health", start: "2026-11-23T18:00:00+09:00", end: "2026-11-23T19:00:00+09:00"},
	// since: today at that time, yesterday when ahead of now; ends now
	{kind: aLog, text: "writing since 9:30", title: "writing", start: "2026-11-23T09:30:00+09:00", end: captureNow},
	{kind: aLog, text: "writing Since 9am", title: "writing", start: "2026-11-23T09:00:00+09:00", end: captureNow},
	{kind: aLog, text: "writing since 15:00", title: "writing", start: "2026-11-22T15:00:00+09:00", end: captureNow},
	{kind: aLog, text: "writing since 2pm", title: "writing", start: captureNow, end: captureNow},
	{kind: aLog, text: "writing since 0:00", title: "writing", start: "2026-11-23T00:00:00+09:00", end: captureNow},
	{kind: aLog, text: "since 0:00", now: "2026-11-23T00:00:00+09:00", title: "", start: "2026-11-23T00:00:00+09:00", end: "2026-11-23T00:00:00+09:00"},
	{kind: aLog, text: "글쓰기 9:30부터", title: "글쓰기", start: "2026-11-23T09:30:00+09:00", end: captureNow},
	{kind: aLog, text: "글쓰기 9:30 부터", title: "글쓰기", start: "2026-11-23T09:30:00+09:00", end: captureNow},
	{kind: aLog, text: "글쓰기 9시부터", title: "글쓰기", start: "2026-11-23T09:00:00+09:00", end: captureNow},
	{kind: aLog, text: "글쓰기 9시 30분부터", title: "글쓰기", start: "2026-11-23T09:30:00+09:00", end: captureNow},
	{kind: aLog, text: "글쓰기 오후 1시부터", title: "글쓰기", start: "2026-11-23T13:00:00+09:00", end: captureNow},
	{kind: aLog, text: "글쓰기 오후 3시부터", title: "글쓰기", start: "2026-11-22T15:00:00+09:00", end: captureNow},
	// one time word per log
	{kind: aLog, text: "x 15m 2h", err: "two times"},
	{kind: aLog, text: "x 15m since 9:30", err: "two times"},
	{kind: aLog, text: "x 9:00-10:00 10분", err: "two times"},
	// no time word: a quick record (the create's defaults apply)
	{kind: aLog, text: "just a note #notes", title: "just a note", tag: "notes"},
	{kind: aLog, text: "", title: ""},
	{kind: aLog, text: "  a \t  b  ", title: "a b"},
	// not a log word: a clock alone, task words, bare numbers, malformed
	{kind: aLog, text: "meet 9:30 tomorrow !high 월요일", title: "meet 9:30 tomorrow !high 월요일"},
	{kind: aLog, text: "since then 15 9: 25:00-26:00 1.h h 1h30 오후 부터", title: "since then 15 9: 25:00-26:00 1.h h 1h30 오후 부터"},
	{kind: aLog, text: "1.5h30m room 101-102 2026-11-25", title: "1.5h30m room 101-102 2026-11-25"},
	// escapes
	{kind: aLog, text: `\15m review`, title: "15m review"},
	{kind: aLog, text: `call \#bob 5m`, title: "call #bob", start: "2026-11-23T13:55:00+09:00", end: captureNow, dur: 5 * time.Minute},
	{kind: aLog, text: `\since 9:30`, title: "since 9:30"},
	{kind: aLog, text: `since \9:30`, title: "since 9:30"},
	{kind: aLog, text: `회의 \1시간 30분`, title: "회의 1시간", start: "2026-11-23T13:30:00+09:00", end: captureNow, dur: 30 * time.Minute},
	{kind: aLog, text: `path \\share \ x`, title: `path \share x`},
	// tags
	{kind: aLog, text: "#a x #b", err: "two #tags"},
	{kind: aLog, text: "x # y", title: "x # y"},
	{kind: aLog, text: "x #" + strings.Repeat("t", 65), err: "at most 64"},
	{kind: aLog, text: "x #" + strings.Repeat("한", 64), title: "x", tag: strings.Repeat("한", 64)},
	// the text itself
	{kind: aLog, text: strings.Repeat("a", 501), err: "at most 500"},
	{kind: aLog, text: "a\x00b", err: "control characters"},
	{kind: KindCalendarEvent, text: "x", err: "only for an activity_log or a task"},

	// task: days
	{kind: aTask, text: "Pay rent tomorrow 9:00 #home !high", title: "Pay rent", tag: "home", due: "2026-11-24T09:00:00+09:00", prio: 3},
	{kind: aTask, text: "pay today", title: "pay", due: "2026-11-23T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "pay TODAY", title: "pay", due: "2026-11-23T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "pay tomorrow", title: "pay", due: "2026-11-24T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "월세 오늘", title: "월세", due: "2026-11-23T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "월세 내일", title: "월세", due: "2026-11-24T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "월세 모레", title: "월세", due: "2026-11-25T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "pay 2026-11-25", title: "pay", due: "2026-11-25T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "pay 2026-11-20", title: "pay", due: "2026-11-20T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "pay 11/25", title: "pay", due: "2026-11-25T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "pay 11/23", title: "pay", due: "2026-11-23T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "pay 11/22", title: "pay", due: "2027-11-22T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "pay 11/25", now: "2026-12-05T10:00:00+09:00", title: "pay", due: "2027-11-25T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "pay 1/5", now: "2026-12-05T10:00:00+09:00", title: "pay", due: "2027-01-05T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "leap 2/29", title: "leap", due: "2028-02-29T23:59:59.999999+09:00", noTime: true},
	{kind: aTask, text: "pay 13/45 2026-02-30 1/0", title: "pay 13/45 2026-02-30 1/0"},
	// task: clock times (today, tomorrow when passed; now is 14:00)
	{kind: aTask, text: "call 9:30", title: "call", due: "2026-11-24T09:30:00+09:00"},
	{kind: aTask, text: "call 18:00", title: "call", due: "2026-11-23T18:00:00+09:00"},
	{kind: aTask, text: "call 14:00", title: "call", due: "2026-11-23T14:00:00+09:00"},
	{kind: aTask, text: "call 9am", title: "call", due: "2026-11-24T09:00:00+09:00"},
	{kind: aTask, text: "call 5:30PM", title: "call", due: "2026-11-23T17:30:00+09:00"},
	{kind: aTask, text: "call 12am", title: "call", due: "2026-11-24T00:00:00+09:00"},
	{kind: aTask, text: "call 0:00", title: "call", due: "2026-11-24T00:00:00+09:00"},
	{kind: aTask, text: "call 12pm", title: "call", due: "2026-11-24T12:00:00+09:00"},
	{kind: aTask, text: "전화 9시", title: "전화", due: "2026-11-24T09:00:00+09:00"},
	{kind: aTask, text: "전화 9시30분", title: "전화", due: "2026-11-24T09:30:00+09:00"},
	{kind: aTask, text: "전화 9시 30분", title: "전화", due: "2026-11-24T09:30:00+09:00"},
	{kind: aTask, text: "전화 오후 5시", title: "전화", due: "2026-11-23T17:00:00+09:00"},
	{kind: aTask, text: "전화 오후5시", title: "전화", due: "2026-11-23T17:00:00+09:00"},
	{kind: aTask, text: "전화 오후 5시 30분", title: "전화", due: "2026-11-23T17:30:00+09:00"},
	{kind: aTask, text: "전화 오전 9시", title: "전화", due: "2026-11-24T09:00:00+09:00"},
	{kind: aTask, text: "전화 오후 12시", title: "전화", due: "2026-11-24T12:00:00+09:00"},
	{kind: aTask, text: "전화 오전 12시", title: "전화", due: "2026-11-24T00:00:00+09:00"},
	{kind: aTask, text: "전화 내일 오후 5시", title: "전화", due: "2026-11-24T17:00:00+09:00"},
	{kind: aTask, text: "call today 9:00", title: "call", due: "2026-11-23T09:00:00+09:00"},
	{kind: aTask, text: "call 9:00 fri", title: "call", due: "2026-11-27T09:00:00+09:00"},
	{kind: aTask, text: "call 24:00 9:60 13pm 25시 오후 9:3", title: "call 24:00 9:60 13pm 25시 오후 9:3"},
	// task: priorities
	{kind: aTask, text: "pay !high", title: "pay", prio: 3},
	{kind: aTask, text: "pay !HIGH", title: "pay", prio: 3},
	{kind: aTask, text: "pay !medium", title: "pay", prio: 2},
	{kind: aTask, text: "pay !low", title: "pay", prio: 1},
	{kind: aTask, text: "pay !urgent !", title: "pay !urgent !"},
	{kind: aTask, text: "pay !high !low", err: "two priorities"},
	// task: refusals
	{kind: aTask, text: "tomorrow 9:00 #home !high", err: "leaves no title"},
	{kind: aTask, text: "", err: "leaves no title"},
	{kind: aTask, text: "pay today tomorrow", err: "two days"},
	{kind: aTask, text: "pay 9:00 10:00", err: "two clock times"},
	{kind: aTask, text: "pay #a #b", err: "two #tags"},
	{kind: aTask, text: "pay 0001-01-01 0:00", err: "years 0001 to 9999"},
	// log words are literal in a task
	{kind: aTask, text: "pay 15m since 9:30 9:30부터 1:00-2:00", title: "pay 15m since 9:30부터 1:00-2:00", due: "2026-11-24T09:30:00+09:00"},
	{kind: aTask, text: `pay \tomorrow \!high \#x`, title: "pay tomorrow !high #x"},

	// zones other than Seoul (?tz=): 23 Nov 05:00Z is midnight in New York
	{kind: aTask, text: "pay today", zone: "America/New_York", now: "2026-11-23T05:00:00Z", title: "pay", due: "2026-11-23T23:59:59.999999-05:00", noTime: true},
	{kind: aTask, text: "pay 9am", zone: "America/New_York", now: "2026-11-23T05:00:00Z", title: "pay", due: "2026-11-23T09:00:00-05:00"},
	{kind: aTask, text: "pay mon", zone: "America/New_York", now: "2026-11-23T05:00:00Z", title: "pay", due: "2026-11-30T23:59:59.999999-05:00", noTime: true},
	{kind: aTask, text: "pay mon", zone: "America/New_York", now: "2026-11-23T04:59:00Z", title: "pay", due: "2026-11-23T23:59:59.999999-05:00", noTime: true},
	{kind: aTask, text: "pay today", zone: "UTC", title: "pay", due: "2026-11-23T23:59:59.999999Z", noTime: true},
	{kind: aTask, text: "pay today", zone: "Asia/Kolkata", title: "pay", due: "2026-11-23T23:59:59.999999+05:30", noTime: true},
	{kind: aLog, text: "x since 9:30", zone: "America/New_York", now: "2026-11-23T05:00:00Z", title: "x", start: "2026-11-22T09:30:00-05:00", end: "2026-11-23T05:00:00Z"},
	{kind: aLog, text: "x since 9:30", zone: "Asia/Kolkata", title: "x", start: "2026-11-23T09:30:00+05:30", end: captureNow},
	// the night New York falls back (1 Nov 2026, 02:00 EDT -> 01:00 EST): 00:30-03:30 is four hours
	{kind: aLog, text: "night 0:30-3:30", zone: "America/New_York", now: "2026-11-01T04:00:00-05:00", title: "night", start: "2026-11-01T00:30:00-04:00", end: "2026-11-01T03:30:00-05:00"},
	{kind: aTask, text: "pay 2026-11-01", zone: "America/New_York", title: "pay", due: "2026-11-01T23:59:59.999999-05:00", noTime: true},
}

// weekdays: every word, the next such day after Monday 23 November, a week
// ahead for Monday itself.
func init() {
	days := []struct{ en3, en, ko, due string }{
		{"mon", "monday", "월요일", "2026-11-30"},
		{"tue", "tuesday", "화요일", "2026-11-24"},
		{"wed", "wednesday", "수요일", "2026-11-25"},
		{"thu", "thursday", "목요일", "2026-11-26"},
		{"fri", "friday", "금요일", "2026-11-27"},
		{"sat", "saturday", "토요일", "2026-11-28"},
		{"sun", "sunday", "일요일", "2026-11-29"},
	}
	for _, d := range days {
		for _, w := range []string{d.en3, d.en, strings.ToUpper(d.en[:1]) + d.en[1:], d.ko} {
			captureCases = append(captureCases, captureCase{kind: aTask, text: "review " + w + " #work", title: "review", tag: "work",
				due: d.due + "T23:59:59.999999+09:00", noTime: true})
		}
		captureCases = append(captureCases, captureCase{kind: aTask, text: "review " + d.ko + " 오전 10시", title: "review",
			due: d.due + "T10:00:00+09:00"})
	}
}

func TestParseCapture(t *testing.T) {
	for _, c := range captureCases {
		zone := c.zone
		if zone == "" {
			zone = "Asia/Seoul"
		}
		loc := mustZone(t, zone)
		nowS := c.now
		if nowS == "" {
			nowS = captureNow
		}
		now := ts(t, nowS)
		name := string(c.kind) + " " + c.text + " @" + nowS + " " + zone
		got, err := ParseCapture(c.kind, c.text, now, loc)
		if c.err != "" {
			var fe FieldErrors
			if !errors.As(err, &fe) || len(fe) != 1 || fe[0].Field != "text" || !strings.Contains(fe[0].Message, c.err) {
				t.Errorf("%s: error %v, want a 422 naming text with %q", name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got.Title != c.title {
			t.Errorf("%s: title %q, want %q", name, got.Title, c.title)
		}
		wantTag := "<nil>"
		if c.tag != "" {
			wantTag = "=" + c.tag
		}
		if deref(got.ProjectTag) != wantTag {
			t.Errorf("%s: tag %s, want %s", name, deref(got.ProjectTag), wantTag)
		}
		checkCaptureTime(t, name+": started_at", got.StartedAt, c.start)
		checkCaptureTime(t, name+": ended_at", got.EndedAt, c.end)
		checkCaptureTime(t, name+": due_at", got.DueAt, c.due)
		if got.Duration != c.dur {
			t.Errorf("%s: duration %v, want %v", name, got.Duration, c.dur)
		}
		if c.due != "" {
			if got.DueHasTime == c.noTime {
				t.Errorf("%s: DueHasTime %v, want %v", name, got.DueHasTime, !c.noTime)
			}
			if DueDayOnly(*got.DueAt, loc) != c.noTime {
				t.Errorf("%s: DueDayOnly(%s) = %v, want %v", name, got.DueAt, !c.noTime, c.noTime)
			}
		}
		if got.Priority != c.prio {
			t.Errorf("%s: priority %d, want %d", name, got.Priority, c.prio)
		}
	}
}

func checkCaptureTime(t *testing.T, name string, got *time.Time, want string) {
	t.Helper()
	if want == "" {
		if got != nil {
			t.Errorf("%s = %s, want none", name, got)
		}
		return
	}
	w := ts(t, want)
	if got == nil || !got.Equal(w) || got.Location() != time.UTC {
		t.Errorf("%s = %v, want %s (in UTC)", name, got, w.UTC())
	}
}

func TestDueDayOnlyTellsTypedTimesApart(t *testing.T) {
	seoul := mustZone(t, "Asia/Seoul")
	for _, c := range []struct {
		due  string
		want bool
	}{
		{"2026-11-23T23:59:59.999999+09:00", true},
		{"2026-11-23T23:59:59+09:00", false},
		{"2026-11-23T23:59:00+09:00", false},
		{"2026-11-24T00:00:00+09:00", false},
		{"2026-11-23T23:59:59.999999+08:00", false}, // another zone's end of day
	} {
		if got := DueDayOnly(ts(t, c.due), seoul); got != c.want {
			t.Errorf("DueDayOnly(%s) = %v, want %v", c.due, got, c.want)
		}
	}
	// The end of a day that starts at 01:00 (Santiago skips midnight on 6 September 2026).
	santiago := mustZone(t, "America/Santiago")
	e := EndOfDay(2026, 9, 5, santiago)
	if !DueDayOnly(e, santiago) || !e.Add(time.Microsecond).Equal(dayStart(2026, 9, 6, santiago)) {
		t.Errorf("EndOfDay(5 Sep, Santiago) = %s", e)
	}
}

// FuzzCapture checks the parser's invariants on any text, either kind, any
// clock and a few zones: it never panics; a refusal is one 422 naming text;
// the title is at most 500 characters with single spaces, and none of its
// words is, on its own, a word the parser understands unless the text
// escaped it; a log's start is not after its end, a duration word is within
// its bounds and ends now, a range or since spans at most a day (plus a
// transition's hour); a task's due without a clock time is its day's last
// microsecond; every time is UTC at microsecond precision.
func FuzzCapture(f *testing.F) {
	for _, c := range captureCases {
		f.Add(c.text, c.kind == KindTask, int64(0))
	}
	f.Add("late 23:00-01:00 #x", false, int64(-50400))
	f.Add(`a \\ \ \# # ## #한 !high 오후 오후 1시부터`, true, int64(1<<40))
	zones := []*time.Location{mustZone(f, "Asia/Seoul"), mustZone(f, "America/New_York"), mustZone(f, "Asia/Kolkata"), mustZone(f, "America/Santiago"), time.UTC}
	base := time.Date(2026, 11, 23, 5, 0, 0, 123456789, time.UTC)
	f.Fuzz(func(t *testing.T, text string, isTask bool, offset int64) {
		kind := KindActivityLog
		if isTask {
			kind = KindTask
		}
		// any second of the years 1976 to 2076
		now := base.Add(time.Duration(offset%(50*365*86400)) * time.Second)
		escaped := map[string]bool{}
		for _, w := range strings.Fields(text) {
			if lit, ok := strings.CutPrefix(w, `\`); ok {
				escaped[lit] = true
			}
		}
		for _, loc := range zones {
			c, err := ParseCapture(kind, text, now, loc)
			if err != nil {
				var fe FieldErrors
				if !errors.As(err, &fe) || len(fe) != 1 || fe[0].Field != "text" || fe[0].Message == "" {
					t.Fatalf("%q: refused with %#v, want one problem naming text", text, err)
				}
				continue
			}
			checkCapture(t, kind, text, now, loc, c, escaped)
		}
	})
}

func checkCapture(t *testing.T, kind Kind, text string, now time.Time, loc *time.Location, c Capture, escaped map[string]bool) {
	t.Helper()
	nowUS := now.Truncate(time.Microsecond).UTC()
	if n := utf8.RuneCountInString(c.Title); n > MaxTitle {
		t.Fatalf("%q: title of %d characters", text, n)
	}
	words := strings.Fields(c.Title)
	if strings.Join(words, " ") != c.Title {
		t.Fatalf("%q: title %q is not single-spaced", text, c.Title)
	}
	for _, w := range words {
		if escaped[w] {
			continue
		}
		alone, err := ParseCapture(kind, w, now, loc)
		if err != nil || alone != (Capture{Title: w}) {
			t.Fatalf("%q in %s: title %q keeps the word %q, which alone reads as %+v, %v", text, loc, c.Title, w, alone, err)
		}
	}
	if c.ProjectTag != nil {
		if n := utf8.RuneCountInString(*c.ProjectTag); n < 1 || n > MaxProjectTag || strings.ContainsFunc(*c.ProjectTag, unicode.IsSpace) {
			t.Fatalf("%q: tag %q", text, *c.ProjectTag)
		}
	}
	if c.Priority < 0 || c.Priority > 3 {
		t.Fatalf("%q: priority %d", text, c.Priority)
	}
	for _, tm := range []*time.Time{c.StartedAt, c.EndedAt, c.DueAt} {
		if tm != nil && (tm.Location() != time.UTC || !tm.Equal(tm.Truncate(time.Microsecond))) {
			t.Fatalf("%q: time %s not UTC at microsecond precision", text, tm)
		}
	}
	switch kind {
	case KindActivityLog:
		if c.DueAt != nil || c.Priority != 0 || c.DueHasTime {
			t.Fatalf("%q: a log with task fields %+v", text, c)
		}
		if (c.StartedAt == nil) != (c.EndedAt == nil) {
			t.Fatalf("%q: one end of a span: %+v", text, c)
		}
		if c.StartedAt == nil {
			if c.Duration != 0 {
				t.Fatalf("%q: a duration without a span", text)
			}
			return
		}
		span := c.EndedAt.Sub(*c.StartedAt)
		if span < 0 {
			t.Fatalf("%q: started %s after ended %s", text, c.StartedAt, c.EndedAt)
		}
		if c.Duration != 0 {
			if c.Duration < MinCaptureDuration || c.Duration > MaxCaptureDuration || span != c.Duration || !c.EndedAt.Equal(nowUS) {
				t.Fatalf("%q: duration %v, span %v, ended %s (now %s)", text, c.Duration, span, c.EndedAt, nowUS)
			}
		} else if span > 25*time.Hour {
			t.Fatalf("%q: a span of %v", text, span)
		}
		if c.EndedAt.After(nowUS) {
			t.Fatalf("%q in %s: a finished log ends at %s, after now %s", text, loc, c.EndedAt, nowUS)
		}
	case KindTask:
		if c.StartedAt != nil || c.EndedAt != nil || c.Duration != 0 {
			t.Fatalf("%q: a task with log fields %+v", text, c)
		}
		if c.Title == "" {
			t.Fatalf("%q: a task without a title", text)
		}
		if c.DueAt == nil {
			if c.DueHasTime {
				t.Fatalf("%q: a clock time without a due", text)
			}
			return
		}
		if !c.DueHasTime && !DueDayOnly(*c.DueAt, loc) {
			t.Fatalf("%q: a day without time due at %s, not its day's end", text, c.DueAt.In(loc))
		}
		if c.DueHasTime && c.DueAt.Nanosecond() != 0 {
			t.Fatalf("%q: a clock time with a fraction: %s", text, c.DueAt)
		}
	}
}

// TestDaysInIsTimeDate counts each month's days as time.Date does, across
// the years before and after the common era's (the capture's dates and the
// database's times both go by it).
func TestDaysInIsTimeDate(t *testing.T) {
	for y := -1000; y <= 10000; y++ {
		for m := time.January; m <= time.December; m++ {
			if got, want := DaysIn(y, m), time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day(); got != want {
				t.Fatalf("DaysIn(%d, %v) = %d, want %d", y, m, got, want)
			}
		}
	}
}

// TestCaptureDurationFromStartNeverEndsInFuture: a duration word carried
// from an explicit started_at ends where it ends; past now, a finished log
// is refused naming text (a running one keeps its start), and up to now
// it is stored. Before, `x 2h` with a start half an hour ago stored a done
// log ending an hour and a half ahead.
func TestCaptureDurationFromStartNeverEndsInFuture(t *testing.T) {
	seoul := mustZone(t, "Asia/Seoul")
	clock := ts(t, captureNow) // 14:00 in Seoul
	for _, c := range []struct {
		body  string
		field string // "" when stored
	}{
		{`{"kind":"activity_log","text":"x 2h","started_at":"2026-11-23T13:30:00+09:00"}`, "text"},
		{`{"kind":"activity_log","text":"x 1m","started_at":"2026-11-23T13:59:00.000001+09:00"}`, "text"},
		{`{"kind":"activity_log","text":"x 1m","started_at":"2026-11-23T13:59:00+09:00"}`, ""},
		{`{"kind":"activity_log","text":"x 2h","started_at":"2026-11-23T09:00:00+09:00"}`, ""},
		{`{"kind":"activity_log","text":"x 2h","started_at":"2026-11-23T13:30:00+09:00","status":"in_progress"}`, ""},
		{`{"kind":"activity_log","text":"x 2h","started_at":"2026-11-23T13:30:00+09:00","ended_at":"2026-11-23T13:45:00+09:00"}`, ""},
	} {
		in, err := DecodeJSON([]byte(c.body), CreateFields)
		if err != nil {
			t.Fatal(err)
		}
		e, err := in.NewEvent(clock, seoul)
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: %v", c.body, err)
			} else if e.EndedAt != nil && e.EndedAt.After(clock) {
				t.Errorf("%s: stored a log ending at %s, after now", c.body, e.EndedAt)
			}
			continue
		}
		if fs := fieldsOf(err); len(fs) != 1 || fs[0] != c.field || !strings.Contains(err.Error(), "cannot end in the future") {
			t.Errorf("%s: %v (%v), want a 422 naming %s", c.body, fs, err, c.field)
		}
	}
}
