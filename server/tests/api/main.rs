//! Integration tests against a real PostgreSQL (`DATABASE_URL`; `make test` provides one).
//! Every test gets its own database and its own server on a free port.

mod admin;
mod auth;
mod backup;
mod client_files;
mod citus;
mod companies;
mod crash;
mod customers;
mod demo;
mod hardening;
mod inactive;
mod language;
mod helpers;
mod migrate;
mod points;
mod products;
mod roles;
mod tenancy;
