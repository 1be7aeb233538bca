ALTER TABLE event_history DROP CONSTRAINT IF EXISTS undo_next_on_steps,
    DROP CONSTRAINT IF EXISTS undo_next_earlier,
    DROP COLUMN IF EXISTS undo_next;
--bun:split
ALTER TABLE events DROP COLUMN IF EXISTS undo_top;
