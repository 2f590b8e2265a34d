-- Plans of the read paths the benchmark times, on the read company (psql -v month_ago=YYYY-MM-DD).
set search_path to tenant_r1;
\echo '--- dashboard: customer totals'
explain (analyze, buffers, costs off) select count(*) as customers, coalesce(sum(points), 0)::bigint as points from customers where is_active;
\echo '--- dashboard: the 30-day window'
explain (analyze, buffers, costs off)
select (created_at at time zone 'America/Bogota')::date as day,
       coalesce(sum(points) filter (where type = 'accreditation'), 0)::bigint as accredited,
       coalesce(-sum(points) filter (where type = 'redemption'), 0)::bigint as redeemed, count(*) as transactions
from transactions
where created_at >= now() - interval '30 days' and created_at < now() and not is_voided and type in ('accreditation', 'redemption')
group by 1 order by 1;
\echo '--- report: page 1, no filter (count, then page)'
explain (analyze, buffers, costs off) select count(*) from transactions t;
explain (analyze, buffers, costs off)
select t.id, t.created_at, c.name, p.name from transactions t join customers c on c.id = t.customer_id
left join points_of_sale p on p.id = t.pos_id order by t.created_at desc, t.id desc limit 25;
\echo '--- report: redemptions at one point of sale in the last 30 days'
explain (analyze, buffers, costs off)
select count(*) from transactions t where t.type = 'redemption' and t.pos_id = 3 and t.created_at >= :'month_ago'::date;
explain (analyze, buffers, costs off)
select t.id, t.created_at, c.name, p.name from transactions t join customers c on c.id = t.customer_id
left join points_of_sale p on p.id = t.pos_id
where t.type = 'redemption' and t.pos_id = 3 and t.created_at >= :'month_ago'::date
order by t.created_at desc, t.id desc limit 25;
\echo '--- report: by customer name'
explain (analyze, buffers, costs off)
select count(*) from transactions t where t.customer_id = any (array(
  select f.id from customers f where lower(f.name) like '%rojas%' or lower(f.document) like '%rojas%'));
\echo '--- customer search by name'
explain (analyze, buffers, costs off)
select id, name, count(*) over () as total from customers
where is_active and search_key like '%valentina torres%' order by lower(name), id limit 25;
\echo '--- customer search with a plan made once for any pattern (what the server avoids: force_custom_plan)'
set plan_cache_mode = force_generic_plan;
prepare search(text) as select id, name, count(*) over () as total from customers
where is_active and search_key like $1 order by lower(name), id limit 25;
explain (analyze, buffers, costs off) execute search('%valentina torres%');
reset plan_cache_mode;
