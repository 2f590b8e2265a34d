-- Gives every benchmark company (prefix b<n>) that has no customers yet `bench.customers`
-- customers, each with an opening balance of 1,000,000 points held in one batch and recorded in
-- the ledger, so redemptions never run short. Earning: 1 point per 100 COP, 1 COP per point.
-- With `bench.slice` set, only that many of them in prefix order from `bench.skip`: a backend
-- keeps the catalog entries of every schema it met, so `make bench` seeds 10,000 companies a
-- slice per session.
create temporary view bench_slice as
    select prefix, schema_name from platform.companies where prefix ~ '^b[0-9]+$' and state = 'active'
    order by prefix
    offset coalesce(nullif(current_setting('bench.skip', true), ''), '0')::int
    limit nullif(current_setting('bench.slice', true), '')::int;
do $$
declare
    schema_name text;
    per_company int := current_setting('bench.customers')::int;
begin
    for schema_name in
        select s.schema_name from bench_slice s
    loop
        execute format('set local search_path to %I', schema_name);
        if exists (select 1 from customers) then
            continue;
        end if;
        update settings set points_per_peso = 0.01, redemption_rate = 1;
        insert into customers (document, name, email, points, last_activity_at)
            select (1000000000 + g)::text, 'Cliente ' || g, 'c' || g || '@example.com', 1000000, now()
            from generate_series(1, per_company) g;
        insert into transactions (created_at, type, points, customer_id, cashier_username, description)
            select now() - interval '1 day', 'accreditation', 1000000, id, 'seed', 'Opening balance' from customers;
        insert into point_batches (customer_id, transaction_id, earned_at, points, remaining)
            select customer_id, id, created_at, points, points from transactions;
        -- A transaction per company: one for all of them would lock five tables of each, more
        -- than the lock table holds at 10,000 companies.
        commit;
    end loop;
end $$;
-- As autovacuum would leave them before a busy day: statistics and visibility maps up to date
-- (the tables seeded here only; the rest of the database has nothing to do). Autovacuum leaves
-- a table of fewer than 50 rows alone, and so does this: vacuuming the 30,000 tables of 10,000
-- small companies took over ten minutes.
select 'vacuum analyze ' || string_agg(format('%1$I.customers, %1$I.transactions, %1$I.point_batches', schema_name), ', ')
from bench_slice
having current_setting('bench.customers')::int >= 50 \gexec
