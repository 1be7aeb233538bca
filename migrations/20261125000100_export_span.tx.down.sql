DROP INDEX IF EXISTS events_cancelled_span_idx;
