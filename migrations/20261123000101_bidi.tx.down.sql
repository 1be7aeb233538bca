ALTER TABLE events DROP CONSTRAINT source_ref_without_bidi;
--bun:split
ALTER TABLE events DROP CONSTRAINT project_tag_without_bidi;
