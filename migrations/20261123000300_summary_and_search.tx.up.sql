-- The summary of days (DESIGN.md, Summary) counts the tasks completed and the
-- events cancelled in a window by their completed_at and cancelled_at; its
-- logs and calendar entries come from events_span_idx. Without these two the
-- summary of any window read the whole table.
CREATE INDEX events_completed_idx ON events (completed_at) WHERE kind = 'task' AND status = 'done';
--bun:split
CREATE INDEX events_cancelled_idx ON events (cancelled_at) WHERE status = 'cancelled';
--bun:split
-- Search (DESIGN.md, Search): every word of q must occur, case-insensitively,
-- in the title or the description. pg_trgm (a trusted extension: the
-- database's owner may create it) serves `lower(title || ' ' || description)
-- LIKE '%word%'` from this GIN index. It reads Hangul only in a database whose
-- LC_CTYPE is not C (C.UTF-8 works).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--bun:split
CREATE INDEX events_search_idx ON events USING gin ((lower(title || ' ' || description)) gin_trgm_ops);
