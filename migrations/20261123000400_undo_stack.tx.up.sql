-- The undo stack as links (DESIGN.md, History): the event row names the step
-- reactivate would undo (undo_top, read only while undo_status is set), and
-- each complete, cancel or defer names the step beneath it on the stack when
-- it was done (undo_next). Reactivate then reads three rows by primary key
-- instead of searching every step for one no reactivate has undone yet, a
-- search that grew with every undone step.
ALTER TABLE events ADD COLUMN undo_top bigint;
--bun:split
ALTER TABLE event_history ADD COLUMN undo_next bigint,
    ADD CONSTRAINT undo_next_earlier CHECK (undo_next < id),
    ADD CONSTRAINT undo_next_on_steps CHECK (undo_next IS NULL OR change_kind IN ('complete', 'cancel', 'defer'));
--bun:split
-- Backfill the rows written before this migration. Under the old rule every
-- reactivate undid the newest step not undone yet, so the steps not undone
-- form a stack; its depth after each row is the running count of steps minus
-- reactivates, and the step at depth k at any moment is the newest step so
-- far that brought the stack to depth k. So the step beneath a step of depth
-- d is the newest earlier step of depth d - 1.
CREATE TEMP TABLE undo_backfill ON COMMIT DROP AS
SELECT h.id, h.event_id, h.change_kind <> 'reactivate' AS step,
    sum(CASE WHEN h.change_kind = 'reactivate' THEN -1 ELSE 1 END)
        OVER (PARTITION BY h.event_id ORDER BY h.id) AS depth
FROM event_history h
WHERE h.change_kind IN ('complete', 'cancel', 'defer', 'reactivate')
  AND h.event_id IN (SELECT event_id FROM event_history WHERE change_kind = 'reactivate'
                     UNION SELECT event_id FROM event_history WHERE change_kind IN ('complete', 'cancel', 'defer')
                     GROUP BY event_id HAVING count(*) > 1);
--bun:split
CREATE INDEX ON undo_backfill (event_id, depth, id) WHERE step;
--bun:split
ANALYZE undo_backfill;
--bun:split
-- history rows are facts and the trigger refuses every UPDATE; this one only
-- fills the new column, once, inside this migration's transaction
ALTER TABLE event_history DISABLE TRIGGER event_history_append_only;
--bun:split
UPDATE event_history h SET undo_next = b.below
FROM (
    SELECT s.id, (
        SELECT p.id FROM undo_backfill p
        WHERE p.step AND p.event_id = s.event_id AND p.depth = s.depth - 1 AND p.id < s.id
        ORDER BY p.id DESC LIMIT 1) AS below
    FROM undo_backfill s
    WHERE s.step
) b
WHERE h.id = b.id AND b.below IS NOT NULL;
--bun:split
ALTER TABLE event_history ENABLE TRIGGER event_history_append_only;
--bun:split
-- the top: the newest step no reactivate names, by the old rule itself
UPDATE events e SET undo_top = t.top
FROM (
    SELECT h.event_id, max(h.id) AS top FROM event_history h
    WHERE h.change_kind IN ('complete', 'cancel', 'defer')
      AND NOT EXISTS (SELECT 1 FROM event_history r WHERE r.undoes = h.id)
    GROUP BY h.event_id
) t
WHERE e.id = t.event_id AND e.undo_status IS NOT NULL;
