// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"sync"
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

// DefaultMaxExports is how many exports run at once in one service unless
// EVENTS_MAX_EXPORTS says otherwise. An export
// holds one of the admission's slots for as long as its client reads
// (admission.go), and its batches come back to the database again and
// again: 20 slow export readers once held every slot, and the owner lost a
// third of the answers. A third export is refused at once rather than
// queued: it would wait for minutes, not the moment a slot takes.
const DefaultMaxExports = 2

// exportRetryAfter is the Retry-After (seconds) of an export refused
// because as many as the service allows run.
const exportRetryAfter = 10

// exportsBusy: as many exports as the service allows (max) are running
// (503 with Retry-After). It is an errBusy too: a refusal for want of
// room, not a failure to log.
type exportsBusy struct{ max int }

func (e exportsBusy) Error() string { return fmt.Sprintf("%v: %d exports are running", errBusy, e.max) }
func (e exportsBusy) Unwrap() error { return errBusy }

// exportPiece is the most an export writes to the connection at once. The
// write deadline moves on before each piece, so a client is cut off once it
// has taken nothing for the write timeout, while one that reads, however
// slowly, keeps going until the export's own deadline.
const exportPiece = 128 << 10

// export: GET /api/events/export?format=csv|ndjson with the filters of
// GET /api/events and its tz (DESIGN.md, Export), and for CSV
// formulas=escaped|raw (exportFormulas) and bom=1|0 (exportBOM). The answer is streamed: the events
// are read a batch at a time in id order and written as they come, so its
// memory does not grow with their number. At most Options.MaxExports run at once;
// each has one deadline for its whole run (Options.ExportTimeout), and each
// batch also ends at the request deadline. A client that stops reading for
// the write timeout is cut off, and an export that fails after its first
// byte (a batch that cannot be read, the deadline) is aborted: the
// connection closes without the chunk that ends the answer, so the client
// sees an error, never a file that looks whole.
func (h *Handlers) export(c *fiber.Ctx) error {
	r, err := h.exportRequest(c)
	if err != nil {
		return err
	}
	name, format, formulas, bom, q := r.name, r.format, r.formulas, r.bom, r.q
	select {
	case h.exports <- struct{}{}:
	default:
		return exportsBusy{max: cap(h.exports)}
	}
	deadline := time.Now().Add(h.opts.ExportTimeout)
	run, cancel := context.WithDeadline(context.Background(), deadline)
	var once sync.Once
	end := func() { once.Do(func() { cancel(); <-h.exports }) }
	streaming := false
	defer func() {
		if !streaming {
			end()
		}
	}()
	// An error before the first byte is an ordinary error answer. The
	// first batch ends at the request's deadline, or the export's if it
	// comes first.
	first, firstCancel := context.WithDeadline(c.UserContext(), deadline)
	defer firstCancel()
	x, err := h.svc.StartExport(first, q, name == "ndjson")
	if err != nil {
		return err
	}
	opts := models.CSVOptions{Formulas: formulas, Loc: q.Loc, DayLoc: h.svc.Zone(), Now: h.svc.Now(), From: q.From, To: q.To}
	if name == "csv" {
		x.CountMinutes(opts)
		opts.Counted = x.Counted
	}
	events, hist, err := h.svc.ExportBatch(first, x, app.ExportBatchSize)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, format.contentType)
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+exportFileName(q, h.svc.Now())+`.`+format.ext+`"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	svc, timeout := h.svc, h.opts.RequestTimeout
	// The stream reads its further batches after the handler returned: it
	// keeps the request's slot (admission.go) and the export's until it
	// ends.
	slot := keepSlot(c)
	streaming = true
	c.Context().SetBodyStream(&exportStream{
		csv: name == "csv", bom: bom, events: events, histories: hist,
		csvOptions: opts,

		conn: c.Context().Conn(), writeTimeout: h.opts.WriteTimeout, deadline: deadline, log: h.log,
		began:   deadline.Add(-h.opts.ExportTimeout),
		release: func() { end(); slot() },
		next: func() ([]models.Event, [][]models.History, error) {
			ctx, cancel := context.WithTimeout(run, timeout)
			defer cancel()
			return svc.ExportBatch(app.WithStatementDeadline(ctx), x, app.ExportBatchSize)
		},
	}, -1)
	return nil
}

// exportQuery is an export's request read: its format's name and what
// it is, how a CSV writes a formula and whether it starts with a BOM, and
// the filters.
type exportQuery struct {
	name     string
	format   struct{ ext, contentType string }
	formulas models.CSVFormulas
	bom      bool
	q        models.ListQuery
}

// exportRequest reads an export's query string: format, formulas, bom and
// the filters of the export listing.
func (h *Handlers) exportRequest(c *fiber.Ctx) (exportQuery, error) {
	var r exportQuery
	values, err := queryValues(c)
	if err != nil {
		return r, err
	}
	r.name = values.Get("format")
	if len(values["format"]) > 1 {
		return r, models.BadRequest("format", models.CodeRepeated, "appears more than once")
	}
	if !values.Has("format") {
		r.name = "csv" // an empty format= is refused, as an empty bom= is
	}
	var ok bool
	if r.format, ok = exportFormats[r.name]; !ok {
		return r, models.BadRequest("format", models.CodeBadFormat, "must be csv or ndjson")
	}
	values.Del("format")
	if r.formulas, err = exportFormulas(values, r.name); err != nil {
		return r, err
	}
	values.Del("formulas")
	if r.bom, err = exportBOM(values, r.name); err != nil {
		return r, err
	}
	values.Del("bom")
	r.q, err = models.ParseListQuery(models.ListExport, values, h.svc.Zone())
	return r, err
}

// exportFormulas reads formulas=escaped|raw, how a CSV export writes a
// cell a spreadsheet would run as a formula (models.CSVFormulas): escaped
// with a leading ' unless a script asks for the cells raw.
func exportFormulas(values url.Values, format string) (models.CSVFormulas, error) {
	if !values.Has("formulas") {
		return models.CSVFormulasEscaped, nil
	}
	if len(values["formulas"]) > 1 {
		return 0, models.BadRequest("formulas", models.CodeRepeated, "appears more than once")
	}
	var f models.CSVFormulas
	switch values.Get("formulas") {
	case "escaped":
		f = models.CSVFormulasEscaped
	case "raw":
		f = models.CSVFormulasRaw
	default:
		return 0, models.BadRequest("formulas", models.CodeBadFormat, "must be escaped (the default: a cell that begins with =, +, -, @, a tab or a carriage return gets a leading ') or raw (every cell as stored)")
	}
	if format != "csv" {
		return 0, models.BadRequest("formulas", models.CodeConflictingFields, "is for a CSV export only: NDJSON holds JSON strings, which no spreadsheet runs")
	}
	return f, nil
}

// exportBOM reads bom=1|0: whether a CSV export begins with the UTF-8
// byte-order mark (models.CSVBOM), which spreadsheet programs need to read
// Hangul as UTF-8. It does unless a script asks bom=0.
func exportBOM(values url.Values, format string) (bool, error) {
	if !values.Has("bom") {
		return true, nil
	}
	if len(values["bom"]) > 1 {
		return false, models.BadRequest("bom", models.CodeRepeated, "appears more than once")
	}
	var bom bool
	switch values.Get("bom") {
	case "1":
		bom = true
	case "0":
	default:
		return false, models.BadRequest("bom", models.CodeBadFormat, "must be 1 (the default: the file begins with the UTF-8 byte-order mark, so spreadsheet programs read it as UTF-8) or 0 (no mark)")
	}
	if format != "csv" {
		return false, models.BadRequest("bom", models.CodeConflictingFields, "is for a CSV export only: NDJSON never begins with a byte-order mark")
	}
	return bom, nil
}

// exportFileName is the name of an export's file, without its extension,
// after its window's local dates in the request's zone (DESIGN.md,
// Export): events-2026-11-23--2026-11-29 for from 23 Nov to the end of
// 29 Nov (to is exclusive: its last day is the one its previous instant
// falls in); events-from-2026-11-23 and events-until-2026-11-29 for a
// window open at one end; events-<today> for no window.
func exportFileName(q models.ListQuery, now time.Time) string {
	first := func(t time.Time) string { return t.In(q.Loc).Format(time.DateOnly) }
	last := func(t time.Time) string { return t.Add(-time.Nanosecond).In(q.Loc).Format(time.DateOnly) }
	switch {
	case q.From != nil && q.To != nil:
		return "events-" + first(*q.From) + "--" + last(*q.To)
	case q.From != nil:
		return "events-from-" + first(*q.From)
	case q.To != nil:
		return "events-until-" + last(*q.To)
	}
	return "events-" + first(now)
}

// exportStream is the body of an export, encoded a batch at a time.
// fasthttp writes it with WriteTo (it is a fasthttp.BodyWriterTo), from the
// handler's own goroutine, in pieces of at most exportPiece. Read gives the
// same bytes to any other reader. When the file cannot be finished (a batch
// that cannot be read, the export's deadline, a client that stopped
// reading), WriteTo and Read return the error: fasthttp then closes the
// connection without the last chunk, and the log says why.
type exportStream struct {
	csv        bool
	bom        bool // a CSV file begins with models.CSVBOM
	csvOptions models.CSVOptions

	events    []models.Event // the batch to encode next
	histories [][]models.History
	next      func() ([]models.Event, [][]models.History, error) // the batch after the last

	conn         net.Conn
	writeTimeout time.Duration // the longest a client may take nothing
	deadline     time.Time     // the export's: the whole file by then
	began        time.Time     // when the export began, by the service's clock
	log          *slog.Logger
	release      func() // gives the request's slot and the export's back; idempotent

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
			if s.bom {
				s.buf.WriteString(models.CSVBOM)
			}
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
			s.log.Error("export: reading a batch failed; the answer is aborted", "after", after, "err", err, "ran", time.Since(s.began))
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
		if err := s.events[i].CheckBounds(); err != nil {
			// a row from around the service that the file cannot hold:
			// left out, never the end of the file
			s.log.Error("export: left out an event it cannot write", "id", s.events[i].ID, "err", err)
			continue
		}
		if s.csv {
			s.buf.Write(models.AppendCSVRecord(s.buf.AvailableBuffer(), &s.events[i], s.csvOptions))
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
	return true
}

// WriteTo writes the whole file to w, a batch at a time in pieces of at
// most exportPiece, each under a write deadline that has moved on: the
// write timeout from now, or the export's deadline if it comes first.
func (s *exportStream) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for s.fill() {
		for b := s.buf.Bytes(); len(b) > 0; {
			piece := b[:min(len(b), exportPiece)]
			b = b[len(piece):]
			now := time.Now()
			if !now.Before(s.deadline) {
				return total, s.cut(errExportDeadline, total)
			}
			if s.conn != nil {
				d := now.Add(s.writeTimeout)
				if d.After(s.deadline) {
					d = s.deadline
				}
				_ = s.conn.SetWriteDeadline(d)
			}
			n, err := w.Write(piece)
			total += int64(n)
			if err != nil {
				return total, s.cut(err, total)
			}
		}
	}
	if s.err != nil {
		// the slots go back before fasthttp closes the connection, so a
		// client that saw the abort finds them free when it asks again
		s.release()
	}
	return total, s.err
}

// errExportDeadline: the export's deadline (Options.ExportTimeout) passed
// before the file was whole.
var errExportDeadline = errors.New("the export's deadline passed")

// cut ends the file short after a failed write, saying why in the log.
func (s *exportStream) cut(err error, written int64) error {
	s.done = true
	why := "the client went away"
	switch {
	case !time.Now().Before(s.deadline):
		why, err = "the export's deadline passed", errExportDeadline
	case errors.Is(err, os.ErrDeadlineExceeded):
		why = "the client took nothing for the write timeout"
	}
	s.log.Warn("export: cut off; the answer is aborted", "why", why, "written", written, "ran", time.Since(s.began))
	s.err = err
	s.release()
	return err
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
