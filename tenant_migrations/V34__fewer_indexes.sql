-- Fewer indexes a company: each one is a relation in every backend that meets the company, a
-- page written by every insert into its table, and a sync of its file when a company's schema is
-- made (docs/performance.md, "Fewer relations a company"). What each served is served as below.

-- The ledger by time: one index read forwards by the dashboard's window and the alerts' scans
-- (from the index alone, as `transactions_window_idx` was) and backwards by the report's pages
-- (`created_at desc, id desc`, as the old `transactions_created_idx`).
drop index transactions_created_idx;
drop index transactions_window_idx;
create index transactions_created_idx on transactions (created_at, id) include (type, points, is_voided);

-- A sale changes a customer's points and last activity: with no index on either, the update is
-- a heap-only tuple, written to no index at all, and the page keeps room for it. The inactivity
-- expiration and the retention scan read the customers once a day without it.
drop index customers_last_active_idx;
alter table customers set (fillfactor = 90);

-- Answers are kept 7 days; the daily job reads the table once to delete the older ones.
drop index idempotency_keys_created_idx;

-- Foreign keys' own indexes on tables of a few rows (a company's accounts, keys, products and
-- data requests): their checks and counts read the table.
drop index users_pos_idx;
drop index api_keys_pos_idx;
drop index products_category_idx;
drop index data_requests_customer_idx;
drop index data_requests_open_due_idx;
