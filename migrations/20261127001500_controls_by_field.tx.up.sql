-- text_without_controls held four fields in one constraint, so a row it
-- refused could not say which field broke it (the API named title for a
-- tab in a project_tag). One constraint a field, each declared by its field
-- in models.EventFields. NOT VALID: every stored row already passed
-- text_without_controls, which says the same; no scan under the lock.
ALTER TABLE events ADD CONSTRAINT title_without_controls
    CHECK (title !~ '[\u0001-\u0008\u000b-\u001f\u007f-\u009f]') NOT VALID;
--bun:split
ALTER TABLE events ADD CONSTRAINT description_without_controls
    CHECK (description !~ '[\u0001-\u0008\u000b-\u001f\u007f-\u009f]') NOT VALID;
--bun:split
ALTER TABLE events ADD CONSTRAINT project_tag_without_controls
    CHECK (project_tag !~ '[\u0001-\u001f\u007f-\u009f]') NOT VALID;
--bun:split
ALTER TABLE events ADD CONSTRAINT source_ref_without_controls
    CHECK (source_ref !~ '[\u0001-\u001f\u007f-\u009f]') NOT VALID;
--bun:split
ALTER TABLE events DROP CONSTRAINT text_without_controls;
