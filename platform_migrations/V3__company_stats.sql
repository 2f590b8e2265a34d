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

-- One index per sortable figure, the company id breaking ties, so a page in any order is an
-- index scan.
create index company_stats_schema_version_idx on company_stats (schema_version, company_id);
create index company_stats_size_idx on company_stats (size_bytes, company_id);
create index company_stats_customers_idx on company_stats (customers, company_id);
create index company_stats_transactions_idx on company_stats (transactions_30d, company_id);
create index company_stats_last_activity_idx on company_stats (last_activity_at, company_id);
create index company_stats_computed_idx on company_stats (computed_at, company_id);
