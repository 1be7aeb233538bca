package handlers_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
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
// second connection of the test) and the JSON log.
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = f.Listener(handlers.Listener(ln)) }()
	t.Cleanup(func() { _ = f.ShutdownWithTimeout(2 * time.Second) })
	return "http://" + ln.Addr().String(), db, dsn, logs
}

// fatEvents stores 1,000 events with descriptions of about 10,000
// characters, then 5 small ones: an export's first batch is some 10 MB,
// more than the kernel's buffers between the server and a client hold
// (4 MB to send, 128 KB to receive while nothing is read), so the server
// is still writing it while the client has read only the head; the small
// ones are the second batch.
func fatEvents(t *testing.T, dsn string) {
	t.Helper()
	db, err := app.OpenDB(dsn, 0) // not the service's pool, whose statements end at its deadline
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), `
INSERT INTO events (kind, status, title, description)
SELECT 'task', 'planned', 'fat ' || i, CASE WHEN i <= 1000 THEN repeat('lorem ipsum ', 833) ELSE '' END
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
	DialContext: (&net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var err error
		if cerr := c.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 64<<10)
		}); cerr != nil {
			return cerr
		}
		return err
	}}).DialContext,
}}

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
// timeout (1 s). Before, the file ended cleanly after the first batch's
// 1,000 rows of 1,005. Afterwards the next export is whole.
func TestExportFailingMidwayIsAborted(t *testing.T) {
	for _, c := range []struct {
		name             string
		request, failsBy time.Duration
	}{
		{"the request deadline", time.Second, 6 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			base, _, dsn, logs := exportServer(t, handlers.Options{RequestTimeout: c.request})
			fatEvents(t, dsn)
			began := time.Now()
			res := getExport(t, base+"/api/events/export")
			if res.StatusCode != http.StatusOK {
				t.Fatalf("export: %d", res.StatusCode)
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
			if at := logged(t, logs, "export: reading a batch failed; the answer is aborted", ""); at.IsZero() {
				t.Errorf("the log does not say why the export ended:\n%s", logs)
			} else if took := at.Sub(began); took > c.failsBy {
				t.Errorf("the batch failed after %s, want by %s", took, c.failsBy)
			}
			res = getExport(t, base+"/api/events/export")
			body, err = io.ReadAll(res.Body)
			if res.StatusCode != http.StatusOK || err != nil || bytes.Count(body, []byte("\r\n")) != 1+1005 {
				t.Errorf("the export after: %d, %v, %d lines", res.StatusCode, err, bytes.Count(body, []byte("\r\n")))
			}
		})
	}
}
