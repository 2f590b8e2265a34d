//! Loyalty-points platform: a multi-tenant server where every company lives in its own
//! PostgreSQL schema. `app()` builds the HTTP router used by `loyalty serve` and by the tests.

pub mod app;
pub mod audit;
pub mod auth;
pub mod backup;
pub mod calendar;
pub mod citus;
pub mod config;
pub mod db;
pub mod domain;
pub mod error;
pub mod extract;
pub mod i18n;
#[cfg(test)]
mod layers;
pub mod metrics;
pub mod migrate;
pub mod platform;
pub mod points;
pub mod pos_api;
pub mod seed;
pub mod session;
pub mod state;
pub mod static_files;
pub mod telemetry;
pub mod tenant;
pub mod throttle;
pub mod webhooks;

pub use app::app;
pub use error::{AppError, AppResult};
pub use state::AppState;
