// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package edge renders the nginx configuration of the edge in front of the
// service: TLS, a redirect from plain HTTP, per-client limits, the denial of
// hidden files, and the edge's own error pages (a page, or problem details
// under /api/).
package edge

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	texttemplate "text/template"
)

// Config holds the variables of the nginx configuration. Defaults returns
// the values for a server that runs the service and nginx side by side.
type Config struct {
	HTTPS      []string // listen addresses of TLS: "443", "127.0.0.1:8443", "[::]:443"
	HTTP       []string // listen addresses of plain HTTP, which redirects to the first HTTPS one
	ServerName string   // server_name; "_" answers any name
	Upstreams  []string // host:port of each `events serve`; several share the load, and one that fails is skipped

	Certificate string // PEM certificate (chain), a literal path
	Key         string // its private key, a literal path

	Prefix    string // folder of the pid file and nginx's temporary files; must exist
	PidFile   string // empty: Prefix/nginx.pid
	ACMERoot  string // certbot's webroot, served under /.well-known/acme-challenge/; empty: Prefix/acme
	AccessLog string
	ErrorLog  string
	User      string // user (and group) of the worker processes; empty: nginx's default (nobody)
	Workers   string // worker_processes: "auto" or a number

	ConnPerClient int    // requests in progress at once per client address
	Rate          string // sustained request rate per client address: "10r/s", "600r/m"
	Burst         int    // requests above the rate answered at once before 429
}

// Defaults returns the documented defaults. The limits are sized for one
// person and their scripts, per client address:
//   - 20 requests in progress: a browser opens at most 6 connections to a
//     host (or multiplexes over one with HTTP/2), a page of the service loads
//     3 or 4 resources, and a script or two may run beside it; more than 20
//     unfinished requests from one address means connections are being held
//     open (a slow-body attack), not used.
//   - 10 requests a second with a burst of 40: reopening a browser session
//     with several tabs, or typing ten quick records in a row, stays well
//     inside the burst, and an import script still gets 10 writes a second
//     (36,000 an hour); a runaway loop or a scanner is cut off after 40.
func Defaults() Config {
	return Config{
		HTTPS:         []string{"443"},
		HTTP:          []string{"80"},
		ServerName:    "_",
		Upstreams:     []string{"127.0.0.1:3000"},
		Certificate:   "/etc/events-edge/cert.pem",
		Key:           "/etc/events-edge/key.pem",
		Prefix:        "/var/lib/events-edge",
		AccessLog:     "/var/log/nginx/events-edge.access.log",
		ErrorLog:      "/var/log/nginx/events-edge.error.log",
		Workers:       "auto",
		ConnPerClient: 20,
		Rate:          "10r/s",
		Burst:         40,
	}
}

// HSTS is the Strict-Transport-Security value the edge adds to every answer
// over TLS: one year, this host only (subdomains may serve other things).
const HSTS = "max-age=31536000"

// securityHeaders are the headers the service sets on every answer
// (handlers.setSecurityHeaders; a static file replaces Cache-Control with
// its own); the edge puts the same on the answers it makes itself. A test
// compares the two.
var securityHeaders = [][2]string{
	{"Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
	{"X-Content-Type-Options", "nosniff"},
	{"X-Frame-Options", "DENY"},
	{"Referrer-Policy", "same-origin"},
	{"Cache-Control", "no-store"},
}

// errorPage is one status the edge answers itself.
type errorPage struct {
	Status  int
	Title   string // the status text, as the service's problem details use it
	Heading string // of the HTML page
	Detail  string
	Type    string // the problem type, one of the service's (handlers/problems.go)
}

// BodyLimit is the edge's client_max_body_size: the service's own limit
// (handlers.BodyLimit, which a test holds equal), so the edge answers 413
// itself and the service never has to refuse a body it half read.
const BodyLimit = 256 << 10

var errorPages = []errorPage{
	{400, "Bad Request", "The request is malformed", "The edge could not read this request: its framing or its headers are not accepted.", "/problems/malformed"},
	{403, "Forbidden", "This address is not served", "The edge refuses paths to hidden files and folders.", "/problems/forbidden"},
	{413, "Content Too Large", "The request is too large", "The body is larger than the edge accepts.", "/problems/too-large"},
	{429, "Too Many Requests", "Too many requests", "This address sent more requests than the edge allows at once; wait a moment and try again.", "/problems/rate-limited"},
	{501, "Not Implemented", "The request is not supported", "The edge accepts no transfer coding but chunked.", "/problems/malformed"},
	{502, "Bad Gateway", "The service is unavailable", "The events service is not answering; try again shortly.", "/problems/unavailable"},
	{503, "Service Unavailable", "The service is unavailable", "The events service is not answering; try again shortly.", "/problems/unavailable"},
	{504, "Gateway Timeout", "The service is unavailable", "The events service did not answer in time; try again shortly.", "/problems/unavailable"},
}

var (
	//go:embed nginx.conf.tmpl
	confText string
	//go:embed error.html
	pageText string

	confTmpl = texttemplate.Must(texttemplate.New("nginx.conf").
			Funcs(texttemplate.FuncMap{"join": strings.Join}).Parse(confText))
	pageTmpl = template.Must(template.New("error.html").Parse(pageText))
)

// Render validates cfg and writes the nginx.conf.
func Render(w io.Writer, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	type server struct {
		TLS     bool
		Headers [][2]string
	}
	type page struct {
		Status     int
		HTML, JSON string // nginx strings
	}
	v := struct {
		Config
		HSTS          string
		RedirectPort  string
		Servers       []server
		Pages         []page
		ErrorStatuses string
		BodyLimit     string
	}{Config: cfg, HSTS: HSTS, BodyLimit: strconv.Itoa(BodyLimit>>10) + "k"}
	if v.PidFile == "" {
		v.PidFile = filepath.Join(cfg.Prefix, "nginx.pid")
	}
	if v.ACMERoot == "" {
		v.ACMERoot = filepath.Join(cfg.Prefix, "acme")
	}
	if port := listenPort(cfg.HTTPS[0]); port != "443" {
		v.RedirectPort = ":" + port
	}
	v.Servers = []server{
		{TLS: false, Headers: securityHeaders},
		{TLS: true, Headers: slices.Concat(securityHeaders, [][2]string{{"Strict-Transport-Security", HSTS}})},
	}
	for _, p := range errorPages {
		var html bytes.Buffer
		if err := pageTmpl.Execute(&html, p); err != nil {
			return err
		}
		js, err := json.Marshal(struct {
			Type   string `json:"type"`
			Title  string `json:"title"`
			Status int    `json:"status"`
			Detail string `json:"detail"`
			Errors []any  `json:"errors"`
		}{p.Type, p.Title, p.Status, p.Detail, []any{}})
		if err != nil {
			return err
		}
		v.Pages = append(v.Pages, page{p.Status, quote(strings.TrimSpace(html.String()) + "\n"), quote(string(js) + "\n")})
		v.ErrorStatuses += strconv.Itoa(p.Status) + " "
	}
	v.ErrorStatuses = strings.TrimSpace(v.ErrorStatuses)
	var out bytes.Buffer
	if err := confTmpl.Execute(&out, v); err != nil {
		return err
	}
	_, err := w.Write(out.Bytes())
	return err
}

// quote makes s an nginx string. nginx has no escape for "$" (it always
// starts a variable), so the pages must not hold one.
func quote(s string) string {
	if strings.Contains(s, "$") {
		panic("edge: an error page holds a $, which nginx would read as a variable")
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}

var (
	rateRE   = regexp.MustCompile(`^[1-9][0-9]*r/[sm]$`)
	userRE   = regexp.MustCompile(`^[a-z_][a-z0-9_-]*(?: [a-z_][a-z0-9_-]*)?$`)
	nameRE   = regexp.MustCompile(`^(?:_|[A-Za-z0-9*][A-Za-z0-9.*-]*)$`)
	hostRE   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.-]*$`)
	unsafeRE = regexp.MustCompile(`[\s;{}'"$\\#]`)
)

// Validate reports every bad value, one sentence each.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	for _, l := range []struct {
		name  string
		addrs []string
	}{{"the HTTPS listen address", c.HTTPS}, {"the HTTP listen address", c.HTTP}} {
		if len(l.addrs) == 0 {
			bad("%s is missing", l.name)
		}
		for _, a := range l.addrs {
			if !validListen(a) {
				bad("%s must be a port or an address:port, such as 443 or 127.0.0.1:8443, not %q", l.name, a)
			}
		}
	}
	if len(c.Upstreams) == 0 {
		bad("the upstream is missing: the service's host:port, such as 127.0.0.1:3000")
	}
	for _, u := range c.Upstreams {
		if host, port, err := net.SplitHostPort(u); err != nil || !validPort(port) ||
			(net.ParseIP(host) == nil && !hostRE.MatchString(host)) {
			bad("the upstream must be the service's host:port, such as 127.0.0.1:3000, not %q", u)
		}
	}
	for _, n := range strings.Fields(c.ServerName) {
		if !nameRE.MatchString(n) {
			bad("the server name must be host names separated by spaces, or _, not %q", c.ServerName)
			break
		}
	}
	if strings.TrimSpace(c.ServerName) == "" {
		bad("the server name is missing (_ answers any name)")
	}
	for _, p := range []struct {
		name, path string
		optional   bool
	}{
		{"the certificate", c.Certificate, false},
		{"the certificate key", c.Key, false},
		{"the prefix", c.Prefix, false},
		{"the pid file", c.PidFile, true},
		{"the ACME root", c.ACMERoot, true},
		{"the access log", c.AccessLog, false},
		{"the error log", c.ErrorLog, false},
	} {
		if p.optional && p.path == "" {
			continue
		}
		if !filepath.IsAbs(p.path) || unsafeRE.MatchString(p.path) {
			bad("the path of %s must be absolute, without spaces, quotes, $, ;, { or }, not %q", p.name, p.path)
		}
	}
	if c.User != "" && !userRE.MatchString(c.User) {
		bad("the worker user must be a user name, optionally followed by a group, not %q", c.User)
	}
	if n, err := strconv.Atoi(c.Workers); c.Workers != "auto" && (err != nil || n < 1) {
		bad("the worker count must be auto or a positive number, not %q", c.Workers)
	}
	if c.ConnPerClient < 1 {
		bad("the connection limit per client must be at least 1, not %d", c.ConnPerClient)
	}
	if !rateRE.MatchString(c.Rate) {
		bad("the rate must be requests per second or minute, such as 10r/s or 600r/m, not %q", c.Rate)
	}
	if c.Burst < 0 {
		bad("the burst must be 0 or more, not %d", c.Burst)
	}
	return errors.Join(errs...)
}

func validListen(a string) bool {
	if validPort(a) {
		return true
	}
	host, port, err := net.SplitHostPort(a)
	return err == nil && validPort(port) && (host == "*" || net.ParseIP(host) != nil)
}

func validPort(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535 && strconv.Itoa(n) == p
}

// listenPort is the port of a valid listen address.
func listenPort(a string) string {
	if validPort(a) {
		return a
	}
	_, port, _ := net.SplitHostPort(a)
	return port
}

// FindNginx returns the nginx program: on PATH, else Debian's /usr/sbin/nginx
// (not on a normal user's PATH).
func FindNginx() (string, error) {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p, nil
	}
	const debian = "/usr/sbin/nginx"
	if fi, err := os.Stat(debian); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
		return debian, nil
	}
	return "", errors.New("nginx is not installed (neither on PATH nor at /usr/sbin/nginx): install your system's nginx package, such as `apt-get install nginx` on Debian and Ubuntu")
}
