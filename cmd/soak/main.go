// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Command soak runs the service under a steady mixed load for a long while,
// through nginx rendered from the real edge template (its limits raised
// for the load; the edge tests prove the limits), and then checks what a
// careful operator would: no error at all, memory and goroutines back at
// their starting level, and the database holding exactly the writes that
// were acknowledged.
//
//	make soak                     # 10 minutes
//	go run ./cmd/soak -duration 1m -rate 50
//
// It starts its own PostgreSQL and the real binary (built with -tags pprof,
// which exposes goroutine and heap counts on a loopback port), with a
// password and an API token set, so sessions and tokens are under load too.
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"events/cmd/internal/harness"
	"events/internal/pgcluster"
)

type options struct {
	duration time.Duration
	rate     int
	settle   time.Duration
	out      string
}

func main() {
	var o options
	flag.DurationVar(&o.duration, "duration", 10*time.Minute, "how long the load runs")
	flag.IntVar(&o.rate, "rate", 40, "requests a second, steady")
	flag.DurationVar(&o.settle, "settle", 2*time.Minute, "how long the service may take to return to its starting level after the load")
	flag.StringVar(&o.out, "out", "bin/soak.md", "where the report is written, besides stdout")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

	dir, err := os.MkdirTemp("", "events-soak")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil { // PostgreSQL runs as postgres when we are root
		return err
	}

	step("starting PostgreSQL")
	pg, err := pgcluster.Start(ctx, pgcluster.Options{DataDir: filepath.Join(dir, "pg"), Database: "events", Logger: log})
	if err != nil {
		return err
	}
	defer pg.Stop()

	step("building and starting the service (-tags pprof)")
	svc, err := startService(ctx, dir, pg.URL())
	if err != nil {
		return err
	}
	defer svc.stop()

	step("starting nginx from the edge template")
	ngx, err := harness.StartEdge(dir, []string{svc.Addr}, os.Stderr)
	if err != nil {
		return err
	}
	defer ngx.Stop()

	client := newClient(ngx)
	cookie, err := client.login()
	if err != nil {
		return err
	}
	ld := newLoad(ngx.Base, svc.token, cookie)

	// The starting level: after one round of every request, at rest.
	if err := ld.warmUp(client.http); err != nil {
		return err
	}
	time.Sleep(2 * time.Second)
	before, err := svc.sample()
	if err != nil {
		return err
	}

	step(fmt.Sprintf("load: %d requests a second for %s", o.rate, o.duration))
	attacker := vegeta.NewAttacker(
		vegeta.TLSConfig(client.tls), vegeta.KeepAlive(true), vegeta.Workers(8), vegeta.MaxWorkers(256),
		vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow))
	var metrics vegeta.Metrics
	peakRSS := before.rss
	nextSample := time.Now().Add(10 * time.Second)
	for res := range attacker.Attack(ld.targeter(), vegeta.ConstantPacer{Freq: o.rate, Per: time.Second}, o.duration, "soak") {
		metrics.Add(res)
		ld.record(res)
		if time.Now().After(nextSample) {
			if s, err := svc.sample(); err == nil && s.rss > peakRSS {
				peakRSS = s.rss
			}
			nextSample = time.Now().Add(10 * time.Second)
		}
	}
	metrics.Close()

	step("waiting for the service to return to its starting level")
	after, settled, err := svc.settle(before, o.settle)
	if err != nil {
		return err
	}
	if after.rss > peakRSS {
		peakRSS = after.rss
	}

	step("checking the database against the acknowledged writes")
	db, err := ld.check(ctx, pg.URL())
	if err != nil {
		return err
	}

	r := report{o: o, metrics: &metrics, load: ld, before: before, after: after, settled: settled, peakRSS: peakRSS, db: db}
	if access, err := os.ReadFile(filepath.Join(ngx.Prefix, "access.log")); err == nil {
		r.edgeLines = strings.Count(string(access), "\n")
	}
	text := r.markdown()
	fmt.Print(text)
	if o.out != "" {
		if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err == nil {
			_ = os.WriteFile(o.out, []byte(text), 0o644)
		}
	}
	if failures := r.failures(); len(failures) > 0 {
		return fmt.Errorf("%d checks failed:\n  %s", len(failures), strings.Join(failures, "\n  "))
	}
	return nil
}

func step(s string) { fmt.Fprintf(os.Stderr, "soak: %s\n", s) }

// client is an HTTP client that trusts the edge's certificate.
type client struct {
	http *http.Client
	tls  *tls.Config
	base string
}

func newClient(ngx *harness.Edge) *client {
	return &client{http: ngx.Client(30 * time.Second), tls: ngx.TLS, base: ngx.Base}
}

// login logs in through the edge and returns the session cookie.
func (c *client) login() (string, error) {
	resp, err := c.http.PostForm(c.base+"/login", map[string][]string{"password": {soakPassword}})
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	for _, ck := range resp.Cookies() {
		if ck.Name == "__Host-events_session" { // over HTTPS, the __Host- name
			return ck.Name + "=" + ck.Value, nil
		}
	}
	return "", fmt.Errorf("login through the edge: %s, no session cookie", resp.Status)
}
