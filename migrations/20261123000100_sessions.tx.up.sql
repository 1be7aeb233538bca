-- Browser sessions and failed logins live here, not in a process's memory,
-- so logout, expiry and the login limit hold across restarts and across
-- instances on one database. A session's id is kept as its SHA-256: a read
-- of this table yields no cookie that works.

CREATE TABLE sessions (
    id         bytea       PRIMARY KEY CHECK (octet_length(id) = 32),
    issued_at  timestamptz NOT NULL,
    last_seen  timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
--bun:split
CREATE INDEX sessions_expires_idx ON sessions (expires_at);
--bun:split
-- One row per client address: failed logins in the window that began at
-- window_start. The row is updated in one statement, so two instances
-- count together.
CREATE TABLE login_attempts (
    client       text        PRIMARY KEY CHECK (length(client) BETWEEN 1 AND 64),
    window_start timestamptz NOT NULL,
    failures     integer     NOT NULL CHECK (failures >= 0)
);
--bun:split
CREATE INDEX login_attempts_window_idx ON login_attempts (window_start);
