-- Figures per company for the operator's view, computed in each company's schema by the daily
-- job (and on demand), so that listing every company reads this one table and no tenant schema.
-- Counts and sizes only: no customer's personal data is ever copied here.
create table company_stats (
    company_id          bigint primary key references companies (id) on delete cascade,
    schema_version      integer,
    size_bytes          bigint not null default 0,
    customers           bigint not null default 0,
    transactions_30d    bigint not null default 0,
    last_activity_at    timestamptz,
    computed_at         timestamptz not null default now()
);

-- No index per figure: a page of the view joins the 10,000 rows to `companies` and keeps the top
-- of them (docs/performance.md, "The operator's view"), which a b-tree would not spare with
-- companies without figures sorted last.
