//! Ledger rows: writing one, reading them back as the API answers them, and voiding one.

use chrono::{DateTime, Utc};
use tokio_postgres::Row;
use tracing::instrument;

use crate::db::Conn;
use crate::error::{AppError, AppResult, Msg};
use crate::points::rules::Returned;
use crate::points::{Kind, Transaction};
use crate::tenant::customers::model::Customer;

/// A ledger row to write.
#[derive(Clone, Debug)]
pub struct NewTransaction<'a> {
    pub kind: Kind,
    pub points: i64,
    pub customer_id: i64,
    pub cashier_id: Option<i64>,
    pub cashier_username: &'a str,
    pub pos_id: Option<i64>,
    pub description: Option<&'a str>,
    pub invoice_amount: Option<i64>,
    pub redeemed_value: Option<i64>,
    pub invoice_reference: Option<&'a str>,
    pub product_id: Option<i64>,
    /// The names of the row's point of sale and product, for the answer, when the caller read
    /// them already (a sale does: [`insert_transaction`] then reads none).
    pub pos_name: Option<&'a str>,
    pub product_name: Option<&'a str>,
    pub original_transaction_id: Option<i64>,
    pub at: DateTime<Utc>,
    /// The customer's balance before this posting (read under the customer's lock); the balance
    /// after it is this plus `points`.
    pub balance_before: i64,
}

impl<'a> NewTransaction<'a> {
    /// A posting no till made (an expiration, a forfeit): `points` taken or given by
    /// `recorded_by`, with no cashier, point of sale, invoice or product.
    pub fn system(
        kind: Kind,
        customer_id: i64,
        points: i64,
        recorded_by: &'a str,
        at: DateTime<Utc>,
        balance_before: i64,
    ) -> Self {
        NewTransaction {
            kind,
            points,
            customer_id,
            cashier_id: None,
            cashier_username: recorded_by,
            pos_id: None,
            description: None,
            invoice_amount: None,
            redeemed_value: None,
            invoice_reference: None,
            product_id: None,
            pos_name: None,
            product_name: None,
            original_transaction_id: None,
            at,
            balance_before,
        }
    }

    /// The row as the API answers it, once inserted (for `customer`, as it is after the posting).
    pub fn answered(&self, inserted: Inserted, customer: &Customer) -> Transaction {
        Transaction {
            id: inserted.id,
            date: inserted.created_at,
            kind: self.kind,
            points: self.points,
            customer_id: self.customer_id,
            customer_name: customer.name.clone(),
            customer_document: customer.document.clone(),
            cashier_username: self.cashier_username.to_string(),
            pos_id: self.pos_id,
            pos_name: inserted.pos_name,
            description: self.description.map(str::to_string),
            invoice_amount: self.invoice_amount,
            redeemed_value: self.redeemed_value,
            invoice_reference: self.invoice_reference.map(str::to_string),
            product_id: self.product_id,
            product_name: inserted.product_name,
            is_voided: false,
            voided_by: None,
            approved_by: None,
            original_transaction_id: self.original_transaction_id,
            balance_before: Some(self.balance_before),
            balance_after: Some(self.balance_before + self.points),
        }
    }
}

/// What the database gave a new ledger row.
#[derive(Clone, Debug)]
pub struct Inserted {
    pub id: i64,
    /// As stored (to the microsecond).
    pub created_at: DateTime<Utc>,
    /// The name of the row's point of sale.
    pub pos_name: Option<String>,
    /// The name of the row's product.
    pub product_name: Option<String>,
}

/// The ledger row of a posting (`points::warm`).
pub const INSERT_TRANSACTION: &str = "insert into transactions (created_at, type, points, customer_id, cashier_id, \
        cashier_username, pos_id, description, invoice_amount, redeemed_value, invoice_reference, \
        product_id, original_transaction_id, invoice_key, balance_before, balance_after) \
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, \
        case when $2 = 'accreditation' then upper($11) end, $14::bigint, $14::bigint + $3::bigint) \
    on conflict (invoice_key) where not is_voided do nothing \
    returning id, created_at";

/// The names of a point of sale and a product, for a posting whose caller did not read them.
const NAMES: &str = "select (select name from points_of_sale where id = $1) as pos_name, \
    (select name from products where id = $2) as product_name";

/// Drops the dashboard's kept figures of the days from a posting's day on.
const DROP_CLOSED_DAYS: &str =
    "delete from daily_figures where day >= ($1 at time zone (select time_zone from settings))::date";

/// How long before now a posting must be dated for its day to be one the dashboard may keep. A
/// day is kept once it ended an hour ago (`points::stats`): a posting dated now, whose transaction
/// ends in seconds, cannot fall on one, and a sale skips the statement that would drop nothing (a
/// relation fewer: docs/performance.md, "A sale of fewer statements"); an expiration dated at its
/// batches' expiry can.
const DATED_NOW: chrono::Duration = chrono::Duration::minutes(10);

/// Writes a ledger row, first dropping the kept figures of its day and after when it may fall on
/// one ([`DATED_NOW`]). An accreditation whose invoice reference an active accreditation already
/// holds is refused with a 409 naming that one (the unique index `transactions_invoice_key`
/// decides, so two tills racing with one invoice cannot both credit it).
/// The answer names the row's point of sale and product ([`names`]).
pub async fn insert_transaction(conn: &Conn, row: &NewTransaction<'_>) -> AppResult<Inserted> {
    let inserted = insert_row(conn, row).await?;
    let (pos_name, product_name) = names(conn, row).await?;
    Ok(Inserted { id: inserted.get("id"), created_at: inserted.get("created_at"), pos_name, product_name })
}

/// [`insert_transaction`] for a caller that needs only the new row's id (a cancellation, an
/// expiration): no names read.
pub async fn insert_transaction_id(conn: &Conn, row: &NewTransaction<'_>) -> AppResult<i64> {
    Ok(insert_row(conn, row).await?.get("id"))
}

#[instrument(level = "debug", skip_all, fields(kind = row.kind.as_str(), customer = row.customer_id, points = row.points))]
async fn insert_row(conn: &Conn, row: &NewTransaction<'_>) -> AppResult<Row> {
    if row.at < Utc::now() - DATED_NOW {
        let stmt = conn.prepare_cached(DROP_CLOSED_DAYS).await?;
        conn.execute(&stmt, &[&row.at]).await?;
    }
    let stmt = conn.prepare_cached(INSERT_TRANSACTION).await?;
    let inserted = conn
        .query_opt(
            &stmt,
            &[
                &row.at,
                &row.kind.as_str(),
                &row.points,
                &row.customer_id,
                &row.cashier_id,
                &row.cashier_username,
                &row.pos_id,
                &row.description,
                &row.invoice_amount,
                &row.redeemed_value,
                &row.invoice_reference,
                &row.product_id,
                &row.original_transaction_id,
                &row.balance_before,
            ],
        )
        .await?;
    match inserted {
        Some(inserted) => Ok(inserted),
        None => Err(invoice_already_credited(conn, row.invoice_reference.unwrap_or_default()).await?),
    }
}

/// The names of the row's point of sale and product: as the caller read them, or read now for
/// one it did not (a sale reads them with its first statements, and keeps no statement more:
/// docs/performance.md, "A sale of fewer statements").
async fn names(conn: &Conn, row: &NewTransaction<'_>) -> AppResult<(Option<String>, Option<String>)> {
    let known = |id: Option<i64>, name: Option<&str>| id.is_none() || name.is_some();
    if known(row.pos_id, row.pos_name) && known(row.product_id, row.product_name) {
        return Ok((row.pos_name.map(str::to_string), row.product_name.map(str::to_string)));
    }
    let stmt = conn.prepare_cached(NAMES).await?;
    let names = conn.query_one(&stmt, &[&row.pos_id, &row.product_id]).await?;
    Ok((names.get("pos_name"), names.get("product_name")))
}

/// The refusal of a second accreditation of an invoice: the earlier transaction's id and its
/// date in the company's time zone.
async fn invoice_already_credited(conn: &Conn, reference: &str) -> AppResult<AppError> {
    let stmt = conn
        .prepare_cached(
            "select id, to_char(created_at at time zone (select time_zone from settings), 'YYYY-MM-DD HH24:MI') as at \
             from transactions where invoice_key = upper($1) and not is_voided",
        )
        .await?;
    let earlier = conn.query_opt(&stmt, &[&reference]).await?;
    let Some(earlier) = earlier else {
        return Err(AppError::internal(anyhow::anyhow!("invoice reference conflict without an active holder")));
    };
    Ok(AppError::conflict(
        Msg::InvoiceAlreadyCredited
            .with("reference", reference)
            .with("transactionId", earlier.get::<_, i64>("id").to_string())
            .with("date", earlier.get::<_, String>("at")),
    ))
}

pub(super) const TRANSACTION_SELECT: &str = "select t.id, t.created_at, t.type, t.points, t.customer_id, \
    c.name as customer_name, c.document as customer_document, \
    coalesce(t.cashier_username, 'system') as cashier_username, t.pos_id, p.name as pos_name, \
    t.description, t.invoice_amount, t.redeemed_value, t.invoice_reference, t.product_id, \
    t.is_voided, t.voided_by, t.approved_by, t.original_transaction_id, t.balance_before, t.balance_after, \
    pr.name as product_name \
    from transactions t join customers c on c.id = t.customer_id \
    left join points_of_sale p on p.id = t.pos_id \
    left join products pr on pr.id = t.product_id";

/// The `type` column of a ledger row (the database's check allows only the kinds of [`Kind`]).
fn kind_from_row(row: &Row) -> AppResult<Kind> {
    let kind: &str = row.get("type");
    Kind::parse(kind).ok_or_else(|| AppError::internal(anyhow::anyhow!("unknown transaction type {kind}")))
}

pub(super) fn transaction_from_row(row: &Row) -> AppResult<Transaction> {
    Ok(Transaction {
        id: row.get("id"),
        date: row.get("created_at"),
        kind: kind_from_row(row)?,
        points: row.get("points"),
        customer_id: row.get("customer_id"),
        customer_name: row.get("customer_name"),
        customer_document: row.get("customer_document"),
        cashier_username: row.get("cashier_username"),
        pos_id: row.get("pos_id"),
        pos_name: row.get("pos_name"),
        description: row.get("description"),
        invoice_amount: row.get("invoice_amount"),
        redeemed_value: row.get("redeemed_value"),
        invoice_reference: row.get("invoice_reference"),
        product_id: row.get("product_id"),
        product_name: row.get("product_name"),
        is_voided: row.get("is_voided"),
        voided_by: row.get("voided_by"),
        approved_by: row.get("approved_by"),
        original_transaction_id: row.get("original_transaction_id"),
        balance_before: row.get("balance_before"),
        balance_after: row.get("balance_after"),
    })
}

/// Every transaction, newest first.
#[instrument(level = "debug", skip(conn))]
pub async fn all_transactions(conn: &Conn) -> AppResult<Vec<Transaction>> {
    let stmt = conn.prepare_cached(&format!("{TRANSACTION_SELECT} order by t.created_at desc, t.id desc")).await?;
    conn.query(&stmt, &[]).await?.iter().map(transaction_from_row).collect()
}

/// What a void needs to know about the transaction it voids.
#[derive(Clone, Debug)]
pub struct VoidTarget {
    pub id: i64,
    pub kind: Kind,
    pub points: i64,
    pub customer_id: i64,
    pub cashier_id: Option<i64>,
    pub pos_id: Option<i64>,
    pub is_voided: bool,
    pub invoice_reference: Option<String>,
    pub product_id: Option<i64>,
    /// The invoice's amount, on accreditations.
    pub invoice_amount: Option<i64>,
}

const VOID_TARGET_SELECT: &str = "select id, type, points, customer_id, cashier_id, pos_id, is_voided, \
    invoice_reference, product_id, invoice_amount from transactions where id = $1";

fn void_target_from_row(row: &Row) -> AppResult<VoidTarget> {
    Ok(VoidTarget {
        id: row.get("id"),
        kind: kind_from_row(row)?,
        points: row.get("points"),
        customer_id: row.get("customer_id"),
        cashier_id: row.get("cashier_id"),
        pos_id: row.get("pos_id"),
        is_voided: row.get("is_voided"),
        invoice_reference: row.get("invoice_reference"),
        product_id: row.get("product_id"),
        invoice_amount: row.get("invoice_amount"),
    })
}

/// Reads a transaction to void, without locking it.
#[instrument(level = "debug", skip(conn))]
pub async fn void_target(conn: &Conn, id: i64) -> AppResult<Option<VoidTarget>> {
    let stmt = conn.prepare_cached(VOID_TARGET_SELECT).await?;
    conn.query_opt(&stmt, &[&id]).await?.as_ref().map(void_target_from_row).transpose()
}

/// Reads and locks a transaction to void (after its customer's row is locked).
#[instrument(level = "debug", skip(conn))]
pub async fn lock_void_target(conn: &Conn, id: i64) -> AppResult<Option<VoidTarget>> {
    let stmt = conn.prepare_cached(&format!("{VOID_TARGET_SELECT} for update")).await?;
    conn.query_opt(&stmt, &[&id]).await?.as_ref().map(void_target_from_row).transpose()
}

/// Marks a row voided, and drops the cached dashboard days of it and of its returns (which the
/// dashboard leaves out with it).
#[instrument(level = "debug", skip(conn))]
pub async fn mark_voided(conn: &Conn, id: i64, voided_by: &str, at: DateTime<Utc>) -> AppResult<()> {
    let stmt = conn
        .prepare_cached(
            "with voided as (update transactions set is_voided = true, voided_by = $2, voided_at = $3 \
                 where id = $1 returning created_at), \
             returns as (select created_at from transactions where original_transaction_id = $1 and type = 'return') \
             delete from daily_figures \
             where day in (select (created_at at time zone (select time_zone from settings))::date \
                           from (select created_at from voided union all select created_at from returns) rows)",
        )
        .await?;
    conn.execute(&stmt, &[&id, &voided_by, &at]).await?;
    Ok(())
}

/// What the returns of accreditation `id` gave back so far (read under its lock).
#[instrument(level = "debug", skip(conn))]
pub async fn returns_of(conn: &Conn, id: i64) -> AppResult<Returned> {
    let stmt = conn
        .prepare_cached(
            "select coalesce(sum(invoice_amount), 0)::bigint as amount, coalesce(-sum(points), 0)::bigint as points, \
                    count(*) as count \
             from transactions where original_transaction_id = $1 and type = 'return'",
        )
        .await?;
    let row = conn.query_one(&stmt, &[&id]).await?;
    Ok(Returned { amount: row.get("amount"), points: row.get("points"), count: row.get("count") })
}
