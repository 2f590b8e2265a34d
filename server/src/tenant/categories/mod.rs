//! Product categories, each with an icon from a fixed set of Heroicons names.

use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use tokio_postgres::Row;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::{self, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Msg};
use crate::extract::{Json, Path, Query};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::removal::{self, DeleteResponse, Removal};
use crate::tenant::{audit, taken, StatusParams};

mod store;

/// The icons a category may have (Heroicons names).
pub const ICONS: [&str; 26] = [
    "Tag",
    "Star",
    "Gift",
    "ShoppingBag",
    "Cake",
    "Beaker",
    "CreditCard",
    "BuildingStorefront",
    "DevicePhoneMobile",
    "ComputerDesktop",
    "ShoppingCart",
    "Heart",
    "HomeModern",
    "MusicalNote",
    "BookOpen",
    "PuzzlePiece",
    "GlobeAlt",
    "Truck",
    "WrenchScrewdriver",
    "BuildingOffice",
    "Key",
    "Cog8Tooth",
    "Map",
    "Ticket",
    "AcademicCap",
    "Sparkles",
];

/// The icon shown for a stored name that is not (or no longer) in the set.
pub const FALLBACK_ICON: &str = "Star";

const MANAGE: &[&str] = &["/settings/categories"];

#[derive(Serialize, utoipa::ToSchema)]
pub struct Category {
    pub id: i64,
    pub name: String,
    pub icon: String,
}

impl Category {
    fn from_row(row: &Row) -> Self {
        let icon: String = row.get("icon");
        Category {
            id: row.get("id"),
            name: row.get("name"),
            icon: if ICONS.contains(&icon.as_str()) { icon } else { FALLBACK_ICON.to_string() },
        }
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CategoryInput {
    #[schema(value_type = String, required = true, min_length = 1)]
    name: Option<String>,
    /// One of the icon names: Tag, Star, Gift, ShoppingBag, ...
    #[schema(value_type = String, required = true, min_length = 1)]
    icon: Option<String>,
}

impl CategoryInput {
    fn validate(&self) -> AppResult<(String, String)> {
        let icon = self.icon.as_deref().map(str::trim).unwrap_or_default();
        if self.name.as_deref().map(str::trim).unwrap_or_default().is_empty() || icon.is_empty() {
            return Err(AppError::bad_request(Msg::CategoryRequiredFields));
        }
        let name = domain::required_text(Field::Name, self.name.as_deref(), MAX_TEXT)?;
        if !ICONS.contains(&icon) {
            return Err(AppError::bad_request(Msg::CategoryIconUnknown.with("icons", ICONS.join(", "))));
        }
        Ok((name, icon.to_string()))
    }
}

/// Products that use a category, for the delete confirmation.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CategoryUsage {
    pub products: i64,
}

/// A category that products use is deactivated instead of deleted.
const REMOVAL: Removal = Removal {
    table: "categories",
    entity: "category",
    usage: store::USAGE,
    inactive_too: false,
    not_found: Msg::CategoryNotFound,
    not_inactive: Msg::CategoryNotInactive,
    deleted: "category deleted",
    deactivated: "category is in use by products: it was deactivated",
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
    let stmt =
        t.prepare_cached("select id, name, icon from categories where is_active = $1 order by lower(name), id").await?;
    let rows = t.query(&stmt, &[&active]).await?;
    t.commit().await?;
    Ok(Json(rows.iter().map(Category::from_row).collect()))
}

/// Adds a category (needs the categories screen).
#[utoipa::path(post, path = "/categories", tag = "categories", security(("bearer" = [])), request_body = CategoryInput,
    responses((status = 201, body = Category), crate::error::ApiErrors))]
async fn create(t: Tenant, Json(input): Json<CategoryInput>) -> AppResult<(StatusCode, Json<Category>)> {
    t.require_permission(MANAGE).await?;
    let (name, icon) = input.validate()?;
    let stmt = t
        .prepare_cached(
            "insert into categories (name, icon) values ($1, $2) on conflict do nothing returning id, name, icon",
        )
        .await?;
    let Some(row) = t.query_opt(&stmt, &[&name, &icon]).await? else {
        let lookup = "select id, is_active from categories where lower(name) = lower($1)";
        return Err(taken(&t, lookup, &name, Msg::CategoryExists, Msg::CategoryInactiveExists).await);
    };
    let category = Category::from_row(&row);
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
    let stmt = t
        .prepare_cached(
            "update categories set name = $2, icon = $3 where id = $1 and is_active returning id, name, icon",
        )
        .await?;
    let row =
        t.query_opt(&stmt, &[&id, &name, &icon]).await?.ok_or_else(|| AppError::not_found(Msg::CategoryNotFound))?;
    audit(&t, "category.update", "category", Some(id), serde_json::json!({ "name": name })).await?;
    t.commit().await?;
    Ok(Json(Category::from_row(&row)))
}

/// Products in a category, for the delete confirmation (needs the categories screen).
#[utoipa::path(get, path = "/categories/{id}/usage", tag = "categories", security(("bearer" = [])),
    params(("id" = i64, Path, description = "category id")),
    responses((status = 200, body = CategoryUsage), crate::error::ApiErrors))]
async fn usage(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<CategoryUsage>> {
    t.require_permission(MANAGE).await?;
    removal::usage(t, &REMOVAL, id).await
}

/// Deletes a category, or deactivates one that products use (needs the categories screen).
#[utoipa::path(delete, path = "/categories/{id}", tag = "categories", security(("bearer" = [])),
    params(("id" = i64, Path, description = "category id")),
    responses((status = 200, body = DeleteResponse), crate::error::ApiErrors))]
async fn remove(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<DeleteResponse>> {
    t.require_permission(MANAGE).await?;
    removal::remove::<CategoryUsage>(t, &REMOVAL, id).await
}

/// Makes an inactive category active again (needs the categories screen).
#[utoipa::path(post, path = "/categories/{id}/reactivate", tag = "categories", security(("bearer" = [])),
    params(("id" = i64, Path, description = "category id")),
    responses((status = 200, body = Category), crate::error::ApiErrors))]
async fn reactivate(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<Category>> {
    t.require_permission(MANAGE).await?;
    let detail = |category: &Category| serde_json::json!({ "name": category.name });
    removal::reactivate(t, &REMOVAL, id, store::find, detail).await
}
