//! The delivery worker (docs/webhooks.md, "The worker"). Each server process runs a few; they
//! share the work through the platform's pending list: a worker claims a company's row with
//! `for update skip locked` and the company's advisory lock, and holds both in one platform
//! transaction while it delivers what the company has due. The row's removal commits with that
//! transaction, after the attempts were recorded: a process killed mid-delivery leaves the row,
//! and the next worker sends the same messages again, with the same `webhook-id`. No worker
//! ever looks at a company that has nothing to send.

use std::time::{Duration, Instant};

use chrono::Utc;

use super::address::{check_url, GuardedResolver};
use super::{sign, store};
use crate::config::WebhookConfig;
use crate::db::TenantTx;
use crate::domain::Prefix;
use crate::error::AppResult;
use crate::state::AppState;

/// Workers per server process.
pub const WORKERS: usize = 2;
/// Deliveries a worker makes for one company before it lets the company go back to the list.
const BATCH: i64 = 50;
/// How long a worker keeps one company before it lets it go back to the list.
const HOLD_AT_MOST: Duration = Duration::from_secs(60);
/// The longest error text kept for the delivery log.
const MAX_ERROR: usize = 300;

/// Starts the process's delivery workers.
pub fn spawn(state: AppState) -> Vec<tokio::task::JoinHandle<()>> {
    (0..WORKERS)
        .map(|n| {
            let state = state.clone();
            tokio::spawn(async move {
                loop {
                    if let Err(err) = run(&state).await {
                        tracing::error!(worker = n, error = ?err, "webhook worker failed; restarting");
                    }
                    tokio::time::sleep(state.config.webhooks.poll_every.max(Duration::from_secs(1))).await;
                }
            })
        })
        .collect()
}

/// The HTTP client of the deliveries: no redirects, a timeout, the guarded resolver.
pub fn http_client(config: &WebhookConfig) -> anyhow::Result<reqwest::Client> {
    Ok(reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(config.timeout)
        .connect_timeout(config.timeout)
        .user_agent(concat!("loyalty-webhooks/", env!("CARGO_PKG_VERSION")))
        .dns_resolver(std::sync::Arc::new(GuardedResolver { allow_private: config.allow_private }))
        .build()?)
}

/// One worker, on a connection of its own, until that connection fails.
async fn run(state: &AppState) -> anyhow::Result<()> {
    let config = &state.config.webhooks;
    let http = http_client(config)?;
    let mut client = crate::db::connect_dedicated(state.config.db.url.expose()).await?;
    let mut busy: Vec<String> = Vec::new();
    loop {
        let tx = client.transaction().await?;
        let Some(prefix) = store::claim(&tx, &busy).await? else {
            tx.commit().await?;
            busy.clear();
            tokio::time::sleep(config.poll_every).await;
            continue;
        };
        if !store::lock_company(&tx, &prefix).await? {
            tx.rollback().await?;
            busy.push(prefix);
            continue;
        }
        store::clear_pending(&tx, &prefix).await?;
        let company = Prefix::from_trusted(prefix.clone());
        if !crate::db::is_active_company(&tx, &company).await? {
            tx.commit().await?;
            continue;
        }
        match deliver_company(state, &http, &company).await {
            Ok(Some(next)) => store::add_pending(&tx, &prefix, next).await?,
            Ok(None) => {}
            Err(err) => {
                tracing::error!(tenant = %company, error = ?err, "webhook deliveries failed");
                let retry = Utc::now() + chrono::Duration::from_std(config.poll_every.max(Duration::from_secs(5)))?;
                store::add_pending(&tx, &prefix, retry).await?;
            }
        }
        tx.commit().await?;
    }
}

/// Makes the company's due deliveries, each attempt recorded in a transaction of its own;
/// answers when its next delivery is due, if it has one.
async fn deliver_company(
    state: &AppState,
    http: &reqwest::Client,
    prefix: &Prefix,
) -> AppResult<Option<chrono::DateTime<Utc>>> {
    let config = &state.config.webhooks;
    let started = Instant::now();
    let tx = TenantTx::begin(&state.pool, prefix).await?;
    let due = store::due(&tx, BATCH).await?;
    tx.commit().await?;
    for delivery in &due {
        let outcome = attempt(http, config, delivery).await;
        let tx = TenantTx::begin(&state.pool, prefix).await?;
        match outcome {
            Ok(status) => store::record_delivered(&tx, delivery, status).await?,
            Err((status, error)) => {
                let next = retry_at(config, delivery);
                if store::record_failed(&tx, delivery, status, &error, next, config.disable_after).await? {
                    tracing::warn!(tenant = %prefix, endpoint = delivery.endpoint_id, "webhook endpoint disabled after repeated failures");
                }
                tracing::info!(tenant = %prefix, delivery = delivery.id, ?status, error, "webhook delivery failed");
            }
        }
        tx.commit().await?;
        if started.elapsed() > HOLD_AT_MOST {
            break;
        }
    }
    let tx = TenantTx::begin(&state.pool, prefix).await?;
    let next = store::next_due(&tx).await?;
    tx.commit().await?;
    Ok(next)
}

/// When a failed delivery is tried again: the base wait doubled for each attempt before, at
/// most `retry_max`; `None` once it has been retried for `retry_for` (it is given up).
fn retry_at(config: &WebhookConfig, delivery: &store::Due) -> Option<chrono::DateTime<Utc>> {
    let doublings = u32::try_from(delivery.attempts.clamp(0, 30)).unwrap_or(30);
    let wait = config.retry_base.saturating_mul(1u32 << doublings).min(config.retry_max);
    let next = Utc::now() + chrono::Duration::from_std(wait).ok()?;
    let give_up = delivery.retry_since + chrono::Duration::from_std(config.retry_for).ok()?;
    (next <= give_up).then_some(next)
}

/// One attempt: the signed POST. The endpoint's 2xx status, or what went wrong.
async fn attempt(
    http: &reqwest::Client,
    config: &WebhookConfig,
    delivery: &store::Due,
) -> Result<i32, (Option<i32>, String)> {
    let url = check_url(&delivery.url, config.allow_private).map_err(|msg| (None, msg.code().to_string()))?;
    let body = delivery.payload.to_string();
    let timestamp = Utc::now().timestamp();
    let signature = sign::signature(&delivery.secret, &delivery.message_id, timestamp, &body)
        .ok_or_else(|| (None, "the endpoint's secret is not valid".to_string()))?;
    let response = http
        .post(url)
        .header("webhook-id", &delivery.message_id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signature)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(body)
        .send()
        .await
        .map_err(|err| (None, short(&error_chain(&err))))?;
    let status = i32::from(response.status().as_u16());
    if response.status().is_success() {
        Ok(status)
    } else {
        Err((Some(status), format!("HTTP {status}")))
    }
}

/// An error with its causes, as the delivery log shows it.
fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

fn short(text: &str) -> String {
    text.chars().take(MAX_ERROR).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn due(attempts: i32, retry_since: chrono::DateTime<Utc>) -> store::Due {
        store::Due {
            id: 1,
            endpoint_id: 1,
            url: String::new(),
            secret: String::new(),
            message_id: String::new(),
            payload: serde_json::Value::Null,
            attempts,
            retry_since,
        }
    }

    #[test]
    fn retries_wait_twice_as_long_each_time_and_stop_after_a_day() {
        let config = WebhookConfig::default();
        let now = Utc::now();
        let waits: Vec<i64> = (0..4).map(|n| (retry_at(&config, &due(n, now)).unwrap() - now).num_seconds()).collect();
        assert!(waits.iter().zip([30, 60, 120, 240]).all(|(got, want)| (*got - want).abs() <= 1), "{waits:?}");
        let capped = retry_at(&config, &due(20, now)).unwrap() - now;
        assert!((capped.num_seconds() - 4 * 3600).abs() <= 1);
        assert_eq!(retry_at(&config, &due(3, now - chrono::Duration::hours(24))), None);
    }
}
