// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"events/app"
	"events/internal/dbtest"
	"events/internal/pgcluster"

	"golang.org/x/crypto/bcrypt"
)

func TestMain(m *testing.M) { dbtest.Main(m, app.Migrate) }

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// build compiles the real binary once for the package's tests.
func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		// A folder of this run's own, removed when the tests end, so two
		// runs side by side never share (or overwrite) one binary.
		dir, err := dbtest.ProcessDir("events-cmd-test-")
		if err != nil {
			buildErr = err
			return
		}
		if buildErr = os.Chmod(dir, 0o755); buildErr != nil {
			return
		}
		binary = filepath.Join(dir, "events")
		out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// needPostgres skips (or, in CI, fails) when the server programs are missing.
func needPostgres(t *testing.T) {
	t.Helper()
	if _, err := pgcluster.FindBinaries(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI: %v", err)
		}
		t.Skipf("SKIPPED LOUDLY: %v", err)
	}
}

// dataDir is a temporary EVENTS_DATA_DIR the postgres user can reach when
// the tests run as root.
func dataDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "events-data")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
}

// server is a running `events serve`.
type server struct {
	cmd  *exec.Cmd
	base string
	mu   sync.Mutex
	logs bytes.Buffer
	done chan error
}

func (s *server) Logs() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logs.String()
}

// start runs the binary with env (on top of a clean environment) and waits
// until /readyz answers 200.
func start(t *testing.T, env ...string) *server {
	t.Helper()
	port := freePort(t)
	s := &server{base: "http://127.0.0.1:" + port, done: make(chan error, 1)}
	s.cmd = exec.Command(build(t), "serve")
	s.cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "PORT=" + port}, env...)
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			s.mu.Lock()
			s.logs.WriteString(sc.Text() + "\n")
			s.mu.Unlock()
		}
		s.done <- s.cmd.Wait()
	}()
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-s.done:
			case <-time.After(30 * time.Second):
				s.cmd.Process.Kill()
			}
		}
		if t.Failed() {
			t.Logf("server log:\n%s", s.Logs())
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(s.base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return s
			}
		}
		select {
		case err := <-s.done:
			t.Fatalf("the server exited before it was ready: %v\n%s", err, s.Logs())
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("the server was not ready within a minute:\n%s", s.Logs())
	return nil
}

// stop sends sig and waits for the process to end, returning its exit error.
func (s *server) stop(t *testing.T, sig os.Signal) error {
	t.Helper()
	s.cmd.Process.Signal(sig)
	select {
	case err := <-s.done:
		return err
	case <-time.After(60 * time.Second):
		t.Fatalf("the server did not stop within a minute:\n%s", s.Logs())
		return nil
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// docExamples returns the shell examples of the documentation, in order, as
// one script: the README's sh blocks, then docs/api.md's (which starts with
// BASE=), then those of every other docs/*.md by name, so that no sh block
// anywhere in the documentation goes untested.
func docExamples(t *testing.T) string {
	t.Helper()
	others, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"../../README.md", "../../docs/api.md"}
	for _, f := range others {
		if f != files[1] {
			files = append(files, f)
		}
	}
	block := regexp.MustCompile("(?s)```sh\n(.*?)```")
	var script strings.Builder
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blocks := block.FindAllStringSubmatch(string(text), -1)
		if f == files[1] && len(blocks) < 10 {
			t.Fatalf("found %d sh blocks in docs/api.md, want one per endpoint", len(blocks))
		}
		for _, b := range blocks {
			script.WriteString(b[1])
		}
	}
	return script.String()
}

// TestOneCommandWithEmbeddedDatabase is `make run` as a newcomer meets it:
// no DATABASE_URL, the documentation's curl examples pasted into a shell, Ctrl-C,
// and a second start that finds the data again.
func TestOneCommandWithEmbeddedDatabase(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	if _, err := exec.LookPath("curl"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI: curl is needed to run the documentation's examples")
		}
		t.Skip("SKIPPED LOUDLY: curl is not installed, so the documentation's examples cannot run")
	}
	data := dataDir(t)
	s := start(t, "EVENTS_DATA_DIR="+data)

	// A second server on the same data folder is refused while the first runs.
	second := exec.Command(build(t), "serve")
	second.Env = []string{"PATH=" + os.Getenv("PATH"), "PORT=" + freePort(t), "EVENTS_DATA_DIR=" + data}
	out, err := second.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "in use") {
		t.Errorf("a second serve on the same data: %v\n%s", err, out)
	}

	script := docExamples(t)
	if !strings.Contains(script, "BASE=http://127.0.0.1:3000\n") {
		t.Fatal("the documentation's examples never set BASE=http://127.0.0.1:3000")
	}
	script = strings.ReplaceAll(script, "BASE=http://127.0.0.1:3000", "BASE="+s.base)
	cmd := exec.Command("bash", "-e", "-u", "-o", "pipefail", "-c", script)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	output, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the documentation's examples failed: %v\n%s", err, output)
	}
	for _, want := range []string{
		`"title":"Fixed the bike"`, // the quick record
		`"status":"done"`,
		"HTTP/1.1 409 Conflict", // the second create of one source_ref
		`"existing_id":`,
		`"status":422`, // PATCH of status
		`"status":"deferred"`,
		`"change_kind":"reschedule"`,
		`"undoes":`,
		`"next_cursor":`,
		`"status":"ready"}`,               // after the backup's age
		"HTTP/1.1 405 Method Not Allowed", // DELETE
		"Allow: GET, HEAD, PATCH",
		"HTTP/1.1 412 Precondition Failed",                                            // a PATCH with a replaced ETag in If-Match
		"Idempotent-Replayed: true",                                                   // a create repeated with its Idempotency-Key
		`"field":"Idempotency-Key"`,                                                   // the same key with another body
		"Content-Disposition: attachment; filename=\"events-",                         // the export
		`"history":[`,                                                                 // its NDJSON
		`id,kind,status,title,description`,                                            // its CSV header
		`"zone":"Asia/Seoul"`, `"start_date":"2026-11-28"`, `"end_date":"2026-11-29"`, // an all-day entry's dates
	} {
		if !strings.Contains(string(output), want) {
			t.Errorf("the documentation's examples' output lacks %s:\n%s", want, output)
		}
	}
	_, before := get(t, s.base+"/api/events?limit=1000")

	// Ctrl-C: the server drains, stops its database and exits 0.
	if err := s.stop(t, os.Interrupt); err != nil {
		t.Errorf("exit after Ctrl-C: %v", err)
	}
	if logs := s.Logs(); !strings.Contains(logs, "embedded database stopped") {
		t.Errorf("no clean database stop in the log:\n%s", logs)
	}

	// A second run reuses the data.
	s2 := start(t, "EVENTS_DATA_DIR="+data)
	if _, after := get(t, s2.base+"/api/events?limit=1000"); after != before {
		t.Errorf("the second run lists other events:\n%s\nwant\n%s", after, before)
	}
	if err := s2.stop(t, syscall.SIGTERM); err != nil {
		t.Errorf("exit after SIGTERM: %v", err)
	}
}

// TestDatabaseURL: with DATABASE_URL the service uses it and starts no database.
func TestDatabaseURL(t *testing.T) {
	t.Parallel()
	// Without sslmode the URL behaves as libpq's "prefer": this server has
	// no TLS, so the service connects without it.
	dsn := regexp.MustCompile(`[?&]sslmode=disable`).ReplaceAllString(dbtest.NewURL(t), "")
	if !strings.Contains(dsn, "?") {
		dsn = strings.Replace(dsn, "&", "?", 1)
	}
	data := filepath.Join(dataDir(t), "unused")
	s := start(t, "DATABASE_URL="+dsn, "EVENTS_DATA_DIR="+data)
	if code, body := get(t, s.base+"/api/events/inbox"); code != 200 || body != "{\"items\":[],\"next_cursor\":null}\n" {
		t.Errorf("inbox: %d %s", code, body)
	}
	if code, _ := get(t, s.base+"/healthz"); code != 200 {
		t.Errorf("healthz: %d", code)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("EVENTS_DATA_DIR was created although DATABASE_URL is set: %v", err)
	}
}

func TestMigrateCommand(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewURL(t)
	for i := 0; i < 2; i++ { // applying twice is a no-op
		cmd := exec.Command(build(t), "migrate")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "DATABASE_URL=" + dsn}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("events migrate: %v\n%s", err, out)
		}
	}
}

// TestBadConfigurationStops: each bad value stops the process with one sentence.
func TestBadConfigurationStops(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ env, want string }{
		{"EVENTS_TIMEZONE=Mars/Base", "EVENTS_TIMEZONE"},
		{"PORT=http", "PORT must be a port number"},
		{"EVENTS_REQUEST_TIMEOUT=soon", "EVENTS_REQUEST_TIMEOUT must be a duration"},
		{"EVENTS_SHUTDOWN_TIMEOUT=forever", "EVENTS_SHUTDOWN_TIMEOUT must be a duration"},
		{"EVENTS_MAX_IN_FLIGHT=0", "EVENTS_MAX_IN_FLIGHT must be a number of requests"},
		{"EVENTS_QUEUE_WAIT=1h", "EVENTS_QUEUE_WAIT must be a duration"},
		{"EVENTS_EXPORT_TIMEOUT=forever", "EVENTS_EXPORT_TIMEOUT must be a duration"},
		{"EVENTS_TRUSTED_PROXIES=nginx", "EVENTS_TRUSTED_PROXIES must list"},
		{"DATABASE_URL=mysql://x", "DATABASE_URL must be a postgres:// URL"},
		{"HOST=0.0.0.0", "refusing to listen on 0.0.0.0 without authentication"},
		{"EVENTS_PASSWORD_HASH=hunter2", "EVENTS_PASSWORD_HASH must be a hash printed by `events hash-password`"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, build(t), "serve")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), c.env}
		out, err := cmd.CombinedOutput()
		cancel()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: %v\n%s", c.env, err, out)
		}
		if lines := strings.Count(strings.TrimSpace(string(out)), "\n"); lines > 0 {
			t.Errorf("%s: want one line, got:\n%s", c.env, out)
		}
	}
	// hash-password reads the password from stdin and prints a hash the
	// service accepts.
	cmd := exec.Command(build(t), "hash-password")
	cmd.Stdin = strings.NewReader("correct horse battery\n")
	hash, err := cmd.Output()
	if err != nil || !strings.HasPrefix(string(hash), "$2a$") {
		t.Errorf("hash-password: %v %q", err, hash)
	} else if a, err := app.NewAuth(strings.TrimSpace(string(hash)), nil, strings.Repeat("k", 32), false); err != nil || !a.CheckPassword("correct horse battery") {
		t.Errorf("the printed hash does not check: %v", err)
	}
	out, err := exec.Command(build(t), "frobnicate").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "usage") {
		t.Errorf("unknown command: %v\n%s", err, out)
	}
}

// TestEdgeConfig: `events edge-config` prints the edge's nginx.conf from its
// flags, and refuses a bad value with one sentence (the edge package's tests
// run nginx on what it renders).
func TestEdgeConfig(t *testing.T) {
	t.Parallel()
	// edgeConfig runs edge-config with the environment of a service that
	// authenticates with an API token, plus env.
	edgeConfig := func(env []string, args ...string) *exec.Cmd {
		cmd := exec.Command(build(t), append([]string{"edge-config"}, args...)...)
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "EVENTS_") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, env...)
		return cmd
	}
	token := []string{"EVENTS_API_TOKENS=edge-config-test-token-0123456789"}
	out, err := edgeConfig(token, "-https", "127.0.0.1:8443", "-upstream", "127.0.0.1:4000,127.0.0.1:4001",
		"-rate", "5r/s", "-burst", "12", "-conn", "7", "-cert", "/srv/tls/cert.pem").Output()
	if err != nil {
		t.Fatalf("edge-config: %v", err)
	}
	for _, want := range []string{
		"listen 127.0.0.1:8443 ssl http2;",
		"listen 80;",
		"server 127.0.0.1:4000 max_fails=1 fail_timeout=10s;",
		"server 127.0.0.1:4001 max_fails=1 fail_timeout=10s;",
		"proxy_pass http://events_service;",
		"rate=5r/s;",
		"limit_req zone=events_req burst=12 nodelay;",
		"limit_conn events_conn 7;",
		"ssl_certificate /srv/tls/cert.pem;",
		"ssl_certificate_key /etc/events-edge/key.pem;",
		"return 308 https://$host:8443$request_uri;",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("edge-config output lacks %q:\n%s", want, out)
		}
	}
	out, err = edgeConfig(token, "-rate", "fast").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "the rate must be requests per second or minute") || strings.Count(strings.TrimSpace(string(out)), "\n") > 0 {
		t.Errorf("edge-config -rate fast: %v, want one sentence:\n%s", err, out)
	}
	out, err = edgeConfig(nil, "-h").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "-upstream host:port") {
		t.Errorf("edge-config -h: %v\n%s", err, out)
	}
	// The help names a section of the README that exists.
	readme, _ := os.ReadFile("../../README.md")
	if m := regexp.MustCompile(`see the README,\s*"([^"]+)"`).FindSubmatch(out); m == nil ||
		!regexp.MustCompile(`(?m)^#+ `+regexp.QuoteMeta(string(m[1]))+`$`).Match(readme) {
		t.Errorf("edge-config -h names no heading of the README:\n%s", out)
	}
}

// TestEdgeConfigRefusesAServiceWithoutAuthentication: with neither
// EVENTS_PASSWORD_HASH nor EVENTS_API_TOKENS in its environment, the service
// behind the edge would authenticate nobody, so edge-config prints no
// configuration: it exits non-zero with one sentence saying what to set.
// A password (with its session key), a token, or EVENTS_AUTH=off (an outer
// layer authenticates) each let it print one.
func TestEdgeConfigRefusesAServiceWithoutAuthentication(t *testing.T) {
	t.Parallel()
	hash, err := bcrypt.GenerateFromPassword([]byte("correct horse battery"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		env  []string
		want string // "" prints a configuration
	}{
		{nil, "EVENTS_PASSWORD_HASH"},
		{[]string{"EVENTS_AUTH=on"}, "EVENTS_PASSWORD_HASH"},
		{[]string{"EVENTS_SESSION_KEY=edge-config-test-session-key-0123456789"}, "EVENTS_PASSWORD_HASH"},
		{[]string{"EVENTS_PASSWORD_HASH=" + string(hash)}, "EVENTS_SESSION_KEY"}, // the service would not start
		{[]string{"EVENTS_AUTH=maybe"}, "EVENTS_AUTH must be on or off"},
		{[]string{"EVENTS_PASSWORD_HASH=" + string(hash), "EVENTS_SESSION_KEY=edge-config-test-session-key-0123456789"}, ""},
		{[]string{"EVENTS_API_TOKENS=edge-config-test-token-0123456789"}, ""},
		{[]string{"EVENTS_AUTH=off"}, ""},
	} {
		cmd := exec.Command(build(t), "edge-config")
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "EVENTS_") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, tt.env...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		switch {
		case tt.want == "" && (err != nil || !strings.Contains(stdout.String(), "proxy_pass http://events_service;")):
			t.Errorf("edge-config with %q: %v, want a configuration\n%s", tt.env, err, stderr.String())
		case tt.want != "" && (err == nil || stdout.Len() > 0 || !strings.Contains(stderr.String(), tt.want) || strings.Count(strings.TrimSpace(stderr.String()), "\n") > 0):
			t.Errorf("edge-config with %q: %v, printed %d bytes; want a non-zero exit, nothing printed and one sentence naming %s, got:\n%s", tt.env, err, stdout.Len(), tt.want, stderr.String())
		}
	}
}
