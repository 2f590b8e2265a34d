-- A trivial tenant migration, applied only by the benchmark (`loyalty migrate
-- --rehearse-tenant-migrations bench/rehearsal`) to time an upgrade over every company.
comment on table customers is 'The company''s loyalty program members.';
