-- The tables every sale writes, vacuumed and analysed after 1,000 changed rows plus the usual share
-- of the table, instead of after 50. A platform holds thousands of companies, most of them small:
-- with the default, each of their tables was vacuumed or analysed every few dozen sales, and each
-- such run makes every database connection drop and rebuild that table's cached catalog entries.
-- At 1,000 companies these runs came in bursts that cut throughput by a quarter
-- (docs/performance.md). A large company's tables are still governed by the share (10 to 20%).
-- A small table now carries up to 1,000 dead rows: some tens of kilobytes.
alter table customers set (autovacuum_vacuum_threshold = 1000, autovacuum_analyze_threshold = 1000);
alter table transactions set (autovacuum_vacuum_threshold = 1000, autovacuum_analyze_threshold = 1000);
alter table point_batches set (autovacuum_vacuum_threshold = 1000, autovacuum_analyze_threshold = 1000);
alter table batch_movements set (autovacuum_vacuum_threshold = 1000, autovacuum_analyze_threshold = 1000);
alter table idempotency_keys set (autovacuum_vacuum_threshold = 1000, autovacuum_analyze_threshold = 1000);
