-- Retries (DESIGN.md): the outcome of a POST /api/events sent with an
-- Idempotency-Key, kept 24 hours so a repeat answers it again instead of
-- creating a second event. In PostgreSQL, so it holds across restarts and
-- across several instances of the service on one database.
CREATE TABLE idempotency_keys (
    key          text        PRIMARY KEY,
    -- SHA-256 of the request's media type and body: the same key with
    -- another body is refused
    fingerprint  bytea       NOT NULL,
    event_id     bigint      NOT NULL REFERENCES events (id) ON DELETE RESTRICT,
    -- the recorded answer
    status       smallint    NOT NULL,
    location     text        NOT NULL,
    etag         text        NOT NULL,
    body         bytea       NOT NULL,
    created_at   timestamptz NOT NULL,
    CONSTRAINT key_is_visible_ascii CHECK (key ~ '^[\x21-\x7e]{1,255}$'),
    CONSTRAINT fingerprint_is_sha256 CHECK (octet_length(fingerprint) = 32)
);
--bun:split
-- the cleanup of keys older than 24 hours walks this
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
