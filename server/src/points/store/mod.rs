//! Data access of the points engine: every SQL statement of the area, lower-case and with
//! parameters only. Functions run inside the caller's tenant transaction (`search_path` is the
//! company's schema) and never commit.

use std::sync::LazyLock;

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::prelude::ToPrimitive;
use tokio_postgres::Row;
use tracing::instrument;

use super::rules::OpenBatch;
use super::{Kind, Transaction};
use crate::db::Conn;
use crate::error::{AppError, AppResult, Msg};
use crate::tenant::customers::{Customer, CUSTOMER_COLUMNS, FEW_MATCHES};

// ---------------------------------------------------------------------------------------------
// Customers

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
pub const PRODUCT: &str = "select id, name, points_value, price, is_active from products where id = $1";

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

// ---------------------------------------------------------------------------------------------
// Ledger rows

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
    pub original_transaction_id: Option<i64>,
    pub at: DateTime<Utc>,
    /// The customer's balance before this posting (read under the customer's lock); the balance
    /// after it is this plus `points`.
    pub balance_before: i64,
}

impl NewTransaction<'_> {
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

/// Writes a ledger row. An accreditation whose invoice reference an active accreditation already
/// holds is refused with a 409 naming that one (the unique index `transactions_invoice_key`
/// decides, so two tills racing with one invoice cannot both credit it).
#[instrument(level = "debug", skip_all, fields(kind = row.kind.as_str(), customer = row.customer_id, points = row.points))]
pub async fn insert_transaction(conn: &Conn, row: &NewTransaction<'_>) -> AppResult<Inserted> {
    let stmt = conn
        .prepare_cached(
            "with stale as (delete from daily_figures \
                 where day >= ($1 at time zone (select time_zone from settings))::date), \
             inserted as (insert into transactions (created_at, type, points, customer_id, cashier_id, \
                 cashier_username, pos_id, description, invoice_amount, redeemed_value, invoice_reference, \
                 product_id, original_transaction_id, invoice_key, balance_before, balance_after) \
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, \
                     case when $2 = 'accreditation' then upper($11) end, $14::bigint, $14::bigint + $3::bigint) \
                 on conflict (invoice_key) where not is_voided do nothing \
                 returning id, created_at, pos_id, product_id) \
             select i.id, i.created_at, p.name as pos_name, pr.name as product_name \
             from inserted i left join points_of_sale p on p.id = i.pos_id \
             left join products pr on pr.id = i.product_id",
        )
        .await?;
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
        Some(inserted) => Ok(Inserted {
            id: inserted.get("id"),
            created_at: inserted.get("created_at"),
            pos_name: inserted.get("pos_name"),
            product_name: inserted.get("product_name"),
        }),
        None => Err(invoice_already_credited(conn, row.invoice_reference.unwrap_or_default()).await?),
    }
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

const TRANSACTION_SELECT: &str = "select t.id, t.created_at, t.type, t.points, t.customer_id, \
    c.name as customer_name, c.document as customer_document, \
    coalesce(t.cashier_username, 'system') as cashier_username, t.pos_id, p.name as pos_name, \
    t.description, t.invoice_amount, t.redeemed_value, t.invoice_reference, t.product_id, \
    t.is_voided, t.voided_by, t.original_transaction_id, t.balance_before, t.balance_after, \
    pr.name as product_name \
    from transactions t join customers c on c.id = t.customer_id \
    left join points_of_sale p on p.id = t.pos_id \
    left join products pr on pr.id = t.product_id";

fn transaction_from_row(row: &Row) -> AppResult<Transaction> {
    let kind: &str = row.get("type");
    let kind =
        Kind::parse(kind).ok_or_else(|| AppError::internal(anyhow::anyhow!("unknown transaction type {kind}")))?;
    Ok(Transaction {
        id: row.get("id"),
        date: row.get("created_at"),
        kind,
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

/// The report's filters, already validated; absent ones do not filter.
#[derive(Clone, Debug, Default)]
pub struct TransactionFilter {
    /// A `like` pattern (lower case, wildcards escaped) on the customer's name or document.
    pub customer_pattern: Option<String>,
    pub kind: Option<Kind>,
    pub pos_id: Option<i64>,
    pub cashier: Option<String>,
    pub customer_id: Option<i64>,
    /// Inclusive lower bound.
    pub from: Option<DateTime<Utc>>,
    /// Exclusive upper bound.
    pub until: Option<DateTime<Utc>>,
}

/// How the report finds the customers whose name or document matches its text.
enum CustomerMatch {
    /// Any customer.
    Any,
    /// These few, found first: the planner then knows how many, and reads their transactions
    /// through the customer index.
    Few(Vec<i64>),
    /// More than [`FEW_MATCHES`]: matched inside the statement (a semi-join), which stops reading
    /// customers once the page and the bounded count have their rows.
    Many(String),
}

impl CustomerMatch {
    /// The condition on the customer, as the statements' `$1`.
    fn condition(&self) -> &'static str {
        match self {
            CustomerMatch::Any | CustomerMatch::Few(_) => "($1::bigint[] is null or t.customer_id = any ($1))",
            CustomerMatch::Many(_) => "t.customer_id in (select id from customers where search_key like $1)",
        }
    }

    fn param(&self) -> &(dyn tokio_postgres::types::ToSql + Sync) {
        static ANY: Option<Vec<i64>> = None;
        match self {
            CustomerMatch::Any => &ANY,
            CustomerMatch::Few(ids) => ids,
            CustomerMatch::Many(pattern) => pattern,
        }
    }
}

/// The report's filters after the customer's (`$1`).
const TRANSACTION_FILTER: &str = "and ($2::text is null or t.type = $2) \
    and ($3::bigint is null or t.pos_id = $3) \
    and ($4::text is null or t.cashier_username = $4) \
    and ($5::bigint is null or t.customer_id = $5) \
    and ($6::timestamptz is null or t.created_at >= $6) \
    and ($7::timestamptz is null or t.created_at < $7)";

/// How many matches past the page's end the report counts exactly. Counting every match of a
/// long history costs a scan of all of it; past this the total is a lower bound.
pub const REPORT_COUNT_AHEAD: i64 = 10_000;

/// One page of the filtered transactions, newest first, and how many match: exactly when fewer
/// than the page's end plus [`REPORT_COUNT_AHEAD`] do, else that many (`exact` false).
#[instrument(level = "debug", skip(conn))]
pub async fn search_transactions(
    conn: &Conn,
    filter: &TransactionFilter,
    limit: i64,
    offset: i64,
) -> AppResult<TransactionMatches> {
    let customers = customer_match(conn, filter).await?;
    let kind = filter.kind.map(Kind::as_str);
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 7] =
        [customers.param(), &kind, &filter.pos_id, &filter.cashier, &filter.customer_id, &filter.from, &filter.until];
    let filter_sql = format!("where {} {TRANSACTION_FILTER}", customers.condition());
    let count_up_to = offset.saturating_add(limit).saturating_add(REPORT_COUNT_AHEAD);
    let count = conn
        .prepare_cached(&format!("select count(*) from (select from transactions t {filter_sql} limit $8) matches"))
        .await?;
    let mut count_params = params.to_vec();
    count_params.push(&count_up_to);
    let total: i64 = conn.query_one(&count, &count_params).await?.get(0);
    let page = conn
        .prepare_cached(&format!(
            "{TRANSACTION_SELECT} {filter_sql} order by t.created_at desc, t.id desc limit $8 offset $9"
        ))
        .await?;
    let mut all_params = params.to_vec();
    all_params.push(&limit);
    all_params.push(&offset);
    let items = conn.query(&page, &all_params).await?.iter().map(transaction_from_row).collect::<AppResult<_>>()?;
    Ok(TransactionMatches { items, total, exact: total < count_up_to })
}

/// How the report finds the customers its text matches.
async fn customer_match(conn: &Conn, filter: &TransactionFilter) -> AppResult<CustomerMatch> {
    // The customers first: how many match decides how the rest finds their transactions
    // (statements are planned for their parameters at each execution: the pool's plan_cache_mode).
    Ok(match &filter.customer_pattern {
        Some(pattern) => {
            let stmt = conn.prepare_cached("select id from customers where search_key like $1 limit $2").await?;
            let ids: Vec<i64> =
                conn.query(&stmt, &[pattern, &(FEW_MATCHES + 1)]).await?.iter().map(|row| row.get(0)).collect();
            if ids.len() as i64 <= FEW_MATCHES {
                CustomerMatch::Few(ids)
            } else {
                CustomerMatch::Many(pattern.clone())
            }
        }
        None => CustomerMatch::Any,
    })
}

/// The report's totals over every row its filters match: points and pesos of the accreditations
/// and redemptions that are not voided (a voided row and its cancellation count for nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportTotals {
    pub points_accredited: i64,
    pub points_redeemed: i64,
    /// Whole pesos.
    pub invoice_amount: i64,
    /// Whole pesos.
    pub redeemed_value: i64,
}

#[instrument(level = "debug", skip(conn))]
pub async fn transaction_totals(conn: &Conn, filter: &TransactionFilter) -> AppResult<ReportTotals> {
    let customers = customer_match(conn, filter).await?;
    let kind = filter.kind.map(Kind::as_str);
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 7] =
        [customers.param(), &kind, &filter.pos_id, &filter.cashier, &filter.customer_id, &filter.from, &filter.until];
    let stmt = conn
        .prepare_cached(&format!(
            "select coalesce(sum(t.points) filter (where t.type = 'accreditation'), 0)::bigint as points_accredited, \
                    coalesce(-sum(t.points) filter (where t.type = 'redemption'), 0)::bigint as points_redeemed, \
                    coalesce(sum(t.invoice_amount) filter (where t.type = 'accreditation'), 0)::bigint as invoice_amount, \
                    coalesce(sum(t.redeemed_value) filter (where t.type = 'redemption'), 0)::bigint as redeemed_value \
             from transactions t where {} {TRANSACTION_FILTER} and not t.is_voided",
            customers.condition()
        ))
        .await?;
    let row = conn.query_one(&stmt, &params).await?;
    Ok(ReportTotals {
        points_accredited: row.get("points_accredited"),
        points_redeemed: row.get("points_redeemed"),
        invoice_amount: row.get("invoice_amount"),
        redeemed_value: row.get("redeemed_value"),
    })
}

/// A page of the report and the count of its matches.
#[derive(Debug)]
pub struct TransactionMatches {
    pub items: Vec<Transaction>,
    pub total: i64,
    /// False when `total` is a lower bound.
    pub exact: bool,
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
}

const VOID_TARGET_SELECT: &str = "select id, type, points, customer_id, cashier_id, pos_id, is_voided, \
    invoice_reference, product_id from transactions where id = $1";

fn void_target_from_row(row: &Row) -> AppResult<VoidTarget> {
    let kind: &str = row.get("type");
    Ok(VoidTarget {
        id: row.get("id"),
        kind: Kind::parse(kind)
            .ok_or_else(|| AppError::internal(anyhow::anyhow!("unknown transaction type {kind}")))?,
        points: row.get("points"),
        customer_id: row.get("customer_id"),
        cashier_id: row.get("cashier_id"),
        pos_id: row.get("pos_id"),
        is_voided: row.get("is_voided"),
        invoice_reference: row.get("invoice_reference"),
        product_id: row.get("product_id"),
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

#[instrument(level = "debug", skip(conn))]
pub async fn mark_voided(conn: &Conn, id: i64, voided_by: &str, at: DateTime<Utc>) -> AppResult<()> {
    let stmt = conn
        .prepare_cached(
            "with voided as (update transactions set is_voided = true, voided_by = $2, voided_at = $3 \
                 where id = $1 returning created_at) \
             delete from daily_figures \
             where day = (select (created_at at time zone (select time_zone from settings))::date from voided)",
        )
        .await?;
    conn.execute(&stmt, &[&id, &voided_by, &at]).await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Batches

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

// ---------------------------------------------------------------------------------------------
// Products and approvers

/// A product as a redemption needs it.
#[derive(Clone, Debug)]
pub struct RedeemableProduct {
    pub id: i64,
    pub name: String,
    pub points_value: i64,
    pub price: i64,
    pub is_active: bool,
}

#[instrument(level = "debug", skip(conn))]
pub async fn product(conn: &Conn, id: i64) -> AppResult<Option<RedeemableProduct>> {
    let stmt = conn.prepare_cached(PRODUCT).await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| RedeemableProduct {
        id: row.get("id"),
        name: row.get("name"),
        points_value: row.get("points_value"),
        price: row.get("price"),
        is_active: row.get("is_active"),
    }))
}

/// The password hash of an active supervisor or admin of this company.
#[instrument(level = "debug", skip(conn))]
pub async fn approver_password_hash(conn: &Conn, username: &str) -> AppResult<Option<String>> {
    let stmt = conn
        .prepare_cached(
            "select password_hash from users \
             where username = $1 and is_active and role in ('admin', 'supervisor')",
        )
        .await?;
    Ok(conn.query_opt(&stmt, &[&username]).await?.map(|row| row.get(0)))
}

// ---------------------------------------------------------------------------------------------
// Expiration

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
    conn.execute(&stmt, &[&super::SYSTEM_USER, &action, &entity, &entity_id, detail]).await?;
    Ok(())
}

/// The prefixes of every active company (a platform query: the daily job's work list).
#[instrument(level = "debug", skip(conn))]
pub async fn active_company_prefixes(conn: &deadpool_postgres::ClientWrapper) -> AppResult<Vec<String>> {
    let stmt =
        conn.prepare_cached("select prefix from platform.companies where state = 'active' order by prefix").await?;
    Ok(conn.query(&stmt, &[]).await?.iter().map(|row| row.get(0)).collect())
}

// ---------------------------------------------------------------------------------------------
// Idempotency keys

/// Claims an idempotency key for this request. `true`: the key is new and now held by this
/// transaction. `false`: it was used before (a concurrent holder has committed by then, since
/// the insert waits on the key's unique index until the other transaction ends).
#[instrument(level = "debug", skip(conn, request))]
pub async fn claim_idempotency_key(
    conn: &Conn,
    key: &str,
    user_id: i64,
    operation: &str,
    request: &str,
) -> AppResult<bool> {
    let stmt = conn
        .prepare_cached(
            "insert into idempotency_keys (key, user_id, operation, request_hash, status, response) \
             values ($1, $2, $3, encode(sha256(convert_to($4, 'UTF8')), 'hex'), 0, 'null'::jsonb) \
             on conflict (key) do nothing",
        )
        .await?;
    Ok(conn.execute(&stmt, &[&key, &user_id, &operation, &request]).await? == 1)
}

/// The first answer given under an idempotency key.
#[derive(Clone, Debug)]
pub struct StoredAnswer {
    /// Same user, same operation and same request as the one being retried.
    pub same_request: bool,
    pub status: i16,
    pub response: serde_json::Value,
}

#[instrument(level = "debug", skip(conn, request))]
pub async fn stored_answer(
    conn: &Conn,
    key: &str,
    user_id: i64,
    operation: &str,
    request: &str,
) -> AppResult<Option<StoredAnswer>> {
    let stmt = conn
        .prepare_cached(
            "select (user_id = $2 and operation = $3 \
                     and request_hash = encode(sha256(convert_to($4, 'UTF8')), 'hex')) as same_request, \
                    status, response \
             from idempotency_keys where key = $1",
        )
        .await?;
    Ok(conn.query_opt(&stmt, &[&key, &user_id, &operation, &request]).await?.map(|row| StoredAnswer {
        same_request: row.get("same_request"),
        status: row.get("status"),
        response: row.get("response"),
    }))
}

#[instrument(level = "debug", skip(conn, response))]
pub async fn save_answer(conn: &Conn, key: &str, status: i16, response: &serde_json::Value) -> AppResult<()> {
    let stmt = conn.prepare_cached("update idempotency_keys set status = $2, response = $3 where key = $1").await?;
    conn.execute(&stmt, &[&key, &status, response]).await?;
    Ok(())
}

#[instrument(level = "debug", skip(conn))]
pub async fn delete_idempotency_keys_before(conn: &Conn, before: DateTime<Utc>) -> AppResult<u64> {
    let stmt = conn.prepare_cached("delete from idempotency_keys where created_at < $1").await?;
    Ok(conn.execute(&stmt, &[&before]).await?)
}

// ---------------------------------------------------------------------------------------------
// Dashboard

/// Active customers and the points they hold.
#[derive(Clone, Copy, Debug)]
pub struct CustomerTotals {
    pub customers: i64,
    /// Summed as `numeric`: no number of customers overflows it.
    pub points: i128,
}

#[instrument(level = "debug", skip(conn))]
pub async fn customer_totals(conn: &Conn) -> AppResult<CustomerTotals> {
    let stmt = conn
        .prepare_cached(
            "select count(*) as customers, coalesce(sum(points), 0) as points \
             from customers where is_active",
        )
        .await?;
    let row = conn.query_one(&stmt, &[]).await?;
    Ok(CustomerTotals { customers: row.get("customers"), points: whole(&row, "points") })
}

/// The cached figures of the closed days in `[first, last]` computed in `time_zone`.
#[instrument(level = "debug", skip(conn))]
pub async fn cached_days(
    conn: &Conn,
    first: NaiveDate,
    last: NaiveDate,
    time_zone: &str,
) -> AppResult<Vec<DayFigures>> {
    let stmt = conn
        .prepare_cached(
            "select day, accredited::numeric, redeemed::numeric, transactions from daily_figures \
             where day between $1 and $2 and time_zone = $3",
        )
        .await?;
    Ok(conn.query(&stmt, &[&first, &last, &time_zone]).await?.iter().map(day_from_row).collect())
}

/// Keeps closed days' figures for the next dashboard (those that fit its `bigint` columns; any
/// other is computed each time).
#[instrument(level = "debug", skip(conn, days))]
pub async fn cache_days(conn: &Conn, days: &[DayFigures], time_zone: &str) -> AppResult<()> {
    let stmt = conn
        .prepare_cached(
            "insert into daily_figures (day, time_zone, accredited, redeemed, transactions) \
             select d.day, $5, d.accredited, d.redeemed, d.transactions \
             from unnest($1::date[], $2::bigint[], $3::bigint[], $4::bigint[]) as d (day, accredited, redeemed, transactions) \
             on conflict (day) do update set time_zone = excluded.time_zone, accredited = excluded.accredited, \
                 redeemed = excluded.redeemed, transactions = excluded.transactions",
        )
        .await?;
    let days: Vec<(NaiveDate, i64, i64, i64)> = days
        .iter()
        .filter_map(|d| {
            Some((d.date, i64::try_from(d.accredited).ok()?, i64::try_from(d.redeemed).ok()?, d.transactions))
        })
        .collect();
    let dates: Vec<NaiveDate> = days.iter().map(|d| d.0).collect();
    let accredited: Vec<i64> = days.iter().map(|d| d.1).collect();
    let redeemed: Vec<i64> = days.iter().map(|d| d.2).collect();
    let transactions: Vec<i64> = days.iter().map(|d| d.3).collect();
    conn.execute(&stmt, &[&dates, &accredited, &redeemed, &transactions, &time_zone]).await?;
    Ok(())
}

fn day_from_row(row: &Row) -> DayFigures {
    DayFigures {
        date: row.get("day"),
        accredited: whole(row, "accredited"),
        redeemed: whole(row, "redeemed"),
        transactions: row.get("transactions"),
    }
}

/// A whole `numeric` (a sum of points).
fn whole(row: &Row, column: &str) -> i128 {
    row.get::<_, rust_decimal::Decimal>(column).trunc().to_i128().unwrap_or(i128::MAX)
}

/// One local day's non-voided accreditations and redemptions; the sums are `numeric`, which no
/// number of postings overflows.
#[derive(Clone, Copy, Debug)]
pub struct DayFigures {
    pub date: NaiveDate,
    pub accredited: i128,
    pub redeemed: i128,
    pub transactions: i64,
}

/// Per local day (in `time_zone`) from `since` until `until`: points accredited and redeemed and how many
/// such transactions, voided ones left out. Reads only the window's index entries.
#[instrument(level = "debug", skip(conn))]
pub async fn daily_figures(
    conn: &Conn,
    since: DateTime<Utc>,
    until: DateTime<Utc>,
    time_zone: &str,
) -> AppResult<Vec<DayFigures>> {
    let stmt = conn
        .prepare_cached(
            "select (created_at at time zone $3)::date as day, \
                    coalesce(sum(points) filter (where type = 'accreditation'), 0) as accredited, \
                    coalesce(-sum(points) filter (where type = 'redemption'), 0) as redeemed, \
                    count(*) as transactions \
             from transactions \
             where created_at >= $1 and created_at < $2 and not is_voided and type in ('accreditation', 'redemption') \
             group by 1 order by 1",
        )
        .await?;
    let rows = conn.query(&stmt, &[&since, &until, &time_zone]).await?;
    Ok(rows.iter().map(day_from_row).collect())
}
