ALTER TABLE events ADD CONSTRAINT text_without_controls CHECK (
    title !~ '[\u0001-\u0008\u000b-\u001f\u007f-\u009f]'
    AND description !~ '[\u0001-\u0008\u000b-\u001f\u007f-\u009f]'
    AND project_tag !~ '[\u0001-\u001f\u007f-\u009f]'
    AND source_ref !~ '[\u0001-\u001f\u007f-\u009f]') NOT VALID;
--bun:split
ALTER TABLE events DROP CONSTRAINT source_ref_without_controls;
--bun:split
ALTER TABLE events DROP CONSTRAINT project_tag_without_controls;
--bun:split
ALTER TABLE events DROP CONSTRAINT description_without_controls;
--bun:split
ALTER TABLE events DROP CONSTRAINT title_without_controls;
