-- The tables every sale writes, left to autovacuum only after 50,000 changed rows plus the usual
-- share of the table (V5 had 1,000), and vacuumed and analysed instead each night by
-- `loyalty maintain` (deploy/systemd/loyalty-maintain.timer) once they have 1,000 changes.
-- Each vacuum or analysis rewrites the table's and each of its indexes' catalog row, and every
-- PostgreSQL backend of the database then checks each statement it keeps against each of those
-- rows: at 10,000 companies some 15,000 statements a backend, about a fifth of a second of the
-- machine's CPU per row, so that one company's visit cost the platform a second of its sales and
-- a thousand sales a second spread over every company would have kept the machine busy with
-- nothing else (docs/performance.md, "The rounds' spread"). At night the same work costs nobody.
-- Between two nights a small company's table carries up to 50,000 dead rows, some megabytes; a
-- large company's tables are still governed by the share (10 to 20%), and wraparound vacuums are
-- untouched.
alter table customers set (autovacuum_vacuum_threshold = 50000, autovacuum_vacuum_insert_threshold = 50000,
                           autovacuum_analyze_threshold = 50000);
alter table transactions set (autovacuum_vacuum_threshold = 50000, autovacuum_vacuum_insert_threshold = 50000,
                              autovacuum_analyze_threshold = 50000);
alter table point_batches set (autovacuum_vacuum_threshold = 50000, autovacuum_vacuum_insert_threshold = 50000,
                               autovacuum_analyze_threshold = 50000);
alter table batch_movements set (autovacuum_vacuum_threshold = 50000, autovacuum_vacuum_insert_threshold = 50000,
                                 autovacuum_analyze_threshold = 50000);
alter table idempotency_keys set (autovacuum_vacuum_threshold = 50000, autovacuum_vacuum_insert_threshold = 50000,
                                  autovacuum_analyze_threshold = 50000);
