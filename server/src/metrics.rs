//! Prometheus metrics at `/metrics`, for the operator only (a super admin's token, or the
//! `METRICS_TOKEN` bearer token for a scraper): requests by route and status with latency
//! histograms, pool usage, points accredited and redeemed, expiration runs, tenant count.

use std::sync::OnceLock;
use std::time::Duration;

use axum::extract::{FromRequestParts, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::error::AppError;
use crate::session::SuperAdmin;
use crate::state::AppState;

/// Seconds buckets of the request latency histogram.
const LATENCY_BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0];

/// The process's recorder, installed once.
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full("http_request_duration_seconds".into()), LATENCY_BUCKETS)
            .expect("valid buckets")
            .build_recorder();
        let handle = recorder.handle();
        // Another recorder (a test harness) may already be global; ours still renders its own.
        let _ = metrics::set_global_recorder(recorder);
        handle
    })
}

/// Records one answered request.
pub fn record_request(method: &str, route: &str, status: u16, latency: Duration) {
    let labels = [("method", method.to_string()), ("route", route.to_string()), ("status", status.to_string())];
    metrics::counter!("http_requests_total", &labels).increment(1);
    metrics::histogram!("http_request_duration_seconds", &labels).record(latency.as_secs_f64());
}

/// Points credited or debited, by kind (`accredited`, `redeemed`, `expired`, `voided`).
pub fn record_points(kind: &'static str, points: i64) {
    metrics::counter!("loyalty_points_total", "kind" => kind).increment(points.unsigned_abs());
}

/// One expiration run, by trigger (`manual`, `daily`).
pub fn record_expiration_run(trigger: &'static str) {
    metrics::counter!("loyalty_expiration_runs_total", "trigger" => trigger).increment(1);
}

/// Who may read the metrics.
pub struct Operator;

impl FromRequestParts<AppState> for Operator {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &AppState) -> Result<Self, AppError> {
        if let Some(expected) = &state.config.metrics_token {
            let given = parts
                .headers
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer "));
            if let Some(given) = given {
                if constant_time_eq(given.as_bytes(), expected.expose().as_bytes()) {
                    return Ok(Operator);
                }
            }
        }
        SuperAdmin::from_request_parts(parts, state).await.map(|_| Operator)
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

pub async fn serve_metrics(_: Operator, State(state): State<AppState>) -> Response {
    let status = state.pool.status();
    metrics::gauge!("db_pool_connections", "state" => "size").set(status.size as f64);
    metrics::gauge!("db_pool_connections", "state" => "available").set(status.available as f64);
    metrics::gauge!("db_pool_connections", "state" => "max").set(status.max_size as f64);
    metrics::gauge!("db_pool_waiting").set(status.waiting as f64);
    if let Ok(conn) = state.pool.get().await {
        if let Ok(count) = crate::db::active_companies(&conn).await {
            metrics::gauge!("loyalty_tenants").set(count as f64);
        }
    }
    (StatusCode::OK, [(header::CONTENT_TYPE, "text/plain; version=0.0.4")], handle().render()).into_response()
}
