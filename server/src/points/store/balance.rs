//! A customer's row as the points engine holds it: the lock every balance change takes first,
//! and the balance itself.

use std::sync::LazyLock;

use chrono::{DateTime, NaiveDate, Utc};
use tokio_postgres::Row;
use tracing::instrument;

use crate::db::Conn;
use crate::error::AppResult;
use crate::tenant::customers::model::{Customer, CUSTOMER_COLUMNS};

/// A customer row held with `for update` for the rest of the transaction.
#[derive(Clone, Debug)]
pub struct LockedCustomer {
    pub id: i64,
    pub points: i64,
    pub is_active: bool,
    pub birthdate: Option<NaiveDate>,
    /// The last accreditation or redemption (the creation time before any).
    pub last_active: DateTime<Utc>,
}

/// The statements of the functions that accredit and redeem run in a pipeline
/// ([`crate::db::pipeline`]).
pub const LOCK_CUSTOMER: &str = "select id, points, is_active, birthdate, \
    coalesce(last_activity_at, created_at) as last_active from customers where id = $1 for update";
pub const HAS_ACCREDITATION: &str = "select exists (select 1 from transactions \
    where customer_id = $1 and type = 'accreditation' and not is_voided)";
pub static POST_TO_BALANCE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "update customers set points = points + $2, last_activity_at = coalesce($3, last_activity_at) \
         where id = $1 returning {CUSTOMER_COLUMNS}"
    )
});

/// The customer as the accreditation preview reads it (no lock: the preview posts nothing).
pub const CUSTOMER_FOR_PREVIEW: &str = "select id, points, is_active, birthdate, \
    coalesce(last_activity_at, created_at) as last_active from customers where id = $1";

#[instrument(level = "debug", skip(conn))]
pub async fn customer_for_preview(conn: &Conn, id: i64) -> AppResult<Option<LockedCustomer>> {
    let stmt = conn.prepare_cached(CUSTOMER_FOR_PREVIEW).await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.as_ref().map(customer_from_row))
}

fn customer_from_row(row: &Row) -> LockedCustomer {
    LockedCustomer {
        id: row.get("id"),
        points: row.get("points"),
        is_active: row.get("is_active"),
        birthdate: row.get("birthdate"),
        last_active: row.get("last_active"),
    }
}

/// Locks a customer's row: every balance change of that customer waits for this transaction.
#[instrument(level = "debug", skip(conn))]
pub async fn lock_customer(conn: &Conn, id: i64) -> AppResult<Option<LockedCustomer>> {
    let stmt = conn.prepare_cached(LOCK_CUSTOMER).await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.as_ref().map(customer_from_row))
}

/// Whether the customer has a non-voided accreditation (so a new one is not a first purchase).
#[instrument(level = "debug", skip(conn))]
pub async fn has_accreditation(conn: &Conn, customer_id: i64) -> AppResult<bool> {
    let stmt = conn.prepare_cached(HAS_ACCREDITATION).await?;
    Ok(conn.query_one(&stmt, &[&customer_id]).await?.get(0))
}

/// Adds `delta` to the customer's balance (the ledger row is written by the caller in the same
/// transaction) and, for accreditations and redemptions, records the activity.
#[instrument(level = "debug", skip(conn))]
pub async fn post_to_balance(
    conn: &Conn,
    customer_id: i64,
    delta: i64,
    activity_at: Option<DateTime<Utc>>,
) -> AppResult<Customer> {
    let stmt = conn.prepare_cached(&POST_TO_BALANCE).await?;
    let row = conn.query_one(&stmt, &[&customer_id, &delta, &activity_at]).await?;
    Ok(Customer::from_row(&row))
}
