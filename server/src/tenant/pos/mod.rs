//! Points of sale.

use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{AppError, AppResult, Lang, Msg};
use crate::extract::{Json, Path, Query};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::removal::{removal_handlers, DeleteResponse, Removal};
use crate::tenant::{audit, taken, StatusParams};

pub mod model;
mod store;

use model::{PointOfSale, PosInput, PosUsage};

/// A point of sale that users or transactions refer to is deactivated instead of deleted.
const REMOVAL: Removal = Removal {
    table: "points_of_sale",
    entity: "pos",
    label: Some("name"),
    usage: store::USAGE,
    inactive_too: false,
    not_found: Msg::PosNotFound,
    not_inactive: Msg::PosNotInactive,
    deleted: Msg::PosDeleted,
    deactivated: Msg::PosDeactivated,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(update, remove))
        .routes(routes!(usage))
        .routes(routes!(reactivate))
}

/// Active points of sale, sorted by name (every role); the inactive ones with `status=inactive`
/// (admin).
#[utoipa::path(get, path = "/pos", tag = "points of sale", security(("bearer" = [])), params(StatusParams),
    responses((status = 200, body = Vec<PointOfSale>), crate::error::ApiErrors))]
async fn list(t: Tenant, Query(status): Query<StatusParams>) -> AppResult<Json<Vec<PointOfSale>>> {
    let active = status.active()?;
    if !active {
        t.require_admin()?;
    }
    let list = store::list(&t, active).await?;
    t.commit().await?;
    Ok(Json(list))
}

/// Adds a point of sale (admin).
#[utoipa::path(post, path = "/pos", tag = "points of sale", security(("bearer" = [])), request_body = PosInput,
    responses((status = 201, body = PointOfSale), crate::error::ApiErrors))]
async fn create(t: Tenant, Json(input): Json<PosInput>) -> AppResult<(StatusCode, Json<PointOfSale>)> {
    t.require_admin()?;
    let name = input.name()?;
    let Some(pos) = store::insert(&t, &name).await? else {
        return Err(taken(&t, store::NAME_HOLDER, &name, Msg::PosExists, Msg::PosInactiveExists).await);
    };
    audit(&t, "pos.create", "pos", Some(pos.id), serde_json::json!({ "name": pos.name })).await?;
    t.commit().await?;
    Ok((StatusCode::CREATED, Json(pos)))
}

/// Renames a point of sale (admin).
#[utoipa::path(put, path = "/pos/{id}", tag = "points of sale", security(("bearer" = [])),
    params(("id" = i64, Path, description = "point of sale id")), request_body = PosInput,
    responses((status = 200, body = PointOfSale), crate::error::ApiErrors))]
async fn update(t: Tenant, Path(id): Path<i64>, Json(input): Json<PosInput>) -> AppResult<Json<PointOfSale>> {
    t.require_admin()?;
    let name = input.name()?;
    let pos = store::rename(&t, id, &name).await?.ok_or_else(|| AppError::not_found(Msg::PosNotFound))?;
    audit(&t, "pos.update", "pos", Some(pos.id), serde_json::json!({ "name": pos.name })).await?;
    t.commit().await?;
    Ok(Json(pos))
}

removal_handlers! {
    tag: "points of sale", id: "point of sale id", access: admin,
    /// Users and transactions that refer to a point of sale, for the delete confirmation (admin).
    usage: "/pos/{id}/usage" => PosUsage,
    /// Deletes a point of sale, or deactivates it when users or transactions refer to it (admin).
    remove: "/pos/{id}",
    /// Makes an inactive point of sale active again (admin).
    reactivate: "/pos/{id}/reactivate" => PointOfSale,
    read: store::find, detail: |pos: &PointOfSale| serde_json::json!({ "name": pos.name }),
}
