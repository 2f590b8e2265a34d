//! Point batches: what each accreditation earned, what is left of it, and the movements that
//! took points from it.

use chrono::{DateTime, Utc};
use tracing::instrument;

use crate::db::Conn;
use crate::error::{AppError, AppResult};
use crate::points::rules::OpenBatch;

pub const INSERT_BATCH: &str = "insert into point_batches (customer_id, transaction_id, earned_at, points, remaining) \
    values ($1, $2, $3, $4, $4)";
pub const OPEN_BATCHES: &str = "select id, remaining from point_batches \
    where customer_id = $1 and remaining > 0 and ($2::timestamptz is null or earned_at <= $2) \
    order by earned_at, id for update";
pub const TAKE_FROM_BATCHES: &str = "with plan as (select batch_id, points \
        from unnest($2::bigint[], $3::bigint[]) as p (batch_id, points)), \
    taken as (update point_batches b set remaining = b.remaining - plan.points \
        from plan where b.id = plan.batch_id returning b.id) \
    insert into batch_movements (transaction_id, batch_id, points) \
    select $1, plan.batch_id, plan.points from plan join taken on taken.id = plan.batch_id";

#[instrument(level = "debug", skip(conn))]
pub async fn insert_batch(
    conn: &Conn,
    customer_id: i64,
    transaction_id: i64,
    earned_at: DateTime<Utc>,
    points: i64,
) -> AppResult<()> {
    let stmt = conn.prepare_cached(INSERT_BATCH).await?;
    conn.execute(&stmt, &[&customer_id, &transaction_id, &earned_at, &points]).await?;
    Ok(())
}

/// A customer's batches that still hold points, oldest first, locked; only those earned at or
/// before `earned_up_to` when given.
#[instrument(level = "debug", skip(conn))]
pub async fn open_batches(
    conn: &Conn,
    customer_id: i64,
    earned_up_to: Option<DateTime<Utc>>,
) -> AppResult<Vec<OpenBatch>> {
    let stmt = conn.prepare_cached(OPEN_BATCHES).await?;
    let rows = conn.query(&stmt, &[&customer_id, &earned_up_to]).await?;
    Ok(rows.iter().map(|row| OpenBatch { id: row.get("id"), remaining: row.get("remaining") }).collect())
}

/// Takes points from batches as `plan` says (batch id, points) and records each movement under
/// the transaction that took them.
#[instrument(level = "debug", skip(conn))]
pub async fn take_from_batches(conn: &Conn, transaction_id: i64, plan: &[(i64, i64)]) -> AppResult<()> {
    let (batch_ids, points): (Vec<i64>, Vec<i64>) = plan.iter().copied().unzip();
    let stmt = conn.prepare_cached(TAKE_FROM_BATCHES).await?;
    let moved = conn.execute(&stmt, &[&transaction_id, &batch_ids, &points]).await?;
    if moved != plan.len() as u64 {
        return Err(AppError::internal(anyhow::anyhow!("batch movements of transaction {transaction_id} incomplete")));
    }
    Ok(())
}

/// Gives the points a transaction took back to the batches it took them from; answers how
/// many points went back.
#[instrument(level = "debug", skip(conn))]
pub async fn give_back_to_batches(conn: &Conn, transaction_id: i64) -> AppResult<i64> {
    let stmt = conn
        .prepare_cached(
            "with back as (select batch_id, points from batch_movements where transaction_id = $1) \
             update point_batches b set remaining = b.remaining + back.points \
             from back where b.id = back.batch_id returning back.points",
        )
        .await?;
    Ok(conn.query(&stmt, &[&transaction_id]).await?.iter().map(|row| row.get::<_, i64>(0)).sum())
}

/// The batch an accreditation created, locked.
#[derive(Clone, Copy, Debug)]
pub struct EarnedBatch {
    pub id: i64,
    pub points: i64,
    pub remaining: i64,
}

#[instrument(level = "debug", skip(conn))]
pub async fn batch_of(conn: &Conn, transaction_id: i64) -> AppResult<Option<EarnedBatch>> {
    let stmt = conn
        .prepare_cached("select id, points, remaining from point_batches where transaction_id = $1 for update")
        .await?;
    Ok(conn.query_opt(&stmt, &[&transaction_id]).await?.map(|row| EarnedBatch {
        id: row.get("id"),
        points: row.get("points"),
        remaining: row.get("remaining"),
    }))
}
