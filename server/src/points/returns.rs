//! Returns: part or all of an accredited invoice given back, reversing the points it earned in
//! proportion (docs/points.md, "Returns").

use axum::extract::State;
use axum::response::Response;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::approval::{approve_cajero, Approval};
use super::idempotency::{IdempotencyKey, Idempotent};
use super::rules::{self, OpenBatch, ReturnedAmount};
use super::store::{self, NewTransaction};
use super::{post_once, Kind, Posting};
use crate::db::Conn;
use crate::domain::{self, Role};
use crate::error::{AppError, AppResult, Field, Msg};
use crate::extract::{Json, Path};
use crate::session::{ClientAddress, CurrentUser, Tenant};
use crate::state::AppState;
use crate::tenant::{audit, settings};

/// Screens that offer returns: where voids are offered (the report).
pub const PERMISSIONS: &[&str] = super::void::PERMISSIONS;

/// A return of part or all of an accreditation's invoice; a cajero adds a supervisor's or
/// admin's credentials.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReturnRequest {
    /// Whole pesos given back, greater than zero and at most what is left of the invoice (a
    /// number, or a string of digits).
    #[schema(value_type = i64)]
    pub returned_amount: Option<Value>,
    /// The return's document (a credit note), at most 100 characters; optional: without it the
    /// return keeps the accreditation's reference.
    pub invoice_reference: Option<String>,
    /// Required from a cajero: a supervisor's or admin's username (`name` or `name@prefix`).
    pub supervisor_username: Option<String>,
    /// Required from a cajero: that supervisor's or admin's password.
    pub supervisor_password: Option<String>,
}

/// A validated return request.
#[derive(Clone, Debug)]
pub struct Return {
    pub amount: ReturnedAmount,
    pub invoice_reference: Option<String>,
}

impl Return {
    pub fn parse(request: &ReturnRequest) -> AppResult<Self> {
        Ok(Return {
            amount: ReturnedAmount::parse(request.returned_amount.as_ref())?,
            invoice_reference: domain::optional_text(
                Field::InvoiceReference,
                request.invoice_reference.as_deref(),
                100,
            )?,
        })
    }
}

/// What a return did.
#[derive(Clone, Debug)]
pub struct Returned {
    pub posting: Posting,
    /// The points no batch held any more (spent), taken below zero under the rule `negative`.
    pub spent: i64,
    /// The supervisor or admin who approved a cajero's return.
    pub approved_by: Option<String>,
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(return_handler))
}

/// Gives back part or all of an accreditation's invoice: reverses `floor(points x returned /
/// invoiceAmount)` points (the return that completes the invoice takes exactly what is left),
/// from the accreditation's own batch first. When the customer already spent them, the rule
/// `returnOfSpentPoints` refuses (409) or takes the balance below zero. A cajero returns only
/// own accreditations and gives a supervisor's or admin's credentials, as for a void.
#[utoipa::path(post, path = "/transactions/{id}/return", tag = "points", security(("bearer" = [])),
    params(("id" = i64, Path, description = "the accreditation's transaction id"), IdempotencyKey),
    request_body = ReturnRequest,
    responses((status = 200, body = Posting), crate::error::ApiErrors))]
async fn return_handler(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    t: Tenant,
    key: IdempotencyKey,
    Path(id): Path<i64>,
    Json(request): Json<ReturnRequest>,
) -> AppResult<Response> {
    t.require_permission(PERMISSIONS).await?;
    let input = Return::parse(&request)?;
    let approval = Approval::new(request.supervisor_username.as_deref(), request.supervisor_password.as_deref());
    let (t, approved_by) = approve_cajero(&state, &address, t, approval, "returnApproval", async |t: &Tenant| {
        check_target(t, &t.user, id).await.map(drop)
    })
    .await?;
    let idempotent = Idempotent::new(
        &key,
        t.user.id,
        "return",
        json!({
            "transactionId": id,
            "returnedAmount": input.amount.pesos(),
            "invoiceReference": input.invoice_reference,
        }),
    );
    post_once(t, idempotent, "returned", async |t: &Tenant| {
        let returned = give_back(t, &t.user, id, &input, approved_by.as_deref(), Utc::now()).await?;
        let row = &returned.posting.new_transaction;
        audit(
            t,
            "transaction.return",
            "transaction",
            Some(id),
            json!({
                "returnId": row.id,
                "returnedAmount": row.invoice_amount,
                "points": row.points,
                "spentPoints": returned.spent,
                "invoiceReference": row.invoice_reference,
                "approvedBy": returned.approved_by,
            }),
        )
        .await?;
        Ok((row.points, returned.posting))
    })
    .await
}

/// Records a return of accreditation `id` at `now`, by `by`, inside the caller's transaction. A
/// cajero's return needs `approved_by`, the supervisor or admin whose credentials were checked.
pub async fn give_back(
    conn: &Conn,
    by: &CurrentUser,
    id: i64,
    input: &Return,
    approved_by: Option<&str>,
    now: DateTime<Utc>,
) -> AppResult<Returned> {
    let target = check_target(conn, by, id).await?;
    let approved_by = match by.role {
        Role::Cajero => Some(approved_by.ok_or_else(|| AppError::bad_request(Msg::VoidApprovalRequired))?.to_string()),
        Role::Supervisor | Role::Admin => None,
    };
    // Customer first, then the accreditation: the order every balance change takes its locks
    // in. The accreditation's lock also puts its returns one after the other.
    let customer = store::lock_customer(conn, target.customer_id).await?.ok_or_else(|| {
        AppError::internal(anyhow::anyhow!("customer {} of transaction {id} is missing", target.customer_id))
    })?;
    let target =
        store::lock_void_target(conn, id).await?.ok_or_else(|| AppError::not_found(Msg::TransactionNotFound))?;
    if target.is_voided {
        return Err(AppError::conflict(Msg::ReturnOfVoided));
    }
    let settings = settings::load(conn).await?;
    let invoice = target.invoice_amount.unwrap_or_default();
    let before = store::returns_of(conn, id).await?;
    let amount = input.amount.pesos();
    let points = rules::returned_points(target.points, invoice, before, amount).ok_or_else(|| {
        AppError::bad_request(Msg::ReturnAmountExceeds.with("left", (invoice - before.amount).max(0)))
    })?;

    let own = store::batch_of(conn, id).await?.map(|batch| OpenBatch { id: batch.id, remaining: batch.remaining });
    let others = if own.is_some_and(|own| own.remaining >= points) {
        Vec::new()
    } else {
        store::open_batches(conn, customer.id, None).await?
    };
    let (plan, spent) = rules::plan_return(own, &others, points);
    if spent > 0 && settings.return_of_spent_points != "negative" {
        return Err(AppError::conflict(Msg::ReturnPointsSpent.with("missing", spent).with("points", points)));
    }
    let row = NewTransaction {
        kind: Kind::Return,
        points: -points,
        customer_id: customer.id,
        cashier_id: Some(by.id),
        cashier_username: &by.username,
        pos_id: by.pos_id.or(target.pos_id),
        description: None,
        invoice_amount: Some(amount),
        redeemed_value: None,
        invoice_reference: input.invoice_reference.as_deref().or(target.invoice_reference.as_deref()),
        product_id: None,
        pos_name: by.pos_name.as_deref(),
        product_name: None,
        original_transaction_id: Some(id),
        at: now,
        balance_before: customer.points,
    };
    let inserted = store::insert_transaction(conn, &row).await?;
    if !plan.is_empty() {
        store::take_from_batches(conn, inserted.id, &plan).await?;
    }
    // A return is no activity of the customer's (inactivity expiration counts purchases and
    // redemptions).
    let updated_customer = store::post_to_balance(conn, customer.id, -points, None).await?;
    let mut new_transaction = row.answered(inserted, &updated_customer);
    if let Some(approver) = &approved_by {
        store::set_approved_by(conn, new_transaction.id, approver).await?;
        new_transaction.approved_by = Some(approver.clone());
    }
    crate::webhooks::emit(conn, crate::webhooks::Event::TransactionReturned, &new_transaction).await?;
    Ok(Returned { posting: Posting { updated_customer, new_transaction }, spent, approved_by })
}

/// The accreditation `by` may return part of: it exists, is an accreditation, and is a cajero's
/// own.
async fn check_target(conn: &Conn, by: &CurrentUser, id: i64) -> AppResult<store::VoidTarget> {
    let target = store::void_target(conn, id).await?.ok_or_else(|| AppError::not_found(Msg::TransactionNotFound))?;
    if target.kind != Kind::Accreditation {
        return Err(AppError::conflict(Msg::ReturnNotAccreditation));
    }
    if by.role == Role::Cajero && target.cashier_id != Some(by.id) {
        return Err(AppError::Forbidden(Msg::ReturnOwnOnly.into()));
    }
    Ok(target)
}

/// Pays `points` of a customer's debt (a balance below zero after a return of spent points)
/// out of the points `transaction_id` just put in the customer's batches: they leave the
/// batches, recorded as that transaction's movements, so the batches hold what the balance
/// holds once it is positive again.
pub async fn settle_debt(conn: &Conn, customer_id: i64, transaction_id: i64, points: i64) -> AppResult<()> {
    if points <= 0 {
        return Ok(());
    }
    let open = store::open_batches(conn, customer_id, None).await?;
    let plan = rules::plan_consumption(&open, points).ok_or_else(|| {
        AppError::internal(anyhow::anyhow!("customer {customer_id}'s batches cannot pay a debt of {points}"))
    })?;
    store::take_from_batches(conn, transaction_id, &plan).await
}
