-- Labels and places (DESIGN.md, Labels and places): any number of labels
-- beside the one project_tag, each with the project tag's character rules,
-- at most 20 of at most 64 characters; and an optional location of at most
-- 200 characters. A filter by label (labels @> ARRAY[...]) is served by the
-- GIN index.
ALTER TABLE events ADD COLUMN labels text[] NOT NULL DEFAULT '{}';
--bun:split
ALTER TABLE events ADD COLUMN location text;
--bun:split
-- Each label on its own: 1 to 64 characters, no leading "#", no space at
-- either end. An IMMUTABLE function, because a CHECK cannot hold a subquery.
CREATE FUNCTION events_labels_each_valid(l text[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT coalesce(bool_and(x IS NOT NULL AND char_length(x) BETWEEN 1 AND 64
                                    AND x !~ '^#' AND x = btrim(x)), true)
          FROM unnest(l) AS x $$;
--bun:split
ALTER TABLE events ADD CONSTRAINT labels_count CHECK (cardinality(labels) <= 20);
--bun:split
ALTER TABLE events ADD CONSTRAINT labels_each_valid CHECK (events_labels_each_valid(labels));
--bun:split
ALTER TABLE events ADD CONSTRAINT labels_without_controls
    CHECK (array_to_string(labels, ' ') !~ '[\u0001-\u001f\u007f-\u009f]');
--bun:split
ALTER TABLE events ADD CONSTRAINT labels_without_bidi
    CHECK (array_to_string(labels, ' ') !~ U&'[\202A-\202E\2066-\2069]');
--bun:split
ALTER TABLE events ADD CONSTRAINT location_length CHECK (char_length(location) BETWEEN 1 AND 200);
--bun:split
ALTER TABLE events ADD CONSTRAINT location_without_controls
    CHECK (location !~ '[\u0001-\u001f\u007f-\u009f]');
--bun:split
ALTER TABLE events ADD CONSTRAINT location_without_bidi
    CHECK (location !~ U&'[\202A-\202E\2066-\2069]');
--bun:split
CREATE INDEX events_labels_idx ON events USING gin (labels);
--bun:split
-- Search (DESIGN.md, Search) reads the labels and the location too: the
-- text the trigram index holds is one IMMUTABLE function of the four
-- (array_to_string is only STABLE, so the function says what holds for
-- text[]).
CREATE FUNCTION events_search_text(title text, description text, location text, labels text[]) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT lower(title || ' ' || description || ' ' || coalesce(location, '') || ' ' || array_to_string(labels, ' ')) $$;
--bun:split
DROP INDEX IF EXISTS events_search_idx;
--bun:split
CREATE INDEX events_search_idx ON events USING gin (events_search_text(title, description, location, labels) gin_trgm_ops);
