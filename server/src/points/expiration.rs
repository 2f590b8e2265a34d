//! Point expiration: the company's policy (none, fifo, inactivity, calendar), run on the admin's
//! button and daily by itself.
//!
//! Each customer's due points become one `expiration` row by `system`, taken from the due
//! batches (recorded as batch movements). Due batches are emptied, so running again expires
//! nothing more. The daily job runs each active company's policy at most once per company per
//! local day, even with several server processes: it holds a per-company advisory lock for its
//! transaction, skips a company whose lock is taken or whose daily run is recorded, and records
//! the run (unique per day) in the same transaction as the expirations.

use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use futures::StreamExt;
use serde::Serialize;
use serde_json::json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::rules::{self, Policy};
use super::store::{self, NewTransaction};
use super::{idempotency, suppression, Kind, SYSTEM_USER};
use crate::db::{self, Conn, TenantTx};
use crate::domain::Prefix;
use crate::error::{AppError, AppResult, Lang, Msg, Params};
use crate::extract::Json;
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::audit;
use crate::tenant::settings::{self, model::Settings};

/// How often the daily job looks for companies whose day has no run yet.
pub const CHECK_EVERY: StdDuration = StdDuration::from_secs(3600);
/// Delay before the first check after start-up, unless the caller of [`spawn_daily`] says.
pub const FIRST_CHECK_AFTER: StdDuration = StdDuration::from_secs(60);
/// Companies expired at once by the daily job.
const DAILY_CONCURRENCY: usize = 4;

/// What started a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    Manual,
    Daily,
}

impl Trigger {
    fn as_str(self) -> &'static str {
        match self {
            Trigger::Manual => "manual",
            Trigger::Daily => "daily",
        }
    }
}

/// What one run expired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expired {
    pub run_id: i64,
    pub policy: &'static str,
    pub run_date: NaiveDate,
    pub points: i64,
    pub customers: i64,
}

/// The outcome of running the expiration policy by hand.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ExpirationResponse {
    /// What the run did, in the request's language, to show as it is.
    pub message: String,
    /// Points expired by this run.
    pub points: i64,
    /// Customers who lost points in this run.
    pub customers: i64,
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(expire_points))
}

/// Runs the company's expiration policy now (admin). Irreversible; running it again at once
/// expires nothing more.
#[utoipa::path(post, path = "/tasks/expire-points", tag = "points", security(("bearer" = [])),
    responses((status = 200, body = ExpirationResponse), crate::error::ApiErrors))]
async fn expire_points(t: Tenant, lang: Lang) -> AppResult<Json<ExpirationResponse>> {
    t.require_admin()?;
    store::lock_expiration(&t, true).await?;
    let settings = settings::load(&t).await?;
    let expired = run(&t, &settings, Trigger::Manual, &t.user.username, Utc::now()).await?;
    audit(
        &t,
        "points.expire",
        "expiration_run",
        Some(expired.run_id),
        json!({ "trigger": "manual", "policy": expired.policy, "points": expired.points, "customers": expired.customers }),
    )
    .await?;
    t.commit().await?;
    crate::metrics::record_expiration_run("manual");
    crate::metrics::record_points("expired", expired.points);
    let message = match expired.policy {
        "none" => Msg::ExpirationNone.render(lang, &Params::new()),
        _ => Msg::ExpirationDone.with("points", expired.points).with("customers", expired.customers).render(lang),
    };
    Ok(Json(ExpirationResponse { message, points: expired.points, customers: expired.customers }))
}

/// Expires what the company's policy says is due at `now`, inside the caller's transaction,
/// and records the run. The caller holds the company's expiration lock.
pub async fn run(
    conn: &Conn,
    settings: &Settings,
    trigger: Trigger,
    actor: &str,
    now: DateTime<Utc>,
) -> AppResult<Expired> {
    let tz = rules::time_zone(&settings.time_zone);
    let policy = Policy::from_settings(settings);
    let (mut points, mut customers) = (0i64, 0i64);
    if let Some(cutoff) = policy.cutoff(now, tz) {
        let candidates = match policy {
            Policy::Inactivity { .. } => store::inactive_customers_with_points(conn, cutoff).await?,
            _ => store::customers_with_batches_due(conn, cutoff).await?,
        };
        for customer_id in candidates {
            let Some(customer) = store::lock_customer(conn, customer_id).await? else { continue };
            let due_up_to = match policy {
                // Re-checked under the lock: the customer may have just bought or redeemed.
                Policy::Inactivity { .. } if customer.last_active > cutoff => continue,
                Policy::Inactivity { .. } => None,
                _ => Some(cutoff),
            };
            let due = store::open_batches(conn, customer.id, due_up_to).await?;
            let total: i64 = due.iter().map(|batch| batch.remaining).sum();
            if total == 0 {
                continue;
            }
            let transaction_id = store::insert_transaction_id(
                conn,
                &NewTransaction::system(Kind::Expiration, customer.id, -total, SYSTEM_USER, now, customer.points),
            )
            .await?;
            let plan: Vec<(i64, i64)> = due.iter().map(|batch| (batch.id, batch.remaining)).collect();
            store::take_from_batches(conn, transaction_id, &plan).await?;
            store::post_to_balance(conn, customer.id, -total, None).await?;
            points += total;
            customers += 1;
        }
    }
    let run_date = rules::local_date(now, tz);
    let run_id = store::insert_expiration_run(conn, now, run_date, trigger.as_str(), actor, points, customers).await?;
    Ok(Expired { run_id, policy: policy.name(), run_date, points, customers })
}

/// The daily run of one company at `now`: `None` when the company's day already has its run,
/// or another process is running it right now.
pub async fn run_daily(pool: &crate::db::Pools, prefix: &Prefix, now: DateTime<Utc>) -> AppResult<Option<Expired>> {
    let tx = TenantTx::begin(pool, prefix).await?;
    if !store::lock_expiration(&tx, false).await? {
        return Ok(None);
    }
    let settings = settings::load(&tx).await?;
    let today = rules::local_date(now, rules::time_zone(&settings.time_zone));
    if store::daily_run_exists(&tx, today).await? {
        return Ok(None);
    }
    let expired = run(&tx, &settings, Trigger::Daily, SYSTEM_USER, now).await?;
    announce_expiring(&tx, &settings, now).await?;
    store::delete_idempotency_keys_before(&tx, now - Duration::days(idempotency::KEEP_DAYS)).await?;
    let detail = json!({ "trigger": "daily", "policy": expired.policy, "points": expired.points, "customers": expired.customers });
    store::audit_as_system(&tx, "points.expire", "expiration_run", Some(expired.run_id), &detail).await?;
    // The retention rule (docs/privacy.md, "Retention") runs with the day's expiration, once a day.
    let anonymised = suppression::apply_retention(&tx, &settings, now).await?;
    if settings.retention_years > 0 {
        let detail = json!({ "years": settings.retention_years, "customers": anonymised });
        store::audit_as_system(&tx, "customers.retention", "retention_run", None, &detail).await?;
    }
    tx.commit().await?;
    if anonymised > 0 {
        tracing::info!(tenant = %prefix, customers = anonymised, "retention rule anonymised customers");
    }
    crate::metrics::record_expiration_run("daily");
    crate::metrics::record_points("expired", expired.points);
    Ok(Some(expired))
}

/// Sends `points.expiring` to the endpoints that announce expirations N days ahead: once per
/// customer and daily run, for the points the policy will expire on the local day N days from
/// today, that is, those due by then and not due a day earlier (docs/webhooks.md).
async fn announce_expiring(conn: &Conn, settings: &Settings, now: DateTime<Utc>) -> AppResult<()> {
    let tz = rules::time_zone(&settings.time_zone);
    let policy = Policy::from_settings(settings);
    for days in crate::webhooks::expiring_days(conn).await? {
        let ahead = |n: i32| policy.cutoff(now + Duration::days(i64::from(n)), tz);
        let (Some(from), Some(to)) = (ahead(days - 1), ahead(days)) else { continue };
        if to <= from {
            continue;
        }
        let expiring = match policy {
            Policy::Inactivity { .. } => store::inactive_between(conn, from, to).await?,
            _ => store::expiring_between(conn, from, to).await?,
        };
        let expires_on = rules::local_date(now, tz) + Duration::days(i64::from(days));
        for (customer_id, points) in expiring {
            let data =
                json!({ "customerId": customer_id, "points": points, "expiresOn": expires_on, "daysBefore": days });
            crate::webhooks::emit_to(conn, crate::webhooks::Event::PointsExpiring, Some(days), data).await?;
        }
    }
    Ok(())
}

/// What one pass of the daily job did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DailySummary {
    pub companies: usize,
    /// Companies whose daily run happened in this pass.
    pub ran: usize,
    pub failed: usize,
    pub points: i64,
    /// Companies whose figures for the operator's view were computed again in this pass.
    pub stats_refreshed: usize,
}

/// One pass of the daily job over every active company at `now`. A failing company is logged
/// and does not stop the others.
pub async fn run_daily_for_all(state: &AppState, now: DateTime<Utc>) -> AppResult<DailySummary> {
    let prefixes = {
        let conn = state.pool.get().await?;
        db::active_prefixes(&**conn).await?
    };
    let mut summary = DailySummary { companies: prefixes.len(), ..DailySummary::default() };
    let mut lanes = futures::stream::iter(db::walk_lanes(&prefixes, DAILY_CONCURRENCY))
        .map(|lane| run_daily_lane(state, lane, now))
        .buffer_unordered(DAILY_CONCURRENCY);
    let mut runs = Vec::new();
    while let Some(lane) = lanes.next().await {
        runs.extend(lane);
    }
    for (prefix, outcome) in runs {
        match outcome {
            Ok(Some(expired)) => {
                summary.ran += 1;
                summary.points += expired.points;
                tracing::info!(tenant = %prefix, policy = expired.policy, points = expired.points,
                    customers = expired.customers, "daily expiration ran");
            }
            Ok(None) => {}
            Err(err) => {
                summary.failed += 1;
                tracing::error!(tenant = %prefix, error = ?err, "daily expiration failed");
            }
        }
    }
    // After the expirations, so that the operator's figures include them.
    match crate::platform::stats::refresh(state, Some(crate::platform::stats::STATS_MAX_AGE), now).await {
        Ok(stats) => summary.stats_refreshed = stats.refreshed,
        Err(err) => tracing::error!(error = ?err, "computing the companies' figures failed"),
    }
    Ok(summary)
}

/// The daily runs of some companies one after another, on a connection of their own rather than
/// the request pool's: the pass meets every company each hour, and a pooled backend would keep
/// each one's statements and catalog entries (`db::walk_lanes`).
async fn run_daily_lane(
    state: &AppState,
    prefixes: Vec<Prefix>,
    now: DateTime<Utc>,
) -> Vec<(Prefix, AppResult<Option<Expired>>)> {
    let lane = match db::Pools::single(&state.config.db) {
        Ok(lane) => lane,
        Err(err) => {
            tracing::error!(error = ?err, "could not open a connection for the daily job");
            let failed = || Err(AppError::internal(anyhow::anyhow!("no connection for the daily job")));
            return prefixes.into_iter().map(|prefix| (prefix, failed())).collect();
        }
    };
    let mut outcomes = Vec::with_capacity(prefixes.len());
    for prefix in prefixes {
        let outcome = run_daily(&lane, &prefix, now).await;
        outcomes.push((prefix, outcome));
    }
    outcomes
}

/// Starts the daily expiration job: `first_check_after` start-up and then every hour it runs
/// the policy of each company whose local day has no run yet. Several processes may run it.
/// Every pass is logged ("daily expiration pass", with how many companies it ran).
pub fn spawn_daily(state: AppState, first_check_after: StdDuration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        tokio::time::sleep(first_check_after).await;
        let mut every = tokio::time::interval(CHECK_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            match run_daily_for_all(&state, Utc::now()).await {
                Ok(summary) => {
                    tracing::info!(
                        companies = summary.companies,
                        ran = summary.ran,
                        failed = summary.failed,
                        points = summary.points,
                        stats_refreshed = summary.stats_refreshed,
                        "daily expiration pass"
                    );
                }
                Err(err) => tracing::error!(error = ?err, "daily expiration pass failed"),
            }
        }
    })
}
