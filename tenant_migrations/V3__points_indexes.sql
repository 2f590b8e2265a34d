-- Points engine: indexes for the expiration scans, the dashboard's 30-day window and the
-- report's cashier filter. Indexes only: safe to apply while older servers still run.

-- fifo and calendar: batches still holding points, by when they were earned.
create index point_batches_due_idx on point_batches (earned_at) where remaining > 0;

-- inactivity: customers holding points, by their last accreditation or redemption.
create index customers_last_active_idx on customers (coalesce(last_activity_at, created_at)) where points > 0;

-- dashboard: the window's rows read from the index alone.
create index transactions_window_idx on transactions (created_at) include (type, points, is_voided);

-- report: filter by cashier username (also 'system' for expirations).
create index transactions_cashier_name_idx on transactions (cashier_username, created_at desc);
