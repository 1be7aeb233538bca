// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package client is a small typed client of the events JSON API: what
// `events import` (and the terminal commands after it) need, over plain
// net/http. It knows nothing of the database; every rule is the service's.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"events/models"
)

// DefaultURL is the service a client talks to when EVENTS_URL is unset.
const DefaultURL = "http://127.0.0.1:3000"

// Client talks to one service.
type Client struct {
	base  *url.URL
	token string
	http  *http.Client

	// Zone, when set, is the IANA zone sent as ?tz= with creates, today
	// and the summary, so capture words and days are read in it.
	Zone string
	// Retries is how many times a write with an Idempotency-Key is sent
	// again when no answer came (0: never).
	Retries int
	// Language, when set, is sent as Accept-Language ("ko"): the service
	// writes its refusals' detail and messages in it (the codes stay).
	Language string
}

// New returns a client of the service at base (EVENTS_URL) that sends token
// (EVENTS_TOKEN) as a bearer token when it is not empty. An http:// URL is
// refused unless its host is this machine (loopback) or insecureHTTP says
// so (--insecure-http): the token and the records would cross the network
// in clear.
//
// The client follows no redirect: a redirect would carry the token and the
// body to wherever it points (another port, another host, http:// from
// https://), and a create that ends in another host's 200 stored nothing.
// A 3xx is an error naming where it pointed.
func New(base, token string, insecureHTTP bool) (*Client, error) {
	if base == "" {
		base = DefaultURL
	}
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("EVENTS_URL must be an http:// or https:// URL of the service, such as %s; got %q", DefaultURL, base)
	}
	if u.Scheme == "http" && !insecureHTTP && !loopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("EVENTS_URL %q is http:// to another machine: the token and what you record would cross the network in clear; use https://, or --insecure-http to send it anyway", base)
	}
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &Client{base: u, token: token, http: &http.Client{Timeout: 30 * time.Second, CheckRedirect: noRedirect}}, nil
}

// loopbackHost reports whether host names this machine: localhost or a
// loopback address.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Base is the service's URL.
func (c *Client) Base() string { return c.base.String() }

// Problem is a refusal of the API (RFC 9457 problem details).
type Problem struct {
	Status     int          `json:"status"`
	Type       string       `json:"type"`
	Title      string       `json:"title"`
	Detail     string       `json:"detail"`
	Errors     []FieldError `json:"errors"`
	ExistingID int64        `json:"existing_id"`
}

// FieldError names one field at fault.
type FieldError struct {
	Field   string `json:"field"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (p *Problem) Error() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(p.Status))
	switch {
	case p.Detail != "":
		b.WriteString(" " + p.Detail)
	case p.Title != "":
		b.WriteString(" " + p.Title)
	}
	for _, e := range p.Errors {
		if e.Field != "" {
			fmt.Fprintf(&b, "; %s %s", e.Field, e.Message)
		} else {
			fmt.Fprintf(&b, "; %s", e.Message)
		}
	}
	return b.String()
}

// Kind is the last path segment of the problem's type (validation,
// duplicate-source, illegal-transition, ...).
func (p *Problem) Kind() string {
	return p.Type[strings.LastIndex(p.Type, "/")+1:]
}

// Duplicate reports whether err is the API's answer that the (source,
// source_ref) is already stored, and the stored event's id.
func Duplicate(err error) (int64, bool) {
	var p *Problem
	if errors.As(err, &p) && p.Status == http.StatusConflict && p.ExistingID > 0 {
		return p.ExistingID, true
	}
	return 0, false
}

// Event is an event as the API answers it: models.Event, read by the
// field table (Event.UnmarshalJSON), so the client reads every field.
type Event = models.Event

// HistoryRow is one step of an event's history.
type HistoryRow struct {
	ID         int64  `json:"id"`
	ChangeKind string `json:"change_kind"`
}

// Overlap is a log a new log shares time with.
type Overlap struct {
	ID      int64  `json:"id"`
	Title   string `json:"title"`
	Seconds int64  `json:"seconds"`
}

// Created is the outcome of a create that was stored.
type Created struct {
	Event       Event
	Overlaps    []Overlap       // the logs a new log overlaps
	CaptureNote string          // how the capture text was read, when it says
	Replayed    bool            // an earlier request with the same Idempotency-Key stored it
	Raw         json.RawMessage // the answer's body as it came
}

// Create posts body (a JSON object) to POST /api/events with the
// Idempotency-Key key ("" for none). A refusal is a *Problem.
func (c *Client) Create(ctx context.Context, body []byte, key string) (Created, error) {
	var out Created
	var answer struct {
		Overlaps    []Overlap `json:"overlaps"`
		CaptureNote string    `json:"capture_note"`
	}
	path := "/api/events"
	if c.Zone != "" {
		path += "?tz=" + url.QueryEscape(c.Zone)
	}
	raw, hdr, err := c.send(ctx, http.MethodPost, path, body, key, http.StatusCreated, &out.Event, &answer)
	if err != nil {
		return out, err
	}
	out.Overlaps, out.CaptureNote, out.Raw = answer.Overlaps, answer.CaptureNote, raw
	out.Replayed = hdr.Get("Idempotent-Replayed") == "true"
	return out, nil
}

// Operate performs one lifecycle operation (complete, cancel, reactivate)
// on event id, with the Idempotency-Key key.
func (c *Client) Operate(ctx context.Context, id int64, op, key string) (Event, error) {
	e, _, err := c.OperateRaw(ctx, id, op, key)
	return e, err
}

// OperateRaw is Operate that also answers the body as it came.
func (c *Client) OperateRaw(ctx context.Context, id int64, op, key string) (Event, json.RawMessage, error) {
	var e Event
	raw, _, err := c.send(ctx, http.MethodPost, "/api/events/"+strconv.FormatInt(id, 10)+"/"+op, nil, key, http.StatusOK, &e)
	return e, raw, err
}

// OperateAt is Operate (complete or cancel) at the moment at, when the
// step happened before now (nil: now).
func (c *Client) OperateAt(ctx context.Context, id int64, op, key string, at *time.Time) (Event, error) {
	if at == nil {
		return c.Operate(ctx, id, op, key)
	}
	body, err := json.Marshal(struct {
		At time.Time `json:"at"`
	}{at.UTC()})
	if err != nil {
		return Event{}, err
	}
	var e Event
	_, _, err = c.send(ctx, http.MethodPost, "/api/events/"+strconv.FormatInt(id, 10)+"/"+op, body, key, http.StatusOK, &e)
	return e, err
}

// Page is one page of a listing.
type Page struct {
	Items      []Event
	NextCursor string
	Raw        json.RawMessage // the answer's body as it came
}

// Listing reads one page of a listing: path is /api/events,
// /api/events/today or /api/events/inbox (and the zone's tz is added to
// today's query when the client has one).
func (c *Client) Listing(ctx context.Context, path string, q url.Values) (Page, error) {
	var page struct {
		Items      []Event `json:"items"`
		NextCursor *string `json:"next_cursor"`
	}
	if q == nil {
		q = url.Values{}
	}
	if path == "/api/events/today" && c.Zone != "" && q.Get("tz") == "" {
		q.Set("tz", c.Zone)
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	raw, _, err := c.send(ctx, http.MethodGet, path, nil, "", http.StatusOK, &page)
	if err != nil {
		return Page{}, err
	}
	out := Page{Items: page.Items, Raw: raw}
	if page.NextCursor != nil {
		out.NextCursor = *page.NextCursor
	}
	return out, nil
}

// ProjectSeconds is the time logged to one project_tag (nil: none).
type ProjectSeconds struct {
	ProjectTag *string `json:"project_tag"`
	Seconds    int64   `json:"seconds"`
}

// LabelSeconds is the time logged under one label: a union within the
// label, so the labels of a day overlap and do not add up to its time.
type LabelSeconds struct {
	Label   string `json:"label"`
	Seconds int64  `json:"seconds"`
}

// SummaryCounts is what one day, or the whole window, of a summary holds.
type SummaryCounts struct {
	LoggedSeconds  int64            `json:"logged_seconds"`
	Projects       []ProjectSeconds `json:"projects"`
	Labels         []LabelSeconds   `json:"labels"`
	Logs           int              `json:"logs"`
	TasksCompleted int              `json:"tasks_completed"`
	CalendarEvents int              `json:"calendar_events"`
	Cancelled      int              `json:"cancelled"`
	TasksDue       int              `json:"tasks_due"`
}

// SummaryDay is one local day of a summary.
type SummaryDay struct {
	Date string `json:"date"`
	SummaryCounts
}

// Summary is GET /api/events/summary's answer.
type Summary struct {
	From  time.Time       `json:"from"`
	To    time.Time       `json:"to"`
	TZ    string          `json:"tz"`
	Days  []SummaryDay    `json:"days"`
	Total SummaryCounts   `json:"total"`
	Raw   json.RawMessage `json:"-"` // the answer's body as it came
}

// Summary reads GET /api/events/summary for the days from..to (either
// zero for the API's default), in the client's zone when it has one.
func (c *Client) Summary(ctx context.Context, from, to time.Time) (Summary, error) {
	var s Summary
	q := url.Values{}
	if !from.IsZero() {
		q.Set("from", from.Format(time.RFC3339))
	}
	if !to.IsZero() {
		q.Set("to", to.Format(time.RFC3339))
	}
	if c.Zone != "" {
		q.Set("tz", c.Zone)
	}
	raw, _, err := c.send(ctx, http.MethodGet, "/api/events/summary?"+q.Encode(), nil, "", http.StatusOK, &s)
	s.Raw = raw
	return s, err
}

// Name is a project or a label in use, and how many of the service's
// recent events carry it (GET /api/events/names).
type Name struct {
	Name   string `json:"name"`
	Events int64  `json:"events"`
}

// Names reads GET /api/events/names: the projects (of "project") or the
// labels (of "label") in use that begin with prefix, case-insensitively,
// the most used first; at most limit (1 to 50).
func (c *Client) Names(ctx context.Context, of, prefix string, limit int) ([]Name, error) {
	q := url.Values{"of": {of}, "prefix": {prefix}, "limit": {strconv.Itoa(limit)}}
	var a struct {
		Names []Name `json:"names"`
	}
	_, _, err := c.send(ctx, http.MethodGet, "/api/events/names?"+q.Encode(), nil, "", http.StatusOK, &a)
	return a.Names, err
}

// send makes one request and reads a want answer into each of vs. A write
// with an Idempotency-Key that gets no answer, or finds its first attempt
// still running, is sent again with the same key up to c.Retries times: the
// service stores it at most once and answers a repeat what it answered first.
func (c *Client) send(ctx context.Context, method, path string, body []byte, key string, want int, vs ...any) (json.RawMessage, http.Header, error) {
	for attempt := 0; ; attempt++ {
		raw, hdr, err := c.sendOnce(ctx, method, path, body, key, want, vs...)
		if err == nil || key == "" || attempt >= c.Retries || !retryable(err) {
			return raw, hdr, err
		}
		select {
		case <-ctx.Done():
			return nil, nil, err
		case <-time.After(time.Duration(attempt+1) * 500 * time.Millisecond):
		}
	}
}

// retryable: no answer came, or the first request with the key still runs.
func retryable(err error) bool {
	var u *Unreachable
	var p *Problem
	return errors.As(err, &u) || (errors.As(err, &p) && p.Status == http.StatusConflict && strings.Contains(p.Detail, "Idempotency-Key is still being processed"))
}

func (c *Client) sendOnce(ctx context.Context, method, path string, body []byte, key string, want int, vs ...any) (json.RawMessage, http.Header, error) {
	res, err := c.do(ctx, method, path, body, key)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	raw, err := readAnswer(res, want)
	if err != nil {
		return nil, res.Header, err
	}
	for _, v := range vs {
		if err := json.Unmarshal(raw, v); err != nil {
			return nil, res.Header, fmt.Errorf("%s %s answered %d with a body that is not the API's JSON: %v", method, res.Request.URL.Path, res.StatusCode, err)
		}
	}
	return raw, res.Header, nil
}

// Get reads one event.
func (c *Client) Get(ctx context.Context, id int64) (Event, error) {
	var e Event
	_, _, err := c.send(ctx, http.MethodGet, "/api/events/"+strconv.FormatInt(id, 10), nil, "", http.StatusOK, &e)
	return e, err
}

// History reads the first 1000 steps of event id's history, oldest first.
func (c *Client) History(ctx context.Context, id int64) ([]HistoryRow, error) {
	var page struct {
		Items []HistoryRow `json:"items"`
	}
	_, _, err := c.send(ctx, http.MethodGet, "/api/events/"+strconv.FormatInt(id, 10)+"/history?limit=1000", nil, "", http.StatusOK, &page)
	return page.Items, err
}

// List reads one page of GET /api/events with the query q.
func (c *Client) List(ctx context.Context, q url.Values) (items []Event, next string, err error) {
	page, err := c.Listing(ctx, "/api/events", q)
	return page.Items, page.NextCursor, err
}

func (c *Client) do(ctx context.Context, method, path string, body []byte, key string) (*http.Response, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, r)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.Language != "" {
		req.Header.Set("Accept-Language", c.Language)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, &Unreachable{Base: c.base.String(), Err: err}
	}
	return res, nil
}

// Unreachable is a request that got no answer: the service is down, the
// network is, or the answer did not arrive. Whether it was stored is not
// known; a retry with the same Idempotency-Key finds out.
type Unreachable struct {
	Base string
	Err  error
}

func (u *Unreachable) Error() string {
	return fmt.Sprintf("no answer from %s (EVENTS_URL): %v", u.Base, u.Err)
}

func (u *Unreachable) Unwrap() error { return u.Err }

// Redirected is a 3xx answer, which the client does not follow.
type Redirected struct {
	Status   int
	From, To string
}

func (r *Redirected) Error() string {
	return fmt.Sprintf("%s answered %d, a redirect to %q, which is not followed (it would carry the token and the request there); set EVENTS_URL to the service's own address", r.From, r.Status, r.To)
}

// readAnswer reads the body of a want answer, or the problem of any other.
func readAnswer(res *http.Response, want int) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err != nil {
		return nil, &Unreachable{Base: res.Request.URL.Host, Err: err}
	}
	if res.StatusCode == want {
		// only the API's JSON is an answer: a page of something else
		// (a proxy's, a login's) that says 200 stored nothing
		if !strings.Contains(res.Header.Get("Content-Type"), "json") {
			return nil, fmt.Errorf("%s answered %d with %q, not the API's JSON: is EVENTS_URL the service?", res.Request.URL.Redacted(), res.StatusCode, res.Header.Get("Content-Type"))
		}
		return data, nil
	}
	if res.StatusCode >= 300 && res.StatusCode < 400 {
		return nil, &Redirected{Status: res.StatusCode, From: res.Request.URL.Redacted(), To: res.Header.Get("Location")}
	}
	p := &Problem{Status: res.StatusCode}
	if strings.Contains(res.Header.Get("Content-Type"), "json") {
		_ = json.Unmarshal(data, p)
		p.Status = res.StatusCode
	}
	if p.Title == "" && p.Detail == "" {
		p.Title = http.StatusText(res.StatusCode)
	}
	return nil, p
}
