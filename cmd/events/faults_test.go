// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"events/app"
	"events/internal/pgcluster"
)

// failFast bounds the time of one answer while the database is gone. A
// request that waited for the database would take the request timeout
// (10 s) or hang; half of it leaves a loaded machine room for its delays.
const failFast = 5 * time.Second

// ownCluster starts a PostgreSQL of the test's own (never the shared test
// cluster), so the test may stop and restart it, with a TCP proxy in front:
// the service's DATABASE_URL names the proxy, which reaches the cluster's
// socket of the moment (a restarted cluster has a new socket folder).
type ownCluster struct {
	t       *testing.T
	dataDir string
	mu      sync.Mutex
	cluster *pgcluster.Cluster
	socket  string // the cluster's socket; "" while it is stopped
	ln      net.Listener
}

func startOwnCluster(t *testing.T) *ownCluster {
	t.Helper()
	needPostgres(t)
	oc := &ownCluster{t: t, dataDir: filepath.Join(dataDir(t), "postgres")}
	oc.start()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	oc.ln = ln
	go oc.proxy()
	t.Cleanup(func() {
		ln.Close()
		oc.stop()
	})
	return oc
}

// URL is the DATABASE_URL of the service: the proxy.
func (oc *ownCluster) URL() string {
	return "postgres://events@" + oc.ln.Addr().String() + "/events?sslmode=disable"
}

// direct opens the cluster without the proxy, for the test's own checks.
func (oc *ownCluster) direct() string {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	return oc.cluster.URL()
}

func (oc *ownCluster) start() {
	oc.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := pgcluster.Start(ctx, pgcluster.Options{DataDir: oc.dataDir, Database: "events", Fast: true})
	if err != nil {
		oc.t.Fatal(err)
	}
	u, err := url.Parse(c.URL())
	if err != nil {
		oc.t.Fatal(err)
	}
	oc.mu.Lock()
	oc.cluster, oc.socket = c, u.Query().Get("host")
	oc.mu.Unlock()
}

// stop stops the cluster the way a restart does (pg_ctl stop -m fast: the
// sessions are ended, the transactions in flight roll back).
func (oc *ownCluster) stop() {
	oc.mu.Lock()
	c := oc.cluster
	oc.socket = ""
	oc.mu.Unlock()
	if c != nil {
		if err := c.Stop(); err != nil {
			oc.t.Error(err)
		}
	}
}

func (oc *ownCluster) proxy() {
	for {
		client, err := oc.ln.Accept()
		if err != nil {
			return
		}
		oc.mu.Lock()
		socket := oc.socket
		oc.mu.Unlock()
		go func() {
			defer client.Close()
			if socket == "" {
				return
			}
			server, err := net.DialTimeout("unix", socket, time.Second)
			if err != nil {
				return
			}
			defer server.Close()
			go func() { _, _ = io.Copy(server, client); server.Close() }()
			_, _ = io.Copy(client, server)
		}()
	}
}

// answer is one request a client made and what came back.
type answer struct {
	op     string // create, complete, defer, cancel, reactivate
	id     int64
	code   int // 0: no answer (the connection failed)
	status string
	took   time.Duration
	at     time.Time
}

var client = &http.Client{Timeout: 30 * time.Second}

// send posts one request and reads the event of the answer.
func send(base, target, body string) answer {
	began := time.Now()
	a := answer{at: began}
	req, _ := http.NewRequest("POST", base+target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := client.Do(req)
	a.took = time.Since(began)
	if err != nil {
		return a
	}
	defer res.Body.Close()
	a.code = res.StatusCode
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode < 300 {
		var e struct {
			ID     int64  `json:"id"`
			Status string `json:"status"`
		}
		if err := jsonUnmarshal(b, &e); err == nil {
			a.id, a.status = e.ID, e.Status
		}
	} else if ct := res.Header.Get("Content-Type"); ct != "application/problem+json" {
		a.status = "not problem details: " + ct
	}
	return a
}

// writers runs n clients that create tasks and move them through the
// lifecycle until stop is closed; base is read before each request. Each
// client works on its own events only, so the operations on one event are
// one after another. streaks, when not nil, holds for each client how many
// of its last answers in a row were not failures (not 5xx, not without an
// answer).
func writers(n int, base *atomic.Value, stop <-chan struct{}, streaks []atomic.Int32) [][]answer {
	out := make([][]answer, n)
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			var mine []int64
			for {
				select {
				case <-stop:
					return
				default:
				}
				b := base.Load().(string)
				var a answer
				if len(mine) == 0 || r.IntN(3) == 0 {
					a = send(b, "/api/events", fmt.Sprintf(`{"kind":"task","title":"writer %d"}`, w))
					a.op = "create"
					if a.code == http.StatusCreated {
						mine = append(mine, a.id)
					}
				} else {
					id := mine[r.IntN(len(mine))]
					op := []string{"complete", "defer", "cancel", "reactivate"}[r.IntN(4)]
					body := ""
					if op == "defer" {
						body = `{"defer_until":"2099-01-01T00:00:00Z"}`
					}
					a = send(b, fmt.Sprintf("/api/events/%d/%s", id, op), body)
					a.op, a.id = op, id
				}
				out[w] = append(out[w], a)
				failed := a.code == 0 || a.code >= 500
				if streaks != nil {
					if failed {
						streaks[w].Store(0)
					} else {
						streaks[w].Add(1)
					}
				}
				if failed {
					time.Sleep(20 * time.Millisecond) // no busy loop while the service is away
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// TestDatabaseGoneFailsFastAndRecovers: while clients write, the database
// stops. Every request then fails fast with 503 problem details, a page
// with a 503 HTML page, /readyz with 503; /healthz still answers. When the
// database starts again on the same data, the service recovers by itself.
func TestDatabaseGoneFailsFastAndRecovers(t *testing.T) {
	t.Parallel() // each has a PostgreSQL and ports of its own
	oc := startOwnCluster(t)
	s := start(t, "DATABASE_URL="+oc.URL(), "EVENTS_DATA_DIR="+filepath.Join(dataDir(t), "unused"))
	var base atomic.Value
	base.Store(s.base)
	stop := make(chan struct{})
	done := make(chan [][]answer)
	streaks := make([]atomic.Int32, 4)
	go func() { done <- writers(4, &base, stop, streaks) }()

	time.Sleep(500 * time.Millisecond)
	stoppedAt := time.Now()
	oc.stop()
	time.Sleep(500 * time.Millisecond)
	for _, target := range []string{"/readyz", "/api/events", "/api/events/today"} {
		began := time.Now()
		if code, body := get(t, s.base+target); code != http.StatusServiceUnavailable || time.Since(began) > failFast {
			t.Errorf("%s with the database stopped: %d after %s: %s", target, code, time.Since(began), body)
		}
	}
	if code, _ := get(t, s.base+"/healthz"); code != http.StatusOK {
		t.Errorf("/healthz with the database stopped: %d", code)
	}
	req, _ := http.NewRequest("GET", s.base+"/events", nil)
	req.Header.Set("Accept", "text/html")
	if res, err := client.Do(req); err != nil {
		t.Error(err)
	} else {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), "<!doctype html>") || !strings.Contains(string(b), "try again") {
			t.Errorf("the events page with the database stopped: %d\n%s", res.StatusCode, b)
		}
	}
	time.Sleep(500 * time.Millisecond)
	restartedAt := time.Now()
	oc.start()
	var recovered time.Duration
	for began := time.Now(); time.Since(began) < 30*time.Second; time.Sleep(50 * time.Millisecond) {
		if code, _ := get(t, s.base+"/readyz"); code == http.StatusOK {
			recovered = time.Since(restartedAt)
			break
		}
	}
	if recovered == 0 {
		t.Fatalf("/readyz did not answer 200 within 30 s of the database's return:\n%s", s.Logs())
	}
	// The writers go on until each has had five answers in a row that are
	// not failures (the check below), or for 30 s: on a busy machine a
	// second after /readyz is not always five answers.
	for began := time.Now(); time.Since(began) < 30*time.Second; time.Sleep(50 * time.Millisecond) {
		recoveredAll := true
		for i := range streaks {
			recoveredAll = recoveredAll && streaks[i].Load() >= 5
		}
		if recoveredAll {
			break
		}
	}
	close(stop)
	answers := <-done

	var created, unavailable, slowest, other int
	var slowestTook time.Duration
	var firstCreateAfter time.Duration = -1
	for _, as := range answers {
		for _, a := range as {
			switch {
			case a.code == http.StatusServiceUnavailable:
				unavailable++
				if a.took > slowestTook {
					slowestTook = a.took
				}
				if a.took > failFast {
					slowest++
				}
				if a.status != "" {
					t.Errorf("a 503 answered %s", a.status)
				}
			case a.code == http.StatusCreated:
				created++
				if a.at.After(restartedAt) && (firstCreateAfter < 0 || a.at.Add(a.took).Sub(restartedAt) < firstCreateAfter) {
					firstCreateAfter = a.at.Add(a.took).Sub(restartedAt)
				}
			case a.code == http.StatusOK || a.code == http.StatusConflict || a.code == http.StatusUnprocessableEntity:
			default:
				other++
				t.Errorf("%s of %d answered %d (%s)", a.op, a.id, a.code, a.status)
			}
		}
	}
	if unavailable == 0 || slowest > 0 {
		t.Errorf("%d answers 503, %d of them slower than %s (slowest %s)", unavailable, slowest, failFast, slowestTook)
	}
	if firstCreateAfter < 0 {
		t.Errorf("no create answered 201 after the database returned")
	}
	// The last answers of each client are successes again.
	for w, as := range answers {
		for _, a := range as[max(0, len(as)-5):] {
			if a.code >= 500 || a.code == 0 {
				t.Errorf("client %d, one of its last answers: %s %d", w, a.op, a.code)
			}
		}
	}
	t.Logf("database down %s: %d answers 503, the slowest in %s; /readyz 200 again %s after the restart, the first 201 after %s; %d creates in all",
		restartedAt.Sub(stoppedAt).Round(time.Millisecond), unavailable, slowestTook.Round(time.Millisecond),
		recovered.Round(time.Millisecond), firstCreateAfter.Round(time.Millisecond), created)
	if logs := s.Logs(); !strings.Contains(logs, `status=503`) {
		t.Errorf("no 503 in the request log")
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// TestNoAcknowledgedWriteIsLost: clients create events and move them
// through the lifecycle while the database restarts once and the service
// receives SIGTERM once and starts again. Afterwards every create answered
// 201 and every operation answered 200 is in the database with its history
// row, and each event's history is one unbroken chain that ends in the
// event's status: no change without its row, no row without its change.
func TestNoAcknowledgedWriteIsLost(t *testing.T) {
	t.Parallel() // each has a PostgreSQL and ports of its own
	oc := startOwnCluster(t)
	env := []string{"DATABASE_URL=" + oc.URL(), "EVENTS_DATA_DIR=" + filepath.Join(dataDir(t), "unused")}
	s := start(t, env...)
	var base atomic.Value
	base.Store(s.base)
	stop := make(chan struct{})
	done := make(chan [][]answer)
	go func() { done <- writers(4, &base, stop, nil) }()

	time.Sleep(700 * time.Millisecond)
	oc.stop() // the database restarts
	time.Sleep(200 * time.Millisecond)
	oc.start()
	time.Sleep(700 * time.Millisecond)
	if err := s.stop(t, syscall.SIGTERM); err != nil { // the service restarts
		t.Errorf("exit after SIGTERM: %v", err)
	}
	s2 := start(t, env...)
	base.Store(s2.base)
	time.Sleep(700 * time.Millisecond)
	close(stop)
	answers := <-done

	db, err := app.OpenDB(oc.direct(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	type row struct {
		kind, after string
		before      *string
	}
	history := map[int64][]row{}
	rows, err := db.Query("SELECT event_id, change_kind, status_before, status_after FROM event_history ORDER BY event_id, id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var r row
		if err := rows.Scan(&id, &r.kind, &r.before, &r.after); err != nil {
			t.Fatal(err)
		}
		history[id] = append(history[id], r)
	}
	rows.Close()
	status := map[int64]string{}
	rows, err = db.Query("SELECT id, status FROM events")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var st string
		if err := rows.Scan(&id, &st); err != nil {
			t.Fatal(err)
		}
		status[id] = st
	}
	rows.Close()

	// Every event's history is a chain from its create to its status.
	for id, st := range status {
		h := history[id]
		if len(h) == 0 || h[0].kind != "create" || h[0].before != nil {
			t.Errorf("event %d: history %+v does not start with its create", id, h)
			continue
		}
		for i := 1; i < len(h); i++ {
			if h[i].before == nil || *h[i].before != h[i-1].after {
				t.Errorf("event %d: history row %d starts from %v, the row before ended in %s", id, i, h[i].before, h[i-1].after)
			}
		}
		if last := h[len(h)-1].after; last != st {
			t.Errorf("event %d: status %s, its last history row says %s", id, st, last)
		}
	}
	for id := range history {
		if _, ok := status[id]; !ok {
			t.Errorf("history rows of event %d, which does not exist", id)
		}
	}

	// Every acknowledged write is there, in order; unanswered ones may be.
	var acked, ackedOps, unanswered, refused, ambiguousCreates int
	for _, as := range answers {
		steps := map[int64][]answer{} // the operations answered 200 or not answered, in order
		for _, a := range as {
			switch {
			case a.op == "create" && a.code == http.StatusCreated:
				acked++
				if _, ok := status[a.id]; !ok {
					t.Errorf("event %d was answered 201 and is not stored", a.id)
				}
			case a.op == "create" && (a.code == 0 || a.code >= 500):
				ambiguousCreates++
				unanswered++
			case a.code == http.StatusOK:
				ackedOps++
				steps[a.id] = append(steps[a.id], a)
			case a.code == 0 || a.code >= 500:
				unanswered++
				steps[a.id] = append(steps[a.id], a)
			default:
				refused++
			}
		}
		for id, ss := range steps {
			var ops []row // the rows after the create
			if h := history[id]; len(h) > 0 {
				ops = h[1:]
			}
			// The rows are the acknowledged steps, in order, with at most
			// the unanswered ones between them.
			j := 0
			for _, a := range ss {
				if a.code != http.StatusOK {
					continue
				}
				for j < len(ops) && !(ops[j].kind == a.op && ops[j].after == a.status) {
					j++
				}
				if j == len(ops) {
					t.Errorf("event %d: %s answered 200 (%s) has no history row; rows %+v", id, a.op, a.status, ops)
					break
				}
				j++
			}
			if len(ops) > len(ss) {
				t.Errorf("event %d: %d history rows of operations for %d operations that were not refused", id, len(ops), len(ss))
			}
		}
	}
	if extra := len(status) - acked; extra < 0 || extra > ambiguousCreates {
		t.Errorf("%d events stored, %d creates answered 201 and %d unanswered", len(status), acked, ambiguousCreates)
	}
	if acked < 20 || ackedOps < 20 || unanswered == 0 {
		t.Errorf("too little happened to prove anything: %d creates, %d operations acknowledged, %d unanswered", acked, ackedOps, unanswered)
	}
	t.Logf("%d creates and %d operations acknowledged, all stored with their history; %d refused (409/422); %d unanswered or 503 (%d of them creates, %d of those stored); %d events, %d history rows",
		acked, ackedOps, refused, unanswered, ambiguousCreates, len(status)-acked, len(status), countRows(history))
}

func countRows[T any](m map[int64][]T) int {
	n := 0
	for _, v := range m {
		n += len(v)
	}
	return n
}

// trickle opens a connection and sends the head of a create and the first
// byte of its body; the rest is sent by finish. It is a request in flight.
type trickle struct {
	conn net.Conn
	body string
}

func startTrickle(t *testing.T, base string) *trickle {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	tr := &trickle{conn: conn, body: `{"kind":"task","title":"in flight at SIGTERM"}`}
	fmt.Fprintf(conn, "POST /api/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(tr.body), tr.body[:1])
	return tr
}

// finish sends the rest of the body and reads the answer.
func (tr *trickle) finish(t *testing.T) (int, string) {
	t.Helper()
	if _, err := io.WriteString(tr.conn, tr.body[1:]); err != nil {
		t.Fatalf("finishing the request in flight: %v", err)
	}
	_ = tr.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(tr.conn), nil)
	if err != nil {
		t.Fatalf("the request in flight got no answer: %v", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Location") + " " + string(b)
}

// waitLog waits until the server's log holds want.
func (s *server) waitLog(t *testing.T, want string) {
	t.Helper()
	for began := time.Now(); time.Since(began) < 10*time.Second; time.Sleep(20 * time.Millisecond) {
		if strings.Contains(s.Logs(), want) {
			return
		}
	}
	t.Fatalf("the log does not say %q:\n%s", want, s.Logs())
}

// TestSIGTERMDrains, with the embedded database: a request in flight when
// SIGTERM arrives (its body not all sent) is finished and answered 201,
// while new connections are refused; then the database is stopped cleanly
// and the process exits 0. A request that never finishes is cut off at
// EVENTS_SHUTDOWN_TIMEOUT; a second SIGTERM ends the process at once.
func TestSIGTERMDrains(t *testing.T) {
	t.Parallel() // each has a PostgreSQL and ports of its own
	needPostgres(t)
	data := dataDir(t)
	pgData := filepath.Join(data, "postgres")
	s := start(t, "EVENTS_DATA_DIR="+data)

	tr := startTrickle(t, s.base)
	time.Sleep(200 * time.Millisecond) // the server is reading it
	s.cmd.Process.Signal(syscall.SIGTERM)
	s.waitLog(t, "shutting down")
	if conn, err := net.DialTimeout("tcp", strings.TrimPrefix(s.base, "http://"), time.Second); err == nil {
		conn.Close()
		t.Errorf("a new connection was accepted while draining")
	} else if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("a new connection while draining: %v, want it refused", err)
	}
	code, answer := tr.finish(t)
	if code != http.StatusCreated {
		t.Fatalf("the request in flight at SIGTERM: %d %s", code, answer)
	}
	location := strings.Fields(answer)[0]
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("exit after draining: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not exit after draining:\n%s", s.Logs())
	}
	if logs := s.Logs(); !strings.Contains(logs, "embedded database stopped") || strings.Contains(logs, "deadline passed") {
		t.Errorf("want a drain without the deadline and a clean database stop:\n%s", logs)
	}
	if _, err := os.Stat(filepath.Join(pgData, "postmaster.pid")); !os.IsNotExist(err) {
		t.Errorf("postmaster.pid is still there after the stop: %v", err)
	}
	if pglog, err := os.ReadFile(pgData + ".log"); err != nil || !strings.Contains(string(pglog), "database system is shut down") {
		t.Errorf("the PostgreSQL log does not say it shut down (%v)", err)
	}

	// The deadline: a request that never finishes is cut off.
	s = start(t, "EVENTS_DATA_DIR="+data, "EVENTS_SHUTDOWN_TIMEOUT=1s")
	if code, body := get(t, s.base+location); code != http.StatusOK {
		t.Errorf("the event created while draining, after a restart: %d %s", code, body)
	}
	startTrickle(t, s.base)
	time.Sleep(200 * time.Millisecond)
	began := time.Now()
	if err := s.stop(t, syscall.SIGTERM); err != nil {
		t.Errorf("exit after the shutdown deadline: %v", err)
	}
	// 1 s of deadline, then the database stops; the read timeout (30 s)
	// would end the request otherwise.
	if took := time.Since(began); took > 10*time.Second {
		t.Errorf("the exit took %s with a 1 s shutdown deadline", took)
	}
	if logs := s.Logs(); !strings.Contains(logs, "shutdown deadline passed") || !strings.Contains(logs, "embedded database stopped") {
		t.Errorf("want the deadline and a clean database stop in the log:\n%s", logs)
	}

	// A second SIGTERM ends the process at once, the drain unfinished.
	s = start(t, "EVENTS_DATA_DIR="+data)
	startTrickle(t, s.base)
	time.Sleep(200 * time.Millisecond)
	s.cmd.Process.Signal(syscall.SIGTERM)
	s.waitLog(t, "shutting down")
	began = time.Now()
	err := s.stop(t, syscall.SIGTERM)
	if took := time.Since(began); took > failFast || err == nil || !strings.Contains(err.Error(), "terminated") {
		t.Errorf("a second SIGTERM: %v after %s; want the process ended by the signal at once (the drain would wait 15 s)", err, took)
	}
	// Its database was left running; the next start takes it over.
	s = start(t, "EVENTS_DATA_DIR="+data)
	if code, _ := get(t, s.base+location); code != http.StatusOK {
		t.Errorf("after a forced exit and a new start: %d", code)
	}
	if err := s.stop(t, syscall.SIGTERM); err != nil {
		t.Errorf("exit: %v", err)
	}
}
