//! The expiration run: who has points due, the company's expiration lock, the record of each
//! run, and the daily job's work list.

use chrono::{DateTime, NaiveDate, Utc};
use tracing::instrument;

use crate::db::Conn;
use crate::error::AppResult;
use crate::points::SYSTEM_USER;

/// Customers with a batch that still holds points and was earned at or before `cutoff`.
#[instrument(level = "debug", skip(conn))]
pub async fn customers_with_batches_due(conn: &Conn, cutoff: DateTime<Utc>) -> AppResult<Vec<i64>> {
    let stmt = conn
        .prepare_cached(
            "select distinct customer_id from point_batches \
             where remaining > 0 and earned_at <= $1 order by customer_id",
        )
        .await?;
    Ok(conn.query(&stmt, &[&cutoff]).await?.iter().map(|row| row.get(0)).collect())
}

/// Customers holding points whose last accreditation or redemption was at or before `cutoff`.
#[instrument(level = "debug", skip(conn))]
pub async fn inactive_customers_with_points(conn: &Conn, cutoff: DateTime<Utc>) -> AppResult<Vec<i64>> {
    let stmt = conn
        .prepare_cached(
            "select id from customers \
             where points > 0 and coalesce(last_activity_at, created_at) <= $1 order by id",
        )
        .await?;
    Ok(conn.query(&stmt, &[&cutoff]).await?.iter().map(|row| row.get(0)).collect())
}

/// Customers with points in batches earned after `from` and at or before `to`, with how many
/// (what a fifo or calendar policy expires between those cutoffs).
#[instrument(level = "debug", skip(conn))]
pub async fn expiring_between(conn: &Conn, from: DateTime<Utc>, to: DateTime<Utc>) -> AppResult<Vec<(i64, i64)>> {
    let stmt = conn
        .prepare_cached(
            "select customer_id, sum(remaining)::bigint from point_batches \
             where remaining > 0 and earned_at > $1 and earned_at <= $2 group by customer_id order by customer_id",
        )
        .await?;
    Ok(conn.query(&stmt, &[&from, &to]).await?.iter().map(|row| (row.get(0), row.get(1))).collect())
}

/// Customers holding points whose last activity was after `from` and at or before `to`, with
/// their balance (what an inactivity policy expires between those cutoffs).
#[instrument(level = "debug", skip(conn))]
pub async fn inactive_between(conn: &Conn, from: DateTime<Utc>, to: DateTime<Utc>) -> AppResult<Vec<(i64, i64)>> {
    let stmt = conn
        .prepare_cached(
            "select id, points from customers where points > 0 \
             and coalesce(last_activity_at, created_at) > $1 and coalesce(last_activity_at, created_at) <= $2 order by id",
        )
        .await?;
    Ok(conn.query(&stmt, &[&from, &to]).await?.iter().map(|row| (row.get(0), row.get(1))).collect())
}

/// Takes the company's expiration lock for this transaction: waits for it, or with
/// `wait = false` answers whether it was free.
#[instrument(level = "debug", skip(conn))]
pub async fn lock_expiration(conn: &Conn, wait: bool) -> AppResult<bool> {
    if wait {
        let stmt = conn
            .prepare_cached("select pg_advisory_xact_lock(hashtextextended('loyalty-expire:' || current_schema(), 0))")
            .await?;
        conn.execute(&stmt, &[]).await?;
        Ok(true)
    } else {
        let stmt = conn
            .prepare_cached(
                "select pg_try_advisory_xact_lock(hashtextextended('loyalty-expire:' || current_schema(), 0))",
            )
            .await?;
        Ok(conn.query_one(&stmt, &[]).await?.get(0))
    }
}

#[instrument(level = "debug", skip(conn))]
pub async fn daily_run_exists(conn: &Conn, run_date: NaiveDate) -> AppResult<bool> {
    let stmt = conn
        .prepare_cached("select exists (select 1 from expiration_runs where run_date = $1 and trigger = 'daily')")
        .await?;
    Ok(conn.query_one(&stmt, &[&run_date]).await?.get(0))
}

#[instrument(level = "debug", skip(conn))]
pub async fn insert_expiration_run(
    conn: &Conn,
    at: DateTime<Utc>,
    run_date: NaiveDate,
    trigger: &str,
    actor: &str,
    points: i64,
    customers: i64,
) -> AppResult<i64> {
    let stmt = conn
        .prepare_cached(
            "insert into expiration_runs (run_at, run_date, trigger, actor, points, customers) \
             values ($1, $2, $3, $4, $5, $6) returning id",
        )
        .await?;
    Ok(conn.query_one(&stmt, &[&at, &run_date, &trigger, &actor, &points, &customers]).await?.get(0))
}

/// Records what the system did (no user behind it) in the company's audit trail.
#[instrument(level = "debug", skip(conn, detail))]
pub async fn audit_as_system(
    conn: &Conn,
    action: &str,
    entity: &str,
    entity_id: Option<i64>,
    detail: &serde_json::Value,
) -> AppResult<()> {
    let stmt = conn
        .prepare_cached("insert into audit_log (actor, action, entity, entity_id, detail) values ($1, $2, $3, $4, $5)")
        .await?;
    conn.execute(&stmt, &[&SYSTEM_USER, &action, &entity, &entity_id, detail]).await?;
    Ok(())
}
