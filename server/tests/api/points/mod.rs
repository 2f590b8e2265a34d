//! The points engine: accredit, redeem, void, expiration, reports and dashboard.

mod accredit;
mod daily;
mod expiration;
mod idempotency;
mod random;
mod redeem;
mod reports;
mod returns;
pub mod support;
mod velocity;
mod void;
mod warm;
