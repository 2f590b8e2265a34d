-- Spare schemas (docs/architecture.md, "Provisioning"): company schemas made ahead of need from
-- the tenant template, at its migration `version`, and named `loyalty_spare_<id>`. A new
-- company takes one by renaming it, in the transaction that deletes its row here; a row and its
-- schema are made, and dropped, together.
create table spare_schemas (
    id          bigserial primary key,
    version     integer not null,
    created_at  timestamptz not null default now()
);
create index spare_schemas_version_idx on spare_schemas (version, id);
