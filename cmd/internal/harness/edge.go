// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package harness

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"events/edge"
)

// Edge is nginx rendered from the real edge template, in front of one
// instance of the service or several, on loopback with a self-signed
// certificate. Its limits are raised for load: the edge tests prove them.
type Edge struct {
	cmd      *exec.Cmd
	Base     string // https://127.0.0.1:<port>
	Prefix   string // nginx's folder: the configuration, the logs
	ErrorLog string
	TLS      *tls.Config // trusts the edge's certificate
}

// StartEdge renders the edge's configuration for upstreams into dir/nginx,
// starts nginx and waits until it accepts connections; nginx's own output
// goes to out (nil: discarded).
func StartEdge(dir string, upstreams []string, out io.Writer) (*Edge, error) {
	exe, err := edge.FindNginx()
	if err != nil {
		return nil, err
	}
	prefix := filepath.Join(dir, "nginx")
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return nil, err
	}
	certPEM, keyPEM, err := edge.SelfSigned("127.0.0.1", 24*time.Hour)
	if err != nil {
		return nil, err
	}
	cert, key := filepath.Join(prefix, "cert.pem"), filepath.Join(prefix, "key.pem")
	if err := os.WriteFile(cert, certPEM, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(key, keyPEM, 0o600); err != nil {
		return nil, err
	}
	https, err := FreePort()
	if err != nil {
		return nil, err
	}
	plain, err := FreePort()
	if err != nil {
		return nil, err
	}
	cfg := edge.Defaults()
	cfg.HTTPS, cfg.HTTP = []string{"127.0.0.1:" + strconv.Itoa(https)}, []string{"127.0.0.1:" + strconv.Itoa(plain)}
	cfg.Upstreams, cfg.Certificate, cfg.Key, cfg.Prefix = upstreams, cert, key, prefix
	cfg.AccessLog, cfg.ErrorLog = filepath.Join(prefix, "access.log"), filepath.Join(prefix, "error.log")
	cfg.Workers = "1"
	if os.Geteuid() == 0 {
		cfg.User = "root"
	}
	cfg.ConnPerClient, cfg.Rate, cfg.Burst = 10000, "100000r/s", 100000
	conf := filepath.Join(prefix, "nginx.conf")
	f, err := os.Create(conf)
	if err != nil {
		return nil, err
	}
	if err := edge.Render(f, cfg); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(certPEM)
	e := &Edge{
		cmd:  exec.Command(exe, "-p", prefix, "-c", conf, "-e", "stderr", "-g", "daemon off;"),
		Base: "https://127.0.0.1:" + strconv.Itoa(https), Prefix: prefix, ErrorLog: cfg.ErrorLog,
		TLS: &tls.Config{RootCAs: roots, ServerName: "127.0.0.1"},
	}
	e.cmd.Stdout, e.cmd.Stderr = out, out
	if err := e.cmd.Start(); err != nil {
		return nil, err
	}
	if err := waitTCP("127.0.0.1:"+strconv.Itoa(https), 10*time.Second); err != nil {
		e.Stop()
		return nil, fmt.Errorf("nginx: %w", err)
	}
	return e, nil
}

// Client is an HTTP client that trusts the edge and follows no redirect.
func (e *Edge) Client(timeout time.Duration) *http.Client {
	return &http.Client{
		Transport:     &http.Transport{TLSClientConfig: e.TLS},
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Stop stops nginx and waits for it.
func (e *Edge) Stop() {
	if e.cmd.Process != nil {
		_ = e.cmd.Process.Signal(os.Interrupt)
		_ = e.cmd.Wait()
	}
}

func waitTCP(addr string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}
