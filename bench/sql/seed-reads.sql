-- One company (prefix r1) with `bench.read_customers` customers and `bench.read_transactions`
-- ledger rows over the last 365 days at 5 points of sale, for timing the read paths.
-- Every customer opens with 5,000 points; the rest are purchases (3 in 4) and redemptions.
set search_path to :"schema";
select setseed(0.42) \g /dev/null
-- Loaded as a restore loads: the generated rows satisfy the foreign keys, so they are not checked
-- row by row, and the ledger's secondary indexes are dropped and built again from their own
-- definitions once the rows are in (one sort each instead of a million insertions).
set session_replication_role = replica;
set maintenance_work_mem = '512MB';
create temp table bench_ledger_indexes as
    select indexname, indexdef from pg_indexes i
    where schemaname = :'schema' and tablename = 'transactions'
      and not exists (select from pg_constraint c
                      where c.conindid = format('%I.%I', :'schema', i.indexname)::regclass);
select format('drop index %I', indexname) from bench_ledger_indexes \gexec
update settings set points_per_peso = 0.01, redemption_rate = 1;
insert into points_of_sale (name) select 'Tienda ' || g from generate_series(1, 5) g;
insert into customers (document, name, email, phone, created_at)
    select (1000000000 + g)::text,
           (array['Ana', 'Luis', 'María', 'Carlos', 'Sofía', 'Andrés', 'Valentina', 'Juan', 'Camila', 'Diego',
                  'Laura', 'Felipe', 'Daniela', 'Santiago', 'Paula', 'Mateo', 'Isabella', 'Sebastián', 'Lucía', 'Julián'])[1 + g % 20]
           || ' ' ||
           (array['Gómez', 'Rodríguez', 'Martínez', 'García', 'López', 'Hernández', 'Díaz', 'Pérez', 'Sánchez', 'Ramírez',
                  'Torres', 'Flórez', 'Rojas', 'Vargas', 'Moreno', 'Castro', 'Ortiz', 'Jiménez', 'Muñoz', 'Restrepo'])[1 + (g / 20) % 20]
           || ' ' ||
           (array['Gómez', 'Rodríguez', 'Martínez', 'García', 'López', 'Hernández', 'Díaz', 'Pérez', 'Sánchez', 'Ramírez',
                  'Torres', 'Flórez', 'Rojas', 'Vargas', 'Moreno', 'Castro', 'Ortiz', 'Jiménez', 'Muñoz', 'Restrepo'])[1 + (g / 400) % 20],
           'cliente' || g || '@example.com',
           '300' || lpad(g::text, 7, '0'),
           now() - interval '400 days'
    from generate_series(1, current_setting('bench.read_customers')::int) g;
insert into transactions (created_at, type, points, customer_id, cashier_username, pos_id, description, invoice_amount)
    select now() - interval '366 days', 'accreditation', 5000, id, 'cajero1', 1, 'Opening balance', 500000 from customers;
insert into transactions (created_at, type, points, customer_id, cashier_username, pos_id, description,
                          invoice_amount, redeemed_value)
    select at, kind, case when kind = 'accreditation' then amount / 100 else -(1 + amount / 10000) end,
           customer, 'cajero' || (1 + pos), 1 + pos,
           case when kind = 'accreditation' then 'Purchase of ' || amount || ' COP' else 'Points redemption' end,
           case when kind = 'accreditation' then amount end,
           case when kind = 'redemption' then 1 + amount / 10000 end
    from (
        select now() - (g * (interval '365 days' / n)) as at,
               case when random() < 0.75 then 'accreditation' else 'redemption' end as kind,
               (10000 + floor(random() * 190000))::bigint as amount,
               1 + floor(random() * c)::bigint as customer,
               floor(random() * 5)::int as pos
        from (select current_setting('bench.read_transactions')::int - current_setting('bench.read_customers')::int as n,
                     current_setting('bench.read_customers')::int as c) sizes,
             generate_series(1, n) g
    ) rows;
select indexdef from bench_ledger_indexes \gexec
reset session_replication_role;
update customers c set points = l.points, last_activity_at = l.last
    from (select customer_id, sum(points) as points, max(created_at) as last from transactions group by customer_id) l
    where l.customer_id = c.id;
vacuum analyze customers, transactions, points_of_sale;
