//! API keys of points of sale (admin): a point-of-sale system posts through the POS API with
//! one (`pos_api`, docs/integration.md). The key is shown once when made; only its SHA-256 is
//! kept. A revoked key is refused from the next request on.

use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db::Conn;
use crate::error::{AppError, AppResult, Msg};
use crate::extract::{Json, Path};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::audit;

pub mod model;
mod store;

use model::{ApiKey, ApiKeyInput, KeyHolder, NewApiKey, Secret};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_api_keys, create_api_key)).routes(routes!(revoke_api_key))
}

/// The company's keys that are not revoked, sorted by name, without the keys themselves (admin).
#[utoipa::path(get, path = "/api-keys", tag = "api keys", security(("bearer" = [])),
    responses((status = 200, body = Vec<ApiKey>), crate::error::ApiErrors))]
async fn list_api_keys(t: Tenant) -> AppResult<Json<Vec<ApiKey>>> {
    t.require_admin()?;
    let list = store::list(&t).await?;
    t.commit().await?;
    Ok(Json(list))
}

/// Makes a key for a point of sale's system (admin). The answer holds the key itself, shown this
/// once: only its hash is kept.
#[utoipa::path(post, path = "/api-keys", tag = "api keys", security(("bearer" = [])), request_body = ApiKeyInput,
    responses((status = 201, body = NewApiKey), crate::error::ApiErrors))]
async fn create_api_key(t: Tenant, Json(input): Json<ApiKeyInput>) -> AppResult<(StatusCode, Json<NewApiKey>)> {
    t.require_admin()?;
    let (name, pos_id) = input.parse()?;
    if !store::pos_is_active(&t, pos_id).await? {
        return Err(AppError::not_found(Msg::PosNotFound));
    }
    let secret = Secret::generate(&t.prefix);
    let id = store::insert(&t, &name, pos_id, &secret.hash, &secret.hint, &t.user.username)
        .await?
        .ok_or_else(|| AppError::conflict(Msg::ApiKeyExists))?;
    audit(&t, "apiKey.create", "apiKey", Some(id), serde_json::json!({ "name": name, "posId": pos_id })).await?;
    t.commit().await?;
    tracing::info!(key = id, pos = pos_id, "api key made");
    Ok((StatusCode::CREATED, Json(NewApiKey { id, key: secret.key })))
}

/// Revokes a key (admin): it is refused from the next request on. The ledger rows it posted keep
/// its name.
#[utoipa::path(delete, path = "/api-keys/{id}", tag = "api keys", security(("bearer" = [])),
    params(("id" = i64, Path, description = "API key id")),
    responses((status = 204, description = "revoked"), crate::error::ApiErrors))]
async fn revoke_api_key(t: Tenant, Path(id): Path<i64>) -> AppResult<StatusCode> {
    t.require_admin()?;
    let name =
        store::revoke(&t, id, &t.user.username).await?.ok_or_else(|| AppError::not_found(Msg::ApiKeyNotFound))?;
    audit(&t, "apiKey.revoke", "apiKey", Some(id), serde_json::json!({ "name": name })).await?;
    t.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The key with this hash, when it is not revoked, with this request counted in its minute.
pub async fn present(conn: &Conn, hash: &str) -> AppResult<Option<KeyHolder>> {
    store::present(conn, hash).await
}
