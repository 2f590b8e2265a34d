-- Schema `platform`: companies (tenants), super admins and the platform audit trail.
-- Runs with search_path = platform; every name here lands in that schema.

create table companies (
    id              bigserial primary key,
    name            text not null,
    tax_id          text not null,
    logo_url        text,
    business_name   text,
    address         text,
    phone           text,
    prefix          text not null,
    state           text not null default 'provisioning'
                    check (state in ('provisioning', 'active', 'deleting')),
    schema_version  integer,
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now(),
    constraint companies_prefix_key unique (prefix),
    constraint companies_prefix_format check (prefix ~ '^[a-z][a-z0-9]{1,29}$')
);

create index companies_name_idx on companies (lower(name), id);

create table super_admins (
    id              bigserial primary key,
    username        text not null,
    password_hash   text not null,
    created_at      timestamptz not null default now(),
    constraint super_admins_username_key unique (username)
);

create table audit_log (
    id              bigserial primary key,
    at              timestamptz not null default now(),
    actor           text not null,
    action          text not null,
    company_id      bigint,
    company_prefix  text,
    detail          jsonb not null default '{}'::jsonb
);

create index audit_log_at_idx on audit_log (at desc);
