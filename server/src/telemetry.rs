//! Logging set-up: human-readable lines by default, JSON lines when `LOG_FORMAT=json`.

use tracing_subscriber::{fmt, prelude::*, EnvFilter};

pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,tower_http=warn,refinery_core=warn,tokio_postgres=warn"));
    let json = std::env::var("LOG_FORMAT").map(|v| v == "json").unwrap_or(false);
    let registry = tracing_subscriber::registry().with(filter);
    let result = if json {
        registry.with(fmt::layer().json().with_current_span(true).with_span_list(false)).try_init()
    } else {
        registry.with(fmt::layer().with_target(false)).try_init()
    };
    // A second initialisation (tests) keeps the first subscriber.
    let _ = result;
}
