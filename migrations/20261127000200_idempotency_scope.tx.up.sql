-- Retries (DESIGN.md): an Idempotency-Key belongs to the credential that
-- sent it, so a key sent with one API token never answers what another
-- token, or the owner's browser, was answered. credential is 'none' when
-- the service runs without authentication, 'session' for the owner's
-- browser sessions (every session is the one password: a key resent after
-- a new login is still answered once) and 'token:' with the hex SHA-256 of
-- an API token (never the token itself). Keys recorded before are taken as
-- 'none': answered again while the service runs without authentication,
-- as they were, and by no credential once it has one.
ALTER TABLE idempotency_keys ADD COLUMN credential text NOT NULL DEFAULT 'none';
--bun:split
ALTER TABLE idempotency_keys ALTER COLUMN credential DROP DEFAULT;
--bun:split
ALTER TABLE idempotency_keys ADD CONSTRAINT credential_is_known
    CHECK (credential ~ '^(none|session|token:[0-9a-f]{64})$');
--bun:split
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
--bun:split
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (credential, key);
