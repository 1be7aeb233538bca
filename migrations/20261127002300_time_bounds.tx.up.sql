-- Every time of an event lies in the years 0001 to 9999 (UTC), as the API
-- writes them (DESIGN.md, Fields and JSON); timestamptz itself takes 4713 BC
-- to 294276 AD, and a row beyond the years the API writes used to fail every
-- listing that read it. The service checks each time it computes before it
-- writes (models/bounds.go); this holds for every other path. NOT VALID: rows
-- already stored are not checked, so a database holding one still migrates
-- (the listings leave such a row out and log it; an UPDATE of it is refused
-- until its time is put right). One check a column, so a refusal names its
-- field (models.EventFields declares each).
ALTER TABLE events ADD CONSTRAINT start_at_in_years_1_to_9999
    CHECK (start_at BETWEEN '0001-01-01 00:00:00+00' AND '9999-12-31 23:59:59.999999+00') NOT VALID;
ALTER TABLE events ADD CONSTRAINT end_at_in_years_1_to_9999
    CHECK (end_at BETWEEN '0001-01-01 00:00:00+00' AND '9999-12-31 23:59:59.999999+00') NOT VALID;
ALTER TABLE events ADD CONSTRAINT due_at_in_years_1_to_9999
    CHECK (due_at BETWEEN '0001-01-01 00:00:00+00' AND '9999-12-31 23:59:59.999999+00') NOT VALID;
ALTER TABLE events ADD CONSTRAINT started_at_in_years_1_to_9999
    CHECK (started_at BETWEEN '0001-01-01 00:00:00+00' AND '9999-12-31 23:59:59.999999+00') NOT VALID;
ALTER TABLE events ADD CONSTRAINT ended_at_in_years_1_to_9999
    CHECK (ended_at BETWEEN '0001-01-01 00:00:00+00' AND '9999-12-31 23:59:59.999999+00') NOT VALID;
ALTER TABLE events ADD CONSTRAINT completed_at_in_years_1_to_9999
    CHECK (completed_at BETWEEN '0001-01-01 00:00:00+00' AND '9999-12-31 23:59:59.999999+00') NOT VALID;
ALTER TABLE events ADD CONSTRAINT cancelled_at_in_years_1_to_9999
    CHECK (cancelled_at BETWEEN '0001-01-01 00:00:00+00' AND '9999-12-31 23:59:59.999999+00') NOT VALID;
ALTER TABLE events ADD CONSTRAINT defer_until_in_years_1_to_9999
    CHECK (defer_until BETWEEN '0001-01-01 00:00:00+00' AND '9999-12-31 23:59:59.999999+00') NOT VALID;
ALTER TABLE events ADD CONSTRAINT created_at_in_years_1_to_9999
    CHECK (created_at BETWEEN '0001-01-01 00:00:00+00' AND '9999-12-31 23:59:59.999999+00') NOT VALID;
ALTER TABLE events ADD CONSTRAINT updated_at_in_years_1_to_9999
    CHECK (updated_at BETWEEN '0001-01-01 00:00:00+00' AND '9999-12-31 23:59:59.999999+00') NOT VALID;
