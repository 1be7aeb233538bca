// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"events/static"
)

// Static files (README, Caching and compression): every file of static/ is
// read, hashed and compressed once, at start. The pages name each by a
// content-hashed address ({{asset "events.css"}} gives
// /static/events.3f2a9c1d0b7e.css), answered with a year's immutable cache,
// so a browser fetches each version once and a reload asks for nothing but
// the page. The plain address (/static/events.css) still answers, with a
// short cache. Each answer is the smallest encoding the client accepts
// (brotli, gzip or none), made at start: no request compresses a file.

// serviceWorker is the file of the pages' service worker (static/sw.js,
// DESIGN.md "The record line offline"), registered at its plain address
// with the scope /, which its answer allows.
const serviceWorker = "sw.js"

// Cache-Control of the static answers.
const (
	cacheImmutable = "public, max-age=31536000, immutable" // a hashed address: its content never changes
	cacheShort     = "public, max-age=300"                 // the plain address: the current version
	// an address with a hash that is not the current one (a page drawn by
	// another version of the service, during a rolling restart): the current
	// content, which the browser must not keep under that address.
	cacheStale = "no-cache"
)

// staticBrotliLevel: measured on htmx.min.js (37,448 bytes), level 10 gives
// 12,273 bytes in about 0.1 s, level 11 12,001 bytes in 0.3 to 0.6 s, and
// gzip at its best 13,334: the start pays a tenth of a second once.
const staticBrotliLevel = 10

// hashLen is the length of the hash in an address, in hex digits.
const hashLen = 12

// asset is one static file, in each encoding worth sending.
type asset struct {
	name   string // events.css
	hashed string // events.3f2a9c1d0b7e.css
	hash   string // the hex SHA-256 of the content, cut to hashLen
	ctype  string
	// the bodies: identity, and gzip and brotli when they are smaller
	raw, gzip, brotli []byte
	compressible      bool // a text type: the answer varies with Accept-Encoding
}

// assets are the static files by plain and hashed name.
type assets struct {
	byName, byHashed map[string]*asset
}

// staticType is the Content-Type of a static file: text types say their
// charset, so no browser guesses it (the Defer button's ▾ once read "â–¾").
func staticType(name string) (ctype string, compressible bool) {
	switch ext := path.Ext(name); ext {
	case ".css":
		return "text/css; charset=utf-8", true
	case ".js":
		return "text/javascript; charset=utf-8", true
	case ".svg":
		return "image/svg+xml", true
	case ".txt":
		return "text/plain; charset=utf-8", true
	case ".webmanifest": // the web app manifest (W3C Web Application Manifest, 1.1)
		return "application/manifest+json", true
	default:
		if t := mime.TypeByExtension(ext); t != "" {
			return t, false
		}
		return "application/octet-stream", false
	}
}

// hashedName puts the hash before the extension: events.css ->
// events.<hash>.css.
func hashedName(name, hash string) string {
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hash + ext
}

// embeddedAssets are the files of static/, loaded once per process (the
// highest brotli level takes a while on htmx, and the content never changes
// while the process runs): every New serves the same.
var embeddedAssets = sync.OnceValues(func() (*assets, error) { return loadAssets(static.FS) })

// loadAssets reads every file of fsys (the embedded static/), hashes it and
// compresses it at the highest levels.
func loadAssets(fsys fs.FS) (*assets, error) {
	a := &assets{byName: map[string]*asset{}, byHashed: map[string]*asset{}}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("static files: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		raw, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("static files: %w", err)
		}
		sum := sha256.Sum256(raw)
		hash := hex.EncodeToString(sum[:])[:hashLen]
		x := &asset{name: e.Name(), hashed: hashedName(e.Name(), hash), hash: hash, raw: raw}
		x.ctype, x.compressible = staticType(x.name)
		if x.compressible {
			if gz := fasthttp.AppendGzipBytesLevel(nil, raw, fasthttp.CompressBestCompression); len(gz) < len(raw) {
				x.gzip = gz
			}
			if br := fasthttp.AppendBrotliBytesLevel(nil, raw, staticBrotliLevel); len(br) < len(raw) && (x.gzip == nil || len(br) < len(x.gzip)) {
				x.brotli = br
			}
		}
		a.byName[x.name] = x
		a.byHashed[x.hashed] = x
	}
	return a, nil
}

// url is the hashed address of a static file, for the templates
// ({{asset "events.css"}}); a name that is not a static file stops the
// render, and so the start (newEngine renders every page once).
func (a *assets) url(name string) (string, error) {
	x, ok := a.byName[name]
	if !ok {
		var names []string
		for n := range a.byName {
			names = append(names, n)
		}
		sort.Strings(names)
		return "", fmt.Errorf("asset %q: no such static file (there are %s)", name, strings.Join(names, ", "))
	}
	return "/static/" + x.hashed, nil
}

// lookup finds the file of an address under /static/ and the cache it may
// be kept with.
func (a *assets) lookup(file string) (*asset, string) {
	if x, ok := a.byHashed[file]; ok {
		return x, cacheImmutable
	}
	if x, ok := a.byName[file]; ok {
		return x, cacheShort
	}
	// name.<hash>.ext with another hash: another version's address.
	ext := path.Ext(file)
	stem := strings.TrimSuffix(file, ext)
	if i := strings.LastIndexByte(stem, '.'); i > 0 && isHex(stem[i+1:], hashLen) {
		if x, ok := a.byName[stem[:i]+ext]; ok {
			return x, cacheStale
		}
	}
	return nil, ""
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

// serve answers GET and HEAD under /static/: the file in the best encoding
// the client accepts, its ETag (one per encoding), and 304 when
// If-None-Match names this content in any encoding.
func (a *assets) serve(c *fiber.Ctx) error {
	if c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead {
		c.Set(fiber.HeaderAllow, "GET, HEAD")
		return fiber.NewError(fiber.StatusMethodNotAllowed, c.Method()+" is not served here; use GET, HEAD")
	}
	file := strings.TrimPrefix(c.Path(), "/static/")
	x, cache := a.lookup(file)
	if x == nil {
		return fiber.ErrNotFound
	}
	body, coding := x.raw, ""
	if x.compressible {
		c.Vary(fiber.HeaderAcceptEncoding)
		accept := c.Get(fiber.HeaderAcceptEncoding)
		switch {
		case x.brotli != nil && acceptsCoding(accept, "br"):
			body, coding = x.brotli, "br"
		case x.gzip != nil && acceptsCoding(accept, "gzip"):
			body, coding = x.gzip, "gzip"
		}
	}
	c.Set(fiber.HeaderCacheControl, cache)
	if x.name == serviceWorker {
		// its scope is the events pages, not only /static/ (sw.js)
		c.Set("Service-Worker-Allowed", "/events")
	}
	if tag, ok := matchesNoneMatch(c.Get(fiber.HeaderIfNoneMatch), x.hash); ok {
		// The client holds this content: the tag it sent names the
		// representation it stored.
		c.Set(fiber.HeaderETag, tag)
		return c.SendStatus(fiber.StatusNotModified)
	}
	c.Set(fiber.HeaderETag, assetETag(x.hash, coding))
	c.Set(fiber.HeaderContentType, x.ctype)
	if coding != "" {
		c.Set(fiber.HeaderContentEncoding, coding)
	}
	// The body is shared by every answer: fasthttp only reads it.
	c.Response().SetBodyRaw(body)
	return nil
}

// assetETag is the entity tag of one encoding of a file: a strong tag per
// representation (RFC 9110, 8.8.3), the hash plus the coding.
func assetETag(hash, coding string) string {
	if coding == "" {
		return `"` + hash + `"`
	}
	return `"` + hash + "." + coding + `"`
}

// matchesNoneMatch reports whether an If-None-Match header names content
// with this hash, in any encoding (a weak comparison, as If-None-Match
// asks), and returns the tag that matched; "*" matches too.
func matchesNoneMatch(header, hash string) (string, bool) {
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimSpace(tag)
		if tag == "*" {
			return assetETag(hash, ""), true
		}
		opaque := strings.Trim(strings.TrimPrefix(tag, "W/"), `"`)
		if stem, _, _ := strings.Cut(opaque, "."); stem == hash {
			return tag, true
		}
	}
	return "", false
}

// acceptsCoding reports whether an Accept-Encoding header accepts coding:
// named (or matched by *) with a q-value above zero (RFC 9110, 12.5.3).
func acceptsCoding(header, coding string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		ok := qAboveZero(params)
		switch name {
		case coding:
			return ok
		case "*":
			star = ok
		}
	}
	return star
}

// qAboveZero reads the parameters of one Accept-Encoding entry: false only
// for q=0 (0, 0.0, 0.00, 0.000).
func qAboveZero(params string) bool {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			v = strings.TrimSpace(v)
			return strings.Trim(strings.TrimPrefix(v, "0."), "0") != "" && v != "0" && v != "0."
		}
	}
	return true
}
