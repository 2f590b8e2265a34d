//! The dashboard's figures, computed in SQL over the 30-day window's index entries only.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::rules;
use super::store;
use crate::db::Conn;
use crate::error::AppResult;
use crate::extract::Json;
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::settings;

/// Screens that show the dashboard.
pub const PERMISSIONS: &[&str] = &["/main"];
/// Days of the dashboard's window, today included.
pub const WINDOW_DAYS: i64 = 30;

/// One local day of the chart.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct DayBucket {
    /// `YYYY-MM-DD` in the company's time zone.
    #[schema(value_type = String, format = Date)]
    pub date: NaiveDate,
    /// Points of non-voided accreditations that day.
    #[schema(value_type = i64)]
    pub accredited: i128,
    /// Points of non-voided redemptions that day.
    #[schema(value_type = i64)]
    pub redeemed: i128,
    /// Points taken back by that day's returns of non-voided accreditations.
    #[schema(value_type = i64)]
    pub returned: i128,
}

/// What the company owes its customers in points.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Liability {
    /// Points held by active customers.
    #[schema(value_type = i64)]
    pub outstanding_points: i128,
    /// Their peso value at the current redemption rate (`floor(points / redemptionRate)`).
    #[schema(value_type = i64)]
    pub value: i128,
}

/// The dashboard: the company's KPIs over the last 30 days in its time zone, the daily chart and
/// the points liability.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Dashboard {
    /// Active customers.
    pub total_customers: i64,
    /// Points held by active customers.
    #[schema(value_type = i64)]
    pub points_in_circulation: i128,
    /// Non-voided accreditations and redemptions in the last 30 days.
    pub transactions_last30_days: i64,
    /// Points of non-voided accreditations in the last 30 days.
    #[schema(value_type = i64)]
    pub points_accredited_last30_days: i128,
    /// Points of non-voided redemptions in the last 30 days.
    #[schema(value_type = i64)]
    pub points_redeemed_last30_days: i128,
    /// Points taken back by returns (of accreditations not voided) in the last 30 days.
    #[schema(value_type = i64)]
    pub points_returned_last30_days: i128,
    /// 30 local days, oldest first, today last.
    pub daily: Vec<DayBucket>,
    /// The points active customers hold and what they are worth in pesos.
    pub liability: Liability,
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(dashboard_handler))
}

/// The dashboard's KPIs, the 30-day chart and the points liability.
#[utoipa::path(get, path = "/stats/dashboard", tag = "points", security(("bearer" = [])),
    responses((status = 200, body = Dashboard), crate::error::ApiErrors))]
async fn dashboard_handler(t: Tenant) -> AppResult<Json<Dashboard>> {
    t.require_permission(PERMISSIONS).await?;
    let figures = dashboard(&t, Utc::now()).await?;
    t.commit().await?;
    Ok(Json(figures))
}

/// The dashboard as of `now`.
/// Days that ended this long ago are closed: no ledger row can still be written for them.
const CLOSED_AFTER: Duration = Duration::hours(1);

/// The figures of each day from `first_day` to `today`: closed days from the cache (computing and
/// keeping the missing ones), the rest live from the ledger.
async fn window_figures(
    conn: &Conn,
    first_day: NaiveDate,
    today: NaiveDate,
    now: DateTime<Utc>,
    tz: chrono_tz::Tz,
) -> AppResult<Vec<store::DayFigures>> {
    let time_zone = tz.name();
    let closed_until = first_day
        .iter_days()
        .take_while(|day| *day <= today && rules::local_day_start(*day + Duration::days(1), tz) + CLOSED_AFTER <= now)
        .last();
    let mut days = Vec::new();
    let live_from = match closed_until {
        Some(last_closed) => {
            let cached = store::cached_days(conn, first_day, last_closed, time_zone).await?;
            let missing: Vec<NaiveDate> = first_day
                .iter_days()
                .take_while(|d| *d <= last_closed)
                .filter(|d| !cached.iter().any(|c| c.date == *d))
                .collect();
            days.extend(cached);
            if let (Some(first), Some(last)) = (missing.first(), missing.last()) {
                let since = rules::local_day_start(*first, tz);
                let until = rules::local_day_start(*last + Duration::days(1), tz);
                let computed = store::daily_figures(conn, since, until, time_zone).await?;
                let fresh: Vec<store::DayFigures> = missing
                    .iter()
                    .map(|date| {
                        computed.iter().find(|c| c.date == *date).copied().unwrap_or(store::DayFigures {
                            date: *date,
                            accredited: 0,
                            redeemed: 0,
                            returned: 0,
                            transactions: 0,
                        })
                    })
                    .collect();
                store::cache_days(conn, &fresh, time_zone).await?;
                days.extend(fresh);
            }
            last_closed + Duration::days(1)
        }
        None => first_day,
    };
    let since = rules::local_day_start(live_from, tz);
    let until = rules::local_day_start(today + Duration::days(1), tz);
    days.extend(store::daily_figures(conn, since, until, time_zone).await?);
    Ok(days)
}

pub async fn dashboard(conn: &Conn, now: DateTime<Utc>) -> AppResult<Dashboard> {
    let settings = settings::load(conn).await?;
    let tz = rules::time_zone(&settings.time_zone);
    let today = rules::local_date(now, tz);
    let first_day = today - Duration::days(WINDOW_DAYS - 1);
    let totals = store::customer_totals(conn).await?;
    let days = window_figures(conn, first_day, today, now, tz).await?;
    let daily: Vec<DayBucket> = first_day
        .iter_days()
        .take(WINDOW_DAYS as usize)
        .map(|date| {
            let day = days.iter().find(|d| d.date == date);
            DayBucket {
                date,
                accredited: day.map_or(0, |d| d.accredited),
                redeemed: day.map_or(0, |d| d.redeemed),
                returned: day.map_or(0, |d| d.returned),
            }
        })
        .collect();
    let value = rules::peso_value(totals.points, settings.redemption_rate);
    Ok(Dashboard {
        total_customers: totals.customers,
        points_in_circulation: totals.points,
        transactions_last30_days: days.iter().map(|d| d.transactions).sum(),
        points_accredited_last30_days: days.iter().map(|d| d.accredited).sum(),
        points_redeemed_last30_days: days.iter().map(|d| d.redeemed).sum(),
        points_returned_last30_days: days.iter().map(|d| d.returned).sum(),
        daily,
        liability: Liability { outstanding_points: totals.points, value },
    })
}
