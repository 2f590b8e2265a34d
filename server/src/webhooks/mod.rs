//! Webhooks (Standard Webhooks): an admin registers endpoints for events; each event is written
//! to the company's outbox in the transaction of the change it reports, and the delivery worker
//! sends it signed, retrying with backoff (docs/webhooks.md).

use axum::http::StatusCode;
use chrono::Utc;
use serde::Serialize;
use serde_json::json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db::Conn;
use crate::error::{AppError, AppResult, Msg};
use crate::extract::{Json, Path};
use crate::session::Tenant;
use crate::state::AppState;

pub mod address;
pub mod model;
pub mod sign;
pub mod store;
pub mod worker;

pub use model::Event;
use model::{CreatedWebhook, Webhook, WebhookDelivery, WebhookInput};

/// The deliveries a log shows, newest first.
const LOG_SIZE: i64 = 100;
/// Days before expiry a `points.expiring` is sent, unless the endpoint says.
const DEFAULT_EXPIRING_DAYS: i64 = 7;
const MAX_EXPIRING_DAYS: i64 = 90;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(remove))
        .routes(routes!(enable))
        .routes(routes!(deliveries))
        .routes(routes!(resend))
}

/// Writes `event` to the outbox of the company's endpoints that take it, inside the caller's
/// transaction: a change rolled back sends nothing, a committed one is delivered.
pub async fn emit(conn: &Conn, event: Event, data: impl Serialize) -> AppResult<()> {
    emit_to(conn, event, None, data).await
}

/// [`emit`] to the endpoints announcing expirations `expiring_days` ahead only, when given.
///
/// A transaction that read the company's settings knows whether it has endpoints; without any,
/// nothing is written ([`Conn::has_no_webhook_endpoints`]). An endpoint created while a sale runs
/// is as if created right after it.
pub async fn emit_to(conn: &Conn, event: Event, expiring_days: Option<i32>, data: impl Serialize) -> AppResult<()> {
    if conn.has_no_webhook_endpoints() {
        return Ok(());
    }
    let message_id = format!("msg_{}", uuid::Uuid::new_v4().simple());
    let payload = json!({
        "type": event.as_str(),
        "timestamp": Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        "data": serde_json::to_value(data).map_err(AppError::internal)?,
    });
    store::enqueue(conn, conn.prefix().as_str(), event, &message_id, &payload, expiring_days).await
}

/// The days ahead of expiry that the company's endpoints want `points.expiring` for.
pub async fn expiring_days(conn: &Conn) -> AppResult<Vec<i32>> {
    store::expiring_days(conn).await
}

/// How many of the company's endpoints repeated failures disabled (for the admins' notices).
pub async fn disabled_endpoints(conn: &Conn) -> AppResult<i64> {
    store::disabled_count(conn).await
}

/// The company's webhook endpoints (admins).
#[utoipa::path(get, path = "/webhooks", tag = "webhooks", security(("bearer" = [])),
    responses((status = 200, body = Vec<Webhook>), crate::error::ApiErrors))]
async fn list(t: Tenant) -> AppResult<Json<Vec<Webhook>>> {
    t.require_admin()?;
    let list = store::list(&t).await?;
    t.commit().await?;
    Ok(Json(list))
}

/// Registers an endpoint (admins). The answer carries its signing secret, shown this once.
#[utoipa::path(post, path = "/webhooks", tag = "webhooks", security(("bearer" = [])),
    request_body = WebhookInput,
    responses((status = 201, body = CreatedWebhook), crate::error::ApiErrors))]
async fn create(
    axum::extract::State(state): axum::extract::State<AppState>,
    t: Tenant,
    Json(input): Json<WebhookInput>,
) -> AppResult<(StatusCode, Json<CreatedWebhook>)> {
    t.require_admin()?;
    let url = address::check_url(input.url.as_deref().unwrap_or_default(), state.config.webhooks.allow_private)
        .map_err(AppError::bad_request)?;
    let mut events = Vec::new();
    for raw in input.events.unwrap_or_default() {
        let event = Event::parse(raw.trim())
            .ok_or_else(|| AppError::bad_request(Msg::WebhookEventUnknown.with("event", raw.clone())))?;
        if !events.contains(&event.as_str().to_string()) {
            events.push(event.as_str().to_string());
        }
    }
    if events.is_empty() {
        return Err(AppError::bad_request(Msg::WebhookEventsEmpty));
    }
    let days = input.expiring_days.unwrap_or(DEFAULT_EXPIRING_DAYS);
    if !(1..=MAX_EXPIRING_DAYS).contains(&days) {
        return Err(AppError::bad_request(Msg::WebhookExpiringDays.with("max", MAX_EXPIRING_DAYS)));
    }
    let secret = sign::new_secret();
    let endpoint = store::insert(&t, url.as_str(), &events, &secret, days as i32, &t.user.username).await?;
    store::audit(
        &t,
        t.actor(),
        "webhook.create",
        endpoint.id,
        &json!({ "url": endpoint.url, "events": endpoint.events }),
    )
    .await?;
    t.commit().await?;
    Ok((StatusCode::CREATED, Json(CreatedWebhook { id: endpoint.id, secret, endpoint })))
}

/// Deletes an endpoint with its delivery log (admins); nothing more is sent to it.
#[utoipa::path(delete, path = "/webhooks/{id}", tag = "webhooks", security(("bearer" = [])),
    params(("id" = i64, Path, description = "endpoint id")),
    responses((status = 204), crate::error::ApiErrors))]
async fn remove(t: Tenant, Path(id): Path<i64>) -> AppResult<StatusCode> {
    t.require_admin()?;
    if !store::delete(&t, id).await? {
        return Err(AppError::not_found(Msg::WebhookNotFound));
    }
    store::audit(&t, t.actor(), "webhook.delete", id, &json!({})).await?;
    t.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Enables an endpoint that repeated failures disabled (admins): what waited for it is sent
/// now, with 24 hours of retries ahead.
#[utoipa::path(post, path = "/webhooks/{id}/enable", tag = "webhooks", security(("bearer" = [])),
    params(("id" = i64, Path, description = "endpoint id")),
    responses((status = 200, body = Webhook), crate::error::ApiErrors))]
async fn enable(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<Webhook>> {
    t.require_admin()?;
    let endpoint = store::enable(&t, id).await?.ok_or_else(|| AppError::not_found(Msg::WebhookNotFound))?;
    store::ring(&t, t.prefix.as_str()).await?;
    store::audit(&t, t.actor(), "webhook.enable", id, &json!({})).await?;
    t.commit().await?;
    Ok(Json(endpoint))
}

/// An endpoint's newest deliveries (at most 100), newest first (admins).
#[utoipa::path(get, path = "/webhooks/{id}/deliveries", tag = "webhooks", security(("bearer" = [])),
    params(("id" = i64, Path, description = "endpoint id")),
    responses((status = 200, body = Vec<WebhookDelivery>), crate::error::ApiErrors))]
async fn deliveries(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<Vec<WebhookDelivery>>> {
    t.require_admin()?;
    let list = store::deliveries(&t, id, LOG_SIZE).await?;
    if list.is_empty() && !store::list(&t).await?.iter().any(|e| e.id == id) {
        return Err(AppError::not_found(Msg::WebhookNotFound));
    }
    t.commit().await?;
    Ok(Json(list))
}

/// Sends a delivery again now, as the same message (same `webhook-id`), whatever its status
/// (admins).
#[utoipa::path(post, path = "/webhooks/{id}/deliveries/{deliveryId}/resend", tag = "webhooks", security(("bearer" = [])),
    params(("id" = i64, Path, description = "endpoint id"), ("deliveryId" = i64, Path, description = "delivery id")),
    responses((status = 200, body = WebhookDelivery), crate::error::ApiErrors))]
async fn resend(t: Tenant, Path((id, delivery_id)): Path<(i64, i64)>) -> AppResult<Json<WebhookDelivery>> {
    t.require_admin()?;
    let delivery =
        store::resend(&t, id, delivery_id).await?.ok_or_else(|| AppError::not_found(Msg::WebhookDeliveryNotFound))?;
    store::ring(&t, t.prefix.as_str()).await?;
    store::audit(&t, t.actor(), "webhook.resend", id, &json!({ "delivery": delivery_id })).await?;
    t.commit().await?;
    Ok(Json(delivery))
}
