-- Plans of the read paths the benchmark times, on the read company, in the shapes the server
-- sends them (planned for their parameters: the pool's plan_cache_mode=force_custom_plan).
-- psql -v month_ago=YYYY-MM-DD
set search_path to :"schema";
\echo '--- dashboard: customer totals'
explain (analyze, buffers, costs off) select count(*) as customers, coalesce(sum(points), 0)::bigint as points from customers where is_active;
\echo '--- dashboard: closed days from daily_figures'
explain (analyze, buffers, costs off)
select day, accredited, redeemed, transactions from daily_figures
where day between current_date - 29 and current_date - 1 and time_zone = 'America/Bogota';
\echo '--- dashboard: today, live'
explain (analyze, buffers, costs off)
select (created_at at time zone 'America/Bogota')::date as day,
       coalesce(sum(points) filter (where type = 'accreditation'), 0)::bigint as accredited,
       coalesce(-sum(points) filter (where type = 'redemption'), 0)::bigint as redeemed, count(*) as transactions
from transactions
where created_at >= (current_date::timestamp at time zone 'America/Bogota') and created_at < now() + interval '1 day'
  and not is_voided and type in ('accreditation', 'redemption')
group by 1 order by 1;
\echo '--- report: page 1, no filter: the bounded count, then the page'
explain (analyze, buffers, costs off) select count(*) from (select from transactions t limit 10025) matches;
explain (analyze, buffers, costs off)
select t.id, t.created_at, c.name, p.name from transactions t join customers c on c.id = t.customer_id
left join points_of_sale p on p.id = t.pos_id order by t.created_at desc, t.id desc limit 25;
\echo '--- report: redemptions at one point of sale in the last 30 days'
explain (analyze, buffers, costs off)
select count(*) from (select from transactions t where t.type = 'redemption' and t.pos_id = 3
  and t.created_at >= :'month_ago'::date limit 10025) matches;
explain (analyze, buffers, costs off)
select t.id, t.created_at, c.name, p.name from transactions t join customers c on c.id = t.customer_id
left join points_of_sale p on p.id = t.pos_id
where t.type = 'redemption' and t.pos_id = 3 and t.created_at >= :'month_ago'::date
order by t.created_at desc, t.id desc limit 25;
\echo '--- report: by a customer name many share (more than 1,000 customers): matched inside the count and the page'
explain (analyze, buffers, costs off) select id from customers where search_key like '%rojas%' limit 1001;
explain (analyze, buffers, costs off)
select count(*) from (select from transactions t
  where t.customer_id in (select id from customers where search_key like '%rojas%') limit 10025) matches;
explain (analyze, buffers, costs off)
select t.id from transactions t join customers c on c.id = t.customer_id
where t.customer_id in (select id from customers where search_key like '%rojas%')
order by t.created_at desc, t.id desc limit 25;
\echo '--- report: by a rarer name (up to 1,000 customers): the customers first, then their transactions'
select (select coalesce(array_agg(id), '{}') from customers where search_key like '%valentina torres%')::text as few_customers \gset
explain (analyze, buffers, costs off)
select count(*) from (select from transactions t where t.customer_id = any (:'few_customers'::bigint[]) limit 10025) matches;
explain (analyze, buffers, costs off)
select t.id from transactions t where t.customer_id = any (:'few_customers'::bigint[])
order by t.created_at desc, t.id desc limit 25;
\echo '--- customer search, few matches: the matches once, then the page of them'
explain (analyze, buffers, costs off) select id from customers where is_active and search_key like '%1000050%' limit 1001;
select (select array_agg(id) from customers where is_active and search_key like '%1000050%')::text as few \gset
explain (analyze, buffers, costs off)
select id, name from customers where id = any (:'few'::bigint[]) order by lower(name), id limit 25;
\echo '--- customer search, many matches: the page follows the name index, and a count'
explain (analyze, buffers, costs off)
select id, name from customers where is_active and search_key like '%a%' order by lower(name), id limit 25;
explain (analyze, buffers, costs off) select count(*) from customers where is_active and search_key like '%a%';
\echo '--- customer search with a plan made once for any pattern (what the server avoids)'
set plan_cache_mode = force_generic_plan;
prepare search(text) as select id, name, count(*) over () as total from customers
where is_active and search_key like $1 order by lower(name), id limit 25;
explain (analyze, buffers, costs off) execute search('%valentina torres%');
reset plan_cache_mode;
