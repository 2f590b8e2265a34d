//! The webhooks' request and answer types, and the events.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a webhook reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    PointsAccredited,
    PointsRedeemed,
    TransactionVoided,
    TransactionReturned,
    PointsExpiring,
    CustomerCreated,
}

impl Event {
    pub const ALL: [Event; 6] = [
        Event::PointsAccredited,
        Event::PointsRedeemed,
        Event::TransactionVoided,
        Event::TransactionReturned,
        Event::PointsExpiring,
        Event::CustomerCreated,
    ];

    /// The event's `type` in payloads and in an endpoint's `events`.
    pub fn as_str(self) -> &'static str {
        match self {
            Event::PointsAccredited => "points.accredited",
            Event::PointsRedeemed => "points.redeemed",
            Event::TransactionVoided => "transaction.voided",
            Event::TransactionReturned => "transaction.returned",
            Event::PointsExpiring => "points.expiring",
            Event::CustomerCreated => "customer.created",
        }
    }

    pub fn parse(raw: &str) -> Option<Event> {
        Event::ALL.into_iter().find(|event| event.as_str() == raw)
    }
}

/// A new endpoint.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookInput {
    /// Where to deliver: an `https://` address on the public internet (docs/webhooks.md).
    pub url: Option<String>,
    /// The events to deliver, at least one: `points.accredited`, `points.redeemed`,
    /// `transaction.voided`, `transaction.returned`, `points.expiring`, `customer.created`.
    pub events: Option<Vec<String>>,
    /// For `points.expiring`: how many days before the points expire (1 to 90; 7 if absent).
    pub expiring_days: Option<i64>,
}

/// An endpoint as the API shows it (never its secret).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Webhook {
    pub id: i64,
    pub url: String,
    pub events: Vec<String>,
    /// For `points.expiring`: days before the points expire.
    pub expiring_days: i32,
    /// Failed attempts in a row; at the server's limit the endpoint is disabled.
    pub consecutive_failures: i32,
    /// When repeated failures disabled it; null while it is enabled. Its deliveries wait, and
    /// are sent when an admin enables it again.
    pub disabled_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub created_by: String,
}

/// A new endpoint, with its secret: shown this once, never again.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedWebhook {
    pub id: i64,
    /// The signing secret (`whsec_` and base64), to verify `webhook-signature` with.
    pub secret: String,
    pub endpoint: Webhook,
}

/// One event sent (or to send) to one endpoint, with its attempts' outcome.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookDelivery {
    pub id: i64,
    /// The `webhook-id` of every attempt of this message, re-sends included.
    pub message_id: String,
    pub event_type: String,
    /// `pending` (to send or to retry), `delivered` (answered 2xx) or `failed` (given up after
    /// 24 hours of retries).
    pub status: String,
    pub attempts: i32,
    pub created_at: DateTime<Utc>,
    /// The next attempt, while pending.
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub last_attempt_at: Option<DateTime<Utc>>,
    /// The HTTP status the endpoint last answered; null when it did not answer.
    pub last_status: Option<i32>,
    /// Why the last attempt failed, when it did.
    pub last_error: Option<String>,
    /// The body sent: `{type, timestamp, data}`.
    pub payload: Value,
}
