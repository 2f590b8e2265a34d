-- Each company's schema is named on its row (docs/architecture.md, "Provisioning"): a company
-- made from a spare keeps the spare's name, so that taking one writes rows only. Renaming a
-- schema, or creating one while a company is asked for, makes every PostgreSQL backend throw
-- away or re-check its saved plans (docs/performance.md, "Where a company's creation goes at
-- 10,000 companies"). Companies made so far are in `tenant_<prefix>`; spares are now named
-- `tenant_<spare id>`, which no prefix can give (a prefix starts with a letter).
alter table companies add column schema_name text;
update companies set schema_name = 'tenant_' || prefix;
alter table companies alter column schema_name set not null;
alter table companies add constraint companies_schema_name_key unique (schema_name);

-- A spare's size on disk, measured when it was made: a company made from it starts with it as
-- its figure, so that its creation reads nothing of the schema it takes.
alter table spare_schemas add column size_bytes bigint;

do $$
declare
    spare record;
begin
    for spare in select id from spare_schemas loop
        if exists (select 1 from pg_namespace where nspname = 'loyalty_spare_' || spare.id) then
            execute format('alter schema %I rename to %I', 'loyalty_spare_' || spare.id, 'tenant_' || spare.id);
        end if;
    end loop;
end
$$;
