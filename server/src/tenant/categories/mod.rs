//! Product categories, each with an icon from a fixed set of Heroicons names.

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

use model::{Category, CategoryInput, CategoryUsage};

const MANAGE: &[&str] = &["/settings/categories"];

/// A category that products use is deactivated instead of deleted.
const REMOVAL: Removal = Removal {
    table: "categories",
    entity: "category",
    label: Some("name"),
    usage: store::USAGE,
    inactive_too: false,
    not_found: Msg::CategoryNotFound,
    not_inactive: Msg::CategoryNotInactive,
    deleted: Msg::CategoryDeleted,
    deactivated: Msg::CategoryDeactivated,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(update, remove))
        .routes(routes!(usage))
        .routes(routes!(reactivate))
}

/// Active categories, sorted by name (every role); the inactive ones with `status=inactive`
/// (needs the categories screen).
#[utoipa::path(get, path = "/categories", tag = "categories", security(("bearer" = [])), params(StatusParams),
    responses((status = 200, body = Vec<Category>), crate::error::ApiErrors))]
async fn list(t: Tenant, Query(status): Query<StatusParams>) -> AppResult<Json<Vec<Category>>> {
    let active = status.active()?;
    if !active {
        t.require_permission(MANAGE).await?;
    }
    let list = store::list(&t, active).await?;
    t.commit().await?;
    Ok(Json(list))
}

/// Adds a category (needs the categories screen).
#[utoipa::path(post, path = "/categories", tag = "categories", security(("bearer" = [])), request_body = CategoryInput,
    responses((status = 201, body = Category), crate::error::ApiErrors))]
async fn create(t: Tenant, Json(input): Json<CategoryInput>) -> AppResult<(StatusCode, Json<Category>)> {
    t.require_permission(MANAGE).await?;
    let (name, icon) = input.validate()?;
    let Some(category) = store::insert(&t, &name, &icon).await? else {
        return Err(taken(&t, store::NAME_HOLDER, &name, Msg::CategoryExists, Msg::CategoryInactiveExists).await);
    };
    audit(&t, "category.create", "category", Some(category.id), serde_json::json!({ "name": category.name })).await?;
    t.commit().await?;
    Ok((StatusCode::CREATED, Json(category)))
}

/// Changes a category's name and icon (needs the categories screen).
#[utoipa::path(put, path = "/categories/{id}", tag = "categories", security(("bearer" = [])),
    params(("id" = i64, Path, description = "category id")), request_body = CategoryInput,
    responses((status = 200, body = Category), crate::error::ApiErrors))]
async fn update(t: Tenant, Path(id): Path<i64>, Json(input): Json<CategoryInput>) -> AppResult<Json<Category>> {
    t.require_permission(MANAGE).await?;
    let (name, icon) = input.validate()?;
    let category =
        store::update(&t, id, &name, &icon).await?.ok_or_else(|| AppError::not_found(Msg::CategoryNotFound))?;
    audit(&t, "category.update", "category", Some(id), serde_json::json!({ "name": name })).await?;
    t.commit().await?;
    Ok(Json(category))
}

removal_handlers! {
    tag: "categories", id: "category id", access: MANAGE,
    /// Products in a category, for the delete confirmation (needs the categories screen).
    usage: "/categories/{id}/usage" => CategoryUsage,
    /// Deletes a category, or deactivates one that products use (needs the categories screen).
    remove: "/categories/{id}",
    /// Makes an inactive category active again (needs the categories screen).
    reactivate: "/categories/{id}/reactivate" => Category,
    read: store::find, detail: |category: &Category| serde_json::json!({ "name": category.name }),
}
