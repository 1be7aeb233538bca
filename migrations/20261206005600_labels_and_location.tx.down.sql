DROP INDEX IF EXISTS events_search_idx;
--bun:split
CREATE INDEX events_search_idx ON events USING gin ((lower(title || ' ' || description)) gin_trgm_ops);
--bun:split
DROP FUNCTION IF EXISTS events_search_text(text, text, text, text[]);
--bun:split
ALTER TABLE events DROP COLUMN IF EXISTS labels, DROP COLUMN IF EXISTS location;
--bun:split
DROP FUNCTION IF EXISTS events_labels_each_valid(text[]);
