// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/uptrace/bun"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m, app.Migrate) }

// t0 is the injected now of every test: 12:00 on 2026-11-22 in Seoul.
var t0 = time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)

var seoul = func() *time.Location {
	loc, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		panic(err)
	}
	return loc
}()

// quiet discards the request log, so test output shows only failures.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// requestTimeout is the request deadline of the apps under test: long, so a
// machine busy with the parallel tests (a first connection to a new
// database, the race detector) does not turn a slow answer into a 503.
// Tests of a deadline set their own.
const requestTimeout = 30 * time.Second

// server is the real Fiber app over a fresh database, its clock at t0, its
// zone Asia/Seoul.
type server struct {
	t     *testing.T
	f     *fiber.App
	svc   *app.Service
	db    *bun.DB
	clock *dbtest.Clock
	base  string // of the app served on a loopback port, once live has started it
	dsn   string // of the database, when the test opened it by URL
}

// newServer marks the test parallel: every test has a database of its own,
// so the tests of this package run side by side.
func newServer(t *testing.T) *server {
	t.Helper()
	t.Parallel()
	db := dbtest.New(t)
	c := dbtest.NewClock(t0)
	svc := app.NewService(db, seoul, c.Now)
	return &server{t: t, f: newApp(t, svc), svc: svc, db: db, clock: c}
}

// serveLive serves the app on a loopback port, through the listener events
// serve uses, once; s.base is its address.
func (s *server) serveLive() string {
	s.t.Helper()
	if s.base == "" {
		f := newApp(s.t, s.svc)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			s.t.Fatal(err)
		}
		go func() { _ = f.Listener(handlers.Listener(ln)) }()
		s.t.Cleanup(func() { _ = f.ShutdownWithTimeout(2 * time.Second) })
		s.base = "http://" + ln.Addr().String()
	}
	return s.base
}

// live sends one request over TCP to the app served on a loopback port. It
// is for a body over the limit: fasthttp writes the 413 and then reports the
// error, which f.Test returns instead of the answer.
func (s *server) live(method, target, ctype, body string, headers ...string) answer {
	s.t.Helper()
	s.serveLive()
	// A raw connection: the server answers 413 before it reads the body and
	// closes, so a client that insists on writing the whole body first (as
	// net/http's does) sees a reset instead of the answer.
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
	if err != nil {
		s.t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Host = "events.test"
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	go func() { _ = req.Write(conn) }() // ends with an error once the server closes
	res, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, target, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		s.t.Fatalf("%s %s: reading the body: %v", method, target, err)
	}
	a := answer{method: method, target: target, Status: res.StatusCode, Header: res.Header, Body: b}
	checkAPI(s.t, req, []byte(body), a)
	return a
}

// holdTx opens a second connection to the database at dsn and begins a
// transaction on it, to hold what the service then waits on (a row lock, a
// unique key). The transaction is rolled back and the connection closed
// when the test ends, if the test has not done it first.
func holdTx(t *testing.T, dsn string) (*bun.DB, bun.Tx) {
	t.Helper()
	holder, err := app.OpenDB(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holder.Close() })
	tx, err := holder.Begin()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Rollback() })
	return holder, tx
}

func newApp(t *testing.T, svc *app.Service) *fiber.App {
	t.Helper()
	f, err := handlers.New(svc, handlers.Options{Logger: quiet, RequestTimeout: requestTimeout})
	if err != nil {
		t.Fatalf("handlers.New: %v", err)
	}
	return f
}

// answer is one HTTP answer, its body read.
type answer struct {
	method, target string
	Status         int
	Header         http.Header
	Body           []byte
}

func (a answer) String() string {
	return a.method + " " + a.target + " -> " + strconv.Itoa(a.Status) + " " + string(a.Body)
}

// do sends one request through the app. A non-empty ctype sets Content-Type;
// headers are pairs: name, value, name, value...
func (s *server) do(method, target, ctype, body string, headers ...string) answer {
	s.t.Helper()
	return send(s.t, s.f, method, target, ctype, body, headers...)
}

func send(t *testing.T, f *fiber.App, method, target, ctype, body string, headers ...string) answer {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := f.Test(req, -1)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, target, err)
	}
	a := answer{method: method, target: target, Status: res.StatusCode, Header: res.Header, Body: b}
	checkAPI(t, req, []byte(body), a)
	return a
}

const (
	jsonType = "application/json"
	formType = "application/x-www-form-urlencoded"
)

// json sends a JSON body ("" for none).
func (s *server) json(method, target, body string, headers ...string) answer {
	s.t.Helper()
	ctype := ""
	if body != "" {
		ctype = jsonType
	}
	return s.do(method, target, ctype, body, headers...)
}

// form sends a form body.
func (s *server) form(method, target string, form url.Values, headers ...string) answer {
	s.t.Helper()
	return s.do(method, target, formType, form.Encode(), headers...)
}

// get sends a GET.
func (s *server) get(target string, headers ...string) answer {
	s.t.Helper()
	return s.do("GET", target, "", "", headers...)
}

// event is the API's shape of an event.
type event struct {
	ID           int64   `json:"id"`
	Kind         string  `json:"kind"`
	Status       string  `json:"status"`
	Title        string  `json:"title"`
	Description  string  `json:"description"`
	StartAt      *string `json:"start_at"`
	EndAt        *string `json:"end_at"`
	AllDay       bool    `json:"all_day"`
	DueAt        *string `json:"due_at"`
	StartedAt    *string `json:"started_at"`
	EndedAt      *string `json:"ended_at"`
	Priority     int     `json:"priority"`
	ProjectTag   *string `json:"project_tag"`
	CompletedAt  *string `json:"completed_at"`
	CancelledAt  *string `json:"cancelled_at"`
	DeferUntil   *string `json:"defer_until"`
	Source       *string `json:"source"`
	SourceRef    *string `json:"source_ref"`
	ReactivateTo *string `json:"reactivate_to"`
	CreatedAt    string  `json:"created_at"`
	UpdatedAt    string  `json:"updated_at"`
}

type page struct {
	Items      []event `json:"items"`
	NextCursor *string `json:"next_cursor"`
}

type historyRow struct {
	ID           int64                     `json:"id"`
	EventID      int64                     `json:"event_id"`
	ChangeKind   string                    `json:"change_kind"`
	Actor        string                    `json:"actor"`
	StatusBefore *string                   `json:"status_before"`
	StatusAfter  string                    `json:"status_after"`
	Changes      map[string]map[string]any `json:"changes"`
	Undoes       *int64                    `json:"undoes"`
	OccurredAt   string                    `json:"occurred_at"`
}

type historyPage struct {
	Items      []historyRow `json:"items"`
	NextCursor *string      `json:"next_cursor"`
}

type problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Errors []struct {
		Field   string `json:"field"`
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"errors"`
	ExistingID *int64 `json:"existing_id"`
}

// codes lists the field and code of each error, "field:code".
func (p problem) codes() []string {
	out := make([]string, len(p.Errors))
	for i, e := range p.Errors {
		out[i] = e.Field + ":" + e.Code
	}
	return out
}

func (p problem) fields() []string {
	out := make([]string, len(p.Errors))
	for i, e := range p.Errors {
		out[i] = e.Field
	}
	return out
}

// decode reads a JSON answer into v. That the answer holds exactly the
// keys it should is checked for every answer against docs/openapi.json
// (checkAPI), so a field added to the table and the document needs no
// change here.
func decode(t *testing.T, a answer, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(a.Body))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: decoding the body into %T: %v", a, v, err)
	}
}

// want fails the test unless the answer has the status.
func (a answer) want(t *testing.T, status int) answer {
	t.Helper()
	if a.Status != status {
		t.Fatalf("%s: status = %d, want %d", a, a.Status, status)
	}
	return a
}

// wantJSON checks a JSON answer of the status and decodes it into v.
func (a answer) wantJSON(t *testing.T, status int, v any) {
	t.Helper()
	a.want(t, status)
	if ct := a.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s: Content-Type = %q, want application/json", a, ct)
	}
	if v != nil {
		decode(t, a, v)
	}
}

func (a answer) event(t *testing.T, status int) event {
	t.Helper()
	var e event
	a.wantJSON(t, status, &e)
	return e
}

func (a answer) page(t *testing.T) page {
	t.Helper()
	var p page
	a.wantJSON(t, http.StatusOK, &p)
	if p.Items == nil {
		t.Errorf("%s: items is null, want an array", a)
	}
	return p
}

var statusTitles = map[int]string{
	400: "Bad Request",
	404: "Not Found",
	405: "Method Not Allowed",
	409: "Conflict",
	413: "Content Too Large",
	415: "Unsupported Media Type",
	401: "Unauthorized",
	403: "Forbidden",
	422: "Unprocessable Content",
	429: "Too Many Requests",
	431: "Request Header Fields Too Large",
	500: "Internal Server Error",
	503: "Service Unavailable",
}

// problemTypeOfStatus are the problem types each status is sent with
// (handlers/problems.go; TestRefusalsNameTheirTypeAndCodes tells those of
// one status apart).
var problemTypeOfStatus = map[int][]string{
	400: {"/problems/malformed"},
	401: {"/problems/unauthenticated"},
	403: {"/problems/forbidden"},
	404: {"/problems/not-found"},
	405: {"/problems/method-not-allowed"},
	408: {"/problems/request-timeout"},
	409: {"/problems/illegal-transition", "/problems/duplicate-source", "/problems/overlap", "/problems/idempotency-in-flight"},
	412: {"/problems/stale-precondition"},
	413: {"/problems/too-large"},
	415: {"/problems/unsupported-media-type"},
	422: {"/problems/validation", "/problems/idempotency-mismatch"},
	429: {"/problems/rate-limited"},
	431: {"/problems/too-large"},
	500: {"/problems/internal"},
	503: {"/problems/overloaded", "/problems/unavailable"},
}

// problem checks an RFC 9457 answer of the status, naming exactly the fields
// given (in any order), and returns it.
func (a answer) problem(t *testing.T, status int, fields ...string) problem {
	t.Helper()
	a.want(t, status)
	if ct := a.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("%s: Content-Type = %q, want application/problem+json", a, ct)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(a.Body, &raw); err != nil {
		t.Fatalf("%s: not JSON: %v", a, err)
	}
	for _, k := range []string{"type", "title", "status", "detail", "errors"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("%s: problem has no %q", a, k)
		}
	}
	var p problem
	decode(t, a, &p)
	if want, ok := problemTypeOfStatus[status]; !slices.Contains(want, p.Type) || !ok {
		t.Errorf("%s: type = %q, want one of %q", a, p.Type, want)
	}
	if want := statusTitles[status]; p.Title != want {
		t.Errorf("%s: title = %q, want %q", a, p.Title, want)
	}
	if p.Status != status {
		t.Errorf("%s: status member = %d, want %d", a, p.Status, status)
	}
	if p.Detail == "" {
		t.Errorf("%s: detail is empty", a)
	}
	if p.Errors == nil {
		t.Errorf("%s: errors is null, want an array", a)
	}
	got := p.fields()
	slices.Sort(got)
	want := slices.Clone(fields)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: errors name fields %q, want %q", a, got, want)
	}
	for _, e := range p.Errors {
		if e.Message == "" {
			t.Errorf("%s: the error of %q has no message", a, e.Field)
		}
		if e.Code == "" {
			t.Errorf("%s: the error of %q has no code", a, e.Field)
		}
	}
	return p
}

// html checks an HTML fragment answer of the status and returns its body.
func (a answer) html(t *testing.T, status int) string {
	t.Helper()
	a.want(t, status)
	if ct := a.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("%s: Content-Type = %q, want text/html", a, ct)
	}
	if !varies(a) {
		t.Errorf("%s: Vary = %q, want it to name HX-Request", a, a.Header.Values("Vary"))
	}
	body := string(a.Body)
	if strings.Contains(body, "<html") || strings.Contains(body, "<body") {
		t.Errorf("%s: a fragment holds a whole page", a)
	}
	return body
}

func varies(a answer) bool {
	for _, v := range a.Header.Values("Vary") {
		for _, part := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(part), "HX-Request") {
				return true
			}
		}
	}
	return false
}

// create posts a JSON create and returns the event, failing on anything but 201.
func (s *server) create(body string) event {
	s.t.Helper()
	return s.json("POST", "/api/events", body).event(s.t, http.StatusCreated)
}

// op posts a lifecycle operation with a JSON body ("" for none) and returns the event.
func (s *server) op(id int64, op, body string) event {
	s.t.Helper()
	return s.json("POST", path(id, op), body).event(s.t, http.StatusOK)
}

// history returns the whole history of an event, oldest first.
func (s *server) history(id int64) []historyRow {
	s.t.Helper()
	var p historyPage
	s.get(path(id, "history")).wantJSON(s.t, http.StatusOK, &p)
	if p.NextCursor != nil {
		s.t.Fatalf("history of %d has a next page", id)
	}
	return p.Items
}

// counts returns the number of events and history rows stored.
func (s *server) counts() (events, rows int) {
	s.t.Helper()
	if err := s.db.QueryRow("SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM event_history)").Scan(&events, &rows); err != nil {
		s.t.Fatal(err)
	}
	return events, rows
}

// path is /api/events/{id}[/suffix].
func path(id int64, suffix ...string) string {
	p := "/api/events/" + strconv.FormatInt(id, 10)
	for _, s := range suffix {
		p += "/" + s
	}
	return p
}

// str shows an optional string: its value, or null.
func str(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

func ids(es []event) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func changeKinds(hs []historyRow) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.ChangeKind
	}
	return out
}

// walk follows next_cursor from target to the end and returns the ids of
// every page.
func (s *server) walk(target string) [][]int64 {
	s.t.Helper()
	var pages [][]int64
	next := target
	for range 100 {
		p := s.get(next).page(s.t)
		pages = append(pages, ids(p.Items))
		if p.NextCursor == nil {
			return pages
		}
		if *p.NextCursor == "" {
			s.t.Fatalf("GET %s: next_cursor is empty", next)
		}
		sep := "&"
		if !strings.Contains(target, "?") {
			sep = "?"
		}
		next = target + sep + "cursor=" + url.QueryEscape(*p.NextCursor)
	}
	s.t.Fatalf("GET %s: more than 100 pages", target)
	return nil
}
