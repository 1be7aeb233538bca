// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"encoding/base64"
	"errors"
	"math"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

var listings = []Listing{ListEvents, ListToday, ListInbox, ListActivity, ListHistory}

// listAllowed is docs/DESIGN.md's listings written out: the filters of each, the
// zone where days or windows matter, and limit and cursor everywhere.
var listAllowed = map[Listing][]string{
	ListEvents:   {"kind", "status", "from", "to", "project_tag", "source", "q", "tz", "limit", "cursor"},
	ListToday:    {"tz", "limit", "cursor"},
	ListInbox:    {"limit", "cursor"},
	ListActivity: {"from", "to", "tz", "limit", "cursor"},
	ListHistory:  {"limit", "cursor"},
}

func query(s string) url.Values {
	q, err := url.ParseQuery(s)
	if err != nil {
		panic(err)
	}
	return q
}

func TestParseListQueryParameters(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	values := map[string]string{"kind": "task", "status": "done", "from": "2026-11-25T00:00:00Z", "to": "2026-11-26T00:00:00Z",
		"project_tag": "home", "source": "email", "tz": "UTC", "limit": "5", "foo": "1", "page": "2", "offset": "0", "sort": "id", "id": "1"}
	for _, l := range listings {
		base, err := ParseListQuery(l, url.Values{}, seoul)
		if err != nil {
			t.Fatalf("%s with no parameters: %v", l, err)
		}
		values["cursor"] = base.Cursor(Position{G: 1, ID: 7})
		for name, v := range values {
			lq, err := ParseListQuery(l, url.Values{name: {v}}, seoul)
			if !slices.Contains(listAllowed[l], name) {
				var bad *BadRequestError
				if !errors.As(err, &bad) || bad.Field != name {
					t.Errorf("%s?%s=%s: got %s (%v), want a 400 naming %s", l, name, v, class(err), err, name)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s?%s=%s: %v", l, name, v, err)
				continue
			}
			if lq.Listing != l {
				t.Errorf("%s: Listing got %s", l, lq.Listing)
			}
		}
	}
}

func TestParseListQueryDefaults(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	lq, err := ParseListQuery(ListEvents, url.Values{}, seoul)
	if err != nil {
		t.Fatal(err)
	}
	if lq.Limit != 100 || lq.Loc != seoul || lq.After != nil || lq.From != nil || lq.To != nil || lq.Kinds != nil ||
		lq.Statuses != nil || lq.Sources != nil || lq.ProjectTag != nil {
		t.Errorf("defaults: got %+v", lq)
	}
}

func TestParseListQueryValues(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	lq, err := ParseListQuery(ListEvents, query("kind=task,calendar_event&status=planned,done&source=email,chat"+
		"&project_tag=%20home%20&from=2026-11-25T09:00:00%2B09:00&to=2026-11-26T00:00:00Z&tz=America/New_York&limit=1000"), seoul)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(lq.Kinds, []Kind{KindTask, KindCalendarEvent}) {
		t.Errorf("kinds: got %v", lq.Kinds)
	}
	if !reflect.DeepEqual(lq.Statuses, []Status{StatusPlanned, StatusDone}) {
		t.Errorf("statuses: got %v", lq.Statuses)
	}
	if !reflect.DeepEqual(lq.Sources, []Source{"email", "chat"}) {
		t.Errorf("sources: got %v", lq.Sources)
	}
	if deref(lq.ProjectTag) != "=home" {
		t.Errorf("project_tag: got %s, want =home", deref(lq.ProjectTag))
	}
	// the filter reads a tag as the field stores it: "#home" finds home
	if tagged, err := ParseListQuery(ListEvents, query("project_tag=%20%23home"), seoul); err != nil || deref(tagged.ProjectTag) != "=home" {
		t.Errorf("project_tag=%%20%%23home: got %s (%v), want =home", deref(tagged.ProjectTag), err)
	}
	if _, err := ParseListQuery(ListEvents, query("project_tag=a%09b"), seoul); class(err) != "400" {
		t.Errorf("project_tag with a tab: got %v, want a 400: no event holds it", err)
	}
	checkTime(t, "from", lq.From, at(ts(t, "2026-11-25T00:00:00Z")))
	checkTime(t, "to", lq.To, at(ts(t, "2026-11-26T00:00:00Z")))
	if lq.Loc.String() != "America/New_York" || lq.Limit != 1000 {
		t.Errorf("tz, limit: got %s, %d", lq.Loc, lq.Limit)
	}
}

func TestParseListQueryBadRequest(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	cases := []struct {
		l     Listing
		q     string
		field string
		hint  string // a part of the reason
	}{
		{ListEvents, "foo=1", "foo", ""},
		{ListToday, "from=2026-11-25T00:00:00Z", "from", ""},
		{ListInbox, "tz=Asia/Seoul", "tz", ""},
		{ListHistory, "status=done", "status", ""},
		{ListEvents, "q=a&q=b", "q", "more than once"},
		{ListEvents, "limit=5&limit=5", "limit", "more than once"},
		{ListActivity, "tz=UTC&tz=UTC", "tz", "more than once"},
		{ListEvents, "status=done,bogus", "status", `"bogus"`},
		{ListEvents, "status=", "status", ""},
		{ListEvents, "status=planned,", "status", ""},
		{ListEvents, "status=Done", "status", ""},
		{ListEvents, "status=planned%20", "status", ""},
		{ListEvents, "kind=task,note", "kind", `"note"`},
		{ListEvents, "source=web", "source", `"web"`},
		{ListEvents, "from=tomorrow", "from", ""},
		{ListEvents, "to=2026-11-25", "to", ""},
		{ListActivity, "from=2026-11-25T09:00", "from", ""},
		{ListActivity, "from=2026-11-25T09:00:00+09:00", "from", "%2B"}, // the + arrived as a space
		{ListEvents, "to=2026-11-25T09:00:00+09:00", "to", "%2B"},
		{ListEvents, "from=2026-11-26T00:00:00Z&to=2026-11-25T00:00:00Z", "to", ""},
		{ListEvents, "from=2026-11-25T00:00:00Z&to=2026-11-25T00:00:00Z", "to", ""},
		{ListActivity, "from=2026-11-25T09:00:00%2B09:00&to=2026-11-25T00:00:00Z", "to", ""},
		{ListEvents, "limit=0", "limit", ""},
		{ListEvents, "limit=1001", "limit", ""},
		{ListEvents, "limit=x", "limit", ""},
		{ListEvents, "limit=", "limit", ""},
		{ListEvents, "limit=-1", "limit", ""},
		{ListEvents, "limit=1.5", "limit", ""},
		{ListEvents, "tz=Mars/Base", "tz", ""},
		{ListEvents, "tz=Local", "tz", ""},
		{ListEvents, "tz=", "tz", ""},
		{ListToday, "tz=../../etc/passwd", "tz", ""},
		{ListToday, "tz=/etc/localtime", "tz", ""},
		{ListInbox, "cursor=", "cursor", ""},
	}
	for _, c := range cases {
		_, err := ParseListQuery(c.l, query(c.q), seoul)
		var bad *BadRequestError
		if !errors.As(err, &bad) {
			t.Errorf("%s?%s: got %s (%v), want a 400", c.l, c.q, class(err), err)
			continue
		}
		if bad.Field != c.field {
			t.Errorf("%s?%s: names %q, want %q", c.l, c.q, bad.Field, c.field)
		}
		if !strings.Contains(bad.Reason, c.hint) {
			t.Errorf("%s?%s: reason %q lacks %q", c.l, c.q, bad.Reason, c.hint)
		}
	}
	// No hint when no space arrived.
	_, err := ParseListQuery(ListEvents, query("from=tomorrow"), seoul)
	if strings.Contains(err.Error(), "%2B") {
		t.Errorf("a hint without a space: %v", err)
	}
}

func TestParseListQueryLimitAndZone(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	for _, c := range []struct {
		v    string
		want int
	}{{"1", 1}, {"1000", 1000}, {"50", 50}} {
		lq, err := ParseListQuery(ListInbox, url.Values{"limit": {c.v}}, seoul)
		if err != nil || lq.Limit != c.want {
			t.Errorf("limit=%s: got %d, %v; want %d", c.v, lq.Limit, err, c.want)
		}
	}
	for _, name := range []string{"Asia/Seoul", "UTC", "America/New_York", "Europe/Berlin"} {
		lq, err := ParseListQuery(ListToday, url.Values{"tz": {name}}, time.UTC)
		if err != nil || lq.Loc.String() != name {
			t.Errorf("tz=%s: got %v, %v", name, lq.Loc, err)
		}
	}
	if _, err := LoadZone("Local"); err == nil {
		t.Errorf("LoadZone(Local): want an error")
	}
}

func TestCursor(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	positions := []Position{
		{G: 0, T: nil, ID: 1},
		{G: 1, T: at(ts(t, "2026-11-25T00:00:00.123456Z")), ID: 42},
		{G: 2, T: at(ts(t, "1969-12-31T23:59:59.999999Z")), ID: math.MaxInt64},
		{G: -1, T: at(ts(t, "0001-01-01T00:00:00Z")), ID: -5},
		{G: 0, T: at(ts(t, "9999-12-31T23:59:59.999999Z")), ID: 0},
	}
	queries := map[Listing][]string{
		ListEvents:   {"", "status=planned,done&kind=task&tz=UTC", "from=2026-11-25T00:00:00Z&to=2026-11-26T00:00:00Z&project_tag=home&source=email"},
		ListToday:    {"", "tz=America/New_York"},
		ListInbox:    {""},
		ListActivity: {"", "from=2026-11-20T00:00:00Z"},
		ListHistory:  {""},
	}
	for l, qs := range queries {
		for _, qstr := range qs {
			base, err := ParseListQuery(l, query(qstr), seoul)
			if err != nil {
				t.Fatalf("%s?%s: %v", l, qstr, err)
			}
			for _, p := range positions {
				c := base.Cursor(p)
				// Round trip, with any limit.
				for _, extra := range []string{"", "limit=7"} {
					q := query(qstr)
					q.Set("cursor", c)
					if extra != "" {
						q.Set("limit", "7")
					}
					lq, err := ParseListQuery(l, q, seoul)
					if err != nil {
						t.Errorf("%s?%s with its cursor: %v", l, q.Encode(), err)
						continue
					}
					if lq.After == nil || lq.After.G != p.G || lq.After.ID != p.ID || !samePtr(lq.After.T, p.T) {
						t.Errorf("%s?%s: position got %+v, want %+v", l, q.Encode(), lq.After, p)
					}
				}
				// Another listing, or other filters: refused.
				for l2, qs2 := range queries {
					for _, qstr2 := range qs2 {
						if l2 == l && qstr2 == qstr {
							continue
						}
						q := query(qstr2)
						q.Set("cursor", c)
						_, err := ParseListQuery(l2, q, seoul)
						var bad *BadRequestError
						if !errors.As(err, &bad) || bad.Field != "cursor" {
							t.Errorf("a cursor of %s?%s used on %s?%s: got %v, want a 400 naming cursor", l, qstr, l2, qstr2, err)
						}
					}
				}
			}
		}
	}
}

func TestCursorMismatchedFilters(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	made := "status=planned&from=2026-11-25T00:00:00Z"
	base, _ := ParseListQuery(ListEvents, query(made), seoul)
	c := base.Cursor(Position{G: 1, ID: 9})
	for _, other := range []string{
		"status=done&from=2026-11-25T00:00:00Z",
		"status=planned",
		"status=planned&from=2026-11-25T00:00:00Z&tz=UTC",
		"status=planned&from=2026-11-25T09:00:00%2B09:00", // the same instant, written otherwise
		"status=planned,done&from=2026-11-25T00:00:00Z",
		"from=2026-11-25T00:00:00Z&status=planned&kind=task",
	} {
		q := query(other)
		q.Set("cursor", c)
		if _, err := ParseListQuery(ListEvents, q, seoul); class(err) != "400" {
			t.Errorf("cursor of %s used with %s: got %v, want a 400", made, other, err)
		}
	}
	// Values that contain the separators of the binding must not make two
	// different filters look alike.
	tricky, _ := ParseListQuery(ListEvents, url.Values{"project_tag": {"a&source=email"}}, seoul)
	c = tricky.Cursor(Position{G: 0, ID: 1})
	if _, err := ParseListQuery(ListEvents, url.Values{"project_tag": {"a"}, "source": {"email"}, "cursor": {c}}, seoul); class(err) != "400" {
		t.Errorf("a cursor of project_tag=\"a&source=email\" used with project_tag=a&source=email: got %v, want a 400", err)
	}
}

func TestCursorForged(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	base, _ := ParseListQuery(ListInbox, url.Values{}, seoul)
	good := base.Cursor(Position{G: 1, T: at(ts(t, "2026-11-25T00:00:00Z")), ID: 42})
	raw, err := base64.RawURLEncoding.DecodeString(good)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(raw), ".")
	if len(parts) != 4 {
		t.Fatalf("cursor shape: %q", raw)
	}
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	forged := []string{
		enc(strings.Join([]string{parts[0], parts[1], "43", parts[3]}, ".")),              // another id, same check
		enc(strings.Join([]string{"0", parts[1], parts[2], parts[3]}, ".")),               // another group
		enc(strings.Join([]string{parts[0], "-", parts[2], parts[3]}, ".")),               // no time
		enc(strings.Join([]string{parts[0], parts[1], parts[2], parts[3] + "0"}, ".")),    // another check
		enc(strings.Join([]string{parts[0], parts[1], parts[2]}, ".")),                    // no check
		enc(strings.Join([]string{parts[0], parts[1], parts[2], parts[3], "x"}, ".")),     // a part too many
		base64.URLEncoding.EncodeToString(raw),                                            // padded
		base64.StdEncoding.EncodeToString(raw),                                            // another alphabet
		good[:len(good)-1], good + "A", strings.ToUpper(good), "!!!!", "AAAA", "e30", "-", // edits and noise
		enc("1.x.42." + parts[3]), enc(""), enc("..."),
	}
	for _, f := range forged {
		if f == good {
			continue
		}
		_, err := ParseListQuery(ListInbox, url.Values{"cursor": {f}}, seoul)
		var bad *BadRequestError
		if !errors.As(err, &bad) || bad.Field != "cursor" {
			t.Errorf("cursor %q: got %v, want a 400 naming cursor", f, err)
		}
	}
}

func TestDayBounds(t *testing.T) {
	t.Parallel()
	seoul := mustZone(t, "Asia/Seoul")
	ny := mustZone(t, "America/New_York")
	havana := mustZone(t, "America/Havana")
	santiago := mustZone(t, "America/Santiago") // clocks skip from 24:00 to 01:00 on 2026-09-06
	cases := []struct {
		name       string
		t          string
		loc        *time.Location
		start, end string
		hours      float64
	}{
		{"Seoul 23:59", "2026-11-25T23:59:59.999999+09:00", seoul, "2026-11-25T00:00:00+09:00", "2026-11-26T00:00:00+09:00", 24},
		{"Seoul 00:00 starts the next day", "2026-11-26T00:00:00+09:00", seoul, "2026-11-26T00:00:00+09:00", "2026-11-27T00:00:00+09:00", 24},
		{"Seoul 23:59 in UTC terms", "2026-11-25T14:59:00Z", seoul, "2026-11-24T15:00:00Z", "2026-11-25T15:00:00Z", 24},
		{"Seoul, the last day of a year", "2026-12-31T12:00:00+09:00", seoul, "2026-12-31T00:00:00+09:00", "2027-01-01T00:00:00+09:00", 24},
		{"New York, spring forward", "2026-03-08T12:00:00-04:00", ny, "2026-03-08T00:00:00-05:00", "2026-03-09T00:00:00-04:00", 23},
		{"New York, fall back", "2026-11-01T01:30:00-05:00", ny, "2026-11-01T00:00:00-04:00", "2026-11-02T00:00:00-05:00", 25},
		{"Havana, a day without its midnight", "2026-03-08T12:00:00-04:00", havana, "2026-03-08T01:00:00-04:00", "2026-03-09T00:00:00-04:00", 23},
		{"Havana, the day before it", "2026-03-07T23:30:00-05:00", havana, "2026-03-07T00:00:00-05:00", "2026-03-08T01:00:00-04:00", 24},
		{"Santiago, a day without its midnight", "2026-09-06T10:00:00-03:00", santiago, "2026-09-06T01:00:00-03:00", "2026-09-07T00:00:00-03:00", 23},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start, end := DayBounds(ts(t, c.t), c.loc)
			checkTime(t, "start", &start, at(ts(t, c.start)))
			checkTime(t, "end", &end, at(ts(t, c.end)))
			if got := end.Sub(start).Hours(); got != c.hours {
				t.Errorf("length: got %v hours, want %v", got, c.hours)
			}
			if in := ts(t, c.t); in.Before(start) || !in.Before(end) {
				t.Errorf("%s is not inside [%s, %s)", c.t, start, end)
			}
			// Consecutive days tile the time line.
			next, _ := DayBounds(end, c.loc)
			if !next.Equal(end) {
				t.Errorf("the next day starts at %s, want %s", next, end)
			}
		})
	}
}

// An unknown listing is an error, never a listing of everything.
func TestParseListQueryRefusesAnUnknownListing(t *testing.T) {
	t.Parallel()
	var bad *BadRequestError
	_, err := ParseListQuery(Listing("summary"), url.Values{}, time.UTC)
	if err == nil || errors.As(err, &bad) {
		t.Fatalf("ParseListQuery(summary) = %v, want an error that is not the client's", err)
	}
}
