// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"encoding/base64"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata"
	"unicode"
	"unicode/utf8" // zones load where the host has no time zone database
)

// Listing names a list endpoint.
type Listing string

const (
	ListEvents   Listing = "events"   // GET /api/events
	ListToday    Listing = "today"    // GET /api/events/today
	ListInbox    Listing = "inbox"    // GET /api/events/inbox
	ListActivity Listing = "activity" // GET /api/events/activity
	ListHistory  Listing = "history"  // GET /api/events/{id}/history
	ListExport   Listing = "export"   // GET /api/events/export: the filters of events, no page
)

// MaxSearch is the longest q, in characters; MaxSearchWords the most words
// it may hold. Each word is one more condition every candidate row is
// checked against, and a word too short for a trigram (one or two
// characters) cannot narrow the search index at all: a q of 66 such words
// ran a listing to its deadline and an export for minutes.
const (
	MaxSearch      = 200
	MaxSearchWords = 8
)

// Page sizes of every list.
const (
	DefaultLimit = 100
	MaxLimit     = 1000
)

// listParams are the query parameters each listing takes.
var listParams = map[Listing][]string{
	ListEvents:   {"kind", "status", "from", "to", "project_tag", "source", "q", "updated_since", "tz", "limit", "cursor"},
	ListToday:    {"tz", "limit", "cursor"},
	ListInbox:    {"limit", "cursor"},
	ListActivity: {"from", "to", "tz", "limit", "cursor"},
	ListHistory:  {"limit", "cursor"},
	ListExport:   {"kind", "status", "from", "to", "project_tag", "source", "q", "tz"},
}

// ListQuery is a parsed list request.
type ListQuery struct {
	Listing    Listing
	Kinds      []Kind
	Statuses   []Status
	Sources    []Source
	ProjectTag *string
	From, To   *time.Time
	Words      []string // q: every word must occur in the title or the description
	// UpdatedSince (?updated_since=): only events changed after it, in
	// (updated_at, id) order, for a client that keeps a copy current
	UpdatedSince *time.Time
	Loc          *time.Location // ?tz=, else the configured zone
	Limit        int
	After        *Position // the last row of the previous page
	binding      string    // the filters, to which a cursor is bound
}

// Position is a row's place in a listing's order: a group, a time (nil when
// the row has none) and the id that breaks ties.
type Position struct {
	G  int
	T  *time.Time
	ID int64
}

// ParseListQuery reads the query string of a listing. Every problem is a
// *BadRequestError naming the parameter.
func ParseListQuery(l Listing, q url.Values, loc *time.Location) (ListQuery, error) {
	lq := ListQuery{Listing: l, Loc: loc, Limit: DefaultLimit}
	allowed, known := listParams[l]
	if !known {
		// a listing the code routes but models does not know: never "everything"
		return lq, fmt.Errorf("unknown listing %q", l)
	}
	var binding []string
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !slices.Contains(allowed, name) {
			return lq, BadRequest(name, CodeUnknownField, "is not a parameter of this listing (it takes %s)", strings.Join(allowed, ", "))
		}
		if len(q[name]) > 1 {
			return lq, BadRequest(name, CodeRepeated, "appears more than once (a list is comma-separated)")
		}
		if v := q.Get(name); !utf8.ValidString(v) {
			return lq, BadRequest(name, CodeBadFormat, "must be UTF-8 text without control characters")
		} else if strings.ContainsFunc(v, unicode.IsControl) {
			return lq, BadRequest(name, CodeControlCharacter, "must be UTF-8 text without control characters")
		}
		if name != "cursor" && name != "limit" {
			binding = append(binding, url.QueryEscape(name)+"="+url.QueryEscape(q.Get(name)))
		}
	}
	lq.binding = string(l) + "?" + strings.Join(binding, "&")
	var err error
	if v := q.Get("tz"); q.Has("tz") {
		if lq.Loc, err = LoadZone(v); err != nil {
			return lq, BadRequest("tz", CodeBadFormat, "%s", err)
		}
	}
	if lq.Kinds, err = parseList(q, "kind", Kind.Valid, "is not a kind (task, calendar_event, activity_log)"); err != nil {
		return lq, err
	}
	if lq.Statuses, err = parseList(q, "status", Status.Valid, "is not a status ("+joinStatuses(Statuses)+")"); err != nil {
		return lq, err
	}
	if lq.Sources, err = parseList(q, "source", Source.Valid, "is not a source"); err != nil {
		return lq, err
	}
	if q.Has("project_tag") {
		// the same rules as the field it filters: a value no event can hold
		// is refused rather than matched against nothing
		f := fieldIndex["project_tag"]
		tag := f.normalise(q.Get("project_tag"))
		var fe FieldErrors
		checkText(&fe, f.Name, tag, f.MaxLen, f.Multiline)
		if len(fe) > 0 {
			return lq, BadRequest("project_tag", fe[0].Code, "%s", fe[0].Message)
		}
		lq.ProjectTag = &tag
	}
	if q.Has("q") {
		v := q.Get("q")
		if utf8.RuneCountInString(v) > MaxSearch {
			return lq, BadRequest("q", CodeTooLong, "must be at most %d characters", MaxSearch)
		}
		lq.Words = strings.Fields(v) // a q of spaces only filters nothing
		if n := len(lq.Words); n > MaxSearchWords {
			return lq, BadRequest("q", CodeTooLong, "has %d words, and a search takes at most %d (every word must occur in the title or the description)", n, MaxSearchWords)
		}
	}
	for _, p := range []struct {
		name string
		dst  **time.Time
	}{{"from", &lq.From}, {"to", &lq.To}, {"updated_since", &lq.UpdatedSince}} {
		if !q.Has(p.name) {
			continue
		}
		v := q.Get(p.name)
		t, code, msg := ParseTime(v, nil)
		if msg != "" {
			if strings.Contains(v, " ") {
				msg += " (a + in a query must be sent as %2B, e.g. with curl -G --data-urlencode)"
			}
			return lq, BadRequest(p.name, code, "%s", msg)
		}
		*p.dst = &t
	}
	if lq.From != nil && lq.To != nil && !lq.From.Before(*lq.To) {
		return lq, BadRequest("to", CodeOutOfRange, "must be after from")
	}
	if q.Has("limit") {
		v := q.Get("limit")
		n, err := strconv.Atoi(v)
		// digits only: Atoi also takes "+5", which no other part of the API spells so
		if err != nil || n < 1 || n > MaxLimit || strings.TrimLeft(v, "0123456789") != "" {
			code := CodeOutOfRange
			if err != nil && !errors.Is(err, strconv.ErrRange) || strings.TrimLeft(v, "0123456789") != "" {
				code = CodeBadFormat
			}
			return lq, BadRequest("limit", code, "must be a whole number from 1 to %d", MaxLimit)
		}
		lq.Limit = n
	}
	if q.Has("cursor") {
		pos, err := lq.decodeCursor(q.Get("cursor"))
		if err != nil {
			return lq, err
		}
		lq.After = &pos
	}
	return lq, nil
}

// parseList reads a comma-separated list of enum values; nil when absent.
func parseList[T ~string](q url.Values, name string, valid func(T) bool, problem string) ([]T, error) {
	if !q.Has(name) {
		return nil, nil
	}
	var out []T
	for _, v := range strings.Split(q.Get(name), ",") {
		if !valid(T(v)) {
			return nil, BadRequest(name, CodeBadFormat, "%q %s", v, problem)
		}
		out = append(out, T(v))
	}
	return out, nil
}

// LoadZone loads an IANA time zone by name.
func LoadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return nil, fmt.Errorf("%q is not an IANA time zone name such as Asia/Seoul", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("%q is not a known IANA time zone, such as Asia/Seoul", name)
	}
	return loc, nil
}

// Cursor returns the opaque cursor of the page after position p.
func (lq ListQuery) Cursor(p Position) string {
	t := "-"
	if p.T != nil {
		t = strconv.FormatInt(p.T.UnixMicro(), 10)
	}
	body := fmt.Sprintf("%d.%s.%d", p.G, t, p.ID)
	return base64.RawURLEncoding.EncodeToString([]byte(body + "." + lq.check(body)))
}

func (lq ListQuery) decodeCursor(s string) (Position, error) {
	bad := BadRequest("cursor", CodeBadFormat, "is not a cursor of this listing with these filters: start again without it")
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return Position{}, bad
	}
	parts := strings.Split(string(raw), ".")
	if len(parts) != 4 {
		return Position{}, bad
	}
	body := strings.Join(parts[:3], ".")
	if parts[3] != lq.check(body) {
		return Position{}, bad
	}
	var p Position
	if p.G, err = strconv.Atoi(parts[0]); err != nil {
		return Position{}, bad
	}
	if parts[1] != "-" {
		us, err := strconv.ParseInt(parts[1], 10, 64)
		if err != nil {
			return Position{}, bad
		}
		t := time.UnixMicro(us).UTC()
		if y := t.Year(); y < 1 || y > 10000 {
			// No event has such a time (they are in the years 0001..9999,
			// give or take a zone's day), and PostgreSQL refuses some: the
			// check is no secret, so a well-signed cursor may still lie.
			return Position{}, bad
		}
		p.T = &t
	}
	if p.ID, err = strconv.ParseInt(parts[2], 10, 64); err != nil {
		return Position{}, bad
	}
	return p, nil
}

// check binds a cursor to its listing and filters, and catches edits.
func (lq ListQuery) check(body string) string {
	h := fnv.New64a()
	h.Write([]byte(lq.binding + "#" + body))
	return strconv.FormatUint(h.Sum64(), 36)
}

// DayBounds returns the local midnight that starts t's day in loc and the
// next one, from the zone's calendar (a day is not always 24 hours).
func DayBounds(t time.Time, loc *time.Location) (time.Time, time.Time) {
	return localMidnight(t, loc), nextMidnight(t, loc)
}

// DayStart is the start of the local day offset days after t's day in loc
// (offset 0: t's own day).
func DayStart(t time.Time, loc *time.Location, offset int) time.Time {
	l := t.In(loc)
	return dayStart(l.Year(), l.Month(), l.Day()+offset, loc)
}
