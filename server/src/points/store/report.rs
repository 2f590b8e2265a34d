//! The transaction report: a filtered page with its count, and the filtered totals.

use chrono::{DateTime, Utc};
use tokio_postgres::types::ToSql;
use tracing::instrument;

use super::ledger::{transaction_from_row, TRANSACTION_SELECT};
use crate::db::Conn;
use crate::error::AppResult;
use crate::points::{Kind, Transaction};
use crate::tenant::customers::model::FEW_MATCHES;

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
    /// An invoice reference, compared without case.
    pub invoice_reference: Option<String>,
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

    fn param(&self) -> &(dyn ToSql + Sync) {
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
    and ($7::timestamptz is null or t.created_at < $7) \
    and ($8::text is null or upper(t.invoice_reference) = upper($8))";

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
    let filtered = Filtered::new(conn, filter).await?;
    let (filter_sql, params) = filtered.clause();
    let count_up_to = offset.saturating_add(limit).saturating_add(REPORT_COUNT_AHEAD);
    let count = conn
        .prepare_cached(&format!("select count(*) from (select from transactions t {filter_sql} limit $9) matches"))
        .await?;
    let mut count_params = params.clone();
    count_params.push(&count_up_to);
    let total: i64 = conn.query_one(&count, &count_params).await?.get(0);
    let page = conn
        .prepare_cached(&format!(
            "{TRANSACTION_SELECT} {filter_sql} order by t.created_at desc, t.id desc limit $9 offset $10"
        ))
        .await?;
    let mut all_params = params;
    all_params.push(&limit);
    all_params.push(&offset);
    let items = conn.query(&page, &all_params).await?.iter().map(transaction_from_row).collect::<AppResult<_>>()?;
    Ok(TransactionMatches { items, total, exact: total < count_up_to })
}

/// The report's filters as SQL, for the page, its count and the totals alike.
struct Filtered<'a> {
    customers: CustomerMatch,
    kind: Option<&'static str>,
    filter: &'a TransactionFilter,
}

impl<'a> Filtered<'a> {
    async fn new(conn: &Conn, filter: &'a TransactionFilter) -> AppResult<Self> {
        Ok(Filtered { customers: customer_match(conn, filter).await?, kind: filter.kind.map(Kind::as_str), filter })
    }

    /// The `where` clause on `transactions t` and its parameters `$1` to `$8`; a statement adds
    /// its own from `$9`.
    fn clause(&self) -> (String, Vec<&(dyn ToSql + Sync)>) {
        let filter = self.filter;
        let params: Vec<&(dyn ToSql + Sync)> = vec![
            self.customers.param(),
            &self.kind,
            &filter.pos_id,
            &filter.cashier,
            &filter.customer_id,
            &filter.from,
            &filter.until,
            &filter.invoice_reference,
        ];
        (format!("where {} {TRANSACTION_FILTER}", self.customers.condition()), params)
    }
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
/// and redemptions that are not voided (a voided row and its cancellation count for nothing), and
/// of the returns of accreditations that are not voided (a voided accreditation, its returns and
/// its cancellation net to nothing and count for nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportTotals {
    /// Points the accreditations gave.
    pub points_accredited: i64,
    /// Points the redemptions took, as a positive number.
    pub points_redeemed: i64,
    /// The accreditations' invoice amounts, in whole pesos.
    pub invoice_amount: i64,
    /// What the redemptions were worth, in whole pesos (the product's price, or the points' peso
    /// value).
    pub redeemed_value: i64,
    /// Points the returns took back, as a positive number.
    pub points_returned: i64,
    /// The pesos of the invoices given back by the returns, in whole pesos.
    pub returned_amount: i64,
}

#[instrument(level = "debug", skip(conn))]
pub async fn transaction_totals(conn: &Conn, filter: &TransactionFilter) -> AppResult<ReportTotals> {
    let filtered = Filtered::new(conn, filter).await?;
    let (filter_sql, params) = filtered.clause();
    let stmt = conn
        .prepare_cached(&format!(
            "select coalesce(sum(t.points) filter (where t.type = 'accreditation'), 0)::bigint as points_accredited, \
                    coalesce(-sum(t.points) filter (where t.type = 'redemption'), 0)::bigint as points_redeemed, \
                    coalesce(sum(t.invoice_amount) filter (where t.type = 'accreditation'), 0)::bigint as invoice_amount, \
                    coalesce(sum(t.redeemed_value) filter (where t.type = 'redemption'), 0)::bigint as redeemed_value, \
                    coalesce(-sum(t.points) filter (where t.type = 'return'), 0)::bigint as points_returned, \
                    coalesce(sum(t.invoice_amount) filter (where t.type = 'return'), 0)::bigint as returned_amount \
             from transactions t {filter_sql} and not t.is_voided \
               and (t.type <> 'return' or not exists \
                    (select from transactions o where o.id = t.original_transaction_id and o.is_voided))"
        ))
        .await?;
    let row = conn.query_one(&stmt, &params).await?;
    Ok(ReportTotals {
        points_accredited: row.get("points_accredited"),
        points_redeemed: row.get("points_redeemed"),
        invoice_amount: row.get("invoice_amount"),
        redeemed_value: row.get("redeemed_value"),
        points_returned: row.get("points_returned"),
        returned_amount: row.get("returned_amount"),
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
