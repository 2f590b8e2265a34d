//! Data access of the POS API: finding a customer by document and a product by code, and
//! marking a ledger row with the key that posted it. Functions run inside the caller's tenant
//! transaction and never commit.

use tracing::instrument;

use crate::db::Conn;
use crate::error::AppResult;

/// The customer with this document, active or not (the posting refuses an inactive one as the
/// screens do).
#[instrument(level = "debug", skip_all)]
pub async fn customer_id(conn: &Conn, document: &str) -> AppResult<Option<i64>> {
    let stmt = conn.prepare_cached("select id from customers where document = $1").await?;
    Ok(conn.query_opt(&stmt, &[&document]).await?.map(|row| row.get(0)))
}

/// An active customer's name and balance.
#[instrument(level = "debug", skip_all)]
pub async fn customer_summary(conn: &Conn, document: &str) -> AppResult<Option<(String, i64)>> {
    let stmt = conn.prepare_cached("select name, points from customers where document = $1 and is_active").await?;
    Ok(conn.query_opt(&stmt, &[&document]).await?.map(|row| (row.get(0), row.get(1))))
}

/// The product with this code (without regard to case), active or not.
#[instrument(level = "debug", skip_all)]
pub async fn product_id(conn: &Conn, code: &str) -> AppResult<Option<i64>> {
    let stmt = conn.prepare_cached("select id from products where lower(code) = lower($1)").await?;
    Ok(conn.query_opt(&stmt, &[&code]).await?.map(|row| row.get(0)))
}

/// Records which key posted a ledger row.
#[instrument(level = "debug", skip_all, fields(transaction = transaction_id, key = key_id))]
pub async fn mark_posted_with(conn: &Conn, transaction_id: i64, key_id: i64) -> AppResult<()> {
    let stmt = conn.prepare_cached("update transactions set api_key_id = $2 where id = $1").await?;
    conn.execute(&stmt, &[&transaction_id, &key_id]).await?;
    Ok(())
}
