DROP INDEX events_updated_idx;
