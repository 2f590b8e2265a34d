//! Alerts for supervisors and admins: patterns of the ledger an auditor would look at
//! (docs/points.md, "Alerts").
//!
//! Alerts are found when they are read (the list, the dashboard's count), by a scan of the
//! ledger since the last local day already scanned after it closed: today's postings (and
//! yesterday's during the first hour) are read again each time, closed days once. A posting pays
//! nothing for them, and no background job has to run for them to be right.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::rules;
use super::store::{self, AlertFilter, AlertRow, CustomerDay, FoundAlert, ScanWindow};
use super::transactions::PAGE_SIZES;
use super::Transaction;
use crate::db::Conn;
use crate::domain::Role;
use crate::error::{AppError, AppResult, Field, Msg};
use crate::extract::{Json, Path, Query};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::{audit, settings};

/// The screen that shows alerts; supervisors need it granted, admins always may, cajeros never.
pub const PERMISSIONS: &[&str] = &["/alertas"];
/// A cashier accrediting one customer this many times in a local day raises `cashierRepeats`.
pub const CASHIER_REPEATS_PER_DAY: i64 = 3;
/// A refund this many days or fewer after a redemption of the customer raises
/// `refundAfterRedemption`.
pub const REFUND_SOON_DAYS: i32 = 7;
/// The first scan of a company reads this many local days, today included.
pub const FIRST_SCAN_DAYS: i64 = 7;
/// A local day is closed this long after it ended: no posting can still be dated on it (as the
/// dashboard's cache, `stats.rs`).
const CLOSED_AFTER: Duration = Duration::hours(1);

/// What an alert is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum AlertKind {
    /// A customer with more accreditations and redemptions in a day than `alertOperationsPerDay`.
    CustomerOperations,
    /// A cashier accrediting the same customer 3 or more times in a day.
    CashierRepeats,
    /// An accreditation returned or voided at most 7 days after the customer redeemed points
    /// (earn, redeem, refund).
    RefundAfterRedemption,
    /// An invoice reference credited to one customer, voided, then credited to another.
    InvoiceReassigned,
}

impl AlertKind {
    pub const ALL: [AlertKind; 4] = [
        AlertKind::CustomerOperations,
        AlertKind::CashierRepeats,
        AlertKind::RefundAfterRedemption,
        AlertKind::InvoiceReassigned,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            AlertKind::CustomerOperations => "customerOperations",
            AlertKind::CashierRepeats => "cashierRepeats",
            AlertKind::RefundAfterRedemption => "refundAfterRedemption",
            AlertKind::InvoiceReassigned => "invoiceReassigned",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == raw)
    }
}

/// Whether someone has looked at an alert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AlertStatus {
    New,
    Reviewed,
}

impl AlertStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            AlertStatus::New => "new",
            AlertStatus::Reviewed => "reviewed",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "new" => Some(AlertStatus::New),
            "reviewed" => Some(AlertStatus::Reviewed),
            _ => None,
        }
    }
}

/// An alert as the API answers it: the facts, which the screen words in the reader's language.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Alert {
    pub id: i64,
    pub kind: AlertKind,
    /// The local day (company time zone) the pattern happened on, `YYYY-MM-DD`.
    #[schema(value_type = String, format = Date)]
    pub day: NaiveDate,
    pub status: AlertStatus,
    /// The customer concerned (for `invoiceReassigned`, the one credited last).
    pub customer_id: Option<i64>,
    pub customer_name: Option<String>,
    pub customer_document: Option<String>,
    /// The cashier concerned (`cashierRepeats`).
    pub cashier_username: Option<String>,
    /// The invoice reference concerned (`invoiceReassigned`).
    pub invoice_reference: Option<String>,
    /// How many times it happened: operations (`customerOperations`), accreditations
    /// (`cashierRepeats`), refunds (`refundAfterRedemption`), earlier voided accreditations of
    /// the invoice (`invoiceReassigned`).
    pub occurrences: i64,
    /// Points accredited that day (`customerOperations`, `cashierRepeats`), or redeemed in the
    /// 7 days before a refund (`refundAfterRedemption`); null otherwise.
    pub points: Option<i64>,
    /// The rule's figure that was passed: `alertOperationsPerDay`, 3 accreditations, 7 days.
    pub threshold: Option<i64>,
    /// The ledger rows of the pattern (at most 100), oldest first.
    pub transaction_ids: Vec<i64>,
    /// When it was first found.
    pub detected_at: DateTime<Utc>,
    /// Who marked it reviewed; null while new.
    pub reviewed_by: Option<String>,
    pub reviewed_at: Option<DateTime<Utc>>,
}

impl Alert {
    fn from_row(row: AlertRow) -> AppResult<Self> {
        let unknown = |what: &str| AppError::internal(anyhow::anyhow!("alert {} has an unknown {what}", row.id));
        Ok(Alert {
            id: row.id,
            kind: AlertKind::parse(&row.kind).ok_or_else(|| unknown("kind"))?,
            day: row.day,
            status: AlertStatus::parse(&row.status).ok_or_else(|| unknown("status"))?,
            customer_id: row.customer_id,
            customer_name: row.customer_name,
            customer_document: row.customer_document,
            cashier_username: row.cashier_username,
            invoice_reference: row.invoice_reference,
            occurrences: row.occurrences,
            points: row.points,
            threshold: row.threshold,
            transaction_ids: row.transaction_ids,
            detected_at: row.detected_at,
            reviewed_by: row.reviewed_by,
            reviewed_at: row.reviewed_at,
        })
    }
}

/// One page of alerts.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlertPage {
    /// Newest day first.
    pub items: Vec<Alert>,
    /// Alerts matching the filters in all.
    pub total: i64,
    pub page: i64,
    /// 10, 25 or 50.
    pub page_size: i64,
}

/// The dashboard's figure.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlertCount {
    /// Alerts not reviewed yet.
    pub new_alerts: i64,
}

/// The list's filters as query parameters; empty values do not filter.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AlertParams {
    /// `new` or `reviewed`.
    pub status: Option<String>,
    /// `customerOperations`, `cashierRepeats`, `refundAfterRedemption` or `invoiceReassigned`.
    pub kind: Option<String>,
    /// From 1 (default 1).
    pub page: Option<String>,
    /// 10, 25 or 50 (default 10).
    pub page_size: Option<String>,
}

/// A review: `{ status: "reviewed" }` records who and when; `"new"` opens it again. An `id` in the
/// body is ignored (the path's counts).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlertUpdate {
    pub id: Option<i64>,
    /// `new` or `reviewed`.
    pub status: Option<String>,
}

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

impl AlertParams {
    fn parse(&self) -> AppResult<(AlertFilter, i64, i64)> {
        let status = present(&self.status)
            .map(|s| AlertStatus::parse(s).ok_or_else(|| AppError::bad_request(Msg::AlertStatusInvalid)))
            .transpose()?;
        let kind = present(&self.kind)
            .map(|k| AlertKind::parse(k).ok_or_else(|| AppError::bad_request(Msg::AlertKindInvalid)))
            .transpose()?;
        let page = match present(&self.page) {
            None => 1,
            Some(p) => p
                .parse::<i64>()
                .ok()
                .filter(|p| (1..=1_000_000).contains(p))
                .ok_or_else(|| AppError::bad_request(Msg::PageInvalid))?,
        };
        let page_size = match present(&self.page_size) {
            None => PAGE_SIZES[0],
            Some(s) => s
                .parse::<i64>()
                .ok()
                .filter(|s| PAGE_SIZES.contains(s))
                .ok_or_else(|| AppError::bad_request(Msg::PageSizeInvalid))?,
        };
        let filter = AlertFilter { status: status.map(AlertStatus::as_str), kind: kind.map(AlertKind::as_str) };
        Ok((filter, page, page_size))
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_alerts))
        .routes(routes!(count_alerts))
        .routes(routes!(review_alert))
        .routes(routes!(alert_transactions))
}

/// Admins always; supervisors holding `/alertas`; cajeros never.
async fn require_alerts(t: &Tenant) -> AppResult<()> {
    t.require_role(&[Role::Admin, Role::Supervisor])?;
    t.require_permission(PERMISSIONS).await
}

/// One page of the alerts, newest day first, after finding those the ledger holds since the last
/// read (admins; supervisors with `/alertas`).
#[utoipa::path(get, path = "/alerts", tag = "points", security(("bearer" = [])), params(AlertParams),
    responses((status = 200, body = AlertPage), crate::error::ApiErrors))]
async fn list_alerts(t: Tenant, Query(params): Query<AlertParams>) -> AppResult<Json<AlertPage>> {
    require_alerts(&t).await?;
    let (filter, page, page_size) = params.parse()?;
    refresh(&t, Utc::now()).await?;
    let (rows, total) = store::search_alerts(&t, &filter, page_size, (page - 1) * page_size).await?;
    let items = rows.into_iter().map(Alert::from_row).collect::<AppResult<_>>()?;
    t.commit().await?;
    Ok(Json(AlertPage { items, total, page, page_size }))
}

/// How many alerts are new, for the dashboard (admins; supervisors with `/alertas`).
#[utoipa::path(get, path = "/alerts/count", tag = "points", security(("bearer" = [])),
    responses((status = 200, body = AlertCount), crate::error::ApiErrors))]
async fn count_alerts(t: Tenant) -> AppResult<Json<AlertCount>> {
    require_alerts(&t).await?;
    refresh(&t, Utc::now()).await?;
    let new_alerts = store::new_alert_count(&t).await?;
    t.commit().await?;
    Ok(Json(AlertCount { new_alerts }))
}

/// Marks an alert reviewed (who and when are kept), or new again; answers the alert.
#[utoipa::path(put, path = "/alerts/{id}", tag = "points", security(("bearer" = [])),
    params(("id" = i64, Path, description = "alert id")), request_body = AlertUpdate,
    responses((status = 200, body = Alert), crate::error::ApiErrors))]
async fn review_alert(t: Tenant, Path(id): Path<i64>, Json(update): Json<AlertUpdate>) -> AppResult<Json<Alert>> {
    require_alerts(&t).await?;
    let status = present(&update.status)
        .ok_or_else(|| AppError::bad_request(Msg::FieldRequired.field(Field::Status)))
        .and_then(|s| AlertStatus::parse(s).ok_or_else(|| AppError::bad_request(Msg::AlertStatusInvalid)))?;
    let by = t.user.username.clone();
    if !store::set_alert_status(&t, id, status.as_str(), &by, Utc::now()).await? {
        return Err(AppError::not_found(Msg::AlertNotFound));
    }
    let alert = Alert::from_row(store::alert(&t, id).await?.ok_or_else(|| AppError::not_found(Msg::AlertNotFound))?)?;
    let detail = serde_json::json!({ "kind": alert.kind, "day": alert.day, "status": alert.status });
    audit(&t, "alert.review", "alert", Some(id), detail).await?;
    t.commit().await?;
    Ok(Json(alert))
}

/// The ledger rows of an alert, oldest first (admins; supervisors with `/alertas`).
#[utoipa::path(get, path = "/alerts/{id}/transactions", tag = "points", security(("bearer" = [])),
    params(("id" = i64, Path, description = "alert id")),
    responses((status = 200, body = Vec<Transaction>), crate::error::ApiErrors))]
async fn alert_transactions(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<Vec<Transaction>>> {
    require_alerts(&t).await?;
    let alert = store::alert(&t, id).await?.ok_or_else(|| AppError::not_found(Msg::AlertNotFound))?;
    let items = store::transactions_by_ids(&t, &alert.transaction_ids).await?;
    t.commit().await?;
    Ok(Json(items))
}

/// The thresholds of `customerOperations`.
#[derive(Clone, Copy, Debug)]
pub struct BusyCustomerRule {
    /// More operations than this in a day raise the alert; `None`: off.
    pub operations_per_day: Option<i64>,
    /// The day's velocity limits (docs/points.md, "Velocity limits"): a customer credited beyond
    /// either (with a supervisor's approval) raises the same alert; `None`: no limit.
    pub max_accreditations: Option<i64>,
    pub max_points: Option<i64>,
}

impl BusyCustomerRule {
    pub fn from_settings(settings: &settings::model::Settings) -> Self {
        let positive = |n: i64| (n > 0).then_some(n);
        BusyCustomerRule {
            operations_per_day: positive(i64::from(settings.alert_operations_per_day)),
            max_accreditations: positive(i64::from(settings.max_accreditations_per_customer_per_day)),
            max_points: positive(settings.max_points_per_customer_per_day),
        }
    }

    /// Whether the kind is on at all (anything to read).
    fn is_on(&self) -> bool {
        self.operations_per_day.is_some() || self.max_accreditations.is_some() || self.max_points.is_some()
    }
}

/// Whether a customer's day raises `customerOperations`: more operations than the alert's rule,
/// or more (non-voided) accreditations or points than the day's velocity limits allow, which only
/// a supervisor's approval lets happen.
pub fn customer_over_limits(rule: &BusyCustomerRule, day: &CustomerDay) -> bool {
    rule.operations_per_day.is_some_and(|n| day.operations > n)
        || rule.max_accreditations.is_some_and(|n| day.kept_accreditations > n)
        || rule.max_points.is_some_and(|n| day.kept_points > n)
}

/// Finds the alerts of the ledger since the last scanned closed day and keeps them (idempotent:
/// an alert found again keeps its review). Runs inside the caller's transaction.
pub async fn refresh(conn: &Conn, now: DateTime<Utc>) -> AppResult<()> {
    let scanned_through = store::lock_alert_scan(conn).await?;
    let settings = settings::load(conn).await?;
    let tz = rules::time_zone(&settings.time_zone);
    let today = rules::local_date(now, tz);
    let first = match scanned_through {
        Some(day) => day + Duration::days(1),
        None => today - Duration::days(FIRST_SCAN_DAYS - 1),
    };
    if first > today {
        return Ok(());
    }
    let window = ScanWindow {
        since: rules::local_day_start(first, tz),
        until: rules::local_day_start(today + Duration::days(1), tz),
        time_zone: tz.name(),
    };
    for alert in find(conn, &window, &settings).await? {
        store::upsert_alert(conn, &alert).await?;
    }
    let closed = first
        .iter_days()
        .take_while(|day| *day <= today && rules::local_day_start(*day + Duration::days(1), tz) + CLOSED_AFTER <= now)
        .last();
    if let Some(closed) = closed {
        store::set_alert_scan(conn, closed).await?;
    }
    Ok(())
}

/// Every alert the window's postings raise.
async fn find(
    conn: &Conn,
    window: &ScanWindow<'_>,
    settings: &settings::model::Settings,
) -> AppResult<Vec<FoundAlert>> {
    let mut found = Vec::new();

    let rule = BusyCustomerRule::from_settings(settings);
    if rule.is_on() {
        for day in
            store::busy_customer_days(conn, window, rule.operations_per_day, rule.max_accreditations, rule.max_points)
                .await?
        {
            if customer_over_limits(&rule, &day) {
                found.push(FoundAlert {
                    kind: AlertKind::CustomerOperations.as_str(),
                    day: day.day,
                    subject: format!("customer:{}", day.customer_id),
                    customer_id: Some(day.customer_id),
                    cashier_id: None,
                    invoice_reference: None,
                    occurrences: day.operations,
                    points: Some(day.points_accredited),
                    threshold: rule.operations_per_day,
                    transaction_ids: day.transaction_ids,
                });
            }
        }
    }

    for repeat in store::cashier_repeats(conn, window, CASHIER_REPEATS_PER_DAY).await? {
        found.push(FoundAlert {
            kind: AlertKind::CashierRepeats.as_str(),
            day: repeat.day,
            subject: format!("cashier:{}:customer:{}", repeat.cashier_id, repeat.customer_id),
            customer_id: Some(repeat.customer_id),
            cashier_id: Some(repeat.cashier_id),
            invoice_reference: None,
            occurrences: repeat.accreditations,
            points: Some(repeat.points),
            threshold: Some(CASHIER_REPEATS_PER_DAY),
            transaction_ids: repeat.transaction_ids,
        });
    }

    // Refunds of one customer in one day make one alert.
    let mut refunds: BTreeMap<(i64, NaiveDate), (i64, i64, Vec<i64>)> = BTreeMap::new();
    for refund in store::refunds_after_redemption(conn, window, REFUND_SOON_DAYS).await? {
        let entry = refunds.entry((refund.customer_id, refund.day)).or_default();
        entry.0 += 1;
        entry.2.push(refund.accreditation_id);
        entry.2.push(refund.refund_id);
        entry.2.extend(refund.redemption_ids);
        // Refunds of one day share the redemptions before them: the largest sum stands for all.
        entry.1 = entry.1.max(refund.redeemed);
    }
    for ((customer_id, day), (occurrences, redeemed, ids)) in refunds {
        found.push(FoundAlert {
            kind: AlertKind::RefundAfterRedemption.as_str(),
            day,
            subject: format!("customer:{customer_id}"),
            customer_id: Some(customer_id),
            cashier_id: None,
            invoice_reference: None,
            occurrences,
            points: Some(redeemed),
            threshold: Some(i64::from(REFUND_SOON_DAYS)),
            transaction_ids: sorted_ids(ids),
        });
    }

    // Credits of one invoice in one day make one alert.
    let mut invoices: BTreeMap<(String, NaiveDate), FoundAlert> = BTreeMap::new();
    for credit in store::reassigned_invoices(conn, window).await? {
        let alert = invoices.entry((credit.invoice_key.clone(), credit.day)).or_insert_with(|| FoundAlert {
            kind: AlertKind::InvoiceReassigned.as_str(),
            day: credit.day,
            subject: format!("invoice:{}", credit.invoice_key),
            customer_id: Some(credit.customer_id),
            cashier_id: None,
            invoice_reference: Some(credit.invoice_reference.clone()),
            occurrences: 0,
            points: None,
            threshold: None,
            transaction_ids: Vec::new(),
        });
        // The last credit of the day names the customer.
        alert.customer_id = Some(credit.customer_id);
        alert.invoice_reference = Some(credit.invoice_reference);
        alert.occurrences = alert.occurrences.max(credit.earlier_accreditations);
        alert.transaction_ids.extend(credit.earlier_ids);
        alert.transaction_ids.push(credit.accreditation_id);
        alert.transaction_ids = sorted_ids(std::mem::take(&mut alert.transaction_ids));
    }
    found.extend(invoices.into_values());
    Ok(found)
}

/// Ids once each, oldest first, at most [`store::MAX_ALERT_TRANSACTIONS`] (as the queries keep).
fn sorted_ids(mut ids: Vec<i64>) -> Vec<i64> {
    ids.sort_unstable();
    ids.dedup();
    ids.truncate(store::MAX_ALERT_TRANSACTIONS as usize);
    ids
}
