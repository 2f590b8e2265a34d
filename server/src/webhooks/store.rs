//! The webhooks' SQL: endpoints and the outbox in the company's schema (inside the caller's
//! tenant transaction), and the platform's list of companies with deliveries to make.

use chrono::{DateTime, Utc};
use serde_json::Value;
use tokio_postgres::{GenericClient, Row};
use tracing::instrument;

use super::model::{Event, Webhook, WebhookDelivery};
use crate::db::Conn;
use crate::error::AppResult;

const ENDPOINT_COLUMNS: &str =
    "id, url, events, expiring_days, consecutive_failures, disabled_at, created_at, created_by";

fn endpoint(row: &Row) -> Webhook {
    Webhook {
        id: row.get("id"),
        url: row.get("url"),
        events: row.get("events"),
        expiring_days: row.get("expiring_days"),
        consecutive_failures: row.get("consecutive_failures"),
        disabled_at: row.get("disabled_at"),
        created_at: row.get("created_at"),
        created_by: row.get("created_by"),
    }
}

const DELIVERY_COLUMNS: &str = "id, message_id, event_type, status, attempts, created_at, \
     case when status = 'pending' then next_attempt_at end as next_attempt_at, last_attempt_at, \
     last_status, last_error, payload";

fn delivery(row: &Row) -> WebhookDelivery {
    WebhookDelivery {
        id: row.get("id"),
        message_id: row.get("message_id"),
        event_type: row.get("event_type"),
        status: row.get("status"),
        attempts: row.get("attempts"),
        created_at: row.get("created_at"),
        next_attempt_at: row.get("next_attempt_at"),
        last_attempt_at: row.get("last_attempt_at"),
        last_status: row.get("last_status"),
        last_error: row.get("last_error"),
        payload: row.get("payload"),
    }
}

#[instrument(level = "debug", skip_all)]
pub async fn list(conn: &Conn) -> AppResult<Vec<Webhook>> {
    let stmt = conn.prepare_cached(&format!("select {ENDPOINT_COLUMNS} from webhook_endpoints order by id")).await?;
    Ok(conn.query(&stmt, &[]).await?.iter().map(endpoint).collect())
}

#[instrument(level = "debug", skip_all)]
pub async fn insert(
    conn: &Conn,
    url: &str,
    events: &[String],
    secret: &str,
    expiring_days: i32,
    by: &str,
) -> AppResult<Webhook> {
    let stmt = conn
        .prepare_cached(&format!(
            "insert into webhook_endpoints (url, events, secret, expiring_days, created_by) \
             values ($1, $2, $3, $4, $5) returning {ENDPOINT_COLUMNS}"
        ))
        .await?;
    let inserted = endpoint(&conn.query_one(&stmt, &[&url, &events, &secret, &expiring_days, &by]).await?);
    // An event of this transaction after it goes to it too, whatever its settings said before.
    conn.note_webhook_endpoints(true);
    Ok(inserted)
}

/// Deletes an endpoint with its delivery log; whether it existed.
#[instrument(level = "debug", skip_all)]
pub async fn delete(conn: &Conn, id: i64) -> AppResult<bool> {
    let stmt = conn.prepare_cached("delete from webhook_endpoints where id = $1").await?;
    Ok(conn.execute(&stmt, &[&id]).await? > 0)
}

/// Enables an endpoint again; its waiting deliveries are due now, with 24 hours of retries
/// ahead. `None` when there is no such endpoint.
#[instrument(level = "debug", skip_all)]
pub async fn enable(conn: &Conn, id: i64) -> AppResult<Option<Webhook>> {
    let stmt = conn
        .prepare_cached(&format!(
            "with pending as (update webhook_deliveries set next_attempt_at = now(), retry_since = now() \
                 where endpoint_id = $1 and status = 'pending') \
             update webhook_endpoints set disabled_at = null, consecutive_failures = 0 where id = $1 \
             returning {ENDPOINT_COLUMNS}"
        ))
        .await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.as_ref().map(endpoint))
}

/// The newest deliveries of an endpoint, newest first.
#[instrument(level = "debug", skip_all)]
pub async fn deliveries(conn: &Conn, endpoint_id: i64, limit: i64) -> AppResult<Vec<WebhookDelivery>> {
    let stmt = conn
        .prepare_cached(&format!(
            "select {DELIVERY_COLUMNS} from webhook_deliveries where endpoint_id = $1 order by id desc limit $2"
        ))
        .await?;
    Ok(conn.query(&stmt, &[&endpoint_id, &limit]).await?.iter().map(delivery).collect())
}

/// Sends a delivery again (same message, same `webhook-id`): pending and due now, with 24 hours
/// of retries ahead. `None` when the endpoint has no such delivery.
#[instrument(level = "debug", skip_all)]
pub async fn resend(conn: &Conn, endpoint_id: i64, id: i64) -> AppResult<Option<WebhookDelivery>> {
    let stmt = conn
        .prepare_cached(&format!(
            "update webhook_deliveries set status = 'pending', next_attempt_at = now(), retry_since = now() \
             where id = $1 and endpoint_id = $2 returning {DELIVERY_COLUMNS}"
        ))
        .await?;
    Ok(conn.query_opt(&stmt, &[&id, &endpoint_id]).await?.as_ref().map(delivery))
}

/// An event's deliveries, one per endpoint that takes it; every sale of a company with endpoints
/// runs it (one without skips it: `webhooks::emit_to`).
pub const ENQUEUE: &str = "insert into webhook_deliveries (endpoint_id, message_id, event_type, payload) \
    select id, $1, $2, $3 from webhook_endpoints \
    where $2 = any (events) and ($4::integer is null or expiring_days = $4)";

/// Writes one message to the outbox of every endpoint that takes `event` (and, with
/// `expiring_days`, only those that announce expirations that many days ahead), and when it
/// wrote any, names the company in the platform's pending list, in the caller's transaction. Two
/// statements, the second only when there is something to deliver: one statement may not read
/// or write a company's tables and the platform's together (Citus routes each to its own node;
/// docs/scaling.md).
#[instrument(level = "debug", skip_all, fields(event = event.as_str()))]
pub async fn enqueue(
    conn: &Conn,
    prefix: &str,
    event: Event,
    message_id: &str,
    payload: &Value,
    expiring_days: Option<i32>,
) -> AppResult<()> {
    let stmt = conn.prepare_cached(ENQUEUE).await?;
    let written = conn.execute(&stmt, &[&message_id, &event.as_str(), payload, &expiring_days]).await?;
    if written > 0 {
        ring(conn, prefix).await?;
    }
    Ok(())
}

/// The different `expiring_days` of the endpoints that take `points.expiring`.
#[instrument(level = "debug", skip_all)]
pub async fn expiring_days(conn: &Conn) -> AppResult<Vec<i32>> {
    let stmt = conn
        .prepare_cached(
            "select distinct expiring_days from webhook_endpoints \
             where 'points.expiring' = any (events) order by 1",
        )
        .await?;
    Ok(conn.query(&stmt, &[]).await?.iter().map(|row| row.get(0)).collect())
}

/// Names the company in the platform's pending list, due at `due_at`, in the caller's
/// transaction (after an admin made deliveries due).
#[instrument(level = "debug", skip_all)]
pub async fn ring(conn: &Conn, prefix: &str) -> AppResult<()> {
    let stmt = conn.prepare_cached("insert into platform.webhook_pending (prefix) values ($1)").await?;
    conn.execute(&stmt, &[&prefix]).await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The worker

/// A delivery to attempt now, with its endpoint.
pub struct Due {
    pub id: i64,
    pub endpoint_id: i64,
    pub url: String,
    pub secret: String,
    pub message_id: String,
    pub payload: Value,
    pub attempts: i32,
    pub retry_since: DateTime<Utc>,
}

/// Deliveries due now to enabled endpoints, oldest first.
#[instrument(level = "debug", skip_all)]
pub async fn due(conn: &Conn, limit: i64) -> AppResult<Vec<Due>> {
    let stmt = conn
        .prepare_cached(
            "select d.id, d.endpoint_id, e.url, e.secret, d.message_id, d.payload, d.attempts, d.retry_since \
             from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id \
             where d.status = 'pending' and d.next_attempt_at <= now() and e.disabled_at is null \
             order by d.next_attempt_at, d.id limit $1",
        )
        .await?;
    Ok(conn
        .query(&stmt, &[&limit])
        .await?
        .iter()
        .map(|row| Due {
            id: row.get(0),
            endpoint_id: row.get(1),
            url: row.get(2),
            secret: row.get(3),
            message_id: row.get(4),
            payload: row.get(5),
            attempts: row.get(6),
            retry_since: row.get(7),
        })
        .collect())
}

/// Records an attempt that the endpoint answered with 2xx.
#[instrument(level = "debug", skip_all)]
pub async fn record_delivered(conn: &Conn, due: &Due, status: i32) -> AppResult<()> {
    let stmt = conn
        .prepare_cached(
            "with endpoint as (update webhook_endpoints set consecutive_failures = 0 where id = $2) \
             update webhook_deliveries set status = 'delivered', attempts = attempts + 1, \
                 last_attempt_at = now(), last_status = $3, last_error = null \
             where id = $1",
        )
        .await?;
    conn.execute(&stmt, &[&due.id, &due.endpoint_id, &status]).await?;
    Ok(())
}

/// Records a failed attempt: the delivery is retried at `next_attempt_at`, or given up
/// (`failed`) without one; the endpoint counts the failure and is disabled at `disable_after`
/// in a row. Answers whether this attempt disabled the endpoint.
#[instrument(level = "debug", skip_all)]
pub async fn record_failed(
    conn: &Conn,
    due: &Due,
    status: Option<i32>,
    error: &str,
    next_attempt_at: Option<DateTime<Utc>>,
    disable_after: i32,
) -> AppResult<bool> {
    let stmt = conn
        .prepare_cached(
            "with delivery as ( \
                 update webhook_deliveries set attempts = attempts + 1, last_attempt_at = now(), \
                     last_status = $3, last_error = $4, \
                     status = case when $5::timestamptz is null then 'failed' else 'pending' end, \
                     next_attempt_at = coalesce($5, next_attempt_at) \
                 where id = $1) \
             update webhook_endpoints set consecutive_failures = consecutive_failures + 1, \
                 disabled_at = case when disabled_at is null and consecutive_failures + 1 >= $6 \
                     then now() else disabled_at end \
             where id = $2 \
             returning disabled_at is not null and consecutive_failures = $6",
        )
        .await?;
    let row =
        conn.query_opt(&stmt, &[&due.id, &due.endpoint_id, &status, &error, &next_attempt_at, &disable_after]).await?;
    Ok(row.is_some_and(|row| row.get(0)))
}

/// When the company's next delivery to an enabled endpoint is due, if it has one.
#[instrument(level = "debug", skip_all)]
pub async fn next_due(conn: &Conn) -> AppResult<Option<DateTime<Utc>>> {
    let stmt = conn
        .prepare_cached(
            "select min(d.next_attempt_at) from webhook_deliveries d \
             join webhook_endpoints e on e.id = d.endpoint_id \
             where d.status = 'pending' and e.disabled_at is null",
        )
        .await?;
    Ok(conn.query_one(&stmt, &[]).await?.get(0))
}

/// Claims one company with deliveries due, for the claiming transaction: its pending row
/// locked (`for update skip locked`, so another process's worker takes another company), and
/// the company's webhook lock taken, skipping `busy` companies and any whose lock is held.
#[instrument(level = "debug", skip_all)]
pub async fn claim(client: &impl GenericClient, busy: &[String]) -> Result<Option<String>, tokio_postgres::Error> {
    let row = client
        .query_opt(
            "select prefix from platform.webhook_pending where due_at <= now() and prefix <> all ($1) \
             order by due_at, id limit 1 for update skip locked",
            &[&busy],
        )
        .await?;
    Ok(row.map(|row| row.get(0)))
}

/// Takes the company's webhook lock for the claiming transaction; false when another worker
/// holds it.
#[instrument(level = "debug", skip_all)]
pub async fn lock_company(client: &impl GenericClient, prefix: &str) -> Result<bool, tokio_postgres::Error> {
    let row = client
        .query_one("select pg_try_advisory_xact_lock(hashtextextended('loyalty-webhooks:' || $1, 0))", &[&prefix])
        .await?;
    Ok(row.get(0))
}

/// Removes the company's pending rows (the claiming transaction then adds one back for its next
/// due delivery, if any). Rows committed after this statement began are kept.
#[instrument(level = "debug", skip_all)]
pub async fn clear_pending(client: &impl GenericClient, prefix: &str) -> Result<u64, tokio_postgres::Error> {
    client.execute("delete from platform.webhook_pending where prefix = $1", &[&prefix]).await
}

/// Adds a pending row for the company, due at `due_at`.
#[instrument(level = "debug", skip_all)]
pub async fn add_pending(
    client: &impl GenericClient,
    prefix: &str,
    due_at: DateTime<Utc>,
) -> Result<(), tokio_postgres::Error> {
    client
        .execute("insert into platform.webhook_pending (prefix, due_at) values ($1, $2)", &[&prefix, &due_at])
        .await?;
    Ok(())
}

/// The company's disabled endpoints, for the admins' notices.
#[instrument(level = "debug", skip_all)]
pub async fn disabled_count(conn: &Conn) -> AppResult<i64> {
    let stmt = conn.prepare_cached("select count(*) from webhook_endpoints where disabled_at is not null").await?;
    Ok(conn.query_one(&stmt, &[]).await?.get(0))
}

/// Records a change to the company's webhooks in its audit trail.
#[instrument(level = "debug", skip_all)]
pub async fn audit(
    conn: &Conn,
    (actor, impersonated_by): (&str, Option<&str>),
    action: &str,
    entity_id: i64,
    detail: &Value,
) -> AppResult<()> {
    let stmt = conn
        .prepare_cached(
            "insert into audit_log (actor, impersonated_by, action, entity, entity_id, detail) \
             values ($1, $2, $3, 'webhook', $4, $5)",
        )
        .await?;
    conn.execute(&stmt, &[&actor, &impersonated_by, &action, &entity_id, detail]).await?;
    Ok(())
}
