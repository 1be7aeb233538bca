-- Identifiers hold no explicit bidirectional controls (U+202A..U+202E,
-- U+2066..U+2069): they only make text read other than it is stored. NOT
-- VALID: new and changed rows are checked; rows stored before are left as
-- they are (the API refused none of them until now).
ALTER TABLE events ADD CONSTRAINT project_tag_without_bidi
    CHECK (project_tag !~ U&'[\202A-\202E\2066-\2069]') NOT VALID;
--bun:split
ALTER TABLE events ADD CONSTRAINT source_ref_without_bidi
    CHECK (source_ref !~ U&'[\202A-\202E\2066-\2069]') NOT VALID;
