DROP INDEX IF EXISTS events_search_idx;
--bun:split
DROP INDEX IF EXISTS events_cancelled_idx;
--bun:split
DROP INDEX IF EXISTS events_completed_idx;
