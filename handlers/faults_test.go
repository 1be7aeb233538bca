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
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
)

// logLines parses the JSON log lines written so far.
func logLines(t *testing.T, b *dbtest.LogBuffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(b.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("a log line is not JSON: %v\n%s", err, sc.Text())
		}
		out = append(out, m)
	}
	return out
}

// loggedApp is the real app over a fresh database, logging JSON into the
// returned buffer, served on a loopback port; extra adds test-only routes.
func loggedApp(t *testing.T, opts handlers.Options, extra func(*fiber.App)) (base string, logs *dbtest.LogBuffer) {
	t.Helper()
	logs = &dbtest.LogBuffer{}
	opts.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	if opts.RequestTimeout == 0 {
		opts.RequestTimeout = requestTimeout
	}
	f, err := handlers.New(app.NewService(dbtest.New(t), seoul, func() time.Time { return t0 }), opts)
	if err != nil {
		t.Fatal(err)
	}
	if extra != nil {
		extra(f)
	}
	return serve(t, f), logs
}

// serve serves f on a loopback port until the test ends.
func serve(t *testing.T, f *fiber.App) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = f.Listener(ln) }()
	t.Cleanup(func() { _ = f.ShutdownWithTimeout(2 * time.Second) })
	return "http://" + ln.Addr().String()
}

// call sends one request over the network and reads the answer.
func call(t *testing.T, method, url, ctype, body string, headers ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{method: method, target: req.URL.Path, Status: res.StatusCode, Header: res.Header, Body: b}
}

// TestLogsHoldNoSecrets: one structured line per request with its id,
// method, path, status, duration and client; never a body, a token, a
// cookie, a password or a query value, whatever the answer.
func TestLogsHoldNoSecrets(t *testing.T) {
	t.Parallel()
	base, logs := loggedApp(t, handlers.Options{}, nil)
	secret := []string{"Authorization", "Bearer secret-token-xyz", "Cookie", "session=secret-cookie-xyz"}
	sent := []answer{
		call(t, "POST", base+"/api/events", jsonType, `{"kind":"task","title":"secret-body-title-xyz","description":"secret-body-desc-xyz"}`, secret...),
		call(t, "POST", base+"/api/events", jsonType, `{"kind":"task","title":"x","secret-body-key-xyz":"secret-body-value-xyz"}`, secret...),
		call(t, "POST", base+"/api/events", formType, "kind=task&title=x&password=secret-password-xyz", secret...),
		call(t, "POST", base+"/api/events", jsonType, `{"kind":"secret-body-kind-xyz","title":"x"}`, secret...),
		call(t, "POST", base+"/api/events", jsonType, `{"kind":"task","title": secret-body-syntax-xyz}`, secret...),
		call(t, "POST", base+"/api/events", "text/plain", `secret-body-text-xyz`, secret...),
		call(t, "GET", base+"/api/events?tz=secret-query-zone-xyz", "", "", secret...),
		call(t, "GET", base+"/api/events?secret-query-key-xyz=1&token=secret-query-token-xyz", "", "", secret...),
		call(t, "GET", base+"/events?tab=secret-query-tab-xyz", "", "", secret...),
		call(t, "GET", base+"/api/events/999999", "", "", secret...),
	}
	// A request that does not parse as HTTP: fasthttp's error quotes the
	// request it read.
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	_, _ = io.WriteString(conn, "GET /api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret-token-raw-xyz\r\nCookie: session=secret-cookie-raw-xyz\r\nContent-Length: secret-length-xyz\r\n\r\n")
	raw, _ := io.ReadAll(conn)
	conn.Close()
	if !bytes.HasPrefix(raw, []byte("HTTP/1.1 400")) || bytes.Contains(raw, []byte("secret-")) {
		t.Errorf("a request that does not parse: got %q, want a 400 that quotes nothing of it", raw)
	}

	out := logs.String()
	if !strings.Contains(out, `"msg":"request refused"`) || strings.Count(out, `"status":400`) < 5 {
		t.Errorf("the refusals are not logged:\n%s", out)
	}
	for _, s := range []string{"secret-", "Bearer", "session="} {
		if strings.Contains(out, s) {
			t.Errorf("the log holds %q:\n%s", s, out)
		}
	}
	// One request line per answer, with its fields.
	byID := map[string]map[string]any{}
	for _, l := range logLines(t, logs) {
		if l["msg"] == "request" {
			byID[l["id"].(string)] = l
		}
	}
	for _, a := range sent {
		id := a.Header.Get("X-Request-Id")
		l, ok := byID[id]
		if !ok {
			t.Errorf("%s: no request line with id %q", a, id)
			continue
		}
		if l["method"] != a.method || l["path"] != a.target || l["status"] != float64(a.Status) || l["client"] != "127.0.0.1" {
			t.Errorf("%s: request line %v", a, l)
		}
		if d, ok := l["duration_ms"].(float64); !ok || d < 0 {
			t.Errorf("%s: duration_ms = %v", a, l["duration_ms"])
		}
	}
	if len(byID) != len(sent) {
		t.Errorf("%d request lines for %d requests:\n%s", len(byID), len(sent), out)
	}
}

// TestPanicAnswers500AndServingGoesOn: a handler that panics (a route of
// this test only, on the real app) answers 500 problem details that say
// nothing internal; the panic is logged as an error with the request id and
// the stack; the server goes on serving, the database too.
func TestPanicAnswers500AndServingGoesOn(t *testing.T) {
	t.Parallel()
	base, logs := loggedApp(t, handlers.Options{}, func(f *fiber.App) {
		f.Get("/test-only/panic", func(c *fiber.Ctx) error { panic("boom-internal-detail") })
	})
	for range 3 {
		a := call(t, "GET", base+"/test-only/panic", "", "")
		p := a.problem(t, http.StatusInternalServerError)
		if strings.Contains(string(a.Body), "boom") || strings.Contains(p.Detail, "goroutine") {
			t.Errorf("the 500 leaks the panic: %s", a.Body)
		}
		checkSecurityHeaders(t, a)
		id := a.Header.Get("X-Request-Id")
		var logged bool
		for _, l := range logLines(t, logs) {
			if l["msg"] == "panic" && l["id"] == id {
				logged = true
				if l["level"] != "ERROR" || l["panic"] != "boom-internal-detail" || !strings.Contains(l["stack"].(string), "faults_test.go") {
					t.Errorf("panic line: %v", l)
				}
			}
		}
		if !logged {
			t.Errorf("no panic line with the request id %q:\n%s", id, logs)
		}
		call(t, "GET", base+"/healthz", "", "").want(t, http.StatusOK)
		call(t, "POST", base+"/api/events", jsonType, `{"kind":"task","title":"after a panic"}`).want(t, http.StatusCreated)
	}
}

// TestSlowBodyIsCutOffAndOthersAreServed: a client that trickles its body
// is cut off by the read timeout (1 s here, 30 s in the service) with 408,
// while other clients are served; nothing of the slow request is written.
// The bound of 30 s proves the cut: the trickle would last 100 s. Not
// parallel: it times a timer, which a machine busy with the parallel tests
// under the race detector delays by seconds.
func TestSlowBodyIsCutOffAndOthersAreServed(t *testing.T) {
	db := dbtest.New(t)
	f, err := handlers.New(app.NewService(db, seoul, func() time.Time { return t0 }),
		handlers.Options{Logger: quiet, ReadTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	base := serve(t, f)
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	began := time.Now()
	_, _ = io.WriteString(conn, "POST /api/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
	go func() { // one byte every 100 ms: 100 s for the whole body
		for range 999 {
			time.Sleep(100 * time.Millisecond)
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	for range 5 {
		call(t, "POST", base+"/api/events", jsonType, `{"kind":"task","title":"meanwhile"}`).want(t, http.StatusCreated)
		time.Sleep(100 * time.Millisecond)
	}
	_ = conn.SetReadDeadline(time.Now().Add(40 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	took := time.Since(began)
	if err != nil {
		t.Fatalf("the slow client got no answer: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestTimeout || took > 30*time.Second {
		t.Errorf("the slow client: %d after %s, want 408 within 30 s (the trickle lasts 100 s)", res.StatusCode, took)
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM events").Scan(&n); err != nil || n != 5 {
		t.Errorf("events stored = %d (%v), want the 5 of the other client", n, err)
	}
	call(t, "GET", base+"/readyz", "", "").want(t, http.StatusOK)
}

// TestStatementTimeoutEndsALockWait503: a statement that waits on a row lock
// another connection holds ends at the statement timeout (500 ms here, the
// request timeout in the service) with 503 problem details, well before the
// request's own deadline (60 s; the bound is half of it); nothing is written, and once the lock is
// gone the same request succeeds. The service answers 503 (not 504): it is
// the origin, and the database did not answer in time.
func TestStatementTimeoutEndsALockWait503(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewURL(t)
	db, err := app.OpenDB(dsn, 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := &server{t: t, db: db, clock: dbtest.NewClock(t0)}
	s.svc = app.NewService(db, seoul, s.clock.Now)
	f, err := handlers.New(s.svc, handlers.Options{Logger: quiet, RequestTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	s.f = f
	e := s.create(`{"kind":"task","title":"locked"}`)
	_, hist := s.counts()

	_, tx := holdTx(t, dsn)
	if _, err := tx.Exec("SELECT 1 FROM events WHERE id = ? FOR UPDATE", e.ID); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	s.json("POST", path(e.ID, "complete"), "").problem(t, http.StatusServiceUnavailable)
	if took := time.Since(began); took > 30*time.Second {
		t.Errorf("the blocked request took %s, want the statement timeout (500 ms), not the deadline (60 s)", took)
	}
	_ = tx.Rollback()
	if _, h2 := s.counts(); h2 != hist {
		t.Errorf("history rows after the 503: %d, want %d", h2, hist)
	}
	if got := s.op(e.ID, "complete", ""); got.Status != "done" {
		t.Errorf("after the lock: status %s", got.Status)
	}
}

// deadlineServer is the app over a fresh database whose sessions have the
// given statement timeout, with the given request deadline.
func deadlineServer(t *testing.T, statementTimeout, requestTimeout time.Duration) (*server, string) {
	t.Helper()
	dsn := dbtest.NewURL(t)
	db, err := app.OpenDB(dsn, statementTimeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := &server{t: t, db: db, clock: dbtest.NewClock(t0)}
	s.svc = app.NewService(db, seoul, s.clock.Now)
	f, err := handlers.New(s.svc, handlers.Options{Logger: quiet, RequestTimeout: requestTimeout})
	if err != nil {
		t.Fatal(err)
	}
	s.f = f
	return s, dsn
}

// TestLongDeadlineOutlastsALockWait: with EVENTS_REQUEST_TIMEOUT=30s (and
// the statement timeout the service derives from it), a create that waits
// 12 s on the unique index for another transaction's insert of the same
// (source, source_ref) gets its 201 when that transaction rolls back. A
// driver socket timeout of 5 s used to cut it at 5 s with a 503.
func TestLongDeadlineOutlastsALockWait(t *testing.T) {
	t.Parallel()
	s, dsn := deadlineServer(t, 30*time.Second, 30*time.Second)
	_, tx := holdTx(t, dsn)
	if _, err := tx.Exec(`INSERT INTO events (kind, status, title, source, source_ref) VALUES ('task', 'planned', 'held', 'email', 'lock-12s')`); err != nil {
		t.Fatal(err)
	}
	const hold = 12 * time.Second
	released := make(chan struct{})
	go func() {
		time.Sleep(hold)
		_ = tx.Rollback()
		close(released)
	}()
	began := time.Now()
	e := s.json("POST", "/api/events", `{"kind":"task","title":"waits","source":"email","source_ref":"lock-12s"}`).event(t, http.StatusCreated)
	took := time.Since(began)
	<-released
	if took < hold-time.Second {
		t.Errorf("the create took %s; it should have waited for the lock (%s)", took, hold)
	}
	if e.Title != "waits" {
		t.Errorf("stored %+v", e)
	}
	t.Logf("the create waited %s on the lock and was answered 201", took.Round(time.Millisecond))
}

// TestPassedDeadlineLeavesNoBackend: a request whose deadline (1 s) passes
// during a lock wait is answered 503, and PostgreSQL has ended its
// statement by then: no backend of the service still waits on the lock,
// though the sessions' own statement timeout (60 s) is far away. The
// driver sends no cancel request; before, the backend waited on. The
// bounds are half the statement timeout, so a busy machine's delays
// cannot pass for a backend left waiting.
func TestPassedDeadlineLeavesNoBackend(t *testing.T) {
	t.Parallel()
	s, dsn := deadlineServer(t, time.Minute, time.Second)
	e := s.create(`{"kind":"task","title":"locked"}`)
	holder, tx := holdTx(t, dsn)
	var holderPID int
	if err := tx.QueryRow("SELECT pg_backend_pid() FROM events WHERE id = ? FOR UPDATE", e.ID).Scan(&holderPID); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	for range 3 {
		s.json("POST", path(e.ID, "complete"), "").problem(t, http.StatusServiceUnavailable)
	}
	if took := time.Since(began); took > 30*time.Second {
		t.Errorf("three requests with a 1 s deadline took %s", took)
	}
	// PostgreSQL ends them just before the deadline; a loaded machine may
	// take a moment to schedule them. Before, they waited 60 s.
	var waiting int
	for began := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if err := holder.QueryRow(`SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> ? AND wait_event_type = 'Lock'`, holderPID).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting == 0 || time.Since(began) > 30*time.Second {
			break
		}
	}
	if waiting != 0 {
		t.Errorf("%d backends still wait on the lock after their requests' deadlines passed", waiting)
	}
	_ = tx.Rollback()
	if got := s.op(e.ID, "complete", ""); got.Status != "done" {
		t.Errorf("after the lock: status %s", got.Status)
	}
}

// TestServerTroubleIs503: PostgreSQL's errors of class 53 (insufficient
// resources) and 58 (system error) are the server's trouble, answered 503
// with Retry-After, not a bug's 500; a full disk (53100) says so. Reads go
// on meanwhile. A trigger raises each error for real through the stack.
func TestServerTroubleIs503(t *testing.T) {
	s := newServer(t) // parallel, as every newServer test
	kept := s.create(`{"kind":"task","title":"kept"}`)
	for _, c := range []struct {
		code, retry string
		diskFull    bool
	}{
		{"53100", "30", true}, // disk_full
		{"53200", "5", false}, // out_of_memory
		{"53300", "5", false}, // too_many_connections
		{"58030", "5", false}, // io_error
		{"58P01", "5", false}, // undefined_file
	} {
		if _, err := s.db.Exec(`CREATE OR REPLACE FUNCTION fail_insert() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN RAISE EXCEPTION 'raised by the test' USING ERRCODE = '` + c.code + `'; END $$;
			CREATE OR REPLACE TRIGGER fail_insert BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION fail_insert()`); err != nil {
			t.Fatal(err)
		}
		a := s.json("POST", "/api/events", `{"kind":"task","title":"refused"}`)
		p := a.problem(t, http.StatusServiceUnavailable)
		if got := a.Header.Get("Retry-After"); got != c.retry {
			t.Errorf("%s: Retry-After %q, want %q", c.code, got, c.retry)
		}
		if says := strings.Contains(p.Detail, "disk is full"); says != c.diskFull {
			t.Errorf("%s: detail %q", c.code, p.Detail)
		}
		if strings.Contains(p.Detail, "raised by the test") {
			t.Errorf("%s: the detail leaks the server's message: %q", c.code, p.Detail)
		}
		if got := s.get(path(kept.ID)).event(t, http.StatusOK); got.Title != "kept" {
			t.Errorf("%s: the read answered %+v", c.code, got)
		}
		s.get("/api/events").want(t, http.StatusOK)
	}
}

// TestDatabaseFaultNamesTheFullDisk: while the embedded database is down
// because its disk is full (the cluster's Fault), the 503 of a request that
// found it away says the disk is full.
func TestDatabaseFaultNamesTheFullDisk(t *testing.T) {
	t.Parallel()
	db, err := app.OpenDB("postgres://x@127.0.0.1:1/x?sslmode=disable", 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var diskFull atomic.Bool
	diskFull.Store(true)
	f, err := handlers.New(app.NewService(db, seoul, func() time.Time { return t0 }), handlers.Options{
		Logger: quiet, DatabaseFault: func() error {
			if diskFull.Load() {
				return app.ErrDiskFull
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/api/events", "/readyz"} {
		a := send(t, f, "GET", target, "", "")
		if p := a.typed(t, http.StatusServiceUnavailable, "unavailable"); !strings.Contains(p.Detail, "disk is full") || a.Header.Get("Retry-After") != "30" {
			t.Errorf("%s with the disk full: %s, Retry-After %q", target, p.Detail, a.Header.Get("Retry-After"))
		}
	}
	diskFull.Store(false)
	a := send(t, f, "POST", "/api/events", jsonType, `{"kind":"task","title":"x"}`)
	if p := a.problem(t, http.StatusServiceUnavailable); strings.Contains(p.Detail, "disk") || a.Header.Get("Retry-After") != "5" {
		t.Errorf("down for another reason: %s, Retry-After %q", p.Detail, a.Header.Get("Retry-After"))
	}
}
