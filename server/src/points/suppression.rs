//! A customer's rights over their personal data under Ley 1581 de 2012 (docs/privacy.md):
//! access (art. 8(a), everything held about one customer, each export audited), suppression
//! (art. 8(e): a customer without history is deleted, one with history anonymised for good, the
//! ledger keeping its figures and the remaining points forfeited), and the retention rule that the
//! daily job applies to customers idle for the years the company set.
//!
//! It lives with the points engine because suppression writes a ledger row (`forfeit`) through the
//! engine's store, under the same customer lock every posting takes.

use crate::tenant::privacy::model::ConsentRecord;
use chrono::{DateTime, Months, Utc};
use serde::Serialize;
use serde_json::json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::rules;
use super::store::{self, NewTransaction, Personal};
use super::{Kind, Transaction, SYSTEM_USER};
use crate::db::Conn;
use crate::error::{AppError, AppResult, Lang, Msg, Params};
use crate::extract::{Json, Path};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::audit;
use crate::tenant::customers::model::Customer;
use crate::tenant::data_requests::model::DataRequest;
use crate::tenant::settings::{self, model::Settings};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(export)).routes(routes!(suppress))
}

/// Everything the company holds about one customer (Ley 1581, art. 8(a)).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerData {
    /// The customer's record: personal data, balance and state.
    pub customer: Customer,
    /// When the customer was enrolled.
    pub enrolled_at: DateTime<Utc>,
    /// The last accreditation or redemption; null before any.
    pub last_activity_at: Option<DateTime<Utc>>,
    /// When the personal data was anonymised; null while it is held.
    pub suppressed_at: Option<DateTime<Utc>>,
    /// Every ledger row of the customer, oldest first.
    pub transactions: Vec<Transaction>,
    /// The holder's consultas and reclamos linked to the customer, oldest first.
    pub data_requests: Vec<DataRequest>,
    /// Every recorded answer to the privacy notice's purposes, with its notice version, channel
    /// and recorder, newest first (docs/privacy.md, "Authorization").
    pub consents: Vec<ConsentRecord>,
    /// When this export was made.
    pub exported_at: DateTime<Utc>,
}

/// What a suppression did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The customer had no history: the record is gone.
    Deleted,
    /// The customer had history: its personal data was replaced for good, its ledger kept.
    Anonymised,
}

/// The answer to a suppression.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SuppressResponse {
    /// What was done, in the request's language, to show as it is.
    pub message: String,
    pub outcome: Outcome,
    /// The points the customer still held, taken off by a `forfeit` ledger row.
    pub forfeited_points: i64,
}

/// Everything held about a customer, active, inactive or anonymised, as JSON (admin). Each export
/// is recorded in the audit trail (`customer.data_export`).
#[utoipa::path(get, path = "/customers/{id}/data", tag = "customers", security(("bearer" = [])),
    params(("id" = i64, Path, description = "customer id")),
    responses((status = 200, body = CustomerData), crate::error::ApiErrors))]
async fn export(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<CustomerData>> {
    t.require_admin()?;
    let record = store::customer_record(&t, id).await?.ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    let now = Utc::now();
    let today = rules::local_date(now, rules::time_zone(&settings::load(&t).await?.time_zone));
    let transactions = store::customer_transactions(&t, id).await?;
    let data_requests = store::customer_data_requests(&t, id, today).await?;
    let consents = crate::tenant::privacy::store::history(&t, id).await?;
    audit(&t, "customer.data_export", "customer", Some(id), json!({})).await?;
    t.commit().await?;
    Ok(Json(CustomerData {
        customer: record.customer,
        enrolled_at: record.created_at,
        last_activity_at: record.last_activity_at,
        suppressed_at: record.suppressed_at,
        transactions,
        data_requests,
        consents,
        exported_at: now,
    }))
}

/// Suppresses a customer's personal data, irreversibly (admin): a customer without ledger rows
/// is deleted; one with history is anonymised, its remaining points forfeited by a `forfeit`
/// ledger row, the ledger's figures kept. The document can enrol again as a new customer.
/// Audited (`customer.suppress`).
#[utoipa::path(post, path = "/customers/{id}/suppress", tag = "customers", security(("bearer" = [])),
    params(("id" = i64, Path, description = "customer id")),
    responses((status = 200, body = SuppressResponse), crate::error::ApiErrors))]
async fn suppress(t: Tenant, lang: Lang, Path(id): Path<i64>) -> AppResult<Json<SuppressResponse>> {
    t.require_admin()?;
    let person = store::lock_personal(&t, id).await?.ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    if person.suppressed {
        return Err(AppError::conflict(Msg::CustomerAlreadySuppressed));
    }
    let (outcome, forfeited) = erase(&t, &person, &t.user.username, Utc::now()).await?;
    let detail = json!({ "outcome": outcome, "forfeitedPoints": forfeited });
    audit(&t, "customer.suppress", "customer", Some(id), detail).await?;
    t.commit().await?;
    let message = match outcome {
        Outcome::Deleted => Msg::CustomerSuppressedDeleted,
        Outcome::Anonymised => Msg::CustomerSuppressedAnonymised,
    };
    Ok(Json(SuppressResponse { message: message.render(lang, &Params::new()), outcome, forfeited_points: forfeited }))
}

/// Erases a locked customer's personal data at `now`, by `actor`: deleted without history,
/// anonymised with it (the remaining points forfeited). Answers what was done and the points
/// forfeited.
async fn erase(conn: &Conn, person: &Personal, actor: &str, now: DateTime<Utc>) -> AppResult<(Outcome, i64)> {
    let label = store::anonymous_label(person.id);
    store::scrub_data_requests(conn, person, &label).await?;
    store::scrub_audit(conn, &person.document, &label).await?;
    store::delete_kept_answers(conn, person.id).await?;
    if !person.has_history {
        store::delete_customer(conn, person.id).await?;
        return Ok((Outcome::Deleted, 0));
    }
    let forfeited = forfeit(conn, person, actor, now).await?;
    store::scrub_ledger_texts(conn, person).await?;
    store::anonymise_customer(conn, person.id, now).await?;
    Ok((Outcome::Anonymised, forfeited))
}

/// Takes a positive balance off with a `forfeit` row, emptying the customer's batches. A balance
/// at or below zero (a return's debt) is left as it is.
async fn forfeit(conn: &Conn, person: &Personal, actor: &str, now: DateTime<Utc>) -> AppResult<i64> {
    if person.points <= 0 {
        return Ok(0);
    }
    let row = NewTransaction::system(Kind::Forfeit, person.id, -person.points, actor, now, person.points);
    let transaction_id = store::insert_transaction_id(conn, &row).await?;
    let mut left = person.points;
    let mut plan = Vec::new();
    for batch in store::open_batches(conn, person.id, None).await? {
        if left == 0 {
            break;
        }
        let take = batch.remaining.min(left);
        plan.push((batch.id, take));
        left -= take;
    }
    store::take_from_batches(conn, transaction_id, &plan).await?;
    store::post_to_balance(conn, person.id, -person.points, None).await?;
    Ok(person.points)
}

/// The retention rule at `now`, inside the daily job's transaction: every customer idle for the
/// company's `retentionYears` (none when 0) is erased as a suppression would, by `system`, each
/// audited. Customers with a reclamo in progress wait until it is settled. Answers how many.
pub async fn apply_retention(conn: &Conn, settings: &Settings, now: DateTime<Utc>) -> AppResult<i64> {
    let Ok(years) = u32::try_from(settings.retention_years) else { return Ok(0) };
    if years == 0 {
        return Ok(0);
    }
    let Some(cutoff) = now.checked_sub_months(Months::new(years * 12)) else { return Ok(0) };
    let mut count = 0;
    for id in store::idle_customers(conn, cutoff).await? {
        let Some(person) = store::lock_personal(conn, id).await? else { continue };
        // Re-checked under the lock: the customer may have just bought, redeemed or filed a reclamo.
        if person.suppressed || person.claim_in_progress || person.last_active >= cutoff {
            continue;
        }
        let (outcome, forfeited) = erase(conn, &person, SYSTEM_USER, now).await?;
        let detail =
            json!({ "outcome": outcome, "forfeitedPoints": forfeited, "trigger": "retention", "years": years });
        store::audit_as_system(conn, "customer.suppress", "customer", Some(id), &detail).await?;
        count += 1;
    }
    Ok(count)
}
