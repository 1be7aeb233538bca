-- An export (DESIGN.md, Export) includes cancelled events, which
-- events_span_idx leaves out: with this index beside it, the ids of every
-- event in a window are found by spans alone. The predicate is the one the
-- check cancelled_iff_cancelled_at makes equal to status = 'cancelled'; put
-- that way, events_cancelled_idx (whose predicate is status = 'cancelled')
-- cannot serve the same condition, and the planner walked all of it.
CREATE INDEX events_cancelled_span_idx ON events USING gist (span) WHERE cancelled_at IS NOT NULL;
