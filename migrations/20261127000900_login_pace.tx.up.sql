-- The pace of logins across all client addresses: one row, the theoretical
-- arrival time of the generic cell rate algorithm. A burst of failed logins
-- passes at once; beyond it each login takes the next turn, spaced evenly.
-- A row in PostgreSQL, like login_attempts, so every instance on the
-- database keeps the same pace.
CREATE TABLE login_pace (
    id  boolean     PRIMARY KEY DEFAULT true CHECK (id),
    tat timestamptz NOT NULL
);
