package handlers

import (
	"bufio"
	"context"
	"encoding/csv"
	"time"

	"github.com/gofiber/fiber/v2"

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
	first, hist, err := h.svc.ExportBatch(c.UserContext(), q, 0, app.ExportBatchSize, name == "ndjson")
	if err != nil {
		return err
	}
	date := h.svc.Now().In(h.svc.Location()).Format("2006-01-02")
	c.Set(fiber.HeaderContentType, format.contentType)
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="events-`+date+`.`+format.ext+`"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	conn := c.Context().Conn()
	svc, timeout, writeTimeout, log := h.svc, h.opts.RequestTimeout, h.opts.WriteTimeout, h.log
	// The stream reads its further batches after the handler returned: it
	// keeps the request's slot until it ends (admission.go).
	release := keepSlot(c)
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer release()
		var (
			cw   *csv.Writer
			rec  []string
			line []byte
		)
		if name == "csv" {
			cw = csv.NewWriter(w)
			cw.UseCRLF = true // RFC 4180
			if err := cw.Write(models.CSVHeader()); err != nil {
				return
			}
		}
		events, histories := first, hist
		for {
			for i := range events {
				if cw != nil {
					rec = models.CSVRecord(&events[i], rec)
					if err := cw.Write(rec); err != nil {
						return
					}
					continue
				}
				var hs []models.History
				if histories != nil {
					hs = histories[i]
				}
				if line, err = models.AppendExportJSON(line[:0], &events[i], hs); err != nil {
					log.Error("export: encoding an event", "id", events[i].ID, "err", err)
					return
				}
				if _, err := w.Write(line); err != nil {
					return
				}
			}
			if cw != nil {
				cw.Flush()
				if cw.Error() != nil {
					return
				}
			}
			if err := w.Flush(); err != nil {
				return // the client went away
			}
			if len(events) < app.ExportBatchSize {
				return
			}
			if conn != nil {
				_ = conn.SetWriteDeadline(time.Now().Add(writeTimeout))
			}
			after := events[len(events)-1].ID
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			events, histories, err = svc.ExportBatch(app.WithStatementDeadline(ctx), q, after, app.ExportBatchSize, name == "ndjson")
			cancel()
			if err != nil {
				// The status and part of the file are sent: the file ends
				// short, and the log says why.
				log.Error("export: reading a batch", "after", after, "err", err)
				return
			}
		}
	})
	return nil
}
