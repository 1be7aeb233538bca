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
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultURL is the service a client talks to when EVENTS_URL is unset.
const DefaultURL = "http://127.0.0.1:3000"

// Client talks to one service.
type Client struct {
	base  *url.URL
	token string
	http  *http.Client
}

// New returns a client of the service at base (EVENTS_URL) that sends token
// (EVENTS_TOKEN) as a bearer token when it is not empty.
func New(base, token string) (*Client, error) {
	if base == "" {
		base = DefaultURL
	}
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("EVENTS_URL must be an http:// or https:// URL of the service, such as %s; got %q", DefaultURL, base)
	}
	return &Client{base: u, token: token, http: &http.Client{Timeout: 30 * time.Second}}, nil
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

// Event is an event as the API answers it (the fields a client reads).
type Event struct {
	ID          int64      `json:"id"`
	Kind        string     `json:"kind"`
	Status      string     `json:"status"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
	StartAt     *time.Time `json:"start_at"`
	EndAt       *time.Time `json:"end_at"`
	AllDay      bool       `json:"all_day"`
	DueAt       *time.Time `json:"due_at"`
	StartedAt   *time.Time `json:"started_at"`
	EndedAt     *time.Time `json:"ended_at"`
	Priority    int        `json:"priority"`
	ProjectTag  *string    `json:"project_tag"`
	Source      *string    `json:"source"`
	SourceRef   *string    `json:"source_ref"`
}

// HistoryRow is one step of an event's history.
type HistoryRow struct {
	ID         int64  `json:"id"`
	ChangeKind string `json:"change_kind"`
}

// Created is the outcome of a create that was stored.
type Created struct {
	Event    Event
	Replayed bool // an earlier request with the same Idempotency-Key stored it
}

// Create posts body (a JSON object) to POST /api/events with the
// Idempotency-Key key ("" for none). A refusal is a *Problem.
func (c *Client) Create(ctx context.Context, body []byte, key string) (Created, error) {
	var out Created
	res, err := c.do(ctx, http.MethodPost, "/api/events", body, key)
	if err != nil {
		return out, err
	}
	defer res.Body.Close()
	if err := decodeAnswer(res, http.StatusCreated, &out.Event); err != nil {
		return out, err
	}
	out.Replayed = res.Header.Get("Idempotent-Replayed") == "true"
	return out, nil
}

// Operate performs one lifecycle operation (complete, cancel, reactivate)
// on event id, with the Idempotency-Key key.
func (c *Client) Operate(ctx context.Context, id int64, op, key string) (Event, error) {
	var e Event
	res, err := c.do(ctx, http.MethodPost, "/api/events/"+strconv.FormatInt(id, 10)+"/"+op, nil, key)
	if err != nil {
		return e, err
	}
	defer res.Body.Close()
	return e, decodeAnswer(res, http.StatusOK, &e)
}

// Get reads one event.
func (c *Client) Get(ctx context.Context, id int64) (Event, error) {
	var e Event
	res, err := c.do(ctx, http.MethodGet, "/api/events/"+strconv.FormatInt(id, 10), nil, "")
	if err != nil {
		return e, err
	}
	defer res.Body.Close()
	return e, decodeAnswer(res, http.StatusOK, &e)
}

// History reads the first 1000 steps of event id's history, oldest first.
func (c *Client) History(ctx context.Context, id int64) ([]HistoryRow, error) {
	var page struct {
		Items []HistoryRow `json:"items"`
	}
	res, err := c.do(ctx, http.MethodGet, "/api/events/"+strconv.FormatInt(id, 10)+"/history?limit=1000", nil, "")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	return page.Items, decodeAnswer(res, http.StatusOK, &page)
}

// List reads one page of GET /api/events with the query q.
func (c *Client) List(ctx context.Context, q url.Values) (items []Event, next string, err error) {
	var page struct {
		Items      []Event `json:"items"`
		NextCursor *string `json:"next_cursor"`
	}
	res, err := c.do(ctx, http.MethodGet, "/api/events?"+q.Encode(), nil, "")
	if err != nil {
		return nil, "", err
	}
	defer res.Body.Close()
	if err := decodeAnswer(res, http.StatusOK, &page); err != nil {
		return nil, "", err
	}
	if page.NextCursor != nil {
		next = *page.NextCursor
	}
	return page.Items, next, nil
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

// decodeAnswer reads a want answer into v, or the problem of any other.
func decodeAnswer(res *http.Response, want int, v any) error {
	data, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err != nil {
		return &Unreachable{Base: res.Request.URL.Host, Err: err}
	}
	if res.StatusCode == want {
		if err := json.Unmarshal(data, v); err != nil {
			return fmt.Errorf("%s %s answered %d with a body that is not the API's JSON: %v", res.Request.Method, res.Request.URL.Path, res.StatusCode, err)
		}
		return nil
	}
	p := &Problem{Status: res.StatusCode}
	if strings.Contains(res.Header.Get("Content-Type"), "json") {
		_ = json.Unmarshal(data, p)
		p.Status = res.StatusCode
	}
	if p.Title == "" && p.Detail == "" {
		p.Title = http.StatusText(res.StatusCode)
	}
	return p
}
