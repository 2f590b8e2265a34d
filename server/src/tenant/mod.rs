//! A company's own data, always reached through the `Tenant` extractor's transaction.

use serde::Deserialize;
use tokio_postgres::types::ToSql;
use utoipa_axum::router::OpenApiRouter;

use crate::error::{AppError, AppResult, Msg};
use crate::state::AppState;

pub mod api_keys;
pub mod categories;
pub mod customers;
pub mod data_requests;
pub mod import;
pub mod pos;
pub mod privacy;
pub mod products;
pub mod removal;
pub mod settings;
mod store;
pub mod users;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(api_keys::router())
        .merge(categories::router())
        .merge(customers::router())
        .merge(data_requests::router())
        .merge(import::router())
        .merge(pos::router())
        .merge(privacy::router())
        .merge(products::router())
        .merge(settings::router())
        .merge(users::router())
}

/// Records a change in the company's audit trail, by the caller.
pub async fn audit(
    t: &crate::session::Tenant,
    action: &str,
    entity: &str,
    entity_id: Option<i64>,
    detail: serde_json::Value,
) -> Result<(), tokio_postgres::Error> {
    store::insert_audit(t, t.actor(), action, entity, entity_id, &detail).await
}

/// Which records a list shows: the active ones (the default) or the inactive ones, which can be
/// reactivated.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StatusParams {
    /// `active` (default) or `inactive`.
    status: Option<String>,
}

impl StatusParams {
    /// Whether the list shows active records.
    pub fn active(&self) -> AppResult<bool> {
        active_status(self.status.as_deref())
    }
}

/// Whether a list's `status` parameter asks for the active records.
pub fn active_status(status: Option<&str>) -> AppResult<bool> {
    match status.map(str::trim) {
        None | Some("") | Some("active") => Ok(true),
        Some("inactive") => Ok(false),
        Some(_) => Err(AppError::bad_request(Msg::StatusInvalid)),
    }
}

/// The answer to an insert that did nothing because its unique key is taken: when an inactive
/// record holds the key, a 409 `inactive` naming its `id` (the client offers to reactivate it),
/// else the plain duplicate `exists`. `lookup` is the entity store's statement selecting
/// `id, is_active` by the key.
pub async fn taken(
    t: &crate::session::Tenant,
    lookup: &str,
    key: &(dyn ToSql + Sync),
    exists: Msg,
    inactive: Msg,
) -> AppError {
    match store::key_holder(t, lookup, key).await {
        Ok(Some((id, false))) => AppError::conflict(inactive.with("id", id)),
        Ok(_) => AppError::conflict(exists),
        Err(e) => e.into(),
    }
}
