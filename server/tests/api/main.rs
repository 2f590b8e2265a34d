//! Integration tests against a real PostgreSQL (`DATABASE_URL`; `make test` provides one).
//! Every test gets its own database and its own server on a free port.

mod admin;
mod alerts;
mod audit;
mod auth;
mod backup;
mod citus;
mod client_files;
mod companies;
mod company_stats;
mod crash;
mod customers;
mod data_requests;
mod demo;
mod hardening;
mod helpers;
mod import;
mod inactive;
mod language;
mod migrate;
mod points;
mod pool;
mod pos_api;
mod privacy;
mod products;
mod roles;
mod scale;
mod suppression;
mod tenancy;
mod webhooks;
