// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"encoding/base64"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"regexp"
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
	ListEvents:   {"kind", "status", "from", "to", "project_tag", "label", "source", "q", "updated_since", "changes_after", "tz", "limit", "cursor"},
	ListToday:    {"tz", "limit", "cursor"},
	ListInbox:    {"limit", "cursor"},
	ListActivity: {"from", "to", "tz", "limit", "cursor"},
	ListHistory:  {"limit", "cursor"},
	ListExport:   {"kind", "status", "from", "to", "project_tag", "label", "source", "q", "tz"},
}

// ListParams are the query parameters listing l takes (a copy).
func ListParams(l Listing) []string { return slices.Clone(listParams[l]) }

// ListQuery is a parsed list request.
type ListQuery struct {
	Listing    Listing
	Kinds      []Kind
	Statuses   []Status
	Sources    []Source
	ProjectTag *string
	// Labels (?label=, repeatable): every one must be among the event's
	Labels   []string
	From, To *time.Time
	Words    []string // q: every word must occur in the title or the description
	// UpdatedSince (?updated_since=): only events changed after it, in
	// (updated_at, id) order, for a client that keeps a copy current
	UpdatedSince *time.Time
	// Changes (?changes_after=): the events changed after the token, in
	// the order of changes (DESIGN.md, Sync); it takes only limit
	Changes *ChangeToken
	Loc     *time.Location // ?tz=, else the configured zone
	Limit   int
	After   *Position // the last row of the previous page
	binding string    // the filters, to which a cursor is bound
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
	names, binding, err := checkListParams(q, allowed)
	if err != nil {
		return lq, err
	}
	lq.binding = string(l) + "?" + binding
	if err := lq.parseFilters(q); err != nil {
		return lq, err
	}
	if err := lq.parseTimes(q); err != nil {
		return lq, err
	}
	return lq, lq.parsePage(q, names)
}

// checkListParams checks that q holds only parameters of allowed, each
// once unless it is an array parameter, as UTF-8 text without control
// characters. It answers q's parameter names, sorted, and the filters as
// one query string (cursor and limit left out), to which a cursor is
// bound.
func checkListParams(q url.Values, allowed []string) (names []string, binding string, err error) {
	var bound []string
	names = make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !slices.Contains(allowed, name) {
			return nil, "", BadRequest(name, CodeUnknownField, "is not a parameter of this listing (it takes %s)", strings.Join(allowed, ", "))
		}
		if len(q[name]) > 1 && !slices.Contains(arrayParams, name) {
			return nil, "", BadRequest(name, CodeRepeated, "appears more than once (it takes one value)")
		}
		for _, v := range q[name] {
			if !utf8.ValidString(v) {
				return nil, "", BadRequest(name, CodeBadFormat, "must be UTF-8 text without control characters")
			} else if strings.ContainsFunc(v, unicode.IsControl) {
				return nil, "", BadRequest(name, CodeControlCharacter, "must be UTF-8 text without control characters")
			}
			if name != "cursor" && name != "limit" {
				bound = append(bound, url.QueryEscape(name)+"="+url.QueryEscape(v))
			}
		}
	}
	return names, strings.Join(bound, "&"), nil
}

// parseFilters reads the zone and the filters of what a listing holds:
// tz, kind, status, source, project_tag, label and q.
func (lq *ListQuery) parseFilters(q url.Values) error {
	var err error
	if v := q.Get("tz"); q.Has("tz") {
		if lq.Loc, err = LoadZone(v); err != nil {
			return BadRequest("tz", CodeBadFormat, "%s", err)
		}
	}
	if lq.Kinds, err = parseList(q, "kind", Kind.Valid, "is not a kind (task, calendar_event, activity_log)"); err != nil {
		return err
	}
	if lq.Statuses, err = parseList(q, "status", Status.Valid, "is not a status ("+joinStatuses(Statuses)+")"); err != nil {
		return err
	}
	if lq.Sources, err = parseList(q, "source", Source.Valid, "is not a source"); err != nil {
		return err
	}
	if q.Has("project_tag") {
		if err := lq.parseProjectTag(q.Get("project_tag")); err != nil {
			return err
		}
	}
	if q.Has("label") {
		if err := lq.parseLabels(q["label"]); err != nil {
			return err
		}
	}
	if q.Has("q") {
		v := q.Get("q")
		if utf8.RuneCountInString(v) > MaxSearch {
			return BadRequest("q", CodeTooLong, "must be at most %d characters", MaxSearch)
		}
		lq.Words = strings.Fields(v) // a q of spaces only filters nothing
		if n := len(lq.Words); n > MaxSearchWords {
			return BadRequest("q", CodeTooLong, "has %d words, and a search takes at most %d (every word must occur in the title or the description)", n, MaxSearchWords)
		}
	}
	return nil
}

// parseProjectTag reads ?project_tag= by the same rules as the field it
// filters: a value no event can hold is refused rather than matched
// against nothing.
func (lq *ListQuery) parseProjectTag(v string) error {
	f := fieldIndex["project_tag"]
	var fe FieldErrors
	tag := v
	if !checkSent(&fe, f.Name, tag) { // a tab or newline around it too
		tag = f.normalise(tag)
		checkText(&fe, f.Name, tag, f.MaxLen, f.Multiline)
	}
	if f.Visible && len(fe) == 0 {
		checkVisible(&fe, f.Name, tag)
	}
	if len(fe) > 0 {
		return BadRequest("project_tag", fe[0].Code, "%s", fe[0].Message)
	}
	lq.ProjectTag = &tag
	return nil
}

// parseLabels reads each ?label= as the field stores it; a label no event
// can hold is refused.
func (lq *ListQuery) parseLabels(values []string) error {
	for _, v := range values {
		var e Event
		e.Labels = []string{v}
		var fe FieldErrors
		checkLabels(&e, fieldIndex["labels"], &fe)
		if len(fe) == 0 && len(e.Labels) == 0 {
			fe.add("label", CodeRequired, "must name a label")
		}
		if len(fe) > 0 {
			return BadRequest("label", fe[0].Code, "%s", fe[0].Message)
		}
		if !slices.Contains(lq.Labels, e.Labels[0]) {
			lq.Labels = append(lq.Labels, e.Labels[0])
		}
	}
	return nil
}

// parseTimes reads from, to and updated_since; to must be after from.
func (lq *ListQuery) parseTimes(q url.Values) error {
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
			return BadRequest(p.name, code, "%s", msg)
		}
		*p.dst = &t
	}
	if lq.From != nil && lq.To != nil && !lq.From.Before(*lq.To) {
		return BadRequest("to", CodeOutOfRange, "must be after from")
	}
	return nil
}

// parsePage reads where the page starts and how long it is: limit,
// changes_after (which takes limit alone of names, the query's parameters)
// and cursor.
func (lq *ListQuery) parsePage(q url.Values, names []string) error {
	if q.Has("limit") {
		v := q.Get("limit")
		n, err := strconv.Atoi(v)
		// digits only: Atoi also takes "+5", which no other part of the API spells so
		if err != nil || n < 1 || n > MaxLimit || strings.TrimLeft(v, "0123456789") != "" {
			code := CodeOutOfRange
			if err != nil && !errors.Is(err, strconv.ErrRange) || strings.TrimLeft(v, "0123456789") != "" {
				code = CodeBadFormat
			}
			return BadRequest("limit", code, "must be a whole number from 1 to %d", MaxLimit)
		}
		lq.Limit = n
	}
	if q.Has("changes_after") {
		for _, name := range names {
			if name != "changes_after" && name != "limit" {
				return BadRequest(name, CodeUnknownField, "cannot be combined with changes_after, which lists every change (it takes limit alone)")
			}
		}
		t, err := ParseChangeToken(q.Get("changes_after"))
		if err != nil {
			return err
		}
		lq.Changes = &t
	}
	if q.Has("cursor") {
		pos, err := lq.decodeCursor(q.Get("cursor"))
		if err != nil {
			return err
		}
		lq.After = &pos
	}
	return nil
}

// arrayParams are the query parameters the document declares as arrays:
// each takes repeated keys (kind=a&kind=b, OpenAPI's default and what
// generated clients send) and the comma form (kind=a,b) alike.
var arrayParams = []string{"kind", "status", "source", "label"}

// parseList reads a list of enum values, from repeated keys, commas or
// both; nil when absent.
func parseList[T ~string](q url.Values, name string, valid func(T) bool, problem string) ([]T, error) {
	if !q.Has(name) {
		return nil, nil
	}
	var out []T
	for _, value := range q[name] {
		for _, v := range strings.Split(value, ",") {
			if !valid(T(v)) {
				return nil, BadRequest(name, CodeBadFormat, "%q %s", v, problem)
			}
			if !slices.Contains(out, T(v)) {
				out = append(out, T(v))
			}
		}
	}
	return out, nil
}

// ZonePattern is what an IANA zone's name is made of (Asia/Seoul,
// America/Argentina/Buenos_Aires, Etc/GMT+9, UTC). LoadZone refuses any
// other name before looking it up, so a spelling the zone files would
// also resolve ("Asia//Seoul", "./Asia/Seoul") is never taken, nor stored
// as an event's zone; the API document's tz parameters carry it.
const ZonePattern = `^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$`

var zoneName = regexp.MustCompile(ZonePattern)

// LoadZone loads an IANA time zone by name.
func LoadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" || !zoneName.MatchString(name) {
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
