// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package edge_test

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"events/app"
	"events/edge"
	"events/handlers"
	"events/internal/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m, app.Migrate) }

// needNginx returns the nginx program, or skips loudly; in CI its absence
// fails the test.
func needNginx(t *testing.T) string {
	t.Helper()
	p, err := edge.FindNginx()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI: %v", err)
		}
		t.Skipf("SKIPPED LOUDLY: the edge is not tested: %v", err)
	}
	return p
}

// service is the real service over a fresh database, trusting the edge's
// address (127.0.0.1) only, on a loopback port, its request log kept.
type service struct {
	addr string
	logs *dbtest.LogBuffer
}

func startService(t *testing.T) *service {
	t.Helper()
	svc := app.NewService(dbtest.New(t), time.UTC, time.Now)
	logs := &dbtest.LogBuffer{}
	f, err := handlers.New(svc, handlers.Options{
		TrustedProxies: []string{"127.0.0.1"},
		Logger:         slog.New(slog.NewTextHandler(logs, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = f.Listener(handlers.Listener(ln)) }()
	t.Cleanup(func() { _ = f.ShutdownWithTimeout(2 * time.Second) })
	return &service{addr: ln.Addr().String(), logs: logs}
}

// headers returns the security headers the service sends itself, read from
// it directly: the edge's own answers must carry the same.
func (s *service) headers(t *testing.T) http.Header {
	t.Helper()
	res, err := http.Get("http://" + s.addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	want := http.Header{}
	for _, name := range securityHeaders {
		if res.Header.Get(name) == "" {
			t.Fatalf("the service sends no %s", name)
		}
		want.Set(name, res.Header.Get(name))
	}
	return want
}

var securityHeaders = []string{"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Cache-Control"}

// The test certificate: self-signed for 127.0.0.1, made once per run.
var (
	certOnce         sync.Once
	certPEM, keyPEM  []byte
	roots            *x509.CertPool
	errCertificate   error
	acmeTokens       = map[string]string{"x": "token-x", "abc.def_ghi-jkl": "token-with-dots", ".hidden": "hidden-token"}
	acmeChallengeDir = filepath.Join("acme", ".well-known", "acme-challenge")
)

func certificate(t *testing.T) {
	t.Helper()
	certOnce.Do(func() {
		if certPEM, keyPEM, errCertificate = edge.SelfSigned("127.0.0.1", 24*time.Hour); errCertificate != nil {
			return
		}
		roots = x509.NewCertPool()
		roots.AppendCertsFromPEM(certPEM)
	})
	if errCertificate != nil {
		t.Fatal(errCertificate)
	}
}

// config is the edge's configuration for one test: the defaults, but with
// every file in a fresh prefix (certificate, key, ACME tokens, logs), free
// loopback ports, one worker, and as root workers that run as root (a
// test's temporary folder is closed to nobody).
func config(t *testing.T, upstream string) edge.Config {
	t.Helper()
	certificate(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, acmeChallengeDir), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"cert.pem": certPEM, "key.pem": keyPEM}
	for name, token := range acmeTokens {
		files[filepath.Join(acmeChallengeDir, name)] = []byte(token)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := edge.Defaults()
	cfg.Upstreams = []string{upstream}
	cfg.Certificate = filepath.Join(dir, "cert.pem")
	cfg.Key = filepath.Join(dir, "key.pem")
	cfg.Prefix = dir
	cfg.AccessLog = filepath.Join(dir, "access.log")
	cfg.ErrorLog = filepath.Join(dir, "error.log")
	cfg.Workers = "1"
	if os.Geteuid() == 0 {
		cfg.User = "root"
	}
	cfg.HTTPS, cfg.HTTP = []string{"127.0.0.1:" + freePort(t)}, []string{"127.0.0.1:" + freePort(t)}
	return cfg
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// write renders cfg into its prefix and returns the file's path.
func write(t *testing.T, cfg edge.Config) string {
	t.Helper()
	var conf bytes.Buffer
	if err := edge.Render(&conf, cfg); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(cfg.Prefix, "nginx.conf")
	if err := os.WriteFile(path, conf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// nginxCommand is nginx on the configuration in cfg's prefix, its early
// errors on stderr, in the foreground.
func nginxCommand(t *testing.T, cfg edge.Config, args ...string) *exec.Cmd {
	t.Helper()
	conf := write(t, cfg)
	return exec.Command(needNginx(t), append([]string{"-p", cfg.Prefix, "-c", conf, "-e", "stderr", "-g", "daemon off;"}, args...)...)
}

// proxy is a running nginx.
type proxy struct {
	cfg         edge.Config
	https, http string // host:port
}

// startEdge starts nginx on cfg and waits until it accepts connections;
// nginx stops when the test ends. A port taken meanwhile by another test
// is replaced and the start retried.
func startEdge(t *testing.T, cfg edge.Config) *proxy {
	t.Helper()
	for attempt := 1; ; attempt++ {
		p, portTaken := tryStart(t, cfg)
		if !portTaken {
			return p
		}
		if attempt == 3 {
			t.Fatal("nginx found its ports taken three times")
		}
		cfg.HTTPS, cfg.HTTP = []string{"127.0.0.1:" + freePort(t)}, []string{"127.0.0.1:" + freePort(t)}
	}
}

func tryStart(t *testing.T, cfg edge.Config) (p *proxy, portTaken bool) {
	t.Helper()
	var stderr dbtest.LogBuffer
	cmd := nginxCommand(t, cfg)
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	p = &proxy{cfg: cfg, https: cfg.HTTPS[0], http: cfg.HTTP[0]}
	// The master writes its pid file once it holds its ports.
	pidFile := filepath.Join(cfg.Prefix, "nginx.pid")
	for deadline := time.Now().Add(10 * time.Second); readFile(pidFile) == "" || !dialable(p.https) || !dialable(p.http); {
		select {
		case err := <-exited:
			if strings.Contains(stderr.String(), "Address already in use") {
				return nil, true
			}
			t.Fatalf("nginx exited at start: %v\n%s", err, stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("nginx did not listen within 10 s:\n%s", stderr.String())
		}
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("nginx stderr:\n%s\nerror log:\n%s", stderr.String(), readFile(cfg.ErrorLog))
		}
	})
	return p, false
}

func dialable(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err == nil {
		c.Close()
	}
	return err == nil
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// answer is one HTTP answer, its body read.
type answer struct {
	request string
	Status  int
	Header  http.Header
	Body    string
}

func (a answer) String() string {
	return fmt.Sprintf("%s -> %d %s", a.request, a.Status, a.Body)
}

// request is one raw HTTP/1.1 request, sent as written: the path is not
// cleaned or re-encoded on the way, as a browser or Go's client would.
type request struct {
	from    string // the client's loopback address, e.g. 127.0.0.2
	method  string
	target  string
	headers []string // "Name: value"
	body    string
}

// send sends r over TLS to the edge's HTTPS port and returns the answer.
// Every answer there must carry HSTS once.
func (p *proxy) send(t *testing.T, r request) answer {
	t.Helper()
	conn := p.dialTLS(t, r.from)
	defer conn.Close()
	a := exchange(t, conn, r)
	if got := a.Header.Values("Strict-Transport-Security"); len(got) != 1 || got[0] != edge.HSTS {
		t.Errorf("%s: Strict-Transport-Security = %q, want once %q", a, got, edge.HSTS)
	}
	return a
}

// sendHTTP sends r to the plain-HTTP port. No answer there carries HSTS
// (RFC 6797: a browser ignores it over plain HTTP, and a server must not
// send it there).
func (p *proxy) sendHTTP(t *testing.T, r request) answer {
	t.Helper()
	conn := dialFrom(t, r.from, p.http)
	defer conn.Close()
	a := exchange(t, conn, r)
	if got := a.Header.Values("Strict-Transport-Security"); len(got) != 0 {
		t.Errorf("%s: Strict-Transport-Security over plain HTTP: %q", a, got)
	}
	return a
}

func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// dialTLS opens a TLS connection from a loopback address, checking the
// edge's certificate (HTTP/1.1: no ALPN).
func (p *proxy) dialTLS(t *testing.T, from string) *tls.Conn {
	t.Helper()
	conn := tls.Client(dialFrom(t, from, p.https), &tls.Config{RootCAs: roots, ServerName: "127.0.0.1"})
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if err := conn.Handshake(); err != nil {
		conn.Close()
		t.Fatal(err)
	}
	return conn
}

// writeHead writes the request line and headers of r, and Content-Length
// for its body.
func writeHead(t *testing.T, w io.Writer, r request) {
	t.Helper()
	method := r.method
	if method == "" {
		method = "GET"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n", method, r.target)
	for _, h := range r.headers {
		b.WriteString(h + "\r\n")
	}
	if r.body != "" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(r.body))
	}
	b.WriteString("\r\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		t.Fatal(err)
	}
}

func exchange(t *testing.T, conn net.Conn, r request) answer {
	t.Helper()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	writeHead(t, conn, r)
	if _, err := io.WriteString(conn, r.body); err != nil {
		t.Fatal(err)
	}
	return readAnswer(t, conn, r)
}

// readAnswer reads the answer to r and closes the connection: after a
// request with a body, nginx may linger on the connection until the client
// closes it, and writes the access log line only then.
func readAnswer(t *testing.T, conn net.Conn, r request) answer {
	t.Helper()
	method := r.method
	if method == "" {
		method = "GET"
	}
	name := r.from + " " + method + " " + r.target
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatalf("%s: reading the body: %v", name, err)
	}
	conn.Close()
	return answer{request: name, Status: res.StatusCode, Header: res.Header, Body: string(body)}
}

func (a answer) want(t *testing.T, status int) answer {
	t.Helper()
	if a.Status != status {
		t.Errorf("%s: status %d, want %d", a, a.Status, status)
	}
	return a
}

// edgePage checks an error page of the edge itself: HTML saying heading,
// not nginx's default page.
func (a answer) edgePage(t *testing.T, status int, heading string) {
	t.Helper()
	a.want(t, status)
	if ct := a.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("%s: Content-Type %q, want text/html; charset=utf-8", a, ct)
	}
	if !strings.Contains(a.Body, "<h1>"+heading+"</h1>") || strings.Contains(a.Body, "nginx") {
		t.Errorf("%s: want the edge's page saying %q", a, heading)
	}
	if a.Header.Get("X-Request-Id") != "" {
		t.Errorf("%s: answered by the service, want the edge", a)
	}
}

// edgeProblem checks problem details made by the edge, of the service's
// shape, with the service's problem type of the status.
func (a answer) edgeProblem(t *testing.T, status int, title string) {
	t.Helper()
	a.want(t, status)
	if ct := a.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("%s: Content-Type %q, want application/problem+json", a, ct)
	}
	want := fmt.Sprintf(`{"type":%q,"title":%q,"status":%d,"detail":"`, edgeTypes[status], title, status)
	if !strings.HasPrefix(a.Body, want) || !strings.HasSuffix(a.Body, `","errors":[]}`+"\n") {
		t.Errorf("%s: want problem details starting %s and with no errors", a, want)
	}
	if a.Header.Get("X-Request-Id") != "" {
		t.Errorf("%s: answered by the service, want the edge", a)
	}
}

// fromService checks that the service made the answer (it sets a request id).
func (a answer) fromService(t *testing.T) {
	t.Helper()
	if a.Header.Get("X-Request-Id") == "" {
		t.Errorf("%s: not from the service (no X-Request-Id)", a)
	}
}

// secure checks the security headers: each once, with the service's values.
func (a answer) secure(t *testing.T, want http.Header) {
	t.Helper()
	for _, name := range securityHeaders {
		if got := a.Header.Values(name); len(got) != 1 || got[0] != want.Get(name) {
			t.Errorf("%s: %s = %q, want once %q", a, name, got, want.Get(name))
		}
	}
}

// logLine matches one whole nginx error-log line at level error with the
// given message (literal, but for the regexp parts written as «...»).
func logLine(message string) *regexp.Regexp {
	var re strings.Builder
	re.WriteString(`(?m)^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d \[error\] \d+#\d+: \*\d+ `)
	for {
		i := strings.Index(message, "«")
		j := strings.Index(message, "»")
		if i < 0 || j < i {
			break
		}
		re.WriteString(regexp.QuoteMeta(message[:i]) + message[i+len("«"):j])
		message = message[j+len("»"):]
	}
	re.WriteString(regexp.QuoteMeta(message) + `$`)
	return regexp.MustCompile(re.String())
}

// eventually waits (up to 5 s) until cond holds for the file's content,
// and returns the content.
func eventually(t *testing.T, path string, what string, cond func(string) bool) string {
	t.Helper()
	var s string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if s = readFile(path); cond(s) {
			return s
		}
	}
	t.Errorf("%s: %s never appeared in:\n%s", path, what, s)
	return s
}

// wantLog waits for the error-log line of message.
func (p *proxy) wantLog(t *testing.T, message string) {
	t.Helper()
	re := logLine(message)
	eventually(t, p.cfg.ErrorLog, "the line "+re.String(), re.MatchString)
}

// accessLines returns the access-log lines of one client address, once
// there are n of them.
func (p *proxy) accessLines(t *testing.T, from string, n int) []string {
	t.Helper()
	var lines []string
	eventually(t, p.cfg.AccessLog, fmt.Sprintf("%d lines of %s", n, from), func(s string) bool {
		lines = nil
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, from+" ") {
				lines = append(lines, l)
			}
		}
		return len(lines) >= n
	})
	return lines
}

// edgeTypes are the problem types of the edge's own answers: the
// service's (handlers/problems.go), which TestEdgeProblemTypesAreDocumented
// holds to docs/openapi.json.
var edgeTypes = map[int]string{
	400: "/problems/malformed",
	403: "/problems/forbidden",
	413: "/problems/too-large",
	429: "/problems/rate-limited",
	501: "/problems/malformed",
	502: "/problems/unavailable",
	503: "/problems/unavailable",
	504: "/problems/unavailable",
}
