DROP INDEX events_source_order_idx;
--bun:split
DROP INDEX events_project_order_idx;
--bun:split
DROP INDEX events_kind_status_order_idx;
--bun:split
DROP INDEX events_status_order_idx;
--bun:split
DROP INDEX events_kind_order_idx;
--bun:split
DROP INDEX events_order_idx;
