//! Idempotency keys: claiming one, the answer kept under it, and removing old ones.

use chrono::{DateTime, Utc};
use tracing::instrument;

use crate::db::Conn;
use crate::error::AppResult;

/// The statements every sale runs (`points::warm`).
pub const CLAIM_KEY: &str = "insert into idempotency_keys (key, user_id, operation, request_hash, status, response) \
    values ($1, $2, $3, encode(sha256(convert_to($4, 'UTF8')), 'hex'), 0, 'null'::jsonb) \
    on conflict (key) do nothing";
pub const SAVE_ANSWER: &str = "update idempotency_keys set status = $2, response = $3 where key = $1";

/// Claims an idempotency key for this request. `true`: the key is new and now held by this
/// transaction. `false`: it was used before (a concurrent holder has committed by then, since
/// the insert waits on the key's unique index until the other transaction ends).
#[instrument(level = "debug", skip(conn, request))]
pub async fn claim_idempotency_key(
    conn: &Conn,
    key: &str,
    user_id: i64,
    operation: &str,
    request: &str,
) -> AppResult<bool> {
    let stmt = conn.prepare_cached(CLAIM_KEY).await?;
    Ok(conn.execute(&stmt, &[&key, &user_id, &operation, &request]).await? == 1)
}

/// The first answer given under an idempotency key.
#[derive(Clone, Debug)]
pub struct StoredAnswer {
    /// Same user, same operation and same request as the one being retried.
    pub same_request: bool,
    pub status: i16,
    pub response: serde_json::Value,
}

#[instrument(level = "debug", skip(conn, request))]
pub async fn stored_answer(
    conn: &Conn,
    key: &str,
    user_id: i64,
    operation: &str,
    request: &str,
) -> AppResult<Option<StoredAnswer>> {
    let stmt = conn
        .prepare_cached(
            "select (user_id = $2 and operation = $3 \
                     and request_hash = encode(sha256(convert_to($4, 'UTF8')), 'hex')) as same_request, \
                    status, response \
             from idempotency_keys where key = $1",
        )
        .await?;
    Ok(conn.query_opt(&stmt, &[&key, &user_id, &operation, &request]).await?.map(|row| StoredAnswer {
        same_request: row.get("same_request"),
        status: row.get("status"),
        response: row.get("response"),
    }))
}

#[instrument(level = "debug", skip(conn, response))]
pub async fn save_answer(conn: &Conn, key: &str, status: i16, response: &serde_json::Value) -> AppResult<()> {
    let stmt = conn.prepare_cached(SAVE_ANSWER).await?;
    conn.execute(&stmt, &[&key, &status, response]).await?;
    Ok(())
}

#[instrument(level = "debug", skip(conn))]
pub async fn delete_idempotency_keys_before(conn: &Conn, before: DateTime<Utc>) -> AppResult<u64> {
    let stmt = conn.prepare_cached("delete from idempotency_keys where created_at < $1").await?;
    Ok(conn.execute(&stmt, &[&before]).await?)
}
