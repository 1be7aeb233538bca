-- Listings (DESIGN.md): GET /api/events?updated_since= lists the events
-- changed after an instant in (updated_at, id) order, a page at a time.
-- Without an index of that order, each page read and sorted the whole
-- table; with it, a page reads its own rows.
CREATE INDEX events_updated_idx ON events (updated_at, id);
