-- The zone an event's all-day span and day-only due were fixed in
-- (DESIGN.md, Fields and JSON): the answers read its local dates
-- (start_date, end_date, due_date) in it, so a client shows them without
-- knowing EVENTS_TIMEZONE, and they keep their dates when EVENTS_TIMEZONE
-- changes. The service writes it on a create and on a PATCH that moves the
-- times. A migration does not know the service's zone: the rows stored
-- before this one are given it at the service's start (app.FillZones),
-- the zone they were fixed in unless EVENTS_TIMEZONE changed since.
ALTER TABLE events ADD COLUMN zone text;
--bun:split
-- NOT VALID: every row's zone is null here; no scan to prove it.
ALTER TABLE events ADD CONSTRAINT zone_named
    CHECK (zone <> '' AND length(zone) <= 64 AND zone !~ '[[:space:][:cntrl:]]') NOT VALID;
