-- Sets up the database and the least-privilege role the server runs as.
-- Run once as a PostgreSQL superuser:
--   psql -v app_password="'a long random password'" -f deploy/sql/setup-database.sql postgres
-- (the extra quotes make psql pass a string literal; or omit the variable for trust/peer auth)
--
-- The role is not a superuser, cannot create databases or roles, and cannot read pg_authid.
-- It owns the `loyalty` database, so it can create the `platform` schema and one schema per
-- company, and owns every schema and table it creates; nothing else is granted.

\set ON_ERROR_STOP on

select 'create role loyalty_app login nosuperuser nocreatedb nocreaterole noreplication nobypassrls'
where not exists (select 1 from pg_roles where rolname = 'loyalty_app') \gexec

\if :{?app_password}
alter role loyalty_app password :app_password;
\endif

select 'create database loyalty owner loyalty_app encoding ''UTF8'' template template0'
where not exists (select 1 from pg_database where datname = 'loyalty') \gexec

revoke all on database loyalty from public;
grant connect, temporary on database loyalty to loyalty_app;

-- Queries that forget their tenant must fail: no default schema to fall back on.
alter role loyalty_app in database loyalty set search_path = loyalty_no_tenant;

\connect loyalty
revoke create on schema public from public;
revoke all on schema public from public;
