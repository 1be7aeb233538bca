// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"testing"
	"time"

	"events/app"
	"events/handlers"
	"events/internal/dbtest"
)

// TestClientAddressInTheRequestLog: the request log names the client. Only a
// trusted proxy's X-Forwarded-For is believed, and of it only the entries a
// trusted proxy appended: a client cannot put another address in the log by
// sending the header itself.
func TestClientAddressInTheRequestLog(t *testing.T) {
	t.Parallel()
	svc := app.NewService(dbtest.New(t), seoul, time.Now)
	edge := []string{"127.0.0.1"}
	chain := []string{"127.0.0.1", "10.0.0.0/8"}
	tests := []struct {
		name    string
		trusted []string
		from    string   // the peer's address
		xff     []string // X-Forwarded-For headers, one value each
		want    string
	}{
		{"no trusted proxy: the peer", nil, "127.0.0.1", []string{"203.0.113.7"}, "127.0.0.1"},
		{"an untrusted peer's header is ignored", edge, "127.0.0.5", []string{"203.0.113.7"}, "127.0.0.5"},
		{"a trusted proxy without the header: the proxy", edge, "127.0.0.1", nil, "127.0.0.1"},
		{"a trusted proxy: the address it appended", edge, "127.0.0.1", []string{"203.0.113.7"}, "203.0.113.7"},
		{"a forged entry left of the proxy's is ignored", edge, "127.0.0.1", []string{"198.51.100.1, 203.0.113.7"}, "203.0.113.7"},
		{"a forged header before the proxy's is ignored", edge, "127.0.0.1", []string{"198.51.100.1", "203.0.113.7"}, "203.0.113.7"},
		{"trusted proxies in a chain are skipped", chain, "127.0.0.1", []string{"198.51.100.1, 203.0.113.7, 10.1.2.3"}, "203.0.113.7"},
		{"only trusted entries: the farthest", chain, "127.0.0.1", []string{"10.0.0.2, 10.0.0.3"}, "10.0.0.2"},
		{"IPv6", edge, "127.0.0.1", []string{"2001:db8::7"}, "2001:db8::7"},
		{"a malformed entry ends the walk", chain, "127.0.0.1", []string{"203.0.113.7, nonsense, 10.0.0.2"}, "10.0.0.2"},
	}
	clientRE := regexp.MustCompile(`client=(\S+)`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs dbtest.LogBuffer
			f, err := handlers.New(svc, handlers.Options{
				TrustedProxies: tt.trusted,
				Logger:         slog.New(slog.NewTextHandler(&logs, nil)),
			})
			if err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go func() { _ = f.Listener(ln) }()
			t.Cleanup(func() { _ = f.ShutdownWithTimeout(2 * time.Second) })

			dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(tt.from)}}
			client := &http.Client{Transport: &http.Transport{
				DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
					return dialer.DialContext(ctx, network, addr)
				},
			}}
			req, err := http.NewRequest("GET", "http://"+ln.Addr().String()+"/healthz", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header["X-Forwarded-For"] = tt.xff
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			client.CloseIdleConnections()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET /healthz: %d", res.StatusCode)
			}
			m := clientRE.FindAllStringSubmatch(logs.String(), -1)
			if len(m) != 1 || m[0][1] != tt.want {
				t.Errorf("from %s with X-Forwarded-For %q: the log names %v, want client=%s\n%s", tt.from, tt.xff, m, tt.want, logs.String())
			}
		})
	}
}
