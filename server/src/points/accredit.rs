//! Accrediting points for an invoice.

use axum::extract::State;
use axum::response::Response;
use chrono::{DateTime, Utc};
use futures::future::{try_join3, try_join4};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::approval::{check_approval, Approval};
use super::idempotency::{IdempotencyKey, Idempotent};
use super::returns::settle_debt;
use super::rules::{self, EarningRules, InvoiceAmount, Occasion};
use super::store::{self, NewTransaction};
use super::velocity::{self, Excess};
use super::{post_once, write_posting, Kind, Posting};
use crate::db::{self, Conn};
use crate::domain;
use crate::error::{AppError, AppResult, Field, Msg};
use crate::extract::{Json, Path, Query};
use crate::session::{ClientAddress, CurrentUser, Tenant};
use crate::state::AppState;
use crate::tenant::{audit, settings};

/// Screens that offer accreditation.
pub const PERMISSIONS: &[&str] = &["/accreditar", "/main"];

/// An invoice to credit points for.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccreditRequest {
    /// Whole pesos, greater than zero (a number, or a string of digits).
    #[schema(value_type = i64)]
    pub invoice_amount: Option<Value>,
    /// The invoice's number, at most 100 characters; optional. While an accreditation of the
    /// company that is not voided holds it (any customer, any case), another is refused with a 409.
    pub invoice_reference: Option<String>,
    /// Only for an accreditation beyond a velocity limit: a supervisor's or admin's username
    /// (`name` or `name@prefix`), also when the caller is one (docs/points.md, "Velocity limits").
    pub supervisor_username: Option<String>,
    /// That supervisor's or admin's password, checked and throttled as a login.
    pub supervisor_password: Option<String>,
}

/// A validated accreditation request.
#[derive(Clone, Debug)]
pub struct Accreditation {
    pub amount: InvoiceAmount,
    pub invoice_reference: Option<String>,
}

impl Accreditation {
    pub fn parse(request: &AccreditRequest) -> AppResult<Self> {
        Ok(Accreditation {
            amount: InvoiceAmount::parse(request.invoice_amount.as_ref())?,
            invoice_reference: domain::optional_text(
                Field::InvoiceReference,
                request.invoice_reference.as_deref(),
                100,
            )?,
        })
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(accredit_handler)).routes(routes!(preview_handler))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct PreviewParams {
    /// Whole pesos, greater than zero.
    pub invoice_amount: Option<String>,
}

/// What an invoice would earn a customer now, and the bonuses that apply.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccreditPreview {
    /// Whole points the invoice would earn now, the campaign and bonuses included (floored).
    pub points: i64,
    /// The first-purchase multiplier, when that bonus applies to this purchase; null otherwise.
    #[serde(with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    pub first_purchase_bonus: Option<Decimal>,
    /// The birthday multiplier, when that bonus applies to this purchase; null otherwise.
    #[serde(with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    pub birthday_bonus: Option<Decimal>,
    /// The campaign multiplier (1 when there is no campaign).
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub campaign_multiplier: Decimal,
}

/// The points an invoice would earn the customer if accredited now, with the bonuses that apply,
/// by the same rules as the accreditation (it posts nothing).
#[utoipa::path(get, path = "/customers/{id}/accredit-preview", tag = "points", security(("bearer" = [])),
    params(("id" = i64, Path, description = "customer id"), PreviewParams),
    responses((status = 200, body = AccreditPreview), crate::error::ApiErrors))]
async fn preview_handler(
    t: Tenant,
    Path(id): Path<i64>,
    Query(params): Query<PreviewParams>,
) -> AppResult<Json<AccreditPreview>> {
    t.require_permission(PERMISSIONS).await?;
    let (customer, settings, accredited_before) = db::pipeline(
        &t,
        &[store::CUSTOMER_FOR_PREVIEW, settings::SELECT, store::HAS_ACCREDITATION],
        try_join3(store::customer_for_preview(&t, id), settings::load(&t), store::has_accreditation(&t, id)),
    )
    .await?;
    let customer = customer.filter(|c| c.is_active).ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    let amount = InvoiceAmount::parse(params.invoice_amount.map(Value::String).as_ref())?;
    let earned = earning(&settings, &customer, accredited_before, amount, Utc::now())?;
    t.commit().await?;
    Ok(Json(AccreditPreview {
        points: earned.points,
        first_purchase_bonus: earned.first_purchase_bonus,
        birthday_bonus: earned.birthday_bonus,
        campaign_multiplier: settings.campaign_multiplier,
    }))
}

/// What an invoice earns the customer at `now`: the rules must be set.
fn earning(
    settings: &settings::model::Settings,
    customer: &store::LockedCustomer,
    accredited_before: bool,
    amount: InvoiceAmount,
    now: DateTime<Utc>,
) -> AppResult<rules::Earning> {
    settings.require_rules()?;
    let today = rules::local_date(now, rules::time_zone(&settings.time_zone));
    let occasion = Occasion {
        first_purchase: !accredited_before,
        birthday: customer.birthdate.is_some_and(|born| rules::is_birthday(born, today)),
    };
    rules::earning(&EarningRules::from_settings(settings), amount, occasion)
        .ok_or_else(|| AppError::bad_request(Msg::PostingTooLarge.with("max", rules::MAX_POSTING_POINTS)))
}

/// Credits points to a customer for an invoice: `floor(amount x pointsPerPeso x campaign x
/// bonuses)`, as a new point batch. The cashier and point of sale are the caller's. Beyond a
/// velocity limit of the rules it answers 409 unless the request carries a supervisor's or
/// admin's credentials, whose approval the transaction and the audit log record.
#[utoipa::path(post, path = "/customers/{id}/accredit", tag = "points", security(("bearer" = [])),
    params(("id" = i64, Path, description = "customer id"), IdempotencyKey),
    request_body = AccreditRequest,
    responses((status = 200, body = Posting), crate::error::ApiErrors))]
async fn accredit_handler(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    t: Tenant,
    key: IdempotencyKey,
    Path(id): Path<i64>,
    Json(request): Json<AccreditRequest>,
) -> AppResult<Response> {
    t.require_permission(PERMISSIONS).await?;
    let input = Accreditation::parse(&request)?;
    // An approval is a login attempt of the approver, as for void: throttled like one, and
    // checked with no connection held, before anything is posted.
    let approval = Approval::new(request.supervisor_username.as_deref(), request.supervisor_password.as_deref());
    let (t, approved_by) = match approval {
        Some(approval) => {
            let (prefix, cashier) = (t.prefix.clone(), t.user.username.clone());
            let check = check_approval(&state, &prefix, &cashier, &address, &approval, "velocityApproval");
            let (t, approver) = t.between_transactions(&state, check).await?;
            (t, Some(approver))
        }
        None => (t, None),
    };
    let idempotent = Idempotent::new(
        &key,
        t.user.id,
        "accredit",
        json!({ "customerId": id, "invoiceAmount": input.amount.pesos(), "invoiceReference": input.invoice_reference }),
    );
    post_once(t, idempotent, "accredited", async |t: &Tenant| {
        let (posting, passed) = accredit_approved(t, &t.user, id, &input, approved_by.as_deref(), Utc::now()).await?;
        if !passed.is_empty() {
            let detail = json!({
                "customerId": id,
                "points": posting.new_transaction.points,
                "approvedBy": approved_by,
                "limits": passed,
            });
            audit(t, "accreditation.override", "transaction", Some(posting.new_transaction.id), detail).await?;
        }
        Ok((posting.new_transaction.points, posting))
    })
    .await
}

/// Credits a customer for an invoice at `now`, by `by`, inside the caller's transaction, within
/// the velocity limits (no approval).
pub async fn accredit(
    conn: &Conn,
    by: &CurrentUser,
    customer_id: i64,
    input: &Accreditation,
    now: DateTime<Utc>,
) -> AppResult<Posting> {
    Ok(accredit_approved(conn, by, customer_id, input, None, now).await?.0)
}

/// Credits a customer for an invoice at `now`, by `by`, inside the caller's transaction. Beyond a
/// velocity limit it is refused unless `approved_by` names the supervisor or admin whose
/// credentials were checked; answers the posting and the limits it passed with that approval.
pub async fn accredit_approved(
    conn: &Conn,
    by: &CurrentUser,
    customer_id: i64,
    input: &Accreditation,
    approved_by: Option<&str>,
    now: DateTime<Utc>,
) -> AppResult<(Posting, Vec<Excess>)> {
    // One round trip: the lock first, so the other two read what the customer's earlier
    // operations committed. Every statement of a sale finds rows by key, so they keep their
    // plans.
    let ((), customer, settings, accredited_before) = db::pipeline(
        conn,
        &[store::LOCK_CUSTOMER, settings::SELECT, store::HAS_ACCREDITATION],
        try_join4(
            conn.keep_plans(),
            store::lock_customer(conn, customer_id),
            settings::load(conn),
            store::has_accreditation(conn, customer_id),
        ),
    )
    .await?;
    let customer = customer.filter(|c| c.is_active).ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    let points = earning(&settings, &customer, accredited_before, input.amount, now)?.points;
    rules::check_balance(customer.points, points)?;
    // Read under the customer's lock: two tills racing take their turns, and the second sees the
    // first's accreditation.
    let limits = velocity::Limits::from_settings(&settings);
    let passed = if limits.any() {
        let (from, to) = velocity::day_bounds(now, rules::time_zone(&settings.time_zone));
        let today = store::credited_between(conn, customer.id, from, to).await?;
        velocity::excesses(limits, today, points)
    } else {
        Vec::new()
    };
    if let (Some(first), None) = (passed.first(), approved_by) {
        return Err(first.refusal());
    }
    let new_transaction = NewTransaction {
        kind: Kind::Accreditation,
        points,
        customer_id: customer.id,
        cashier_id: by.cashier_id(),
        cashier_username: &by.username,
        pos_id: by.pos_id,
        // The ledger keeps the figures; screens word them in the reader's language.
        description: None,
        invoice_amount: Some(input.amount.pesos()),
        redeemed_value: None,
        invoice_reference: input.invoice_reference.as_deref(),
        product_id: None,
        pos_name: by.pos_name.as_deref(),
        product_name: None,
        original_transaction_id: None,
        at: now,
        balance_before: customer.points,
    };
    // An accreditation of 0 points has no batch.
    let mut posting = write_posting(conn, &new_transaction, store::INSERT_BATCH, |transaction_id| async move {
        if points > 0 {
            store::insert_batch(conn, customer.id, transaction_id, now, points).await?;
        }
        Ok(())
    })
    .await?;
    // A balance below zero (a return of spent points) is paid first (docs/points.md, "Returns").
    if customer.points < 0 {
        settle_debt(conn, customer.id, posting.new_transaction.id, points.min(-customer.points)).await?;
    }
    // An approval that no limit needed is not recorded.
    if let (false, Some(approver)) = (passed.is_empty(), approved_by) {
        store::set_approved_by(conn, posting.new_transaction.id, approver).await?;
        posting.new_transaction.approved_by = Some(approver.to_string());
    }
    crate::webhooks::emit(conn, crate::webhooks::Event::PointsAccredited, &posting.new_transaction).await?;
    Ok((posting, passed))
}
