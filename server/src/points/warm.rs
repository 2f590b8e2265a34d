//! Warming the request pool at start-up: each company's sale statements prepared and planned on
//! the connection its requests use before the server takes requests.
//!
//! A backend that meets a company for the first time prepares its statements, plans them and
//! reads the company's catalog entries: about 5 ms of PostgreSQL's CPU a company, which made the
//! first minute after a restart over 1,000 companies 0.7 of the warm throughput
//! (docs/performance.md). `loyalty serve` pays it before it listens, for the companies most
//! recently active first, for at most `WARM_UP_SECS`.

use std::time::Duration;

use futures::StreamExt;
use tokio_postgres::GenericClient;

use super::store;
use crate::db::{Pools, TenantTx};
use crate::domain::Prefix;
use crate::error::AppResult;
use crate::session::{ACTIVE_COMPANY_CHECK, USER_CHECK};
use crate::state::AppState;
use crate::tenant::settings;

/// Every statement an accreditation or a redemption prepares, in the order a sale runs them.
/// The API test `points::warm` holds that a sale after the warm-up prepares nothing more.
pub fn sale_statements() -> [&'static str; 14] {
    [
        ACTIVE_COMPANY_CHECK,
        USER_CHECK,
        store::CLAIM_KEY,
        store::LOCK_CUSTOMER,
        settings::SELECT,
        store::HAS_ACCREDITATION,
        store::PRODUCT,
        store::OPEN_BATCHES,
        store::INSERT_TRANSACTION,
        store::INSERT_BATCH,
        store::TAKE_FROM_BATCHES,
        store::POST_TO_BALANCE.as_str(),
        crate::webhooks::store::ENQUEUE,
        store::SAVE_ANSWER,
    ]
}

/// Prepares a company's sale statements on the connection its requests use and plans each once,
/// keeping the plans a sale keeps, running none of them ([`TenantTx::plan_statements`]).
pub async fn warm_company(pools: &Pools, prefix: &Prefix) -> AppResult<()> {
    TenantTx::plan_statements(pools, prefix, &sale_statements()).await
}

/// What the warm-up did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Warmed {
    pub companies: usize,
    pub warmed: usize,
    pub failed: usize,
}

/// Warms the active companies, most recently active first, as many at once as the pool has
/// connections, until all are warm or `limit` has passed. A company that fails is logged and
/// left to its first request. Nothing is warmed on a Citus coordinator, which keeps no plan
/// (docs/scaling.md).
pub async fn warm_up(state: &AppState, limit: Duration) -> AppResult<Warmed> {
    let companies = {
        let conn = state.pool.get().await?;
        by_recent_activity(&**conn).await?
    };
    let mut summary = Warmed { companies: companies.len(), ..Warmed::default() };
    if state.pool.citus() {
        return Ok(summary);
    }
    let concurrency = state.config.db.pool_size.max(1);
    let mut warming = futures::stream::iter(companies)
        .map(|prefix| async move {
            let outcome = warm_company(&state.pool, &prefix).await;
            (prefix, outcome)
        })
        .buffer_unordered(concurrency);
    let deadline = tokio::time::Instant::now() + limit;
    while let Ok(Some((prefix, outcome))) = tokio::time::timeout_at(deadline, warming.next()).await {
        match outcome {
            Ok(()) => summary.warmed += 1,
            Err(err) => {
                summary.failed += 1;
                tracing::warn!(tenant = %prefix, error = ?err, "could not warm the company's connection");
            }
        }
    }
    Ok(summary)
}

/// The active companies' prefixes, the most recently active first (by the operator's figures;
/// companies without them last).
async fn by_recent_activity(client: &impl GenericClient) -> Result<Vec<Prefix>, tokio_postgres::Error> {
    let rows = client
        .query(
            "select c.prefix from platform.companies c \
             left join platform.company_stats s on s.company_id = c.id \
             where c.state = 'active' order by s.last_activity_at desc nulls last, c.prefix",
            &[],
        )
        .await?;
    Ok(rows.iter().map(|row| Prefix::from_trusted(row.get(0))).collect())
}
