-- `audit_log_at_idx` (at desc) reads nothing that `audit_log_at_id_idx` (at desc, id desc, from
-- V16) does not read as well, and each index costs every insert a page and every new company's
-- schema a sync of its file at creation (docs/performance.md, "10,000 companies with the
-- warm-up"). Dropping an index is safe while older servers still run.
drop index if exists audit_log_at_idx;
