//! The dashboard's figures: customer totals, and each day's postings (cached once the day is
//! closed).

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::prelude::ToPrimitive;
use tokio_postgres::Row;
use tracing::instrument;

use crate::db::Conn;
use crate::error::AppResult;

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
            "select day, accredited::numeric, redeemed::numeric, returned::numeric, transactions from daily_figures \
             where day between $1 and $2 and time_zone = $3 and returned is not null",
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
            "insert into daily_figures (day, time_zone, accredited, redeemed, returned, transactions) \
             select d.day, $6, d.accredited, d.redeemed, d.returned, d.transactions \
             from unnest($1::date[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[]) \
                 as d (day, accredited, redeemed, returned, transactions) \
             on conflict (day) do update set time_zone = excluded.time_zone, accredited = excluded.accredited, \
                 redeemed = excluded.redeemed, returned = excluded.returned, transactions = excluded.transactions",
        )
        .await?;
    let days: Vec<(NaiveDate, i64, i64, i64, i64)> = days
        .iter()
        .filter_map(|d| {
            Some((
                d.date,
                i64::try_from(d.accredited).ok()?,
                i64::try_from(d.redeemed).ok()?,
                i64::try_from(d.returned).ok()?,
                d.transactions,
            ))
        })
        .collect();
    let dates: Vec<NaiveDate> = days.iter().map(|d| d.0).collect();
    let accredited: Vec<i64> = days.iter().map(|d| d.1).collect();
    let redeemed: Vec<i64> = days.iter().map(|d| d.2).collect();
    let returned: Vec<i64> = days.iter().map(|d| d.3).collect();
    let transactions: Vec<i64> = days.iter().map(|d| d.4).collect();
    conn.execute(&stmt, &[&dates, &accredited, &redeemed, &returned, &transactions, &time_zone]).await?;
    Ok(())
}

fn day_from_row(row: &Row) -> DayFigures {
    DayFigures {
        date: row.get("day"),
        accredited: whole(row, "accredited"),
        redeemed: whole(row, "redeemed"),
        returned: whole(row, "returned"),
        transactions: row.get("transactions"),
    }
}

/// A whole `numeric` (a sum of points).
fn whole(row: &Row, column: &str) -> i128 {
    row.get::<_, rust_decimal::Decimal>(column).trunc().to_i128().unwrap_or(i128::MAX)
}

/// One local day's non-voided accreditations and redemptions, and the returns of non-voided
/// accreditations; the sums are `numeric`, which no number of postings overflows.
#[derive(Clone, Copy, Debug)]
pub struct DayFigures {
    pub date: NaiveDate,
    pub accredited: i128,
    pub redeemed: i128,
    /// Points the day's returns took back, as a positive number.
    pub returned: i128,
    /// Accreditations and redemptions (returns are not counted as operations).
    pub transactions: i64,
}

/// Per local day (in `time_zone`) from `since` until `until`: points accredited, redeemed and
/// returned, and how many accreditations and redemptions, voided ones left out. A return of an
/// accreditation that was later voided is left out too, as the accreditation is: the void's
/// cancellation took only what the returns left, so the three net to nothing
/// (docs/points.md, "Dashboard"). Reads the window's index entries, and the original row of
/// each return only.
#[instrument(level = "debug", skip(conn))]
pub async fn daily_figures(
    conn: &Conn,
    since: DateTime<Utc>,
    until: DateTime<Utc>,
    time_zone: &str,
) -> AppResult<Vec<DayFigures>> {
    let stmt = conn
        .prepare_cached(
            "select (t.created_at at time zone $3)::date as day, \
                    coalesce(sum(t.points) filter (where t.type = 'accreditation'), 0) as accredited, \
                    coalesce(-sum(t.points) filter (where t.type = 'redemption'), 0) as redeemed, \
                    coalesce(-sum(t.points) filter (where t.type = 'return'), 0) as returned, \
                    count(*) filter (where t.type <> 'return') as transactions \
             from transactions t \
             where t.created_at >= $1 and t.created_at < $2 and not t.is_voided \
               and t.type in ('accreditation', 'redemption', 'return') \
               and (t.type <> 'return' or not exists \
                    (select from transactions o where o.id = t.original_transaction_id and o.is_voided)) \
             group by 1 order by 1",
        )
        .await?;
    let rows = conn.query(&stmt, &[&since, &until, &time_zone]).await?;
    Ok(rows.iter().map(day_from_row).collect())
}
