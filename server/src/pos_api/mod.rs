//! The POS API (docs/integration.md): a point of sale's own system accredits, redeems and looks
//! up a customer's balance with an API key (`tenant::api_keys`) instead of a session. The key is
//! the whole credential: it names its company, is refused on every other route (it is no
//! session token), and posts as the cashier of its own name at its own point of sale, by the
//! same rules as the screens (`points::accredit`, `points::redeem`).

use std::ops::Deref;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::response::Response;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tracing::Span;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db::TenantTx;
use crate::domain::{self, Prefix, Role};
use crate::error::{AppError, AppResult, Field, Msg};
use crate::extract::{Json, Path};
use crate::points::accredit::{self, AccreditRequest, Accreditation};
use crate::points::idempotency::{IdempotencyKey, Idempotent};
use crate::points::redeem::{self, Redemption, Reward};
use crate::points::rules::Points;
use crate::points::{Kind, Posting};
use crate::session::CurrentUser;
use crate::state::AppState;
use crate::tenant::api_keys::{self, model::parse_presented};

mod store;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(pos_accredit)).routes(routes!(pos_redeem)).routes(routes!(pos_customer))
}

// ---------------------------------------------------------------------------------------------
// The caller

/// A request of a point of sale's system: its key, checked, and an open transaction in the
/// key's company. The key's own check and count run in a transaction of their own, committed
/// first, so that a request refused later still counts against the key's rate.
pub struct PosCaller {
    tx: TenantTx,
    /// The key as the points engine sees it: a cashier of the key's name at its point of sale.
    pub user: CurrentUser,
}

impl Deref for PosCaller {
    type Target = TenantTx;

    fn deref(&self) -> &TenantTx {
        &self.tx
    }
}

impl FromRequestParts<AppState> for PosCaller {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> AppResult<Self> {
        let refused = || AppError::Unauthorized(Msg::ApiKeyInvalid.into());
        let header = parts.headers.get(axum::http::header::AUTHORIZATION).and_then(|v| v.to_str().ok());
        let presented = header.and_then(|h| h.strip_prefix("Bearer ").or_else(|| h.strip_prefix("bearer ")));
        let Some((prefix, hash)) = presented.and_then(|key| parse_presented(key.trim())) else {
            tracing::debug!("request without an API key");
            return Err(refused());
        };
        let key = check_key(state, &prefix, &hash).await?.ok_or_else(|| {
            tracing::debug!("unknown, revoked or inactive company's API key");
            refused()
        })?;
        if !key.pos_active {
            tracing::debug!("API key of an inactive point of sale");
            return Err(AppError::Forbidden(Msg::ApiKeyPosInactive.into()));
        }
        if key.window_count > key.rate_limit_per_minute {
            tracing::debug!(key = key.id, "API key over its rate");
            return Err(AppError::TooManyRequests(Msg::ApiKeyRateLimited.with("limit", key.rate_limit_per_minute)));
        }
        let tx = TenantTx::begin(&state.pool, &prefix).await?;
        let span = Span::current();
        span.record("tenant", prefix.as_str());
        span.record("user", key.name.as_str());
        let user = CurrentUser {
            id: key.id,
            username: key.name,
            role: Role::Cajero,
            pos_id: Some(key.pos_id),
            pos_name: Some(key.pos_name),
            impersonated_by: None,
            api_key_id: Some(key.id),
        };
        Ok(PosCaller { tx, user })
    }
}

/// The key with this hash in the company, counted and marked used, in a transaction of its
/// own; nothing when the company is not active or has no such key (or it was revoked).
async fn check_key(state: &AppState, prefix: &Prefix, hash: &str) -> AppResult<Option<api_keys::model::KeyHolder>> {
    // A second time only if this process's name for the company's schema was out of date.
    for _ in 0..2 {
        let tx = TenantTx::begin(&state.pool, prefix).await?;
        // Two statements: no statement reads `platform` and a company's tables together
        // (docs/scaling.md).
        if !tx.company_is_active(&state.pool).await? {
            continue;
        }
        let key = api_keys::present(&tx, hash).await?;
        tx.commit().await?;
        return Ok(key);
    }
    Ok(None)
}

impl PosCaller {
    /// The key's own id for idempotency keys: negative, so that it never matches a user's.
    fn idempotency_owner(&self) -> i64 {
        -self.user.id
    }

    /// Runs a posting under the request's idempotency key, marks its ledger row with the key,
    /// and commits: a retry with the key gets the first answer and posts nothing.
    async fn post_once(
        self,
        key: &IdempotencyKey,
        operation: &'static str,
        request: Value,
        metric: &'static str,
        post: impl AsyncFnOnce(&PosCaller) -> AppResult<Posting>,
    ) -> AppResult<Response> {
        let idempotent = Idempotent::new(key, self.idempotency_owner(), operation, request);
        if let Some(first_answer) = idempotent.begin(&self).await? {
            self.tx.commit().await?;
            return Ok(first_answer);
        }
        let posting = post(&self).await?;
        store::mark_posted_with(&self, posting.new_transaction.id, self.user.id).await?;
        let answer = idempotent.finish(&self, &PosPosting::from(&posting)).await?;
        self.tx.commit().await?;
        crate::metrics::record_points(metric, posting.new_transaction.points);
        Ok(answer)
    }
}

/// The `Idempotency-Key` header, which the POS API requires on postings.
pub struct RequiredIdempotencyKey(IdempotencyKey);

impl FromRequestParts<AppState> for RequiredIdempotencyKey {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> AppResult<Self> {
        let key = IdempotencyKey::from_request_parts(parts, state).await?;
        if key.0.is_none() {
            return Err(AppError::bad_request(Msg::IdempotencyKeyRequired));
        }
        Ok(RequiredIdempotencyKey(key))
    }
}

/// The required `Idempotency-Key` header, for the OpenAPI document.
#[derive(utoipa::IntoParams)]
#[into_params(names("Idempotency-Key"), parameter_in = Header)]
#[allow(dead_code)]
struct RequiredKeyParam(
    /// Required: 1 to 200 visible characters, new for each sale (the invoice's number and the
    /// operation, say). A retry with the same key and body gets the first answer, with
    /// `Idempotent-Replayed: true`, and posts nothing.
    String,
);

// ---------------------------------------------------------------------------------------------
// Answers and requests

/// What a posting did, as the POS API answers it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({
    "transactionId": 1042, "type": "accreditation", "points": 250, "balance": 1730,
    "customerName": "Ana Gómez", "invoiceReference": "FV-2031", "date": "2026-11-26T15:04:05Z"
}))]
pub struct PosPosting {
    /// The ledger row's id.
    pub transaction_id: i64,
    /// `accreditation` or `redemption`.
    #[serde(rename = "type")]
    pub kind: Kind,
    /// The points it moved: positive for an accreditation, negative for a redemption.
    pub points: i64,
    /// The customer's balance after it.
    pub balance: i64,
    /// The customer's name, for the receipt.
    pub customer_name: String,
    /// The invoice reference given; null when none.
    pub invoice_reference: Option<String>,
    /// When it was posted (RFC 3339, UTC).
    pub date: DateTime<Utc>,
}

impl From<&Posting> for PosPosting {
    fn from(posting: &Posting) -> Self {
        let row = &posting.new_transaction;
        PosPosting {
            transaction_id: row.id,
            kind: row.kind,
            points: row.points,
            balance: posting.updated_customer.points,
            customer_name: posting.updated_customer.name.clone(),
            invoice_reference: row.invoice_reference.clone(),
            date: row.date,
        }
    }
}

/// An invoice to credit points for.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({ "document": "1020304050", "invoiceAmount": 25000, "invoiceReference": "FV-2031" }))]
pub struct PosAccreditRequest {
    /// The customer's ID document (dots and spaces are ignored).
    #[schema(required = true)]
    pub document: Option<String>,
    /// Whole pesos, greater than zero.
    #[schema(value_type = i64, required = true)]
    pub invoice_amount: Option<Value>,
    /// The invoice's number, at most 100 characters; required. While an accreditation of the
    /// company that is not voided holds it, another is refused with a 409.
    #[schema(required = true)]
    pub invoice_reference: Option<String>,
}

/// A redemption: `points`, or the product of `productCode`.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({ "document": "1020304050", "points": 500, "invoiceReference": "FV-2032" }))]
pub struct PosRedeemRequest {
    /// The customer's ID document (dots and spaces are ignored).
    #[schema(required = true)]
    pub document: Option<String>,
    /// Whole points to redeem for their peso value, at least 1 and at most the balance; or
    /// give `productCode` instead.
    #[schema(value_type = Option<i64>)]
    pub points: Option<Value>,
    /// The code of an active product to redeem for its points value; or give `points` instead.
    pub product_code: Option<String>,
    /// The sale's invoice reference, at most 100 characters; optional.
    pub invoice_reference: Option<String>,
}

/// A customer's name and balance.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({ "name": "Ana Gómez", "points": 1730 }))]
pub struct PosCustomer {
    /// The customer's name.
    pub name: String,
    /// The customer's balance in points.
    pub points: i64,
}

/// A document of a shape no customer can have is simply not found.
fn document(raw: Option<&str>) -> AppResult<String> {
    if raw.map(str::trim).unwrap_or_default().is_empty() {
        return Err(AppError::bad_request(Msg::FieldRequired.field(Field::Document)));
    }
    domain::document(raw).map_err(|_| AppError::not_found(Msg::CustomerNotFound))
}

async fn customer_id(conn: &TenantTx, document: &str) -> AppResult<i64> {
    store::customer_id(conn, document).await?.ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))
}

// ---------------------------------------------------------------------------------------------
// Handlers

/// Credits points to the customer of `document` for an invoice, by the company's rules, as the
/// key's cashier at the key's point of sale. Refused as at the till: an invoice reference
/// already accredited (409), an inactive or unknown customer (404), beyond a velocity limit
/// (409; an approval needs a supervisor at the till).
#[utoipa::path(post, path = "/pos-api/v1/accredit", tag = "pos api", security(("apiKey" = [])),
    params(RequiredKeyParam), request_body = PosAccreditRequest,
    responses((status = 200, body = PosPosting), crate::error::ApiErrors))]
async fn pos_accredit(
    caller: PosCaller,
    RequiredIdempotencyKey(key): RequiredIdempotencyKey,
    Json(request): Json<PosAccreditRequest>,
) -> AppResult<Response> {
    let document = document(request.document.as_deref())?;
    let reference = domain::required_text(Field::InvoiceReference, request.invoice_reference.as_deref(), 100)?;
    let input = Accreditation::parse(&AccreditRequest {
        invoice_amount: request.invoice_amount,
        invoice_reference: Some(reference),
        supervisor_username: None,
        supervisor_password: None,
    })?;
    let fingerprint = json!({
        "document": document, "invoiceAmount": input.amount.pesos(), "invoiceReference": input.invoice_reference,
    });
    caller
        .post_once(&key, "posAccredit", fingerprint, "accredited", async |caller: &PosCaller| {
            let customer = customer_id(caller, &document).await?;
            accredit::accredit(caller, &caller.user, customer, &input, Utc::now()).await
        })
        .await
}

/// Redeems the points of the customer of `document`, for their peso value (`points`) or for a
/// product (`productCode`), as the key's cashier at the key's point of sale, by the same rules as
/// the till.
#[utoipa::path(post, path = "/pos-api/v1/redeem", tag = "pos api", security(("apiKey" = [])),
    params(RequiredKeyParam), request_body = PosRedeemRequest,
    responses((status = 200, body = PosPosting), crate::error::ApiErrors))]
async fn pos_redeem(
    caller: PosCaller,
    RequiredIdempotencyKey(key): RequiredIdempotencyKey,
    Json(request): Json<PosRedeemRequest>,
) -> AppResult<Response> {
    let document = document(request.document.as_deref())?;
    let code = domain::optional_text(Field::Code, request.product_code.as_deref(), 100)?;
    let points = match &request.points {
        None | Some(Value::Null) => None,
        Some(value) => Some(Points::parse(Some(value))?),
    };
    let invoice_reference = domain::optional_text(Field::InvoiceReference, request.invoice_reference.as_deref(), 100)?;
    let fingerprint = json!({
        "document": document, "points": points.map(Points::get), "productCode": code,
        "invoiceReference": invoice_reference,
    });
    let reward = match (points, code) {
        (Some(points), None) => Ok(points),
        (None, Some(code)) => Err(code),
        _ => return Err(AppError::bad_request(Msg::PosApiRewardRequired)),
    };
    caller
        .post_once(&key, "posRedeem", fingerprint, "redeemed", async |caller: &PosCaller| {
            let customer = customer_id(caller, &document).await?;
            let reward = match reward {
                Ok(points) => Reward::Points(points),
                Err(code) => {
                    let id = store::product_id(caller, &code)
                        .await?
                        .ok_or_else(|| AppError::not_found(Msg::ProductNotFound))?;
                    Reward::Product { id, expected_points: None }
                }
            };
            let input = Redemption { reward, description: None, invoice_reference };
            redeem::redeem(caller, &caller.user, customer, &input, Utc::now()).await
        })
        .await
}

/// The name and balance of the active customer of `document`.
#[utoipa::path(get, path = "/pos-api/v1/customers/{document}", tag = "pos api", security(("apiKey" = [])),
    params(("document" = String, Path, description = "the customer's ID document", example = "1020304050")),
    responses((status = 200, body = PosCustomer), crate::error::ApiErrors))]
async fn pos_customer(caller: PosCaller, Path(document): Path<String>) -> AppResult<Json<PosCustomer>> {
    let document = domain::document(Some(&document)).map_err(|_| AppError::not_found(Msg::CustomerNotFound))?;
    let (name, points) =
        store::customer_summary(&caller, &document).await?.ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    caller.tx.commit().await?;
    Ok(Json(PosCustomer { name, points }))
}
