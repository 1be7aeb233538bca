package handlers

import (
	"bytes"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
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

// gzipLevel is the level of the answers compressed per request. Measured
// on a tab's fragment (BenchmarkCompressFragment, 10 and 40 rows: 19.8 and
// 78.7 KB), gzip 5 took 0.07 and 0.15 ms for 1.4 and 3.2 KB, brotli 4
// 0.19 and 0.57 ms for 1.1 and 1.9 KB, against 1.4 to 4.6 ms for the whole
// answer: brotli's few hundred bytes are not worth three times the CPU on
// every answer, so rendered answers are gzip only (static files, encoded
// once, are brotli too).
const gzipLevel = 5

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

// compressBuffers hold the compressed bodies while they are copied into
// the answer.
var compressBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

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
	bp := compressBuffers.Get().(*[]byte)
	defer compressBuffers.Put(bp)
	*bp = fasthttp.AppendGzipBytesLevel((*bp)[:0], body, gzipLevel)
	if len(*bp) >= len(body) {
		return nil
	}
	resp.SetBody(*bp) // a copy: the buffer goes back to the pool
	resp.Header.Set(fiber.HeaderContentEncoding, "gzip")
	return nil
}
