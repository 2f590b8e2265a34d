//! Alerts: finding them in a window of the ledger, keeping them (one per kind, subject and local
//! day), listing them and marking them reviewed (docs/points.md, "Alerts").

use chrono::{DateTime, NaiveDate, Utc};
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;
use tracing::instrument;

use super::ledger::{transaction_from_row, TRANSACTION_SELECT};
use crate::db::Conn;
use crate::error::AppResult;
use crate::points::Transaction;

/// The part of the ledger a scan reads: rows posted in `[since, until)`, their local days taken
/// in `time_zone`.
#[derive(Clone, Copy, Debug)]
pub struct ScanWindow<'a> {
    pub since: DateTime<Utc>,
    pub until: DateTime<Utc>,
    pub time_zone: &'a str,
}

/// Most transaction ids an alert keeps (the first ones of its day).
pub const MAX_ALERT_TRANSACTIONS: i32 = 100;

/// Locks the scan's watermark for the rest of the transaction (two readers never scan at once)
/// and answers the last local day whose alerts were found after it closed.
#[instrument(level = "debug", skip_all)]
pub async fn lock_alert_scan(conn: &Conn) -> AppResult<Option<NaiveDate>> {
    let stmt = conn.prepare_cached("select scanned_through from alert_scans for update").await?;
    Ok(conn.query_opt(&stmt, &[]).await?.and_then(|row| row.get("scanned_through")))
}

#[instrument(level = "debug", skip_all)]
pub async fn set_alert_scan(conn: &Conn, scanned_through: NaiveDate) -> AppResult<()> {
    let stmt = conn
        .prepare_cached("update alert_scans set scanned_through = greatest(coalesce(scanned_through, $1), $1::date)")
        .await?;
    conn.execute(&stmt, &[&scanned_through]).await?;
    Ok(())
}

/// One customer's accreditations and redemptions in one local day (voided ones included: they
/// happened).
#[derive(Clone, Debug)]
pub struct CustomerDay {
    pub customer_id: i64,
    pub day: NaiveDate,
    pub operations: i64,
    pub accreditations: i64,
    pub points_accredited: i64,
    /// Accreditations and their points not voided: what the day's velocity limits count.
    pub kept_accreditations: i64,
    pub kept_points: i64,
    pub transaction_ids: Vec<i64>,
}

/// The customer-days of the window with more operations, more non-voided accreditations or more
/// of their points than the given thresholds (`None`: that threshold is off).
#[instrument(level = "debug", skip_all)]
pub async fn busy_customer_days(
    conn: &Conn,
    window: &ScanWindow<'_>,
    operations: Option<i64>,
    accreditations: Option<i64>,
    points: Option<i64>,
) -> AppResult<Vec<CustomerDay>> {
    let stmt = conn
        .prepare_cached(
            "select customer_id, (created_at at time zone $3)::date as day, count(*) as operations, \
                 count(*) filter (where type = 'accreditation') as accreditations, \
                 coalesce(sum(points) filter (where type = 'accreditation'), 0)::bigint as points_accredited, \
                 count(*) filter (where type = 'accreditation' and not is_voided) as kept_accreditations, \
                 coalesce(sum(points) filter (where type = 'accreditation' and not is_voided), 0)::bigint as kept_points, \
                 (array_agg(id order by id))[1:$5::int] as ids \
             from transactions \
             where created_at >= $1 and created_at < $2 and type in ('accreditation', 'redemption') \
             group by 1, 2 \
             having count(*) > $4 \
                 or count(*) filter (where type = 'accreditation' and not is_voided) > $6 \
                 or coalesce(sum(points) filter (where type = 'accreditation' and not is_voided), 0)::bigint > $7",
        )
        .await?;
    let off = i64::MAX;
    let params: [&(dyn ToSql + Sync); 7] = [
        &window.since,
        &window.until,
        &window.time_zone,
        &operations.unwrap_or(off),
        &MAX_ALERT_TRANSACTIONS,
        &accreditations.unwrap_or(off),
        &points.unwrap_or(off),
    ];
    let rows = conn.query(&stmt, &params).await?;
    Ok(rows
        .iter()
        .map(|row| CustomerDay {
            customer_id: row.get("customer_id"),
            day: row.get("day"),
            operations: row.get("operations"),
            accreditations: row.get("accreditations"),
            points_accredited: row.get("points_accredited"),
            kept_accreditations: row.get("kept_accreditations"),
            kept_points: row.get("kept_points"),
            transaction_ids: row.get("ids"),
        })
        .collect())
}

/// One cashier's accreditations of one customer in one local day.
#[derive(Clone, Debug)]
pub struct CashierRepeat {
    pub cashier_id: i64,
    pub customer_id: i64,
    pub day: NaiveDate,
    pub accreditations: i64,
    pub points: i64,
    pub transaction_ids: Vec<i64>,
}

/// The cashier-customer pairs of the window with at least `at_least` accreditations in a day.
#[instrument(level = "debug", skip_all)]
pub async fn cashier_repeats(conn: &Conn, window: &ScanWindow<'_>, at_least: i64) -> AppResult<Vec<CashierRepeat>> {
    let stmt = conn
        .prepare_cached(
            "select cashier_id, customer_id, (created_at at time zone $3)::date as day, \
                 count(*) as accreditations, coalesce(sum(points), 0)::bigint as points, \
                 (array_agg(id order by id))[1:$5::int] as ids \
             from transactions \
             where created_at >= $1 and created_at < $2 and type = 'accreditation' and cashier_id is not null \
             group by 1, 2, 3 having count(*) >= $4",
        )
        .await?;
    let rows = conn
        .query(&stmt, &[&window.since, &window.until, &window.time_zone, &at_least, &MAX_ALERT_TRANSACTIONS])
        .await?;
    Ok(rows
        .iter()
        .map(|row| CashierRepeat {
            cashier_id: row.get("cashier_id"),
            customer_id: row.get("customer_id"),
            day: row.get("day"),
            accreditations: row.get("accreditations"),
            points: row.get("points"),
            transaction_ids: row.get("ids"),
        })
        .collect())
}

/// An accreditation given back (a `return` row, or the `cancellation` of a void) while
/// redemptions of its customer posted after it and at most `soon` before the refund stand.
#[derive(Clone, Debug)]
pub struct RefundAfterRedemption {
    pub customer_id: i64,
    pub day: NaiveDate,
    pub refund_id: i64,
    pub accreditation_id: i64,
    pub redemption_ids: Vec<i64>,
    /// Points those redemptions took (positive).
    pub redeemed: i64,
}

/// The refunds of the window that followed redemptions within `soon_days` days.
#[instrument(level = "debug", skip_all)]
pub async fn refunds_after_redemption(
    conn: &Conn,
    window: &ScanWindow<'_>,
    soon_days: i32,
) -> AppResult<Vec<RefundAfterRedemption>> {
    let stmt = conn
        .prepare_cached(
            "select r.customer_id, (r.created_at at time zone $3)::date as day, r.id as refund_id, \
                 a.id as accreditation_id, redeemed.ids, redeemed.points \
             from transactions r \
             join transactions a on a.id = r.original_transaction_id and a.type = 'accreditation' \
             cross join lateral ( \
                 select array_agg(d.id order by d.id) as ids, coalesce(-sum(d.points), 0)::bigint as points \
                 from transactions d \
                 where d.customer_id = r.customer_id and d.type = 'redemption' and not d.is_voided \
                   and d.created_at >= a.created_at and d.created_at <= r.created_at \
                   and d.created_at > r.created_at - make_interval(days => $4)) redeemed \
             where r.created_at >= $1 and r.created_at < $2 and r.type in ('return', 'cancellation') \
               and redeemed.ids is not null",
        )
        .await?;
    let rows = conn.query(&stmt, &[&window.since, &window.until, &window.time_zone, &soon_days]).await?;
    Ok(rows
        .iter()
        .map(|row| RefundAfterRedemption {
            customer_id: row.get("customer_id"),
            day: row.get("day"),
            refund_id: row.get("refund_id"),
            accreditation_id: row.get("accreditation_id"),
            redemption_ids: row.get("ids"),
            redeemed: row.get("points"),
        })
        .collect())
}

/// An accreditation of the window whose invoice reference an earlier, voided accreditation of
/// another customer held.
#[derive(Clone, Debug)]
pub struct ReassignedInvoice {
    /// The reference in capitals, as the unique index compares it.
    pub invoice_key: String,
    /// The reference as the cashier wrote it on the new accreditation.
    pub invoice_reference: String,
    pub customer_id: i64,
    pub day: NaiveDate,
    pub accreditation_id: i64,
    /// The earlier accreditations and their cancellations.
    pub earlier_ids: Vec<i64>,
    pub earlier_accreditations: i64,
}

#[instrument(level = "debug", skip_all)]
pub async fn reassigned_invoices(conn: &Conn, window: &ScanWindow<'_>) -> AppResult<Vec<ReassignedInvoice>> {
    let stmt = conn
        .prepare_cached(
            "select x.invoice_key, x.invoice_reference, x.customer_id, (x.created_at at time zone $3)::date as day, \
                 x.id as accreditation_id, earlier.ids, earlier.accreditations \
             from transactions x \
             cross join lateral ( \
                 select count(*) as accreditations, \
                     array_agg(e.id order by e.id) || coalesce(array_agg(c.id order by c.id) \
                         filter (where c.id is not null), '{}') as ids \
                 from transactions e left join transactions c on c.original_transaction_id = e.id \
                     and c.type = 'cancellation' \
                 where e.invoice_key = x.invoice_key and e.is_voided and e.type = 'accreditation' \
                   and e.customer_id <> x.customer_id and e.id < x.id) earlier \
             where x.created_at >= $1 and x.created_at < $2 and x.type = 'accreditation' \
               and x.invoice_key is not null and earlier.accreditations > 0",
        )
        .await?;
    let rows = conn.query(&stmt, &[&window.since, &window.until, &window.time_zone]).await?;
    Ok(rows
        .iter()
        .map(|row| ReassignedInvoice {
            invoice_key: row.get("invoice_key"),
            invoice_reference: row.get("invoice_reference"),
            customer_id: row.get("customer_id"),
            day: row.get("day"),
            accreditation_id: row.get("accreditation_id"),
            earlier_ids: row.get("ids"),
            earlier_accreditations: row.get("accreditations"),
        })
        .collect())
}

/// An alert as a scan found it.
#[derive(Clone, Debug)]
pub struct FoundAlert {
    pub kind: &'static str,
    pub day: NaiveDate,
    pub subject: String,
    pub customer_id: Option<i64>,
    pub cashier_id: Option<i64>,
    pub invoice_reference: Option<String>,
    pub occurrences: i64,
    pub points: Option<i64>,
    pub threshold: Option<i64>,
    pub transaction_ids: Vec<i64>,
}

/// Keeps an alert: a new one as `new`; one found again takes the new figures and keeps its
/// status (and is not written at all when nothing changed).
#[instrument(level = "debug", skip_all)]
pub async fn upsert_alert(conn: &Conn, alert: &FoundAlert) -> AppResult<()> {
    let stmt = conn
        .prepare_cached(
            "insert into alerts (kind, day, subject, customer_id, cashier_id, invoice_reference, occurrences, \
                 points, threshold, transaction_ids) \
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
             on conflict (kind, subject, day) do update set occurrences = excluded.occurrences, \
                 points = excluded.points, threshold = excluded.threshold, \
                 transaction_ids = excluded.transaction_ids, invoice_reference = excluded.invoice_reference, \
                 customer_id = excluded.customer_id \
             where (alerts.occurrences, alerts.points, alerts.threshold, alerts.transaction_ids, \
                    alerts.invoice_reference, alerts.customer_id) \
                 is distinct from (excluded.occurrences, excluded.points, excluded.threshold, \
                    excluded.transaction_ids, excluded.invoice_reference, excluded.customer_id)",
        )
        .await?;
    conn.execute(
        &stmt,
        &[
            &alert.kind,
            &alert.day,
            &alert.subject,
            &alert.customer_id,
            &alert.cashier_id,
            &alert.invoice_reference,
            &alert.occurrences,
            &alert.points,
            &alert.threshold,
            &alert.transaction_ids,
        ],
    )
    .await?;
    Ok(())
}

/// An alert as the list reads it.
#[derive(Clone, Debug)]
pub struct AlertRow {
    pub id: i64,
    pub kind: String,
    pub day: NaiveDate,
    pub status: String,
    pub customer_id: Option<i64>,
    pub customer_name: Option<String>,
    pub customer_document: Option<String>,
    pub cashier_username: Option<String>,
    pub invoice_reference: Option<String>,
    pub occurrences: i64,
    pub points: Option<i64>,
    pub threshold: Option<i64>,
    pub transaction_ids: Vec<i64>,
    pub detected_at: DateTime<Utc>,
    pub reviewed_by: Option<String>,
    pub reviewed_at: Option<DateTime<Utc>>,
}

const ALERT_SELECT: &str = "select a.id, a.kind, a.day, a.status, a.customer_id, c.name as customer_name, \
    c.document as customer_document, u.username as cashier_username, a.invoice_reference, a.occurrences, \
    a.points, a.threshold, a.transaction_ids, a.detected_at, a.reviewed_by, a.reviewed_at \
    from alerts a left join customers c on c.id = a.customer_id left join users u on u.id = a.cashier_id";

fn alert_from_row(row: &Row) -> AlertRow {
    AlertRow {
        id: row.get("id"),
        kind: row.get("kind"),
        day: row.get("day"),
        status: row.get("status"),
        customer_id: row.get("customer_id"),
        customer_name: row.get("customer_name"),
        customer_document: row.get("customer_document"),
        cashier_username: row.get("cashier_username"),
        invoice_reference: row.get("invoice_reference"),
        occurrences: row.get("occurrences"),
        points: row.get("points"),
        threshold: row.get("threshold"),
        transaction_ids: row.get("transaction_ids"),
        detected_at: row.get("detected_at"),
        reviewed_by: row.get("reviewed_by"),
        reviewed_at: row.get("reviewed_at"),
    }
}

/// The list's filters; `None` does not filter.
#[derive(Clone, Debug, Default)]
pub struct AlertFilter {
    pub status: Option<&'static str>,
    pub kind: Option<&'static str>,
}

const ALERT_FILTER: &str = "where ($1::text is null or a.status = $1) and ($2::text is null or a.kind = $2)";

/// One page of the alerts matching `filter`, newest day first, and how many match in all.
#[instrument(level = "debug", skip_all)]
pub async fn search_alerts(
    conn: &Conn,
    filter: &AlertFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<AlertRow>, i64)> {
    let count = conn.prepare_cached(&format!("select count(*) from alerts a {ALERT_FILTER}")).await?;
    let total: i64 = conn.query_one(&count, &[&filter.status, &filter.kind]).await?.get(0);
    let page = conn
        .prepare_cached(&format!("{ALERT_SELECT} {ALERT_FILTER} order by a.day desc, a.id desc limit $3 offset $4"))
        .await?;
    let rows = conn.query(&page, &[&filter.status, &filter.kind, &limit, &offset]).await?;
    Ok((rows.iter().map(alert_from_row).collect(), total))
}

#[instrument(level = "debug", skip_all)]
pub async fn alert(conn: &Conn, id: i64) -> AppResult<Option<AlertRow>> {
    let stmt = conn.prepare_cached(&format!("{ALERT_SELECT} where a.id = $1")).await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.as_ref().map(alert_from_row))
}

/// Sets an alert's status: `reviewed` records who and when (the first review stands), `new`
/// clears them. Answers whether the alert exists.
#[instrument(level = "debug", skip_all)]
pub async fn set_alert_status(conn: &Conn, id: i64, status: &str, by: &str, at: DateTime<Utc>) -> AppResult<bool> {
    let stmt = conn
        .prepare_cached(
            "update alerts set status = $2, \
                 reviewed_by = case when $2 = 'reviewed' then coalesce(reviewed_by, $3) end, \
                 reviewed_at = case when $2 = 'reviewed' then coalesce(reviewed_at, $4) end \
             where id = $1",
        )
        .await?;
    Ok(conn.execute(&stmt, &[&id, &status, &by, &at]).await? == 1)
}

#[instrument(level = "debug", skip_all)]
pub async fn new_alert_count(conn: &Conn) -> AppResult<i64> {
    let stmt = conn.prepare_cached("select count(*) from alerts where status = 'new'").await?;
    Ok(conn.query_one(&stmt, &[]).await?.get(0))
}

/// The ledger rows of `ids`, oldest first.
#[instrument(level = "debug", skip_all)]
pub async fn transactions_by_ids(conn: &Conn, ids: &[i64]) -> AppResult<Vec<Transaction>> {
    let stmt =
        conn.prepare_cached(&format!("{TRANSACTION_SELECT} where t.id = any($1) order by t.created_at, t.id")).await?;
    conn.query(&stmt, &[&ids]).await?.iter().map(transaction_from_row).collect()
}
