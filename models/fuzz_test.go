// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"testing"
	"time"
)

// The properties both fuzzers check, whatever the body:
//   - decoding never panics, and every error is a *BadRequestError or a
//     non-empty FieldErrors;
//   - a decoded input sets only the fields its FieldSet accepts, with times
//     in UTC at microsecond precision in the years 0001..9999;
//   - a create that decodes and that NewEvent accepts satisfies the storage
//     rules (storageProblems), and marshals with every time in the answers'
//     format; NewEvent refuses only with FieldErrors;
//   - a PATCH that decodes, applied to an event of each kind, is refused
//     only with FieldErrors, or gives an event that satisfies the storage
//     rules, with reschedule changes exactly for the time fields that moved;
//   - a defer body that decodes is applied or refused with a 422 naming
//     defer_until.

var jsonSeeds = []string{
	``, ` `, `{}`, `[]`, `null`, `"x"`, `1`, `{`, `{"title":}`, `{}{}`, `{} x`, "\xff", "{\"title\":\"\xff\"}", "\xef\xbb\xbf{}",
	`{"kind":"task","title":"Pay rent","due_at":"2026-11-25T00:00:00Z","priority":2,"project_tag":"home"}`,
	`{"kind":"task","title":"t","status":"done","start_at":"2026-11-25T09:00:00+09:00"}`,
	`{"kind":"calendar_event","title":"Standup","start_at":"2026-11-25T09:00:00+09:00","end_at":"2026-11-25T09:15:00+09:00"}`,
	`{"kind":"calendar_event","title":"Holiday","all_day":true,"start_at":"2026-11-25T00:00:00+09:00","end_at":"2026-11-27T00:00:00+09:00"}`,
	`{"kind":"calendar_event","title":"Edge","all_day":true,"start_at":"0001-01-01T00:00:00Z"}`,
	`{"kind":"calendar_event","title":"Edge","all_day":true,"start_at":"9999-12-31T23:00:00Z"}`,
	`{"kind":"activity_log"}`,
	`{"kind":"activity_log","title":"lunch","started_at":"2026-11-25T03:00:00Z"}`,
	`{"kind":"activity_log","status":"in_progress","started_at":"2026-11-25T03:00:00Z"}`,
	`{"kind":"activity_log","status":"in_progress","ended_at":"2026-11-25T03:00:00Z"}`,
	`{"kind":"activity_log","started_at":"2030-01-01T00:00:00Z"}`,
	`{"kind":"task","title":"x","source":"email","source_ref":"m-1"}`,
	`{"kind":"task","title":"x","source":"email"}`,
	`{"kind":"task","title":"x","source_ref":""}`,
	`{"kind":"task","title":" \r\n ","description":"a\r\nb\u0000"}`,
	`{"kind":"task","title":"\u0085x\u0085","project_tag":"   "}`,
	`{"kind":"note","status":"open","priority":9}`,
	`{"kind":null,"title":null,"start_at":null,"all_day":null}`,
	`{"priority":2.5}`, `{"priority":1e400}`, `{"priority":"2"}`, `{"priority":-0}`, `{"title":5}`, `{"start_at":{}}`,
	`{"title":"a","title":"b"}`, `{"id":1,"status":"done","completed_at":"2026-11-25T00:00:00Z","foo":[1,{"a":null}]}`,
	`{"title":"t","start_at":"2026-11-25T09:00:00.123456789+09:00","end_at":"2026-11-25T08:00:00Z"}`,
	`{"all_day":true}`, `{"all_day":false,"start_at":null}`, `{"started_at":null,"ended_at":null}`,
	`{"ended_at":"2026-11-20T10:30:00Z"}`, `{"due_at":"2026-11-25T00:00:42.5Z"}`,
	`{"defer_until":"2026-12-01T00:00:00Z"}`, `{"defer_until":"2020-01-01T00:00:00Z"}`, `{"defer_until":null}`,
	`{"defer_until":"9999-12-31T23:59:59.999999Z"}`,
}

var formSeeds = []string{
	``, `_csrf=t`, `%zz`, `a;b`, `kind=task&title=x`, `kind=activity_log`, `kind=activity_log&title=quick&_csrf=t`,
	`kind=activity_log&status=in_progress&started_at=&ended_at=`,
	`kind=activity_log&status=in_progress&ended_at=2026-11-25T09:00`,
	`kind=calendar_event&title=c&start_at=2026-11-25&all_day=on`,
	`kind=calendar_event&title=c&start_at=2026-11-25T09:00&end_at=2026-11-25T10:00&all_day=`,
	`kind=calendar_event&title=c&start_at=0001-01-01&all_day=on`,
	`kind=calendar_event&title=c&start_at=9999-12-31&all_day=on`,
	`kind=task&title=a&title=b`, `title=x&desc=y`, `desc=a&description=b`, `title=%00`, `title=%FF`, `desc=a%0D%0Ab`,
	`due_at=2026-11-25T09:00`, `due_at=2026-11-25T09:00:59`, `due_at=`, `priority=+3`, `priority=%202%20`, `priority=`,
	`all_day=yes`, `all_day=maybe`, `kind=`, `status=`, `defer_until=2026-12-01T09:00`, `defer_until=`,
	`kind=task&title=x&source=email&source_ref=`, `kind=task&title=x&source=&source_ref=r`,
	`id=1&status=done&completed_at=x&cancelled_at=&reactivate_to=planned`,
	`started_at=2026-11-20T08:00&ended_at=2026-11-20T07:00`,
	`kind=task&title=x&start_at=2026-03-08T02:30`, // a New York time that does not exist
}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	seoul := mustZone(f, "Asia/Seoul")
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, fs := range fieldSets {
			in, err := DecodeJSON(body, fs.set)
			checkDecoded(t, fs.set, in, err)
			if err == nil {
				checkUse(t, fs.set, in, seoul)
			}
		}
	})
}

func FuzzDecodeForm(f *testing.F) {
	for _, s := range formSeeds {
		f.Add(s)
	}
	zones := []*time.Location{mustZone(f, "Asia/Seoul"), mustZone(f, "America/New_York")}
	f.Fuzz(func(t *testing.T, body string) {
		q, err := url.ParseQuery(body)
		if err != nil {
			return
		}
		for _, loc := range zones {
			for _, fs := range fieldSets {
				in, err := DecodeForm(q, fs.set, loc)
				checkDecoded(t, fs.set, in, err)
				if err == nil {
					if !in.FromForm {
						t.Errorf("a form input without FromForm")
					}
					checkUse(t, fs.set, in, loc)
				}
			}
		}
	})
}

// checkDecoded checks what a decoder gave.
func checkDecoded(t *testing.T, set FieldSet, in Input, err error) {
	t.Helper()
	if err != nil {
		var bad *BadRequestError
		var fe FieldErrors
		switch {
		case errors.As(err, &bad):
		case errors.As(err, &fe):
			if len(fe) == 0 {
				t.Fatalf("an empty FieldErrors")
			}
		default:
			t.Fatalf("error of type %T: %v", err, err)
		}
		return
	}
	for _, f := range tableFields(func(f *Field) bool { return f.input != nil }) {
		if present(in, f.Name) && !slices.Contains(accepted[set], f.Name) {
			t.Fatalf("set %d: %s decoded though not accepted", set, f.Name)
		}
	}
	for _, f := range tableFields(func(f *Field) bool { return f.input != nil && f.Type == TypeTime }) {
		o := f.input(&in).(*Opt[time.Time])
		if !o.Set || o.Null {
			continue
		}
		if o.V.Location() != time.UTC || !o.V.Equal(o.V.Truncate(time.Microsecond)) || o.V.Year() < 1 || o.V.Year() > 9999 {
			t.Fatalf("a decoded time %s: want UTC, microseconds, years 0001..9999", o.V)
		}
	}
	if in.Priority.Set && (in.Priority.V < 0 || in.Priority.V > 3) {
		t.Fatalf("priority %d decoded", in.Priority.V)
	}
	if in.Kind.Set && !in.Kind.V.Valid() || in.Status.Set && !in.Status.V.Valid() || in.Source.Set && !in.Source.Null && !in.Source.V.Valid() {
		t.Fatalf("an enum value decoded that is not one: %+v", in)
	}
}

// checkUse runs a decoded input through what the service does with it.
func checkUse(t *testing.T, set FieldSet, in Input, loc *time.Location) {
	t.Helper()
	switch set {
	case CreateFields:
		e, err := in.NewEvent(now, loc)
		if err != nil {
			if class(err) != "422" {
				t.Fatalf("NewEvent: error of type %T: %v", err, err)
			}
			return
		}
		if p := storageProblems(e, loc); len(p) > 0 {
			t.Fatalf("NewEvent accepted an event that breaks %v: %+v", p, e)
		}
		checkAnswer(t, e)
	case PatchFields:
		for _, base := range []Event{fixture(KindTask, StatusPlanned), fixture(KindCalendarEvent, StatusDone),
			fixture(KindActivityLog, StatusDone), fixture(KindActivityLog, StatusInProgress)} {
			n, times, changed, err := ApplyPatch(base, in, now, loc)
			if err != nil {
				if class(err) != "422" {
					t.Fatalf("ApplyPatch: error of type %T: %v", err, err)
				}
				checkEvent(t, n, base)
				continue
			}
			if p := storageProblems(n, loc); len(p) > 0 {
				t.Fatalf("ApplyPatch gave an event that breaks %v: %+v", p, n)
			}
			for _, f := range tableFields(func(f *Field) bool { return f.Reschedule }) {
				_, listed := times[f.Name]
				var moved bool
				if f.Type == TypeTime {
					moved = !samePtr(f.Time(&n), f.Time(&base))
				} else {
					moved = f.value(&n) != f.value(&base)
				}
				if listed != moved {
					t.Fatalf("%s: listed in the reschedule row %v, moved %v", f.Name, listed, moved)
				}
			}
			if len(times) > 0 && !changed {
				t.Fatalf("time fields changed but changed is false")
			}
			if !changed {
				checkEvent(t, n, base)
			}
			checkAnswer(t, n)
		}
	case DeferFields:
		n, h, err := Apply(fixture(KindTask, StatusPlanned), OpDefer, in, now, ActorAPI, nil)
		if err != nil {
			if names := fieldsOf(err); !slices.Equal(names, []string{"defer_until"}) {
				t.Fatalf("defer refused with %v, want a 422 naming defer_until", err)
			}
			return
		}
		if p := storageProblems(n, loc); len(p) > 0 || h.StatusAfter != StatusDeferred {
			t.Fatalf("defer gave an event that breaks %v (%s)", p, h.StatusAfter)
		}
		checkAnswer(t, n)
	}
}

// checkAnswer: the event marshals, and every time in it is UTC with six
// fractional digits.
func checkAnswer(t *testing.T, e Event) {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("the answer does not parse: %v", err)
	}
	for _, f := range tableFields(func(f *Field) bool { return f.Type == TypeTime }) {
		k := f.Name
		if s, ok := m[k].(string); ok {
			if !answerTime.MatchString(s) {
				t.Fatalf("%s: %q is not an answer time", k, s)
			}
			if _, _, msg := ParseTime(s, nil); msg != "" {
				t.Fatalf("%s: %q does not parse back: %s", k, s, msg)
			}
		}
	}
}

// querySeeds are raw query strings, as a client sends them after the "?".
var querySeeds = []string{
	``, `q=%ED%9A%8C%EC%9D%98%20_%25`, `q=%20%20`, `q=a&kind=task`, `&`, `=`, `%zz`, `a;b`, `limit=1`, `limit=1000`, `limit=1001`, `limit=0`, `limit=-1`, `limit=1e3`, `limit=+5`,
	`limit=99999999999999999999`, `limit=1&limit=2`, `tz=UTC`, `tz=Asia/Seoul`, `tz=`, `tz=Local`, `tz=../../etc/passwd`,
	`tz=%2Fetc%2Flocaltime`, `tz=America/New_York&from=2026-03-08T02:30:00-05:00`, `kind=task,activity_log`, `kind=`,
	`kind=task,`, `status=planned,done`, `status=PLANNED`, `status=planned%00`, `source=email,other`, `source=`,
	`from=2026-11-25T00:00:00Z&to=2026-11-26T00:00:00Z`, `from=2026-11-25T00:00:00+09:00`,
	`from=2026-11-25T00:00:00%2B09:00`, `from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59.999999Z`,
	`from=0000-12-31T23:59:59Z`, `to=10000-01-01T00:00:00Z`, `from=2026-11-25T00:00:00Z&to=2026-11-25T00:00:00Z`,
	`from=2026-02-30T00:00:00Z`, `from=2026-11-25T24:00:00Z`, `from=2026-11-25T00:00:00.1234567891Z`,
	`project_tag=%3Cb%3Ex%3C%2Fb%3E`, `project_tag=a%26source%3Demail`, `project_tag=%27%3B+DROP+TABLE+events%3B--`,
	`cursor=abc`, `cursor=`, `cursor=MC4tLjEuMWgzbDFtMnpyMWZ6NQ`, `cursor=%FF`, `foo=1`, `id=1&page=2`,
}

// FuzzParseListQuery: for every listing and any raw query string, parsing
// never panics; every refusal is a *BadRequestError naming a parameter of
// the query (or none, for a query that does not parse); what is accepted is
// in bounds, and a cursor made for an accepted query leads back to its
// position.
func FuzzParseListQuery(f *testing.F) {
	for _, s := range querySeeds {
		f.Add(s)
	}
	seoul := mustZone(f, "Asia/Seoul")
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return // the handlers answer 400 before ParseListQuery
		}
		for _, l := range listings {
			lq, err := ParseListQuery(l, q, seoul)
			if err != nil {
				var bad *BadRequestError
				if !errors.As(err, &bad) {
					t.Fatalf("%s?%s: error of type %T: %v", l, raw, err, err)
				}
				if !q.Has(bad.Field) {
					t.Fatalf("%s?%s: the error names %q, which is not a parameter of the query: %v", l, raw, bad.Field, err)
				}
				continue
			}
			for name := range q {
				if !slices.Contains(listAllowed[l], name) {
					t.Fatalf("%s?%s: accepted the parameter %q", l, raw, name)
				}
			}
			if lq.Limit < 1 || lq.Limit > MaxLimit || lq.Loc == nil {
				t.Fatalf("%s?%s: limit %d, zone %v", l, raw, lq.Limit, lq.Loc)
			}
			if lq.From != nil && lq.To != nil && !lq.From.Before(*lq.To) {
				t.Fatalf("%s?%s: from %s is not before to %s", l, raw, lq.From, lq.To)
			}
			for _, tm := range []*time.Time{lq.From, lq.To} {
				if tm != nil && (tm.Location() != time.UTC || tm.Year() < 1 || tm.Year() > 9999) {
					t.Fatalf("%s?%s: a bound %s outside UTC years 0001..9999", l, raw, tm)
				}
			}
			for _, k := range lq.Kinds {
				if !k.Valid() {
					t.Fatalf("%s?%s: kind %q", l, raw, k)
				}
			}
			for _, s := range lq.Statuses {
				if !s.Valid() {
					t.Fatalf("%s?%s: status %q", l, raw, s)
				}
			}
			for _, s := range lq.Sources {
				if !s.Valid() {
					t.Fatalf("%s?%s: source %q", l, raw, s)
				}
			}
			if a := lq.After; a != nil && a.T != nil && (a.T.Year() < 0 || a.T.Year() > 10000) {
				t.Fatalf("%s?%s: a cursor at %s, a time no event can have (PostgreSQL may refuse it)", l, raw, a.T)
			}
			// A cursor of this query leads back to its position.
			p := Position{G: 1, T: at(time.Date(2026, 11, 25, 0, 0, 0, 123000, time.UTC)), ID: 42}
			again := url.Values{}
			for k, v := range q {
				again[k] = v
			}
			again.Set("cursor", lq.Cursor(p))
			back, err := ParseListQuery(l, again, seoul)
			if err != nil || back.After == nil || back.After.G != p.G || back.After.ID != p.ID || !samePtr(back.After.T, p.T) {
				t.Fatalf("%s?%s: its own cursor gives %+v, %v; want %+v", l, raw, back.After, err, p)
			}
		}
	})
}
