-- A leading "#" of a project_tag is dropped (DESIGN.md, Fields and JSON),
-- which the API did not do until now: a tag sent as "#work" was stored so,
-- and a filter by tag (which now drops the "#" as well) would no longer
-- find it. Such tags are written as the API now stores them; updated_at
-- moves on, so an ETag a client holds of such an event no longer matches.
UPDATE events
SET project_tag = nullif(regexp_replace(project_tag, '^[#[:space:]]+', ''), ''),
    updated_at = greatest(now(), updated_at + interval '1 microsecond')
WHERE project_tag LIKE '#%';
--bun:split
-- NOT VALID: the UPDATE above left no row with one; no second scan.
ALTER TABLE events ADD CONSTRAINT project_tag_without_hash CHECK (project_tag !~ '^#') NOT VALID;
