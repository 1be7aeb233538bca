// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
)

// exportServer serves the real app on a loopback port, through the
// listener events serve uses, over a fresh database whose sessions have
// the request timeout as their statement timeout (as in the service). It
// returns the address, the service's own pool, the database's URL (for a
// second connection of the test) and the JSON log. The listener's
// sockets have a fixed send buffer of 64 KiB, like the client's receive
// buffer (exportClient), so that what the kernel holds between them is a
// few hundred KB whatever the machine's settings.
func exportServer(t *testing.T, opts handlers.Options) (base string, db *bun.DB, dsn string, logs *dbtest.LogBuffer) {
	t.Helper()
	dsn = dbtest.NewURL(t)
	db, err := app.OpenDB(dsn, opts.RequestTimeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	logs = &dbtest.LogBuffer{}
	opts.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	f, err := handlers.New(app.NewService(db, seoul, func() time.Time { return t0 }), opts)
	if err != nil {
		t.Fatal(err)
	}
	lc := net.ListenConfig{Control: fixedBuffer(syscall.SO_SNDBUF)}
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = f.Listener(handlers.Listener(ln)) }()
	t.Cleanup(func() { _ = f.ShutdownWithTimeout(2 * time.Second) })
	return "http://" + ln.Addr().String(), db, dsn, logs
}

// fatEvents stores 1,000 events with descriptions of about 1,200
// characters, then 5 small ones: an export's first batch is some 1.2 MB,
// several times what the kernel's buffers between the server and a client
// hold (64 KiB each way, doubled by the kernel, while nothing is read), so
// the server is still writing it while the client has read only the head;
// the small ones are the second batch. Small enough that a machine busy
// with other test runs reads it in a few seconds.
func fatEvents(t *testing.T, dsn string) {
	t.Helper()
	db, err := app.OpenDB(dsn, 0) // not the service's pool, whose statements end at its deadline
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), `
INSERT INTO events (kind, status, title, description)
SELECT 'task', 'planned', 'fat ' || i, CASE WHEN i <= 1000 THEN repeat('lorem ipsum ', 100) ELSE '' END
FROM generate_series(1, 1005) i`); err != nil {
		t.Fatal(err)
	}
}

// exportClient has a connection of its own per request, so that an answer
// left unread holds its connection and the next request opens another.
// Its connections have a fixed receive buffer of 64 KiB, so that what the
// kernel holds between the server and a client that reads nothing stays
// well under a batch (Linux grows a buffer left to itself, up to
// tcp_rmem's maximum: 32 MB on some machines).
var exportClient = &http.Client{Transport: &http.Transport{
	DisableKeepAlives: true,
	DialContext:       (&net.Dialer{Control: fixedBuffer(syscall.SO_RCVBUF)}).DialContext,
}}

// fixedBuffer sets a socket's buffer (SO_RCVBUF or SO_SNDBUF) to 64 KiB.
func fixedBuffer(which int) func(_, _ string, c syscall.RawConn) error {
	return func(_, _ string, c syscall.RawConn) error {
		var err error
		if cerr := c.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, which, 64<<10)
		}); cerr != nil {
			return cerr
		}
		return err
	}
}

// getExport sends GET target and returns once the head has arrived.
func getExport(t *testing.T, target string) *http.Response {
	t.Helper()
	res, err := exportClient.Get(target)
	if err != nil {
		t.Fatalf("GET %s: %v", target, err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// countLogged counts the lines of the log with the message msg and the
// reason why.
func countLogged(t *testing.T, logs *dbtest.LogBuffer, msg, why string) int {
	t.Helper()
	n := 0
	for _, l := range logLines(t, logs) {
		if l["msg"] == msg && l["why"] == why {
			n++
		}
	}
	return n
}

// ran returns how long the export had run, by the service's own clock,
// at the first line of the log with the message msg and, when why is
// given, that reason; false when no line has.
func ran(t *testing.T, logs *dbtest.LogBuffer, msg, why string) (time.Duration, bool) {
	t.Helper()
	for _, l := range logLines(t, logs) {
		if l["msg"] == msg && (why == "" || l["why"] == why) {
			ns, ok := l["ran"].(float64)
			if !ok {
				t.Fatalf("the line %q has no ran: %v", msg, l)
			}
			return time.Duration(ns), true
		}
	}
	return 0, false
}

// logged returns the time of the first line of the log with the message
// msg and, when why is given, that reason; the zero time when none has.
func logged(t *testing.T, logs *dbtest.LogBuffer, msg, why string) time.Time {
	t.Helper()
	for _, l := range logLines(t, logs) {
		if l["msg"] == msg && (why == "" || l["why"] == why) {
			at, err := time.Parse(time.RFC3339Nano, l["time"].(string))
			if err != nil {
				t.Fatal(err)
			}
			return at
		}
	}
	return time.Time{}
}

// TestExportFailingMidwayIsAborted: when a batch after the first cannot be
// read, the answer is aborted: the connection closes without the chunk
// that ends a chunked answer, so an HTTP client reading the body gets an
// error (Go's net/http: unexpected EOF), not a file that looks whole. The
// rows sent before are whole. The batch fails for real: another
// connection takes an exclusive lock on the table once the head has
// arrived, and the batch waits on it until its deadline, the request
// timeout or the export's whole deadline, whichever comes first. The
// times are the service's own (the export's running time in its log) and
// the bounds are its settings: at or after the nearer deadline, before
// the farther one, so a busy machine that slows everything down changes
// neither. Before, the file ended cleanly after the first batch's 1,000
// rows of 1,005. Afterwards the slot is free: the next export is whole.
func TestExportFailingMidwayIsAborted(t *testing.T) {
	for _, c := range []struct {
		name            string
		request, export time.Duration
	}{
		// the nearer deadline long enough for the first batch (1.2 MB) on
		// a machine busy with other test runs, the farther a minute
		{"the request deadline", 12 * time.Second, time.Minute},
		{"the export's deadline", time.Minute, 15 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			base, _, dsn, logs := exportServer(t, handlers.Options{RequestTimeout: c.request, ExportTimeout: c.export})
			fatEvents(t, dsn)
			res := getExport(t, base+"/api/events/export")
			if res.StatusCode != http.StatusOK {
				b, _ := io.ReadAll(res.Body)
				t.Fatalf("export: %d %s", res.StatusCode, b)
			}
			_, tx := holdTx(t, dsn)
			if _, err := tx.Exec("LOCK TABLE events IN ACCESS EXCLUSIVE MODE"); err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(res.Body)
			_ = tx.Rollback()
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("reading the export whose second batch failed: %v, want unexpected EOF (%d bytes read)", err, len(body))
			}
			if lines := bytes.Count(body, []byte("\r\n")); lines != 1+1000 || !bytes.HasSuffix(body, []byte("\r\n")) {
				t.Errorf("before the abort: %d whole lines, want the header and the first batch's 1,000 rows", lines)
			}
			nearer, farther := min(c.request, c.export), max(c.request, c.export)
			if took, ok := ran(t, logs, "export: reading a batch failed; the answer is aborted", ""); !ok {
				t.Errorf("the log does not say why the export ended:\n%s", logs)
			} else if took < nearer-time.Second || took >= farther {
				// a second under: the request's deadline runs from a moment before the export's clock
				t.Errorf("the batch failed when the export had run %s, want at its nearer deadline (%s), before the farther (%s)", took, nearer, farther)
			}
			res = getExport(t, base+"/api/events/export")
			body, err = io.ReadAll(res.Body)
			if res.StatusCode != http.StatusOK || err != nil || bytes.Count(body, []byte("\r\n")) != 1+1005 {
				t.Errorf("the export after: %d, %v, %d lines", res.StatusCode, err, bytes.Count(body, []byte("\r\n")))
			}
		})
	}
}

// TestExportsCannotStarveTheOwner: 20 clients ask for an export at once
// and read nothing. Two exports run; the other 18 are refused at once with
// 503, Retry-After and problem details, and the owner's listings are
// answered meanwhile. A reader that takes nothing for the write timeout
// (10 s here, 30 s in the service) is cut off: its answer is aborted, its
// export's slot is free again, and it holds no connection of the pool
// while it stalls or after. Before, all 20 ran and held 20 slots of work.
func TestExportsCannotStarveTheOwner(t *testing.T) {
	t.Parallel()
	// long enough that the two stalled exports surely still hold their
	// slots while the other 18 are refused, on a busy machine too
	const writeTimeout = 10 * time.Second
	base, db, dsn, logs := exportServer(t, handlers.Options{RequestTimeout: requestTimeout, WriteTimeout: writeTimeout, MaxInFlight: 40})
	fatEvents(t, dsn)
	var (
		mu       sync.Mutex
		running  []*http.Response
		refused  int
		wg       sync.WaitGroup
		problems []string
	)
	began := time.Now()
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := exportClient.Get(base + "/api/events/export")
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if res.StatusCode == http.StatusOK {
				running = append(running, res)
				return
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			refused++
			if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "10" ||
				res.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(string(b), "at most 2 exports at once") ||
				!strings.Contains(string(b), `"type":"/problems/overloaded"`) {
				problems = append(problems, res.Status+" Retry-After "+res.Header.Get("Retry-After")+" "+string(b))
			}
		}()
	}
	wg.Wait()
	refusedIn := time.Since(began)
	for _, res := range running {
		t.Cleanup(func() { res.Body.Close() })
	}
	if len(running) != 2 || refused != 18 {
		t.Fatalf("20 exports at once: %d ran, %d refused; want 2 and 18", len(running), refused)
	}
	for _, p := range problems {
		t.Errorf("a refused export: %s", p)
	}
	if refusedIn >= writeTimeout {
		t.Errorf("the refusals took %s: they should not wait for a slot (a stalled export holds one for the write timeout, %s)", refusedIn, writeTimeout)
	}
	for range 10 {
		call(t, "GET", base+"/api/events?limit=5", "", "").want(t, http.StatusOK)
	}
	if n := db.Stats().InUse; n != 0 {
		t.Errorf("while two exports stall, %d connections of the pool are in use, want 0", n)
	}
	// Both stalled readers are cut off after the write timeout; then two
	// exports run again.
	const cutOff = "export: cut off; the answer is aborted"
	// Bounded by the next limit that could end them (the request
	// timeout), not by the wall clock of a busy machine.
	for countLogged(t, logs, cutOff, "the client took nothing for the write timeout") < 2 {
		if time.Since(began) > requestTimeout {
			t.Fatalf("the stalled readers are not cut off after the write timeout (%s):\n%s", time.Since(began), logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if took, _ := ran(t, logs, cutOff, "the client took nothing for the write timeout"); took < writeTimeout {
		t.Errorf("a stalled reader was cut off when its export had run %s, before the write timeout", took)
	}
	for i, res := range running {
		if _, err := io.ReadAll(res.Body); err == nil {
			t.Errorf("stalled reader %d read a whole file after it was cut off", i+1)
		}
	}
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := exportClient.Get(base + "/api/events/export?kind=calendar_event")
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			if _, err := io.ReadAll(res.Body); res.StatusCode != http.StatusOK || err != nil {
				t.Errorf("an export after the cut: %d, %v", res.StatusCode, err)
			}
		}()
	}
	wg.Wait()
	if n := db.Stats().InUse; n != 0 {
		t.Errorf("after the cut, %d connections of the pool are in use, want 0", n)
	}
}

// TestExportDeadlineEndsASlowRun: a client that keeps reading, but too
// slowly for the whole file to go out before the export's deadline
// (8 s here, long enough for the first batch on a busy machine;
// EVENTS_EXPORT_TIMEOUT, 5 minutes, in the service), is cut off
// at the deadline and its answer aborted, though it never stopped reading
// for the write timeout (30 s). The export's running time is the
// service's own, from its log: at or after the deadline, and before the
// write timeout, the next limit that could have ended it. Before, each
// batch had a deadline of its own, and a reader that kept taking a little
// ran for as long as it liked.
func TestExportDeadlineEndsASlowRun(t *testing.T) {
	t.Parallel()
	const deadline = 8 * time.Second
	base, _, dsn, logs := exportServer(t, handlers.Options{RequestTimeout: requestTimeout, ExportTimeout: deadline})
	fatEvents(t, dsn)
	began := time.Now()
	res := getExport(t, base+"/api/events/export")
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("export: %d %s", res.StatusCode, b)
	}
	// 8 KB every 100 ms: 80 KB a second, some 17 s for the whole file.
	buf := make([]byte, 8<<10)
	var n int
	var err error
	for err == nil && time.Since(began) < time.Minute {
		for got := 0; got < len(buf) && err == nil; {
			var m int
			m, err = res.Body.Read(buf[got:])
			got += m
			n += m
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) || n > 1200<<10 {
		t.Errorf("the slow reader: %v after %d bytes, want unexpected EOF before the whole file", err, n)
	}
	// The client reads on what the kernel's buffers held when the server
	// closed: the cut itself is the time of the log line.
	took, ok := ran(t, logs, "export: cut off; the answer is aborted", "the export's deadline passed")
	if !ok {
		t.Fatalf("the log does not say the deadline passed:\n%s", logs)
	}
	const writeTimeout = 30 * time.Second // handlers.Options' default
	if took < deadline || took >= writeTimeout {
		t.Errorf("the slow reader was cut off when its export had run %s, want at the export's deadline (%s), before the write timeout (%s)", took, deadline, writeTimeout)
	}
}

// TestSearchEndsAtTheRequestDeadline: a search runs under the request's
// deadline (1 s here), on the listing and the search page: when its
// statement cannot finish (here it waits on a lock another connection
// holds on the table), PostgreSQL ends it at the deadline and the answer is
// 503, though the sessions' own statement timeout is 30 s (the bound is
// half of it).
func TestSearchEndsAtTheRequestDeadline(t *testing.T) {
	t.Parallel()
	s, dsn := deadlineServer(t, 30*time.Second, time.Second)
	s.create(`{"kind":"task","title":"주간 회의 준비"}`)
	_, tx := holdTx(t, dsn)
	if _, err := tx.Exec("LOCK TABLE events IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/api/events?q=a+b+c+d+e+f+g+%ED%9A%8C%EC%9D%98", "/events/search?q=%ED%9A%8C%EC%9D%98"} {
		began := time.Now()
		a := s.get(target)
		if took := time.Since(began); a.Status != http.StatusServiceUnavailable || took > 15*time.Second {
			t.Errorf("GET %s with the table locked: %d after %s, want 503 at the deadline (1 s)", target, a.Status, took)
		}
	}
}
