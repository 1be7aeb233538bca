// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"events/handlers"
)

// TestOversizeBodyIs413ForEveryClient sends 2 MiB from Go's own client 20
// times: each gets the 413 problem, never a reset or a broken pipe (the
// server closes the connection lingering: it reads and discards the rest).
func TestOversizeBodyIs413ForEveryClient(t *testing.T) {
	s := newServer(t)
	base := s.serveLive()
	body := bytes.Repeat([]byte("x"), 2<<20)
	client := &http.Client{Timeout: 20 * time.Second}
	for i := 0; i < 20; i++ {
		res, err := client.Post(base+"/api/events", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatalf("try %d: %v, want a 413 answer", i+1, err)
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusRequestEntityTooLarge ||
			res.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(string(b), "256 KiB") {
			t.Fatalf("try %d: %d %s (%v), want the 413 problem", i+1, res.StatusCode, b, err)
		}
		checkSecurityHeaders(t, answer{method: "POST", target: "/api/events", Status: res.StatusCode, Header: res.Header, Body: b})
	}
	// A client that writes its whole body before it reads (as Python's
	// http.client does): without the lingering close its write failed with
	// a broken pipe or a reset in most tries.
	for i := 0; i < 20; i++ {
		conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
		head := "POST /api/events HTTP/1.1\r\nHost: events.test\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
		if _, err := conn.Write(append([]byte(head), body...)); err != nil {
			conn.Close()
			t.Fatalf("try %d: writing the body: %v, want the server to read and discard it", i+1, err)
		}
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			conn.Close()
			t.Fatalf("try %d: %v, want a 413 answer", i+1, err)
		}
		res.Body.Close()
		conn.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("try %d: %d, want 413", i+1, res.StatusCode)
		}
	}
	if n, rows := s.counts(); n != 0 || rows != 0 {
		t.Errorf("an oversize body wrote %d events", n)
	}
}

// TestLargeHeadsAreServed: a head of 16 KiB (a session cookie among other
// apps' cookies of the same site) is served; one over the limit is a 431
// problem with the security headers.
func TestLargeHeadsAreServed(t *testing.T) {
	s := newServer(t)
	base := s.serveLive()
	var cookies []string
	for i := 0; len(strings.Join(cookies, "; ")) < 16<<10; i++ {
		cookies = append(cookies, "other_app_"+strings.Repeat("c", 4)+string(rune('a'+i%26))+"="+strings.Repeat("v", 90))
	}
	for _, target := range []string{"/healthz", "/api/events/inbox", "/events"} {
		req, _ := http.NewRequest("GET", base+target, nil)
		req.Header.Set("Cookie", strings.Join(cookies, "; "))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s with a 16 KiB Cookie header: %d, want 200", target, res.StatusCode)
		}
	}
	req, _ := http.NewRequest("GET", base+"/healthz", nil)
	req.Header.Set("Cookie", "big="+strings.Repeat("v", handlers.HeadLimit))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	a := answer{method: "GET", target: "/healthz (a head over the limit)", Status: res.StatusCode, Header: res.Header, Body: b}
	a.problem(t, http.StatusRequestHeaderFieldsTooLarge)
	checkSecurityHeaders(t, a)
}

// rawExchange writes head (and whatever follows it) on a new connection and
// reads every answer until the server closes.
func rawExchange(t *testing.T, base, raw string) []answer {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	var out []answer
	r := bufio.NewReader(conn)
	for {
		res, err := http.ReadResponse(r, nil)
		if err != nil {
			return out
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		out = append(out, answer{method: "raw", target: strings.SplitN(raw, "\r\n", 2)[0], Status: res.StatusCode, Header: res.Header, Body: b})
	}
}

// TestLooseFramingIsRefused: a request framed two ways at once is 400 with
// the security headers and nothing internal, and the connection ends there,
// so the second request hidden in its body ("smuggled") is never served.
func TestLooseFramingIsRefused(t *testing.T) {
	s := newServer(t)
	base := s.serveLive()
	smuggled := "GET /api/events/inbox HTTP/1.1\r\nHost: events.test\r\n\r\n"
	body := `{"kind":"task","title":"smuggled"}`
	for name, raw := range map[string]string{
		"Transfer-Encoding and Content-Length": "POST /api/events HTTP/1.1\r\nHost: events.test\r\nContent-Type: application/json\r\n" +
			"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk(body) + "0\r\n\r\n" + smuggled,
		"Content-Length and Transfer-Encoding": "POST /api/events HTTP/1.1\r\nHost: events.test\r\nContent-Type: application/json\r\n" +
			"Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n" + chunk(body) + "0\r\n\r\n" + smuggled,
		"two Content-Lengths": "POST /api/events HTTP/1.1\r\nHost: events.test\r\nContent-Type: application/json\r\n" +
			"Content-Length: 0\r\nContent-Length: 34\r\n\r\n" + body + smuggled,
		// identical ones too: RFC 9112 lets a recipient refuse them, and
		// nginx does ("client sent duplicate header line")
		"two equal Content-Lengths": "POST /api/events HTTP/1.1\r\nHost: events.test\r\nContent-Type: application/json\r\n" +
			"Content-Length: 34\r\nContent-Length: 34\r\n\r\n" + body + smuggled,
		"no Host": "POST /api/events HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 34\r\n\r\n" + body + smuggled,
		"Transfer-Encoding other than chunked": "POST /api/events HTTP/1.1\r\nHost: events.test\r\nContent-Type: application/json\r\n" +
			"Transfer-Encoding: gzip, chunked\r\n\r\n" + chunk(body) + "0\r\n\r\n" + smuggled,
		"a head that does not parse": "POST /api/events HTTP/1.1\r\nHost: events.test\r\nContent-Length: zz\r\n\r\n" + smuggled,
	} {
		answers := rawExchange(t, base, raw)
		if len(answers) != 1 {
			t.Errorf("%s: %d answers %v, want one 400 and the connection closed", name, len(answers), answers)
			continue
		}
		a := answers[0]
		p := a.problem(t, http.StatusBadRequest)
		checkSecurityHeaders(t, a)
		for _, internal := range []string{"Buffer", "size=", "fasthttp", "error when", "cannot"} {
			if strings.Contains(p.Detail, internal) {
				t.Errorf("%s: the 400 says something internal: %q", name, p.Detail)
			}
		}
	}
	// An HTTP/1.0 request may go without Host.
	if a := rawExchange(t, base, "GET /healthz HTTP/1.0\r\n\r\n"); len(a) != 1 || a[0].Status != http.StatusOK {
		t.Errorf("HTTP/1.0 without Host: %v, want 200", a)
	}
	if n, _ := s.counts(); n != 0 {
		t.Errorf("%d events stored, want none: every create was loosely framed", n)
	}
}

func chunk(s string) string {
	return strings.ToUpper(strconvHex(len(s))) + "\r\n" + s + "\r\n"
}

func strconvHex(n int) string {
	const digits = "0123456789abcdef"
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 16 {
		b = append([]byte{digits[n%16]}, b...)
	}
	return string(b)
}

// TestRequestIDFromAClientIsKeptOnlyWhenPlain: an X-Request-Id of 1 to 64
// of [A-Za-z0-9._-] is kept (answer and log); anything else is replaced by
// a fresh id and never reaches the log.
func TestRequestIDFromAClientIsKeptOnlyWhenPlain(t *testing.T) {
	base, logs := loggedApp(t, handlers.Options{}, nil)
	get := func(id string) string {
		t.Helper()
		req, _ := http.NewRequest("GET", base+"/healthz", nil)
		req.Header.Set("X-Request-Id", id)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.Header.Get("X-Request-Id")
	}
	for _, id := range []string{"abc-123_X.y", strings.Repeat("a", 64), "0f8fad5b-d9cb-469f-a165-70867728950e"} {
		if got := get(id); got != id || !strings.Contains(logs.String(), `"id":"`+id+`"`) {
			t.Errorf("X-Request-Id %q: answered %q, want it kept and logged", id, got)
		}
	}
	for _, id := range []string{strings.Repeat("b", 65), "has space", `quote"d`, "semi;colon", "caf\u00e9", "a/b", "<script>", "x=1 level=ERROR"} {
		if got := get(id); got == id || len(got) != 36 {
			t.Errorf("X-Request-Id %q: answered %q, want a fresh UUID", id, got)
		}
		if strings.Contains(logs.String(), id) {
			t.Errorf("X-Request-Id %q reached the log", id)
		}
	}
}

// TestManyUnknownKeysAreNamedInPart: a 422 for thousands of unknown keys
// names MaxNamedFields of them and counts the rest, in the answer and in
// the log line.
func TestManyUnknownKeysAreNamedInPart(t *testing.T) {
	base, logs := loggedApp(t, handlers.Options{}, nil)
	var b strings.Builder
	b.WriteString(`{"kind":"task","title":"x"`)
	for i := range 5000 {
		b.WriteString(`,"unknown_` + strconvHex(i) + `":1`)
	}
	b.WriteString("}")
	res, err := http.Post(base+"/api/events", "application/json", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), "5000 fields") ||
		!strings.Contains(string(body), "and 4980 more") || strings.Count(string(body), `"field":`) != handlers.MaxNamedFields {
		t.Errorf("5,000 unknown keys: %d %s", res.StatusCode, body)
	}
	if len(body) > 4096 {
		t.Errorf("the 422 is %d bytes, want a bounded answer", len(body))
	}
	var refused string
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "request refused") {
			refused = line
		}
	}
	if !strings.Contains(refused, "and 4980 more") || strings.Count(refused, "(unknown)") != handlers.MaxNamedFields || len(refused) > 2048 {
		t.Errorf("the log line of the 422: %s", refused)
	}
}

// TestLongPathsAreCutInTheLog: a path of 40 KiB (heads may be 64 KiB) is
// logged cut to a few hundred bytes.
func TestLongPathsAreCutInTheLog(t *testing.T) {
	base, logs := loggedApp(t, handlers.Options{}, nil)
	res, err := http.Get(base + "/api/events/" + strings.Repeat("a", 40<<10))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("a 40 KiB path: %d, want 404", res.StatusCode)
	}
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if len(line) > 1024 {
			t.Errorf("a log line of %d bytes: %.200s...", len(line), line)
		}
	}
	if !strings.Contains(logs.String(), "bytes)") {
		t.Errorf("the log does not say the path was cut:\n%s", logs)
	}
}
