package handlers

import (
	"bytes"
	"hash/fnv"
	"html/template"
	"sync"

	"github.com/gofiber/template/html/v2"
)

// rowCache keeps the rendered HTML of list rows. A list page draws the same
// rows again and again (Today reloads, tab clicks), and html/template spends
// tens of microseconds on each. A row's HTML depends only on the event's
// fields and on the day (whether it is overdue), so the key is a hash of
// the event's whole JSON form and the day: a changed event has another key
// and is never served from the cache, whatever its updated_at. Rows with a
// message are drawn fresh. The oldest entries leave first once the cache
// holds max rows.
type rowCache struct {
	engine *html.Engine
	max    int

	mu    sync.Mutex
	rows  map[rowKey]template.HTML
	order []rowKey // insertion order, a ring of max entries
	next  int
}

type rowKey struct {
	id    int64
	sum   uint64 // FNV-1a of the event's JSON
	today int64
}

// rowCacheSize bounds the cache: about 3 KB a row, so a few MiB.
const rowCacheSize = 2048

func newRowCache(engine *html.Engine, max int) *rowCache {
	return &rowCache{engine: engine, max: max, rows: make(map[rowKey]template.HTML, max), order: make([]rowKey, 0, max)}
}

// html is the rendered row r.
func (c *rowCache) html(r rowView) (template.HTML, error) {
	if r.Message != "" || r.UndoNote != "" || r.Target != targetSelf || r.Past || r.Elapsed != "" {
		return c.render(r) // a message, or what depends on the clock (markPast)
	}
	buf := jsonBuffers.Get().(*[]byte)
	*buf = r.Event.AppendJSON((*buf)[:0])
	sum := fnv.New64a()
	sum.Write(*buf)
	jsonBuffers.Put(buf)
	key := rowKey{id: r.ID, sum: sum.Sum64(), today: r.Today.Unix()}
	c.mu.Lock()
	h, ok := c.rows[key]
	c.mu.Unlock()
	if ok {
		return h, nil
	}
	h, err := c.render(r)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.rows[key]; ok {
		return h, nil
	}
	if len(c.order) < c.max {
		c.order = append(c.order, key)
	} else {
		delete(c.rows, c.order[c.next])
		c.order[c.next] = key
		c.next = (c.next + 1) % c.max
	}
	c.rows[key] = h
	return h, nil
}

func (c *rowCache) render(r rowView) (template.HTML, error) {
	var b bytes.Buffer
	if err := c.engine.Render(&b, "partials/event_row", r); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil // the template escaped what the user typed
}

var jsonBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}
