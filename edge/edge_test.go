// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package edge_test

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"events/edge"
)

// Each test runs its own nginx in front of its own service, and sends from
// its own loopback address, so no limit carries over from one to another.

func TestHiddenPathsAreDenied(t *testing.T) {
	t.Parallel()
	svc := startService(t)
	cfg := config(t, svc.addr)
	cfg.Rate, cfg.Burst = "1000r/s", 1000 // this test is about the rule, not the limits
	p := startEdge(t, cfg)
	headers := svc.headers(t)
	const from = "127.0.0.2"

	denied := []string{
		"/.git/config",
		"/.git/HEAD",
		"/.git",
		"/.GIT/config",
		"/%2egit/HEAD",
		"/%2Egit/config",
		"/.git%2fconfig",
		"//.git//config",
		"/.well-known/../.git/config",
		"/static/../.env",
		"/static/%2e%2e/.env",
		"/static/..%2f.env",
		"/static/%2e%2e%2f%2eenv",
		"/static/.env",
		"/.env",
		"/.env.local",
		"/.env.production",
		"/api/events/.env",
		"/.svn/entries",
		"/.hg/hgrc",
		"/.bzr/branch-format",
		"/.DS_Store",
		"/a/b/.DS_Store",
		"/static/.DS_Store",
		"/Thumbs.db",
		"/static/img/thumbs.DB",
		"/desktop.ini",
		"/.vscode/settings.json",
		"/.idea/x",
		"/.idea/workspace.xml",
		"/.editorconfig",
		"/.htaccess",
		"/.htpasswd",
		"/.ssh/id_rsa",
		"/.aws/credentials",
		"/.npmrc",
		"/events/.draft.swp",
		"/.well-knownx/y",
		"/.well-known/acme-challenge/.hidden", // the file exists in the ACME folder
	}
	for _, path := range denied {
		a := p.send(t, request{from: from, target: path})
		if strings.HasPrefix(path, "/api/") {
			a.edgeProblem(t, 403, "Forbidden")
		} else {
			a.edgePage(t, 403, "This address is not served")
		}
		a.secure(t, headers)
		p.wantLog(t, fmt.Sprintf(`access forbidden by rule, client: %s, server: _, request: "GET %s HTTP/1.1", host: "127.0.0.1"`, from, path))
	}

	passed := []struct {
		path   string
		status int
		body   string // from the edge itself when set (ACME), else the service answers
	}{
		{"/healthz", 200, ""},
		{"/readyz", 200, ""},
		{"/events", 200, ""},
		{"/events/new", 200, ""},
		{"/api/events", 200, ""},
		{"/api/events/today?tz=Europe/Berlin", 200, ""},
		{"/api/events?project_tag=a.b", 200, ""},
		{"/static/events.css", 200, ""},
		{"/static/events.css?v=1.2.3", 200, ""},
		{"/static/htmx.min.js", 200, ""},
		{"/static/no.such.file.css", 404, ""},
		{"/notes.env", 404, ""},
		{"/api/events/not.a.number", 404, ""},
		{"/.well-known/security.txt", 404, ""},
		{"/.well-known/acme-challenge/x", 200, "token-x"},
		{"/.well-known/acme-challenge/abc.def_ghi-jkl", 200, "token-with-dots"},
	}
	for _, c := range passed {
		a := p.send(t, request{from: from, target: c.path}).want(t, c.status)
		if c.body == "" {
			a.fromService(t)
		} else if a.Body != c.body {
			t.Errorf("%s: want the ACME token %q", a, c.body)
		}
	}
	// The access log has every request by now; no passed one was forbidden.
	p.accessLines(t, from, len(denied)+len(passed))
	for _, c := range passed {
		if strings.Contains(readFile(cfg.ErrorLog), fmt.Sprintf(`request: "GET %s HTTP/1.1"`, c.path)) {
			t.Errorf("GET %s was logged as an error:\n%s", c.path, readFile(cfg.ErrorLog))
		}
	}

	// The plain-HTTP port denies the same, and serves ACME tokens.
	p.sendHTTP(t, request{from: from, target: "/.git/config"}).edgePage(t, 403, "This address is not served")
	p.sendHTTP(t, request{from: from, target: "/.well-known/acme-challenge/.hidden"}).edgePage(t, 403, "This address is not served")
	p.wantLog(t, fmt.Sprintf(`access forbidden by rule, client: %s, server: _, request: "GET /.well-known/acme-challenge/.hidden HTTP/1.1", host: "127.0.0.1"`, from))
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	svc := startService(t)
	cfg := config(t, svc.addr)
	// One request a minute, so the burst is exact however slow the machine.
	cfg.Rate, cfg.Burst = "1r/m", 5
	p := startEdge(t, cfg)
	headers := svc.headers(t)
	const from = "127.0.0.3"

	for i := 0; i <= cfg.Burst; i++ { // the burst and the one the rate allows
		p.send(t, request{from: from, target: "/healthz"}).want(t, 200)
	}
	page := p.send(t, request{from: from, target: "/events"})
	page.edgePage(t, 429, "Too many requests")
	page.secure(t, headers)
	api := p.send(t, request{from: from, target: "/api/events"})
	api.edgeProblem(t, 429, "Too Many Requests")
	api.secure(t, headers)
	for _, path := range []string{"/events", "/api/events"} {
		// The excess is the burst plus one, less what the rate has drained
		// since (a thousandth a 60 ms at 1r/m, on a slow machine).
		p.wantLog(t, fmt.Sprintf(`limiting requests, excess: «(?:%d\.000|%d\.9\d\d)» by zone "events_req", client: %s, server: _, request: "GET %s HTTP/1.1", host: "127.0.0.1"`, cfg.Burst+1, cfg.Burst, from, path))
	}

	// The limit is per client address.
	p.send(t, request{from: "127.0.0.4", target: "/healthz"}).want(t, 200)

	// The access log records each decision.
	lines := p.accessLines(t, from, cfg.Burst+3)
	passed := regexp.MustCompile(`"GET /healthz HTTP/1.1" 200 .* limit_req=PASSED limit_conn=PASSED$`)
	rejected := regexp.MustCompile(`"GET (/events|/api/events) HTTP/1.1" 429 .* limit_req=REJECTED limit_conn=-$`)
	for i, l := range lines {
		want := passed
		if i > cfg.Burst {
			want = rejected
		}
		if !want.MatchString(l) {
			t.Errorf("access log line %d of %s: %s\nwant it to match %s", i+1, from, l, want)
		}
	}
}

func TestConnectionLimit(t *testing.T) {
	t.Parallel()
	svc := startService(t)
	cfg := config(t, svc.addr)
	cfg.ConnPerClient = 2
	p := startEdge(t, cfg)
	const from = "127.0.0.5"

	// Two quick records whose bodies trickle in: nginx counts each
	// connection while it reads the request.
	body := `{"kind":"activity_log","title":"slow"}`
	post := request{from: from, method: "POST", target: "/api/events", headers: []string{"Content-Type: application/json"}, body: body}
	var slow []*tls.Conn
	for range cfg.ConnPerClient {
		conn := p.dialTLS(t, from)
		defer conn.Close()
		writeHead(t, conn, post)
		if _, err := conn.Write([]byte(body[:5])); err != nil {
			t.Fatal(err)
		}
		slow = append(slow, conn)
	}

	// A third request from the address is refused once nginx holds both.
	// (Until it has read their headers, a request may still pass.)
	var third answer
	tries := 0
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		tries++
		if third = p.send(t, request{from: from, target: "/healthz"}); third.Status != 200 {
			break
		}
	}
	third.edgePage(t, 429, "Too many requests")
	p.wantLog(t, fmt.Sprintf(`limiting connections by zone "events_conn", client: %s, server: _, request: "GET /healthz HTTP/1.1", host: "127.0.0.1"`, from))

	// Another address is not held up.
	p.send(t, request{from: "127.0.0.6", target: "/healthz"}).want(t, 200)

	// The slow requests finish and are served.
	for _, conn := range slow {
		if _, err := conn.Write([]byte(body[5:])); err != nil {
			t.Fatal(err)
		}
		a := readAnswer(t, conn, post)
		a.want(t, 201)
		a.fromService(t)
	}

	lines := strings.Join(p.accessLines(t, from, tries+len(slow)), "\n")
	for _, want := range []string{
		`"GET /healthz HTTP/1.1" 429 .* limit_req=PASSED limit_conn=REJECTED$`,
		`"POST /api/events HTTP/1.1" 201 .* limit_req=PASSED limit_conn=PASSED$`,
	} {
		if !regexp.MustCompile("(?m)" + want).MatchString(lines) {
			t.Errorf("no access log line matches %s:\n%s", want, lines)
		}
	}
}

func TestUpstreamRefused(t *testing.T) {
	t.Parallel()
	headers := startService(t).headers(t)  // for the reference headers only
	upstream := "127.0.0.1:" + freePort(t) // nothing listens there
	p := startEdge(t, config(t, upstream))
	const from = "127.0.0.7"

	page := p.send(t, request{from: from, target: "/events"})
	page.edgePage(t, 502, "The service is unavailable")
	page.secure(t, headers)
	api := p.send(t, request{from: from, target: "/api/events"})
	api.edgeProblem(t, 502, "Bad Gateway")
	api.secure(t, headers)
	var problem map[string]any
	if err := json.Unmarshal([]byte(api.Body), &problem); err != nil || problem["detail"] != "The events service is not answering; try again shortly." {
		t.Errorf("%s: %v", api, err)
	}
	for _, path := range []string{"/events", "/api/events"} {
		p.wantLog(t, fmt.Sprintf(`connect() failed (111: Connection refused) while connecting to upstream, client: %s, server: _, request: "GET %s HTTP/1.1", upstream: "http://%s%s", host: "127.0.0.1"`, from, path, upstream, path))
	}
}

func TestMissingCertificateStopsTheStart(t *testing.T) {
	t.Parallel()
	needNginx(t)
	for _, c := range []struct {
		name    string
		missing func(*edge.Config) *string
		message string
	}{
		{"certificate", func(c *edge.Config) *string { return &c.Certificate }, "cannot load certificate"},
		{"key", func(c *edge.Config) *string { return &c.Key }, "cannot load certificate key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg := config(t, "127.0.0.1:3000")
			path := c.missing(&cfg)
			*path = filepath.Join(cfg.Prefix, "missing", filepath.Base(*path))
			want := regexp.MustCompile(`(?m)^\S+ \S+ \[emerg\] \d+#\d+: ` + regexp.QuoteMeta(fmt.Sprintf(`%s "%s": BIO_new_file() failed`, c.message, *path)))
			for _, args := range [][]string{{"-t"}, nil} {
				cmd := nginxCommand(t, cfg, args...)
				out, err := cmd.CombinedOutput()
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.ExitCode() == 0 {
					t.Errorf("nginx %v with a missing %s: %v, want a non-zero exit\n%s", args, c.name, err, out)
				}
				if !want.Match(out) {
					t.Errorf("nginx %v: want a line matching %s, got:\n%s", args, want, out)
				}
			}
		})
	}
}

func TestSecurityHeadersAreNotDoubled(t *testing.T) {
	t.Parallel()
	svc := startService(t)
	cfg := config(t, svc.addr)
	cfg.Rate, cfg.Burst = "1r/m", 1
	p := startEdge(t, cfg)
	headers := svc.headers(t)

	// Proxied answers carry the service's headers once, and HSTS (checked by send).
	ok := p.send(t, request{from: "127.0.0.8", target: "/api/events"})
	ok.want(t, 200)
	ok.fromService(t)
	ok.secure(t, headers)
	missing := p.send(t, request{from: "127.0.0.8", target: "/api/events/999"})
	missing.want(t, 404)
	missing.fromService(t)
	missing.secure(t, headers)
	// The edge's own 403 and 429 carry the same, made by the edge.
	p.send(t, request{from: "127.0.0.9", target: "/.env"}).want(t, 403).secure(t, headers)
	p.send(t, request{from: "127.0.0.8", target: "/healthz"}).want(t, 429).secure(t, headers)
	// So do an ACME token and the edge's 413 (a body over client_max_body_size).
	p.send(t, request{from: "127.0.0.9", target: "/.well-known/acme-challenge/x"}).want(t, 200).secure(t, headers)
	big := p.send(t, request{from: "127.0.0.9", method: "POST", target: "/api/events", headers: []string{"Content-Type: application/json", "Content-Length: 2000000"}})
	big.edgeProblem(t, 413, "Content Too Large")
	big.secure(t, headers)
}

func TestHTTPRedirectsToHTTPS(t *testing.T) {
	t.Parallel()
	p := startEdge(t, config(t, startService(t).addr))
	const from = "127.0.0.10"
	httpsPort := p.https[strings.LastIndex(p.https, ":"):]
	for _, r := range []request{
		{from: from, target: "/events?tab=today"},
		{from: from, target: "/api/events/1"},
		{from: from, method: "POST", target: "/api/events", headers: []string{"Content-Type: application/json"}, body: `{"kind":"activity_log"}`},
	} {
		a := p.sendHTTP(t, r).want(t, 308) // 308: a POST stays a POST
		if got, want := a.Header.Get("Location"), "https://127.0.0.1"+httpsPort+r.target; got != want {
			t.Errorf("%s: Location %q, want %q", a, got, want)
		}
	}
	a := p.sendHTTP(t, request{from: from, target: "/.well-known/acme-challenge/abc.def_ghi-jkl"}).want(t, 200)
	if a.Body != "token-with-dots" {
		t.Errorf("%s: want the ACME token", a)
	}
}

func TestServiceLogsTheRealClient(t *testing.T) {
	t.Parallel()
	svc := startService(t)
	p := startEdge(t, config(t, svc.addr))
	const from = "127.0.0.11"
	p.send(t, request{from: from, target: "/api/events/inbox", headers: []string{
		"X-Forwarded-For: 198.51.100.7", // forged by the client
		"X-Real-IP: 198.51.100.8",
	}}).want(t, 200)
	lines := regexp.MustCompile(`(?m)^.*path=/api/events/inbox .*$`).FindAllString(svc.logs.String(), -1)
	if len(lines) != 1 || !strings.HasSuffix(lines[0], " client="+from) {
		t.Errorf("the service's log of the request: %q, want it to end client=%s", lines, from)
	}
}

func TestQuickRecordBurstPasses(t *testing.T) {
	t.Parallel()
	svc := startService(t)
	cfg := config(t, svc.addr) // the default limits
	p := startEdge(t, cfg)
	const from = "127.0.0.12"

	// Ten quick records sent at once: more than a person types, all accepted.
	var wg sync.WaitGroup
	answers := make([]answer, 10)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = p.send(t, request{from: from, method: "POST", target: "/api/events",
				headers: []string{"Content-Type: application/json"},
				body:    fmt.Sprintf(`{"kind":"activity_log","title":"record %d"}`, i)})
		}()
	}
	wg.Wait()
	for _, a := range answers {
		a.want(t, 201)
		a.fromService(t)
	}
	list := p.send(t, request{from: from, target: "/api/events?kind=activity_log"}).want(t, 200)
	var page struct{ Items []struct{ Title string } }
	if err := json.Unmarshal([]byte(list.Body), &page); err != nil || len(page.Items) != 10 {
		t.Errorf("%s: want the 10 records (%v)", list, err)
	}
	if log := readFile(cfg.ErrorLog); strings.Contains(log, "limiting") {
		t.Errorf("a limit was hit:\n%s", log)
	}
}

func TestRenderedDefaultsPassNginxT(t *testing.T) {
	t.Parallel()
	cfg := config(t, "127.0.0.1:3000")
	defaults := edge.Defaults()
	if cfg.ConnPerClient != defaults.ConnPerClient || cfg.Rate != defaults.Rate || cfg.Burst != defaults.Burst {
		t.Fatal("the test configuration changed the default limits")
	}
	if out, err := nginxCommand(t, cfg, "-t").CombinedOutput(); err != nil || !bytes.Contains(out, []byte("test is successful")) {
		t.Errorf("nginx -t: %v\n%s", err, out)
	}
}

func TestBadValuesAreRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		set  func(*edge.Config)
		want string
	}{
		{func(c *edge.Config) { c.HTTPS = []string{"443; evil"} }, "the HTTPS listen address must be"},
		{func(c *edge.Config) { c.HTTP = nil }, "the HTTP listen address is missing"},
		{func(c *edge.Config) { c.Upstreams = []string{"localhost"} }, "the upstream must be"},
		{func(c *edge.Config) { c.Upstreams = []string{"127.0.0.1:3000", "127.0.0.1:3001;"} }, "the upstream must be"},
		{func(c *edge.Config) { c.Upstreams = nil }, "the upstream is missing"},
		{func(c *edge.Config) { c.ServerName = "a.example; evil" }, "the server name must be"},
		{func(c *edge.Config) { c.Certificate = "/etc/x/$host.pem" }, "the path of the certificate must be absolute"},
		{func(c *edge.Config) { c.Key = "key.pem" }, "the path of the certificate key must be absolute"},
		{func(c *edge.Config) { c.AccessLog = "/var/log/a b.log" }, "the path of the access log"},
		{func(c *edge.Config) { c.User = "root; daemon off" }, "the worker user"},
		{func(c *edge.Config) { c.Workers = "many" }, "the worker count"},
		{func(c *edge.Config) { c.ConnPerClient = 0 }, "the connection limit per client must be at least 1"},
		{func(c *edge.Config) { c.Rate = "10/s" }, "the rate must be"},
		{func(c *edge.Config) { c.Burst = -1 }, "the burst must be 0 or more"},
	} {
		cfg := edge.Defaults()
		c.set(&cfg)
		var out bytes.Buffer
		err := edge.Render(&out, cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || out.Len() > 0 {
			t.Errorf("want one sentence with %q and nothing written, got %v (%d bytes)", c.want, err, out.Len())
		}
	}
}
