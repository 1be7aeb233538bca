DROP TABLE login_attempts;
--bun:split
DROP TABLE sessions;
