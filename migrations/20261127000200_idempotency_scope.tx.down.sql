-- Back to one key for every credential: where several credentials used
-- one key, the earliest record stays.
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
--bun:split
DELETE FROM idempotency_keys a USING idempotency_keys b
    WHERE a.key = b.key AND (a.created_at, a.credential) > (b.created_at, b.credential);
--bun:split
ALTER TABLE idempotency_keys DROP COLUMN credential;
--bun:split
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (key);
