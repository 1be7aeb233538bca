package handlers

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"events/app"
	"events/models"
)

// exportFormats are the formats of GET /api/events/export: the file's
// extension and content type.
var exportFormats = map[string]struct{ ext, contentType string }{
	"csv":    {"csv", "text/csv; charset=utf-8"},
	"ndjson": {"ndjson", "application/x-ndjson"},
}

// export: GET /api/events/export?format=csv|ndjson with the filters of
// GET /api/events (DESIGN.md, Export). The answer is streamed: the events
// are read a batch at a time in id order and written as they come, so its
// memory does not grow with their number. Each batch has the request's
// deadline of its own, and the connection's write deadline moves on with
// each batch: a long export that keeps going is not cut off.
func (h *Handlers) export(c *fiber.Ctx) error {
	values, err := queryValues(c)
	if err != nil {
		return err
	}
	name := values.Get("format")
	if len(values["format"]) > 1 {
		return models.BadRequest("format", "appears more than once")
	}
	if name == "" {
		name = "csv"
	}
	format, ok := exportFormats[name]
	if !ok {
		return models.BadRequest("format", "must be csv or ndjson")
	}
	values.Del("format")
	q, err := models.ParseListQuery(models.ListExport, values, h.svc.Location())
	if err != nil {
		return err
	}
	// An error before the first byte is an ordinary error answer.
	x, err := h.svc.StartExport(c.UserContext(), q, name == "ndjson")
	if err != nil {
		return err
	}
	first, hist, err := h.svc.ExportBatch(c.UserContext(), x, app.ExportBatchSize)
	if err != nil {
		return err
	}
	date := h.svc.Now().In(h.svc.Location()).Format("2006-01-02")
	c.Set(fiber.HeaderContentType, format.contentType)
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="events-`+date+`.`+format.ext+`"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	svc, timeout := h.svc, h.opts.RequestTimeout
	c.Context().SetBodyStream(&exportStream{
		csv: name == "csv", events: first, histories: hist,
		conn: c.Context().Conn(), writeTimeout: h.opts.WriteTimeout, log: h.log,
		// The stream reads its further batches after the handler returned:
		// it keeps the request's slot until it ends (admission.go).
		release: keepSlot(c),
		next: func() ([]models.Event, [][]models.History, error) {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			return svc.ExportBatch(app.WithStatementDeadline(ctx), x, app.ExportBatchSize)
		},
	}, -1)
	return nil
}

// exportStream is the body of an export, encoded a batch at a time.
// fasthttp writes it with WriteTo (it is a fasthttp.BodyWriterTo): one
// chunk and one write a batch, from the handler's own goroutine. Read gives
// the same bytes to any other reader. When a batch cannot be read, WriteTo
// and Read return the error: the status and part of the file are already
// sent, so fasthttp closes the connection without the chunk that ends a
// chunked answer, the client sees an error rather than a file that looks
// whole, and the log says why.
type exportStream struct {
	csv       bool
	events    []models.Event // the batch to encode next
	histories [][]models.History
	next      func() ([]models.Event, [][]models.History, error) // the batch after the last

	conn         net.Conn
	writeTimeout time.Duration
	log          *slog.Logger
	release      func() // gives the request's slot back

	started, done bool
	err           error        // why the file ends short
	buf           bytes.Buffer // the encoded batch
}

// fill encodes the next batch into buf; false once the file is complete.
func (s *exportStream) fill() bool {
	if s.done {
		return false
	}
	s.buf.Reset()
	if !s.started {
		s.started = true
		if s.csv {
			s.buf.Write(models.AppendCSVHeader(s.buf.AvailableBuffer()))
		}
	} else {
		if len(s.events) < app.ExportBatchSize {
			s.done = true
			return false
		}
		after := s.events[len(s.events)-1].ID
		var err error
		if s.events, s.histories, err = s.next(); err != nil {
			s.log.Error("export: reading a batch failed; the answer is aborted", "after", after, "err", err)
			s.err = fmt.Errorf("export: reading the batch after id %d: %w", after, err)
			s.done = true
			return false
		}
		if len(s.events) == 0 {
			s.done = true
			return false
		}
	}
	for i := range s.events {
		if s.csv {
			s.buf.Write(models.AppendCSVRecord(s.buf.AvailableBuffer(), &s.events[i]))
			continue
		}
		var hs []models.History
		if s.histories != nil {
			hs = s.histories[i]
		}
		line, err := models.AppendExportJSON(s.buf.AvailableBuffer(), &s.events[i], hs)
		if err != nil {
			s.log.Error("export: encoding an event", "id", s.events[i].ID, "err", err)
			s.done = true
			return s.buf.Len() > 0
		}
		s.buf.Write(line)
	}
	// A long export that keeps going is not cut off: the connection's
	// write deadline moves on with each batch.
	if s.conn != nil && s.writeTimeout > 0 {
		_ = s.conn.SetWriteDeadline(time.Now().Add(s.writeTimeout))
	}
	return true
}

// WriteTo writes the whole file to w, a batch a write.
func (s *exportStream) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for s.fill() {
		n, err := w.Write(s.buf.Bytes())
		total += int64(n)
		if err != nil {
			return total, err // the client went away
		}
	}
	return total, s.err
}

// Close gives the request's slot back: fasthttp calls it once the answer
// is written, or given up.
func (s *exportStream) Close() error {
	s.release()
	return nil
}

// SupportsBodyWriteTo tells fasthttp that WriteTo writes what Read reads.
func (s *exportStream) SupportsBodyWriteTo() bool { return true }

func (s *exportStream) Read(p []byte) (int, error) {
	for s.buf.Len() == 0 {
		if !s.fill() {
			if s.err != nil {
				return 0, s.err
			}
			return 0, io.EOF
		}
	}
	return s.buf.Read(p)
}

// fasthttp takes the batch-a-write path only for a BodyWriterTo.
var _ fasthttp.BodyWriterTo = (*exportStream)(nil)
