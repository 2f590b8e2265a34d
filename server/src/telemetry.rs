//! Logging set-up: human-readable lines by default, JSON lines when `LOG_FORMAT=json`; with
//! `LOG_SPAN_TIMES=1`, a line as each span the filter lets through closes, with its time busy and
//! idle (where a request's time goes: docs/operations.md).

use tracing_subscriber::fmt::format::FmtSpan;
use tracing_subscriber::{fmt, prelude::*, EnvFilter};

pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,tower_http=warn,refinery_core=warn,tokio_postgres=warn"));
    let json = std::env::var("LOG_FORMAT").map(|v| v == "json").unwrap_or(false);
    let span_events = match std::env::var("LOG_SPAN_TIMES").as_deref() {
        Ok("1" | "true") => FmtSpan::CLOSE,
        _ => FmtSpan::NONE,
    };
    let registry = tracing_subscriber::registry().with(filter);
    let result = if json {
        registry
            .with(fmt::layer().json().with_current_span(true).with_span_list(false).with_span_events(span_events))
            .try_init()
    } else {
        registry.with(fmt::layer().with_target(false).with_span_events(span_events)).try_init()
    };
    // A second initialisation (tests) keeps the first subscriber.
    let _ = result;
}
