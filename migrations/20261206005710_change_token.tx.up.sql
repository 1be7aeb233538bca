-- Sync by a change token (DESIGN.md, Sync). Every write of an event row
-- (create, PATCH, lifecycle step, undo, whatever path) takes a position:
-- the writing transaction's id and a number from one sequence. A reader
-- lists the positions whose transaction is older than every transaction
-- still running (pg_snapshot_xmin of its snapshot): none of those can
-- still commit a row before them, so a client that keeps the last
-- position it read never misses a change and never reads one twice.
-- Rows written before this migration sit at position zero, ordered by id.
CREATE SEQUENCE events_change_seq;
--bun:split
ALTER TABLE events
    ADD COLUMN change_xid xid8 NOT NULL DEFAULT '0',
    ADD COLUMN change_seq bigint NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE events ALTER COLUMN change_xid DROP DEFAULT, ALTER COLUMN change_seq DROP DEFAULT;
--bun:split
CREATE FUNCTION events_change_position() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.change_xid := pg_current_xact_id();
    NEW.change_seq := nextval('events_change_seq');
    RETURN NEW;
END $$;
--bun:split
CREATE TRIGGER events_change_position BEFORE INSERT OR UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION events_change_position();
--bun:split
CREATE INDEX events_change_idx ON events (change_xid, change_seq, id);
