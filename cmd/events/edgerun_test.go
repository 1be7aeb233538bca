// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"events/edge"
	"events/internal/dbtest"
)

// edgeScript lays out a checkout for edge/run.sh (make edge) in a folder of
// its own: the script as it is in the repository, and bin/events the binary
// under test. It returns the script's path.
func edgeScript(t *testing.T) string {
	t.Helper()
	if _, err := edge.FindNginx(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI: %v", err)
		}
		t.Skipf("SKIPPED LOUDLY: make edge is not tested: %v", err)
	}
	for _, program := range []string{"curl", "openssl", "bash"} {
		if _, err := exec.LookPath(program); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("CI: make edge needs %s", program)
			}
			t.Skipf("SKIPPED LOUDLY: make edge is not tested: %s is not installed", program)
		}
	}
	root := t.TempDir()
	script, err := os.ReadFile("../../edge/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"edge", "bin"} {
		if err := os.Mkdir(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "edge", "run.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(build(t), filepath.Join(root, "bin", "events")); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "edge", "run.sh")
}

// runEdge runs the script with env until it exits (at most two minutes).
func runEdge(t *testing.T, script string, env ...string) (exitCode int, output string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", script)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out)
	case errors.As(err, &exit) && ctx.Err() == nil:
		return exit.ExitCode(), string(out)
	}
	t.Fatalf("make edge: %v\n%s", err, out)
	return 0, ""
}

// boundNotListening holds a loopback port with a socket that is bound but
// does not listen: a connection to it is refused, as to a free port, yet
// nginx cannot bind it (no SO_REUSEADDR). It stands for a port taken after
// the script looked, or one nginx may not use.
func boundNotListening(t *testing.T) int {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return sa.(*syscall.SockaddrInet4).Port
}

// TestMakeEdgePortsAndExitStatus: make edge takes its ports from
// EDGE_HTTPS_PORT and EDGE_HTTP_PORT, refuses a port another program holds
// with a sentence naming the variable, before anything starts, and exits
// non-zero, with the service stopped, when nginx cannot start.
func TestMakeEdgePortsAndExitStatus(t *testing.T) {
	t.Parallel()
	script := edgeScript(t)
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	heldPort := held.Addr().(*net.TCPAddr).Port

	for _, c := range []struct {
		name, value, want string
	}{
		{"EDGE_HTTPS_PORT", strconv.Itoa(heldPort), fmt.Sprintf("make edge: port %d is in use: stop the other program or start with EDGE_HTTPS_PORT=%d make edge\n", heldPort, heldPort+1)},
		{"EDGE_HTTP_PORT", strconv.Itoa(heldPort), fmt.Sprintf("make edge: port %d is in use: stop the other program or start with EDGE_HTTP_PORT=%d make edge\n", heldPort, heldPort+1)},
		{"PORT", strconv.Itoa(heldPort), fmt.Sprintf("make edge: port %d is in use: stop the other program or start with PORT=%d make edge\n", heldPort, heldPort+1)},
		{"EDGE_HTTPS_PORT", "https", "make edge: EDGE_HTTPS_PORT must be a port number from 1 to 65535, not \"https\".\n"},
	} {
		env := map[string]string{"EDGE_HTTPS_PORT": freePort(t), "EDGE_HTTP_PORT": freePort(t), "PORT": freePort(t)}
		env[c.name] = c.value
		began := time.Now()
		code, out := runEdge(t, script, "EDGE_HTTPS_PORT="+env["EDGE_HTTPS_PORT"], "EDGE_HTTP_PORT="+env["EDGE_HTTP_PORT"], "PORT="+env["PORT"])
		if code == 0 || out != c.want {
			t.Errorf("%s=%s: exit status %d, said:\n%s\nwant non-zero and only:\n%s", c.name, c.value, code, out, c.want)
		}
		if took := time.Since(began); took > 10*time.Second {
			t.Errorf("%s=%s: the refusal took %v; want it before anything starts", c.name, c.value, took)
		}
	}

	// nginx fails to bind its HTTP port: the script says so, stops the
	// service it started, and exits non-zero.
	service := freePort(t)
	code, out := runEdge(t, script, "EDGE_HTTPS_PORT="+freePort(t), "EDGE_HTTP_PORT="+strconv.Itoa(boundNotListening(t)),
		"PORT="+service, "DATABASE_URL="+dbtest.NewURL(t))
	if code == 0 || !strings.Contains(out, "make edge: nginx did not start (its message is above); the service is stopped too.\n") ||
		!strings.Contains(out, "Address already in use") {
		t.Errorf("nginx on a taken port: exit status %d, said:\n%s\nwant non-zero, nginx's message and the script's sentence", code, out)
	}
	if res, err := http.Get("http://127.0.0.1:" + service + "/healthz"); err == nil {
		res.Body.Close()
		t.Errorf("the service still answers after make edge exited")
	}
}

// TestMakeEdgeServesOnItsPorts: make edge with EDGE_HTTPS_PORT and
// EDGE_HTTP_PORT serves there, through nginx, and Ctrl-C (SIGINT to the
// terminal's process group) stops both, with one line and exit status 0.
func TestMakeEdgeServesOnItsPorts(t *testing.T) {
	t.Parallel()
	script := edgeScript(t)
	https, plain := freePort(t), freePort(t)
	cmd := exec.Command("bash", script)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "EDGE_HTTPS_PORT=" + https,
		"EDGE_HTTP_PORT=" + plain, "PORT=" + freePort(t), "DATABASE_URL=" + dbtest.NewURL(t)}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a terminal's process group of its own
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	})
	want := "events behind nginx: https://127.0.0.1:" + https + "/events (self-signed: accept the browser's warning, or curl -k)"
	var said []string
	timeout := time.After(time.Minute)
wait:
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("make edge ended before serving:\n%s\n%s", strings.Join(said, "\n"), stderr.String())
			}
			said = append(said, line)
			if line == want {
				break wait
			}
		case <-timeout:
			t.Fatalf("make edge did not say %q within a minute:\n%s\n%s", want, strings.Join(said, "\n"), stderr.String())
		}
	}
	client := &http.Client{
		Transport:     &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}, // make edge's own certificate
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	res, err := client.Get("https://127.0.0.1:" + https + "/healthz")
	if err != nil {
		t.Fatalf("GET https://127.0.0.1:%s/healthz: %v", https, err)
	}
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Strict-Transport-Security") == "" {
		t.Errorf("through the edge on EDGE_HTTPS_PORT: %d, HSTS %q; want 200 from behind nginx", res.StatusCode, res.Header.Get("Strict-Transport-Security"))
	}
	res, err = client.Get("http://127.0.0.1:" + plain + "/events")
	if err != nil {
		t.Fatalf("GET http://127.0.0.1:%s/events: %v", plain, err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != 308 || loc != "https://127.0.0.1:"+https+"/events" {
		t.Errorf("EDGE_HTTP_PORT answered %d to %q; want 308 to the HTTPS port", res.StatusCode, loc)
	}

	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) // Ctrl-C
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("make edge after Ctrl-C: %v, want exit status 0\n%s", err, stderr.String())
		}
		for line := range lines {
			said = append(said, line)
		}
		if last := said[len(said)-1]; last != "make edge: stopped; the service and nginx have ended cleanly." {
			t.Errorf("make edge's last line after Ctrl-C: %q", last)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("make edge did not stop within 30 s of Ctrl-C:\n%s", stderr.String())
	}
	for _, port := range []string{https, plain} {
		if conn, err := net.Dial("tcp", "127.0.0.1:"+port); err == nil {
			conn.Close()
			t.Errorf("port %s still answers after Ctrl-C", port)
		}
	}
}
