// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"bytes"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/klauspost/compress/gzip"
)

// Compression of the answers the service renders (README, Caching and
// compression): pages, fragments and JSON go out gzipped when the client accepts it and the body is at least compressMinSize
// bytes. Static files are compressed once at start (assets.go), never here.

// compressMinSize is the smallest body compressed. An answer's head is
// about 700 bytes here (the Content-Security-Policy alone is 200), so a
// body under 1 KiB goes out in one TCP segment of 1,460 bytes whether it
// is compressed or not, and compressing it would be pure cost: a single
// event's JSON (about 500 bytes), a row's fragment after a click, a refused
// form's errors go out as they are. A page, a tab's fragment, a list or an
// error page (1.4 KB and up) is compressed.
const compressMinSize = 1024

// gzipLevel is the level of the answers compressed per request: 1, the
// fastest. On a Today fragment of 10 and 40 rows (21 and 84 KB;
// BenchmarkCompressFragment) level 5 made 1.5 and 3.4 KB, level 1 1.7 and
// 3.8 KB in about two thirds of the time; brotli 4, 1.2 and 2.0 KB, took
// four to five times as long. `make bench` showed the compression taking a
// fifth to a quarter of the service's CPU on the pages and the long lists
// at level 5; a few hundred bytes more on the wire cost less than that on
// every answer, so rendered answers are gzip at level 1 (static files,
// encoded once at start, are brotli and gzip at their best).
const gzipLevel = gzip.BestSpeed

// gzipWriters are reused: a writer holds about 1 MiB of tables, too much
// to make per answer.
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzipLevel)
	return w
}}

// appendGzip appends src gzipped to dst. The encoding runs on the calling
// goroutine (fasthttp's AppendGzipBytesLevel hands it to a worker
// goroutine and back, which costs a switch each way on every answer).
func appendGzip(dst, src []byte) []byte {
	buf := bytes.NewBuffer(dst)
	w := gzipWriters.Get().(*gzip.Writer)
	w.Reset(buf)
	_, _ = w.Write(src) // writes to a bytes.Buffer do not fail
	_ = w.Close()
	gzipWriters.Put(w)
	return buf.Bytes()
}

// compressedTypes are the Content-Types compressed here: what the handlers
// render. Static files carry their own encoding.
var compressedTypes = [][]byte{
	[]byte("text/html"),
	[]byte("application/json"),
	[]byte("application/problem+json"),
}

// compressible reports whether a Content-Type is one of compressedTypes.
func compressible(ctype []byte) bool {
	if i := bytes.IndexByte(ctype, ';'); i >= 0 {
		ctype = ctype[:i]
	}
	ctype = bytes.TrimSpace(ctype)
	for _, t := range compressedTypes {
		if bytes.EqualFold(ctype, t) {
			return true
		}
	}
	return false
}

// compress encodes the rendered answer. Errors are rendered first (by the
// one error handler, as logRequests would), so error pages and problem
// details are compressed like any answer.
func (h *Handlers) compress(c *fiber.Ctx) error {
	if err := c.Next(); err != nil {
		if herr := c.App().ErrorHandler(c, err); herr != nil {
			return herr
		}
	}
	resp := c.Response()
	if !compressible(resp.Header.ContentType()) || len(resp.Header.Peek(fiber.HeaderContentEncoding)) > 0 || resp.IsBodyStream() {
		return nil
	}
	status := resp.StatusCode()
	if status == fiber.StatusNoContent || status == fiber.StatusNotModified {
		return nil
	}
	// Whether this address is compressed depends on the client's header
	// (and on the body's size, which may change): caches must know.
	c.Vary(fiber.HeaderAcceptEncoding)
	body := resp.Body()
	if len(body) < compressMinSize {
		return nil
	}
	if !acceptsCoding(c.Get(fiber.HeaderAcceptEncoding), "gzip") {
		return nil
	}
	// The compressed body takes the place of the rendered one in the
	// answer, and the rendered one goes back into the pool of bodies
	// (swapBody): copying the compressed body into the rendered one's
	// buffer handed that buffer to fasthttp, whose pool lets go of buffers
	// as large as a page's (255 KB), so every page grew a new one.
	bp := pageBuffers.Get().(*[]byte)
	gz := appendGzip((*bp)[:0], body)
	if len(gz) >= len(body) {
		*bp = gz[:0]
		pageBuffers.Put(bp)
		return nil
	}
	swapBody(resp, &pageBuffers, bp, gz)
	resp.Header.Set(fiber.HeaderContentEncoding, "gzip")
	return nil
}
