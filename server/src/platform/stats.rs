//! The operator's view of every company: figures per company (schema version, size on disk,
//! customers, ledger entries of 30 days, last activity) kept in `platform.company_stats`, so that
//! listing 10,000 companies reads one table and never 10,000 schemas (docs/performance.md, "The
//! operator's view"). The daily job computes the figures that are a day old; the operator may
//! compute all of them at once; a new company gets its figures once provisioned.

use std::time::Duration as StdDuration;

use axum::extract::State;
use chrono::{DateTime, Duration, Utc};
use futures::StreamExt;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::model::{CompanyStatsPage, StatsQuery, StatsRefresh, StatsSort};
use super::store;
use crate::db;
use crate::domain::{like_pattern, Prefix, PAGE_SIZES};
use crate::error::{AppError, AppResult, Msg};
use crate::extract::{Json, Query};
use crate::session::SuperAdmin;
use crate::state::AppState;

/// Figures older than this are computed again by the daily job (which looks every hour).
pub const STATS_MAX_AGE: StdDuration = StdDuration::from_secs(23 * 3600);
/// Companies whose figures are computed at once.
const REFRESH_CONCURRENCY: usize = 4;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_company_stats)).routes(routes!(refresh_company_stats))
}

/// The view's query parameters.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct StatsParams {
    /// One of `name` (default), `prefix`, `schemaVersion`, `sizeBytes`, `customers`,
    /// `transactions30d`, `lastActivityAt`, `computedAt`.
    pub sort: Option<String>,
    /// `asc` (default) or `desc`; companies without figures come last either way.
    pub order: Option<String>,
    /// Part of the company's name, prefix or tax id (case-insensitive).
    pub q: Option<String>,
    /// From 1 (default 1).
    pub page: Option<String>,
    /// 10, 25 or 50 (default 10).
    pub page_size: Option<String>,
}

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

fn number_param(value: &Option<String>, default: i64, valid: impl Fn(i64) -> bool, invalid: Msg) -> AppResult<i64> {
    match present(value) {
        None => Ok(default),
        Some(v) => v.parse::<i64>().ok().filter(|n| valid(*n)).ok_or_else(|| AppError::bad_request(invalid)),
    }
}

impl StatsParams {
    fn parse(&self) -> AppResult<StatsQuery> {
        let sort = match present(&self.sort) {
            None => StatsSort::Name,
            Some(v) => StatsSort::parse(v)
                .ok_or_else(|| AppError::bad_request(Msg::StatsSortInvalid.with("fields", StatsSort::NAMES)))?,
        };
        let descending = match present(&self.order) {
            None | Some("asc") => false,
            Some("desc") => true,
            Some(_) => return Err(AppError::bad_request(Msg::StatsOrderInvalid)),
        };
        let q = crate::domain::optional_text(crate::error::Field::Text, self.q.as_deref(), 100)?;
        Ok(StatsQuery {
            sort,
            descending,
            pattern: q.map(|q| like_pattern(&q)),
            page: number_param(&self.page, 1, |p| (1..=1_000_000).contains(&p), Msg::PageInvalid)?,
            page_size: number_param(&self.page_size, PAGE_SIZES[0], |s| PAGE_SIZES.contains(&s), Msg::PageSizeInvalid)?,
        })
    }
}

/// Every active company's figures, sorted and paged, with the platform's totals (super admin).
/// Counts and sizes only: no customer's personal data.
#[utoipa::path(get, path = "/super/company-stats", tag = "companies", security(("bearer" = [])),
    params(StatsParams), responses((status = 200, body = CompanyStatsPage), crate::error::ApiErrors))]
async fn list_company_stats(
    _: SuperAdmin,
    State(state): State<AppState>,
    Query(params): Query<StatsParams>,
) -> AppResult<Json<CompanyStatsPage>> {
    let query = params.parse()?;
    let conn = state.pool.get().await?;
    let (items, total) = store::company_stats_page(&**conn, &query).await?;
    let totals = store::platform_totals(&**conn).await?;
    Ok(Json(CompanyStatsPage { items, total, page: query.page, page_size: query.page_size, totals }))
}

/// Computes every active company's figures now (super admin), and answers how many were
/// computed. A company that fails keeps its previous figures and is logged.
#[utoipa::path(post, path = "/super/company-stats/refresh", tag = "companies", security(("bearer" = [])),
    responses((status = 200, body = StatsRefresh), crate::error::ApiErrors))]
async fn refresh_company_stats(admin: SuperAdmin, State(state): State<AppState>) -> AppResult<Json<StatsRefresh>> {
    let summary = refresh(&state, None, Utc::now()).await?;
    tracing::info!(super_admin = %admin.username, companies = summary.companies, refreshed = summary.refreshed,
        failed = summary.failed, "company figures refreshed");
    Ok(Json(summary))
}

/// Computes the figures of every active company whose figures are older than `max_age` at `now`
/// (all of them when `max_age` is `None`), a few companies at a time on short-lived connections
/// of their own. A failing company is logged and does not stop the others.
pub async fn refresh(state: &AppState, max_age: Option<StdDuration>, now: DateTime<Utc>) -> AppResult<StatsRefresh> {
    let before = max_age.map(|age| now - Duration::from_std(age).unwrap_or_else(|_| Duration::days(1)));
    let due = {
        let conn = state.pool.get().await?;
        store::companies_due_for_stats(&**conn, before).await?
    };
    let mut summary = StatsRefresh { companies: due.len(), ..StatsRefresh::default() };
    let url = state.config.db.url.expose();
    // Each lane on a connection of its own, closed after it: a schema read leaves its catalog
    // entries in the backend, so none is kept for thousands (`db::walk_lanes`).
    let mut chunks = futures::stream::iter(db::walk_lanes(&due, REFRESH_CONCURRENCY))
        .map(|chunk| refresh_chunk(url, chunk, now))
        .buffer_unordered(REFRESH_CONCURRENCY);
    while let Some((refreshed, failed)) = chunks.next().await {
        summary.refreshed += refreshed;
        summary.failed += failed;
    }
    Ok(summary)
}

/// Computes the figures of some companies one after another on one dedicated connection:
/// how many were computed and how many failed.
async fn refresh_chunk(url: &str, companies: Vec<(i64, Prefix, String)>, now: DateTime<Utc>) -> (usize, usize) {
    let client = match db::connect_dedicated(url).await {
        Ok(client) => client,
        Err(err) => {
            tracing::error!(error = ?err, companies = companies.len(), "could not connect to compute company figures");
            return (0, companies.len());
        }
    };
    let (mut refreshed, mut failed) = (0, 0);
    for (id, prefix, schema) in companies {
        match store::refresh_company_stats(&client, id, &schema, now).await {
            Ok(()) => refreshed += 1,
            Err(err) => {
                failed += 1;
                tracing::error!(tenant = %prefix, error = %err, "could not compute the company's figures");
            }
        }
    }
    (refreshed, failed)
}

/// Computes a new company's figures on the connection that provisioned it, whose backend has
/// the schema's relations in its catalog cache already (`store::provision`); a failure is
/// logged only, the daily job computing them later.
pub async fn refresh_new(client: &tokio_postgres::Client, id: i64, prefix: &Prefix, schema: &str) {
    let outcome = store::refresh_company_stats(client, id, schema, Utc::now()).await;
    if let Err(err) = outcome {
        tracing::warn!(tenant = %prefix, error = ?err, "could not compute a new company's figures");
    }
}
