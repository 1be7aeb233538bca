DROP INDEX events_change_idx;
--bun:split
DROP TRIGGER events_change_position ON events;
--bun:split
DROP FUNCTION events_change_position();
--bun:split
ALTER TABLE events DROP COLUMN change_seq, DROP COLUMN change_xid;
--bun:split
DROP SEQUENCE events_change_seq;
