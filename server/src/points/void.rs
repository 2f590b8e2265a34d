//! Voiding a transaction: active to voided, irreversible, with a `cancellation` row of the
//! opposite points that refers to it.

use axum::response::Response;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::idempotency::{IdempotencyKey, Idempotent};
use super::store::{self, NewTransaction};
use super::{post_once, rules, Kind};
use axum::extract::State;

use super::approval::{approve_cajero, Approval};
use super::returns::settle_debt;
use crate::db::Conn;
use crate::domain::Role;
use crate::error::{AppError, AppResult, Lang, Msg, Params};
use crate::extract::{Json, Path};
use crate::session::{ClientAddress, CurrentUser, Tenant};
use crate::state::AppState;
use crate::tenant::audit;

/// Screens that offer voiding (the report).
pub const PERMISSIONS: &[&str] = &["/reportes"];

/// The confirmation of a void; a cajero adds a supervisor's or admin's credentials.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VoidRequest {
    /// Required from a cajero: a supervisor's or admin's username (`name` or `name@prefix`).
    pub supervisor_username: Option<String>,
    /// Required from a cajero: that supervisor's or admin's password.
    pub supervisor_password: Option<String>,
}

/// The answer of a void.
#[derive(Serialize, utoipa::ToSchema)]
pub struct VoidResponse {
    /// A confirmation in the request's language (`Accept-Language`, Spanish by default).
    pub message: String,
}

/// What a void did.
#[derive(Clone, Debug)]
pub struct Voided {
    pub transaction_id: i64,
    pub kind: Kind,
    pub cancellation_id: i64,
    /// Points of the cancellation row (the opposite of the original's).
    pub points: i64,
    pub voided_by: String,
    /// The supervisor or admin who approved a cajero's void.
    pub approved_by: Option<String>,
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(void_handler))
}

/// Voids an accreditation or redemption. A cajero voids only own transactions and gives a
/// supervisor's or admin's credentials; supervisors and admins void any, with confirmation only.
#[utoipa::path(post, path = "/transactions/{id}/void", tag = "points", security(("bearer" = [])),
    params(("id" = i64, Path, description = "transaction id"), IdempotencyKey),
    request_body = VoidRequest,
    responses((status = 200, body = VoidResponse), crate::error::ApiErrors))]
async fn void_handler(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    t: Tenant,
    key: IdempotencyKey,
    Path(id): Path<i64>,
    lang: Lang,
    Json(request): Json<VoidRequest>,
) -> AppResult<Response> {
    t.require_permission(PERMISSIONS).await?;
    // A cajero's approval is a login attempt of the approver: throttled like one, and checked
    // with no connection held.
    let approval = Approval::new(request.supervisor_username.as_deref(), request.supervisor_password.as_deref());
    let (t, approved_by) = approve_cajero(&state, &address, t, approval, "voidApproval", async |t: &Tenant| {
        check_target(t, &t.user, id).await.map(drop)
    })
    .await?;
    let idempotent = Idempotent::new(&key, t.user.id, "void", json!({ "transactionId": id }));
    post_once(t, idempotent, "voided", async |t: &Tenant| {
        let voided = void(t, &t.user, id, approved_by.as_deref(), Utc::now()).await?;
        audit(
            t,
            "transaction.void",
            "transaction",
            Some(voided.transaction_id),
            json!({
                "type": voided.kind,
                "points": voided.points,
                "cancellationId": voided.cancellation_id,
                "approvedBy": voided.approved_by,
            }),
        )
        .await?;
        Ok((voided.points, VoidResponse { message: Msg::Voided.render(lang, &Params::new()) }))
    })
    .await
}

/// Voids transaction `id` at `now`, by `by`, inside the caller's transaction. A cajero's void
/// needs `approved_by`, the supervisor or admin whose credentials were checked.
pub async fn void(
    conn: &Conn,
    by: &CurrentUser,
    id: i64,
    approved_by: Option<&str>,
    now: DateTime<Utc>,
) -> AppResult<Voided> {
    let target = check_target(conn, by, id).await?;
    let approved_by = match by.role {
        Role::Cajero => Some(approved_by.ok_or_else(|| AppError::bad_request(Msg::VoidApprovalRequired))?.to_string()),
        Role::Supervisor | Role::Admin => None,
    };

    // Customer first, then the transaction: the order every balance change takes its locks in.
    let customer = store::lock_customer(conn, target.customer_id).await?.ok_or_else(|| {
        AppError::internal(anyhow::anyhow!("customer {} of transaction {id} is missing", target.customer_id))
    })?;
    let target =
        store::lock_void_target(conn, id).await?.ok_or_else(|| AppError::not_found(Msg::TransactionNotFound))?;
    if target.is_voided {
        return Err(AppError::conflict(Msg::VoidAlreadyVoided));
    }
    // An accreditation is voided for what its returns left of it, and only while its batch
    // still holds that much (docs/points.md, "Returns").
    let (batch, points) = match target.kind {
        Kind::Accreditation => {
            let returned = store::returns_of(conn, target.id).await?;
            let left = target.points - returned.points;
            if returned.count > 0 && left <= 0 {
                return Err(AppError::conflict(Msg::VoidFullyReturned));
            }
            let batch = store::batch_of(conn, target.id).await?;
            if batch.is_some_and(|batch| batch.remaining < left) {
                return Err(AppError::conflict(Msg::VoidPointsSpent));
            }
            (batch.map(|batch| (batch.id, left)), -left)
        }
        _ => (None, -target.points),
    };
    let voided_by = approved_by.clone().unwrap_or_else(|| by.username.clone());
    // Points a voided redemption gives back must fit the balance.
    if points > 0 {
        rules::check_balance(customer.points, points)?;
    }
    let cancellation_id = store::insert_transaction_id(
        conn,
        &NewTransaction {
            kind: Kind::Cancellation,
            points,
            customer_id: target.customer_id,
            cashier_id: Some(by.id),
            cashier_username: &by.username,
            pos_id: target.pos_id,
            description: None,
            invoice_amount: None,
            redeemed_value: None,
            invoice_reference: target.invoice_reference.as_deref(),
            product_id: target.product_id,
            pos_name: None,
            product_name: None,
            original_transaction_id: Some(target.id),
            at: now,
            balance_before: customer.points,
        },
    )
    .await?;
    if let Some(approver) = &approved_by {
        store::set_approved_by(conn, cancellation_id, approver).await?;
    }
    if let Some((batch, left)) = batch.filter(|&(_, left)| left > 0) {
        // The cancellation takes what is left of the batch, recorded as a movement like any other.
        store::take_from_batches(conn, cancellation_id, &[(batch, left)]).await?;
    }
    if target.kind == Kind::Redemption {
        let returned = store::give_back_to_batches(conn, target.id).await?;
        if returned != points {
            return Err(AppError::internal(anyhow::anyhow!(
                "redemption {} took {returned} points from batches, not {points}",
                target.id
            )));
        }
        // A customer whose balance is below zero (a return of spent points) pays that first.
        if customer.points < 0 {
            settle_debt(conn, target.customer_id, cancellation_id, points.min(-customer.points)).await?;
        }
    }
    store::mark_voided(conn, target.id, &voided_by, now).await?;
    let customer = store::post_to_balance(conn, target.customer_id, points, None).await?;
    let event = serde_json::json!({ "transactionId": target.id, "transactionType": target.kind, "cancellationId": cancellation_id,
        "customerId": target.customer_id, "points": points, "balanceAfter": customer.points, "voidedBy": voided_by, "date": now });
    crate::webhooks::emit(conn, crate::webhooks::Event::TransactionVoided, event).await?;
    Ok(Voided { transaction_id: target.id, kind: target.kind, cancellation_id, points, voided_by, approved_by })
}

/// The transaction `by` may void: it exists, is of a voidable kind, and is a cajero's own.
async fn check_target(conn: &Conn, by: &CurrentUser, id: i64) -> AppResult<store::VoidTarget> {
    let target = store::void_target(conn, id).await?.ok_or_else(|| AppError::not_found(Msg::TransactionNotFound))?;
    check_voidable(target.kind)?;
    if by.role == Role::Cajero && target.cashier_id != Some(by.id) {
        return Err(AppError::Forbidden(Msg::VoidOwnOnly.into()));
    }
    Ok(target)
}

fn check_voidable(kind: Kind) -> AppResult<()> {
    match kind {
        Kind::Accreditation | Kind::Redemption => Ok(()),
        Kind::Expiration | Kind::Cancellation | Kind::Forfeit => Err(AppError::conflict(Msg::VoidNotVoidable)),
        Kind::Return => Err(AppError::conflict(Msg::ReturnNotVoidable)),
        Kind::Opening => Err(AppError::conflict(Msg::OpeningNotVoidable)),
    }
}
