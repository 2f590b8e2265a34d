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

use crate::db::{Conn, TenantTx};
use crate::domain::{Prefix, Role};
use crate::error::{AppError, AppResult, Lang, Msg, Params};
use crate::extract::{Json, Path};
use crate::session::{self, ClientAddress, CurrentUser, Tenant};
use crate::state::AppState;
use crate::tenant::audit;
use crate::throttle::{self, PasswordCheck};

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

/// A supervisor's or admin's credentials, as a cajero gives them.
#[derive(Clone)]
pub struct Approval {
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for Approval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Approval").field("username", &self.username).finish_non_exhaustive()
    }
}

impl Approval {
    pub fn from_request(request: &VoidRequest) -> Option<Self> {
        Approval::new(request.supervisor_username.as_deref(), request.supervisor_password.as_deref())
    }

    /// The credentials a request carries; `None` when it gives neither a username nor a password.
    pub fn new(username: Option<&str>, password: Option<&str>) -> Option<Self> {
        let username = username.map(str::trim).unwrap_or_default();
        let password = password.unwrap_or_default();
        if username.is_empty() && password.is_empty() {
            return None;
        }
        Some(Approval { username: username.to_lowercase(), password: password.to_string() })
    }
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
    let (t, approved_by) = if t.user.role == Role::Cajero {
        check_target(&t, &t.user, id).await?;
        let approval =
            Approval::from_request(&request).ok_or_else(|| AppError::bad_request(Msg::VoidApprovalRequired))?;
        let (prefix, cashier) = (t.prefix.clone(), t.user.username.clone());
        let (t, approver) = t
            .between_transactions(
                &state,
                check_approval(&state, &prefix, &cashier, &address, &approval, "voidApproval"),
            )
            .await?;
        (t, Some(approver))
    } else {
        (t, None)
    };
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
    // An accreditation can be voided only while its batch is untouched.
    let batch = match target.kind {
        Kind::Accreditation => store::batch_of(conn, target.id).await?,
        _ => None,
    };
    if batch.is_some_and(|batch| batch.remaining < batch.points) {
        return Err(AppError::conflict(Msg::VoidPointsSpent));
    }
    let voided_by = approved_by.clone().unwrap_or_else(|| by.username.clone());
    let points = -target.points;
    // Points a voided redemption gives back must fit the balance.
    if points > 0 {
        rules::check_balance(customer.points, points)?;
    }
    let cancellation_id = store::insert_transaction(
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
            original_transaction_id: Some(target.id),
            at: now,
            balance_before: customer.points,
        },
    )
    .await?
    .id;
    if let Some(batch) = batch {
        // The cancellation empties the batch, recorded as a movement like any other.
        store::take_from_batches(conn, cancellation_id, &[(batch.id, batch.points)]).await?;
    }
    if target.kind == Kind::Redemption {
        let returned = store::give_back_to_batches(conn, target.id).await?;
        if returned != points {
            return Err(AppError::internal(anyhow::anyhow!(
                "redemption {} took {returned} points from batches, not {points}",
                target.id
            )));
        }
    }
    store::mark_voided(conn, target.id, &voided_by, now).await?;
    store::post_to_balance(conn, target.customer_id, points, None).await?;
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
        Kind::Expiration | Kind::Cancellation => Err(AppError::conflict(Msg::VoidNotVoidable)),
    }
}

/// Checks a supervisor's or admin's credentials of this company as a login of `name@prefix`
/// from the cashier's address (counted, delayed and locked out alike, the attempt logged as
/// `via`); answers the approver's username. Unknown users take the same argon2 work as wrong
/// passwords. Void and the approval of an accreditation beyond a velocity limit share it.
pub(super) async fn check_approval(
    state: &AppState,
    prefix: &Prefix,
    cashier: &str,
    address: &str,
    approval: &Approval,
    via: &'static str,
) -> AppResult<String> {
    let refused = || AppError::Unauthorized(Msg::VoidIncorrectCredentials.into());
    // Nothing any account could match: no password to check, nothing to count (as a login).
    if approval.username.is_empty()
        || approval.password.is_empty()
        || approval.username.contains(char::is_control)
        || crate::domain::forbidden_character(&approval.username).is_some()
    {
        return Err(refused());
    }
    let login: String = if approval.username.contains('@') {
        approval.username.chars().take(100).collect()
    } else {
        format!("{}@{prefix}", approval.username).chars().take(100).collect()
    };
    let username = match login.rsplit_once('@') {
        Some((name, company)) if company == prefix.as_str() && !name.is_empty() => Some(name),
        _ => None,
    };
    let check = PasswordCheck { login: &login, address, company: Some(prefix), actor: cashier, via };
    let approver = throttle::throttled(state, check, async {
        let hash = match username {
            Some(name) => {
                let tx = TenantTx::begin(&state.pool, prefix).await?;
                let hash = store::approver_password_hash(&tx, name).await?;
                tx.commit().await?;
                hash.map(|hash| (name, hash))
            }
            None => None,
        };
        let Some((name, hash)) = hash else {
            session::verify_password(approval.password.clone(), session::dummy_hash().await).await;
            return Ok(None);
        };
        Ok(session::verify_password(approval.password.clone(), hash).await.then(|| name.to_string()))
    })
    .await?;
    approver.ok_or_else(refused)
}
