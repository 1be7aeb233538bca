-- The tags the up migration rewrote keep their new form.
ALTER TABLE events DROP CONSTRAINT project_tag_without_hash;
