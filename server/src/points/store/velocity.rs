//! Velocity limits: what a customer was credited in a day, and who approved going beyond.

use chrono::{DateTime, Utc};
use tracing::instrument;

use crate::db::Conn;
use crate::error::AppResult;
use crate::points::velocity::CreditedToday;

/// The customer's accreditations that are not voided, and their points, posted in
/// `[from, to)` (read under the customer's lock, so two tills cannot both pass a limit).
#[instrument(level = "debug", skip_all)]
pub async fn credited_between(
    conn: &Conn,
    customer_id: i64,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> AppResult<CreditedToday> {
    let stmt = conn
        .prepare_cached(
            "select count(*) as accreditations, coalesce(sum(points), 0)::bigint as points from transactions \
             where customer_id = $1 and type = 'accreditation' and not is_voided \
               and created_at >= $2 and created_at < $3",
        )
        .await?;
    let row = conn.query_one(&stmt, &[&customer_id, &from, &to]).await?;
    Ok(CreditedToday { accreditations: row.get("accreditations"), points: row.get("points") })
}

/// Records on a row the supervisor or admin who approved it: an accreditation beyond a limit, a
/// cajero's return, or the cancellation of a cajero's void.
#[instrument(level = "debug", skip_all)]
pub async fn set_approved_by(conn: &Conn, transaction_id: i64, approved_by: &str) -> AppResult<()> {
    let stmt = conn.prepare_cached("update transactions set approved_by = $2 where id = $1").await?;
    conn.execute(&stmt, &[&transaction_id, &approved_by]).await?;
    Ok(())
}
