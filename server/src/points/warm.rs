//! Warming the request pool at start-up: each company's sale statements prepared and planned on
//! the connection its requests use before the server takes requests.
//!
//! A backend that meets a company for the first time prepares its statements, plans them and
//! reads the company's catalog entries: about 5 ms of PostgreSQL's CPU a company, which made the
//! first minute after a restart over 1,000 companies 0.7 of the warm throughput
//! (docs/performance.md). Its first sale then also plans the foreign keys' checks, opens the
//! tables' files and looks up their publications. `loyalty serve` pays all of it before it
//! listens, for the companies most recently active first, for at most `WARM_UP_SECS`: it plans
//! a company's statements, then rehearses a sale of the company's in a transaction rolled back
//! ([`rehearse_sale`]).

use std::time::Duration;

use chrono::Utc;
use futures::future::{try_join, try_join5};
use futures::StreamExt;
use serde_json::json;
use tokio_postgres::GenericClient;

use super::rules;
use super::store;
use crate::db::{self, Conn, Pools, TenantTx};
use crate::domain::Prefix;
use crate::error::{AppError, AppResult};
use crate::session::{ACTIVE_COMPANY_CHECK, USER_CHECK};
use crate::state::AppState;
use crate::tenant::settings;

/// Every statement an accreditation or a redemption prepares, in the order a sale runs them.
/// The API test `points::warm` holds that a sale after the warm-up prepares nothing more. (A
/// company with webhook endpoints also prepares the outbox's, `webhooks::store::ENQUEUE`, at its
/// first sale: most companies have none, and it would cost each of them a statement kept.)
pub fn sale_statements() -> [&'static str; 13] {
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
        store::SAVE_ANSWER,
    ]
}

/// Prepares a company's sale statements on the connection its requests use and plans each once,
/// keeping the plans a sale keeps, running none of them ([`TenantTx::plan_statements`]).
/// Answers whether that connection's backend had served this server before, kept by a pooler
/// across the restart ([`db::Lease::kept`]).
pub async fn warm_company(pools: &Pools, prefix: &Prefix) -> AppResult<bool> {
    TenantTx::plan_statements(pools, prefix, &sale_statements()).await
}

/// Who sells and to whom in a rehearsal: the user and the customer of the company's last sale
/// when both are still active, else its first active cashier (or user) and customer.
const REHEARSAL_PARTIES: &str = "with last as (select cashier_id, customer_id from transactions \
       where type in ('accreditation', 'redemption') order by id desc limit 1) \
     select u.id, u.username, u.pos_id, c.id from \
       (select id, username, pos_id from users where is_active \
        order by id = coalesce((select cashier_id from last), 0) desc, role <> 'cajero', id limit 1) u, \
       (select id from (select id from customers where is_active and id = (select customer_id from last) \
        union all (select id from customers where is_active order by id limit 1)) first limit 1) c";

/// The rehearsal's ledger row, as [`store::INSERT_TRANSACTION`] writes a sale's (the same
/// table and foreign keys), with an id of its own ([`REHEARSAL_TRANSACTION`], `$6`): a receipt's
/// number comes from the ledger's sequence, whose numbers a rollback does not give back, and
/// stays one after the other.
const REHEARSAL_ROW: &str = "insert into transactions (id, created_at, type, points, customer_id, cashier_id, \
        cashier_username, pos_id, balance_before, balance_after) \
    values ($6, $1, 'accreditation', 1, $2, $3, $4, $5, 0, 1) returning id";

/// The ledger row's id in a rehearsal, never committed.
const REHEARSAL_TRANSACTION: i64 = -1;

/// Rehearses a sale of the company's on the connection its requests use, in a transaction rolled
/// back: an accreditation of one point and its redemption, each under an idempotency key, by
/// the sale's own statements but for the ledger row's ([`REHEARSAL_ROW`]). So the connection has
/// planned the foreign keys' checks, opened the tables' files and met whatever else a sale meets
/// the first time, which planning the statements does not. Nothing of it is kept: no ledger
/// row, balance, batch, key or webhook delivery (the batches' and the outbox's sequences skip
/// the numbers their rows took; those show on no screen). The customer's row is locked for the
/// milliseconds it takes, and a till's lock held longer than a second is not waited for.
///
/// Answers whether it ran: a company without an active customer and user has nothing to rehearse.
pub async fn rehearse_sale(pools: &Pools, prefix: &Prefix) -> AppResult<bool> {
    let tx = TenantTx::begin(pools, prefix).await?;
    tx.batch_execute("set local lock_timeout = '1s'").await?;
    // Not prepared: a statement kept for each company only for the start-up.
    let Some(parties) = tx.query_opt(REHEARSAL_PARTIES, &[]).await? else {
        tx.rollback().await?;
        return Ok(false);
    };
    let sale = Parties {
        user_id: parties.get(0),
        username: parties.get(1),
        pos_id: parties.get(2),
        customer_id: parties.get(3),
    };
    let outcome = rehearse(&tx, &sale).await;
    tx.rollback().await?;
    outcome.map(|()| true)
}

struct Parties {
    user_id: i64,
    username: String,
    pos_id: Option<i64>,
    customer_id: i64,
}

async fn rehearse(conn: &Conn, sale: &Parties) -> AppResult<()> {
    let now = Utc::now();
    let customer = sale.customer_id;
    let key = format!("warm-up-{}", uuid::Uuid::new_v4().simple());
    // The accreditation, as `Idempotent::begin` and `accredit` run it.
    db::pipeline(
        conn,
        &[store::CLAIM_KEY, store::LOCK_CUSTOMER, settings::SELECT, store::HAS_ACCREDITATION],
        try_join5(
            conn.keep_plans(),
            store::claim_idempotency_key(conn, &key, sale.user_id, "accredit", "{}"),
            store::lock_customer(conn, customer),
            settings::load(conn),
            store::has_accreditation(conn, customer),
        ),
    )
    .await?;
    conn.query_one(
        REHEARSAL_ROW,
        &[&now, &customer, &sale.user_id, &sale.username, &sale.pos_id, &REHEARSAL_TRANSACTION],
    )
    .await?;
    db::pipeline(
        conn,
        &[store::INSERT_BATCH, &store::POST_TO_BALANCE],
        try_join(
            store::insert_batch(conn, customer, REHEARSAL_TRANSACTION, now, 1),
            store::post_to_balance(conn, customer, 1, Some(now)),
        ),
    )
    .await?;
    crate::webhooks::emit(conn, crate::webhooks::Event::PointsAccredited, json!({})).await?;
    store::save_answer(conn, &key, 200, &json!({})).await?;
    // The redemption of that point, as `redeem` runs it (its movement on the same ledger row).
    let open = store::open_batches(conn, customer, None).await?;
    let plan = rules::plan_consumption(&open, 1)
        .ok_or_else(|| AppError::internal(anyhow::anyhow!("the rehearsal's batch of customer {customer} is gone")))?;
    db::pipeline(
        conn,
        &[store::TAKE_FROM_BATCHES, &store::POST_TO_BALANCE],
        try_join(
            store::take_from_batches(conn, REHEARSAL_TRANSACTION, &plan),
            store::post_to_balance(conn, customer, -1, Some(now)),
        ),
    )
    .await?;
    crate::webhooks::emit(conn, crate::webhooks::Event::PointsRedeemed, json!({})).await?;
    Ok(())
}

/// What the warm-up did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Warmed {
    pub companies: usize,
    /// Companies whose statements were planned.
    pub warmed: usize,
    /// Of those, the companies whose sale was also rehearsed ([`rehearse_sale`]).
    pub rehearsed: usize,
    /// Of those, the companies met on a backend kept across the restart, which has met their
    /// sales already: not rehearsed.
    pub kept: usize,
    pub failed: usize,
}

/// Warms the active companies, most recently active first, as many at once as the pool has
/// connections, until all are warm or `limit` has passed. A company that fails is logged and
/// left to its first request. Nothing is warmed on a Citus coordinator, which keeps no plan
/// (docs/scaling.md).
///
/// A company whose connection meets a backend kept across the restart ([`db::Lease::kept`])
/// has its statements planned but no sale rehearsed: the backend planned its foreign keys'
/// checks and opened its tables' files in the last run, and only the statements went with the
/// last run's connections. At 10,000 companies that warms twice as many in the same time
/// (docs/performance.md, "A restart behind the pooler").
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
            let outcome = async {
                if warm_company(&state.pool, &prefix).await? {
                    return AppResult::Ok(Warming::Kept);
                }
                // Planned but not rehearsed still counts as warmed.
                let rehearsed = rehearse_sale(&state.pool, &prefix).await.unwrap_or_else(|err| {
                    tracing::warn!(tenant = %prefix, error = ?err, "could not rehearse the company's sale");
                    false
                });
                Ok(if rehearsed { Warming::Rehearsed } else { Warming::Planned })
            }
            .await;
            (prefix, outcome)
        })
        .buffer_unordered(concurrency);
    let deadline = tokio::time::Instant::now() + limit;
    while let Ok(Some((prefix, outcome))) = tokio::time::timeout_at(deadline, warming.next()).await {
        match outcome {
            Ok(warming) => {
                summary.warmed += 1;
                match warming {
                    Warming::Rehearsed => summary.rehearsed += 1,
                    Warming::Kept => summary.kept += 1,
                    Warming::Planned => {}
                }
            }
            Err(err) => {
                summary.failed += 1;
                tracing::warn!(tenant = %prefix, error = ?err, "could not warm the company's connection");
            }
        }
    }
    Ok(summary)
}

/// How far one company was warmed.
enum Warming {
    /// Its statements planned; nothing to rehearse, or the rehearsal failed.
    Planned,
    /// Its statements planned and its sale rehearsed.
    Rehearsed,
    /// Its statements planned on a backend that had served it before.
    Kept,
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
