DROP TABLE event_history;
--bun:split
DROP FUNCTION event_history_is_append_only();
--bun:split
DROP TABLE events;
--bun:split
DROP TYPE history_change_kind, event_actor, event_source, event_status, event_kind;
