//! Redeeming points, for a product or for their peso value.

use axum::response::Response;
use chrono::{DateTime, Utc};
use futures::future::try_join5;
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::idempotency::{IdempotencyKey, Idempotent};
use super::rules::{self, Points};
use super::store::{self, NewTransaction};
use super::{post_once, write_posting, Kind, Posting};
use crate::db::{self, Conn};
use crate::domain::{self, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Msg};
use crate::extract::{Json, Path};
use crate::session::{CurrentUser, Tenant};
use crate::state::AppState;
use crate::tenant::settings;

/// Screens that offer redemption.
pub const PERMISSIONS: &[&str] = &["/redimir", "/main"];

/// A redemption: of a product, or of a number of points.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RedeemRequest {
    /// Whole points, at least 1 and at most the balance. With a product, its points value
    /// decides; a different number here is refused (the product changed).
    #[schema(value_type = Option<i64>)]
    pub points_to_redeem: Option<Value>,
    /// A note of the cashier's, kept as the transaction's `description`; at most 200 characters,
    /// optional.
    pub description: Option<String>,
    /// The sale's invoice reference, at most 100 characters; optional.
    pub invoice_reference: Option<String>,
    /// The product to redeem (active); absent, null or empty redeems `pointsToRedeem` points for
    /// their peso value.
    #[schema(value_type = Option<i64>)]
    pub product_id: Option<Value>,
}

/// What is redeemed: a product, or a number of points.
#[derive(Clone, Debug)]
pub enum Reward {
    Product { id: i64, expected_points: Option<i64> },
    Points(Points),
}

/// A validated redemption request.
#[derive(Clone, Debug)]
pub struct Redemption {
    pub reward: Reward,
    pub description: Option<String>,
    pub invoice_reference: Option<String>,
}

impl Redemption {
    pub fn parse(request: &RedeemRequest) -> AppResult<Self> {
        let reward = match domain::optional_id(Field::ProductId, request.product_id.as_ref())? {
            Some(id) => {
                let expected_points = match &request.points_to_redeem {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) if s.trim().is_empty() => None,
                    Some(value) => Some(Points::parse(Some(value))?.get()),
                };
                Reward::Product { id, expected_points }
            }
            None => Reward::Points(Points::parse(request.points_to_redeem.as_ref())?),
        };
        Ok(Redemption {
            reward,
            description: domain::optional_text(Field::Description, request.description.as_deref(), MAX_TEXT)?,
            invoice_reference: domain::optional_text(
                Field::InvoiceReference,
                request.invoice_reference.as_deref(),
                100,
            )?,
        })
    }

    /// What identifies the request for its idempotency key.
    fn fingerprint(&self, customer_id: i64) -> Value {
        let (product_id, points) = match &self.reward {
            Reward::Product { id, expected_points } => (Some(*id), *expected_points),
            Reward::Points(points) => (None, Some(points.get())),
        };
        json!({
            "customerId": customer_id,
            "productId": product_id,
            "pointsToRedeem": points,
            "description": self.description,
            "invoiceReference": self.invoice_reference,
        })
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(redeem_handler))
}

/// Redeems a customer's points for a product (its points value, valued at its price) or for a
/// number of points (valued at `floor(points / redemptionRate)`), oldest batches first.
#[utoipa::path(post, path = "/customers/{id}/redeem", tag = "points", security(("bearer" = [])),
    params(("id" = i64, Path, description = "customer id"), IdempotencyKey),
    request_body = RedeemRequest,
    responses((status = 200, body = Posting), crate::error::ApiErrors))]
async fn redeem_handler(
    t: Tenant,
    key: IdempotencyKey,
    Path(id): Path<i64>,
    Json(request): Json<RedeemRequest>,
) -> AppResult<Response> {
    t.require_permission(PERMISSIONS).await?;
    let input = Redemption::parse(&request)?;
    let idempotent = Idempotent::new(&key, t.user.id, "redeem", input.fingerprint(id));
    post_once(t, idempotent, "redeemed", async |t: &Tenant| {
        let posting = redeem(t, &t.user, id, &input, Utc::now()).await?;
        Ok((posting.new_transaction.points, posting))
    })
    .await
}

/// Redeems a customer's points at `now`, by `by`, inside the caller's transaction.
pub async fn redeem(
    conn: &Conn,
    by: &CurrentUser,
    customer_id: i64,
    input: &Redemption,
    now: DateTime<Utc>,
) -> AppResult<Posting> {
    // One round trip: the customer's lock, the rules, the product, and the customer's batches
    // (locked after the customer, as every balance change does). Every statement of a sale
    // finds rows by key, so they keep their plans.
    let product = async {
        match &input.reward {
            Reward::Product { id, .. } => store::product(conn, *id).await,
            Reward::Points(_) => Ok(None),
        }
    };
    let ((), customer, settings, product, open) = db::pipeline(
        conn,
        &[store::LOCK_CUSTOMER, settings::SELECT, store::PRODUCT, store::OPEN_BATCHES],
        try_join5(
            conn.keep_plans(),
            store::lock_customer(conn, customer_id),
            settings::load(conn),
            product,
            store::open_batches(conn, customer_id, None),
        ),
    )
    .await?;
    let customer = customer.filter(|c| c.is_active).ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    settings.require_rules()?;
    let (points, redeemed_value, product) = match &input.reward {
        Reward::Product { expected_points, .. } => {
            let product = product.ok_or_else(|| AppError::not_found(Msg::ProductNotFound))?;
            if !product.is_active {
                return Err(AppError::bad_request(Msg::ProductInactive));
            }
            let points = Points::new(product.points_value).ok_or_else(|| AppError::bad_request(Msg::PointsInvalid))?;
            if expected_points.is_some_and(|expected| expected != points.get()) {
                return Err(AppError::conflict(Msg::ProductPointsChanged));
            }
            (points, product.price, Some(product))
        }
        Reward::Points(points) => (*points, rules::redeemed_value(*points, settings.redemption_rate), None),
    };
    // After a return of spent points, nothing is redeemed until the balance is positive again.
    if customer.points < 0 {
        return Err(AppError::conflict(Msg::NegativeBalance.with("balance", customer.points)));
    }
    if points.get() > customer.points {
        return Err(AppError::bad_request(Msg::NotEnoughPoints));
    }
    let plan = rules::plan_consumption(&open, points.get()).ok_or_else(|| {
        AppError::internal(anyhow::anyhow!("customer {} balance exceeds the points in its batches", customer.id))
    })?;
    let new_transaction = NewTransaction {
        kind: Kind::Redemption,
        points: -points.get(),
        customer_id: customer.id,
        cashier_id: by.cashier_id(),
        cashier_username: &by.username,
        pos_id: by.pos_id,
        // Only what the cashier wrote: the product and the figures are facts of their own.
        description: input.description.as_deref(),
        invoice_amount: None,
        redeemed_value: Some(redeemed_value),
        invoice_reference: input.invoice_reference.as_deref(),
        product_id: product.as_ref().map(|product| product.id),
        pos_name: by.pos_name.as_deref(),
        product_name: product.as_ref().map(|product| product.name.as_str()),
        original_transaction_id: None,
        at: now,
        balance_before: customer.points,
    };
    let posting = write_posting(conn, &new_transaction, store::TAKE_FROM_BATCHES, |transaction_id| {
        store::take_from_batches(conn, transaction_id, &plan)
    })
    .await?;
    crate::webhooks::emit(conn, crate::webhooks::Event::PointsRedeemed, &posting.new_transaction).await?;
    Ok(posting)
}
