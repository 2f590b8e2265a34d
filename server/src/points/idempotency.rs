//! `Idempotency-Key` for accredit, redeem and void: a till that retries on a flaky network gets
//! the first answer back and posts nothing twice.
//!
//! The key is claimed inside the request's own database transaction, before any posting, with
//! `insert ... on conflict do nothing`. A concurrent request with the same key waits on the
//! key's unique index until the first one commits (then it replays the stored answer) or rolls
//! back (then it proceeds as the first). Only successful answers are stored: a request that
//! failed posted nothing, and its retry runs again.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures::future::try_join;
use serde::Serialize;

use super::store;
use crate::db::{self, Conn};
use crate::error::{AppError, AppResult, Msg};
use crate::state::AppState;

pub const HEADER: &str = "idempotency-key";
/// Set on an answer replayed from an earlier request with the same key.
pub const REPLAYED_HEADER: &str = "idempotent-replayed";
/// How long keys are kept (the daily job removes older ones).
pub const KEEP_DAYS: i64 = 7;
const MAX_KEY_LEN: usize = 200;

/// The request's `Idempotency-Key` header, when it sent one: 1 to 200 visible ASCII characters.
#[derive(Clone, Debug, Default, utoipa::IntoParams)]
#[into_params(names("Idempotency-Key"), parameter_in = Header)]
pub struct IdempotencyKey(
    /// retries with the same key get the first answer and post nothing
    pub Option<String>,
);

impl FromRequestParts<AppState> for IdempotencyKey {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> AppResult<Self> {
        let Some(value) = parts.headers.get(HEADER) else { return Ok(IdempotencyKey(None)) };
        let key = value.to_str().ok().map(str::trim).unwrap_or_default();
        let valid = !key.is_empty() && key.len() <= MAX_KEY_LEN && key.bytes().all(|b| b.is_ascii_graphic());
        if !valid {
            return Err(AppError::bad_request(Msg::IdempotencyKeyShape));
        }
        Ok(IdempotencyKey(Some(key.to_string())))
    }
}

/// One operation under an optional key: `begin` before posting, `finish` after.
pub struct Idempotent<'a> {
    key: Option<&'a str>,
    user_id: i64,
    operation: &'static str,
    request: String,
}

impl<'a> Idempotent<'a> {
    /// `request` identifies what is asked (operation target and normalized input), so the same
    /// key with a different request is refused.
    pub fn new(key: &'a IdempotencyKey, user_id: i64, operation: &'static str, request: serde_json::Value) -> Self {
        Idempotent { key: key.0.as_deref(), user_id, operation, request: request.to_string() }
    }

    /// Claims the key. `Some(answer)`: the key was used before for the same request, and this is
    /// its first answer (post nothing). `None`: go ahead.
    ///
    /// From the claim on, the transaction's statements keep their plans: the claim and every
    /// statement of a posting find rows by key, and a claim planned at each execution cost a sale
    /// a planning of its own, dearest over many small companies (docs/performance.md).
    pub async fn begin(&self, conn: &Conn) -> AppResult<Option<Response>> {
        let Some(key) = self.key else { return Ok(None) };
        let claim = store::claim_idempotency_key(conn, key, self.user_id, self.operation, &self.request);
        let ((), claimed) = db::pipeline(conn, &[store::CLAIM_KEY], try_join(conn.keep_plans(), claim)).await?;
        if claimed {
            return Ok(None);
        }
        let stored = store::stored_answer(conn, key, self.user_id, self.operation, &self.request)
            .await?
            .ok_or_else(|| AppError::conflict(Msg::IdempotencyInProgress))?;
        if !stored.same_request {
            return Err(AppError::conflict(Msg::IdempotencyKeyReused));
        }
        let status =
            u16::try_from(stored.status).ok().and_then(|s| StatusCode::from_u16(s).ok()).unwrap_or(StatusCode::OK);
        let replayed = [(HeaderName::from_static(REPLAYED_HEADER), HeaderValue::from_static("true"))];
        Ok(Some((status, replayed, axum::Json(stored.response)).into_response()))
    }

    /// Stores the answer under the key (when there is one) and answers it.
    pub async fn finish<T: Serialize>(&self, conn: &Conn, answer: &T) -> AppResult<Response> {
        let body = serde_json::to_value(answer).map_err(AppError::internal)?;
        if let Some(key) = self.key {
            store::save_answer(conn, key, StatusCode::OK.as_u16() as i16, &body).await?;
        }
        Ok((StatusCode::OK, axum::Json(body)).into_response())
    }
}
