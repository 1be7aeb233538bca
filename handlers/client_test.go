// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	// the generated client's one dependency, required in go.mod (the
	// walk-through builds inside this module)
	_ "github.com/oapi-codegen/runtime"
)

// A client generated from the served document works: oapi-codegen (a tool
// of go.mod) generates a Go client from GET /api/openapi.json into a
// temporary folder, and the walk-through of testdata/walkthrough, built
// with it through an overlay, runs against the real server on a loopback
// port: it creates each kind, pages through a filtered listing, searches
// in Korean, runs every lifecycle operation, reads the history, PATCHes
// with a current and a stale If-Match (412 read as a typed answer),
// retries a create with an Idempotency-Key and exports. Nothing generated
// is kept.
func TestGeneratedClientWalkThrough(t *testing.T) {
	s := newServer(t)
	base := s.serveLive()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command, to run oapi-codegen and the walk-through: %v", err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	res, err := http.Get(base + "/api/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	served, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/openapi.json: %d %v", res.StatusCode, err)
	}
	dir := t.TempDir()
	doc, generated := filepath.Join(dir, "openapi.json"), filepath.Join(dir, "client.gen.go")
	config := filepath.Join(dir, "oapi-codegen.yaml")
	write(t, doc, served)
	write(t, config, []byte("package: main\ngenerate:\n  client: true\n  models: true\noutput: "+generated+"\n"))
	run := func(what string, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, goCmd, args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", what, err, out)
		}
		return string(out)
	}
	run("generating the client", "tool", "oapi-codegen", "-config", config, doc)

	// The generated file joins the walk-through's folder only in the build.
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {
		filepath.Join(root, "handlers", "testdata", "walkthrough", "client.gen.go"): generated,
	}})
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "overlay.json"), overlay)
	out := run("the walk-through", "run", "-overlay", filepath.Join(dir, "overlay.json"), "./handlers/testdata/walkthrough", base)
	t.Logf("the walk-through with the generated client:\n%s", out)
	if !strings.Contains(out, "walk-through: ok") {
		t.Errorf("the walk-through did not finish")
	}
}

func write(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
