//! The product catalog: what customers can redeem their points for.

use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::Role;
use crate::error::{AppError, AppResult, Field, Lang, Msg};
use crate::extract::{Json, Path};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::removal::{removal_handlers, DeleteResponse, Removal};
use crate::tenant::{audit, taken};

pub mod model;
mod store;

use model::{Product, ProductInput, ProductUsage};

const MANAGE: &[&str] = &["/settings/products"];

/// A product with transactions is made inactive instead of deleted. An inactive product can be
/// deleted too: the products screen lists every product, active or not, and edits its state
/// (docs/decisions.md).
const REMOVAL: Removal = Removal {
    table: "products",
    entity: "product",
    label: Some("name"),
    usage: store::USAGE,
    inactive_too: true,
    not_found: Msg::ProductNotFound,
    not_inactive: Msg::ProductNotInactive,
    deleted: Msg::ProductDeleted,
    deactivated: Msg::ProductDeactivated,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_active, create))
        .routes(routes!(list_all))
        .routes(routes!(update, remove))
        .routes(routes!(usage))
        .routes(routes!(reactivate))
}

/// Active products, sorted by name (every role; what a cashier can offer).
#[utoipa::path(get, path = "/products", tag = "products", security(("bearer" = [])),
    responses((status = 200, body = Vec<Product>), crate::error::ApiErrors))]
async fn list_active(t: Tenant) -> AppResult<Json<Vec<Product>>> {
    let list = store::list(&t, false).await?;
    t.commit().await?;
    Ok(Json(list))
}

/// Every product, active or not, sorted by name (admin and supervisor).
#[utoipa::path(get, path = "/products/all", tag = "products", security(("bearer" = [])),
    responses((status = 200, body = Vec<Product>), crate::error::ApiErrors))]
async fn list_all(t: Tenant) -> AppResult<Json<Vec<Product>>> {
    t.require_role(&[Role::Admin, Role::Supervisor])?;
    let list = store::list(&t, true).await?;
    t.commit().await?;
    Ok(Json(list))
}

async fn check_category(t: &Tenant, id: Option<i64>) -> AppResult<()> {
    match id {
        Some(id) if !store::share_category(t, id).await? => Err(AppError::bad_request(Msg::CategoryNotFound)),
        _ => Ok(()),
    }
}

/// Adds a product (needs the products screen).
#[utoipa::path(post, path = "/products", tag = "products", security(("bearer" = [])), request_body = ProductInput,
    responses((status = 201, body = Product), crate::error::ApiErrors))]
async fn create(t: Tenant, Json(input): Json<ProductInput>) -> AppResult<(StatusCode, Json<Product>)> {
    t.require_permission(MANAGE).await?;
    let p = input.validate()?;
    check_category(&t, p.category_id).await?;
    let Some(id) = store::insert(&t, &p).await? else {
        return Err(taken(&t, store::CODE_HOLDER, &p.code, Msg::ProductExists, Msg::ProductInactiveExists).await);
    };
    audit(&t, "product.create", "product", Some(id), serde_json::json!({ "code": p.code })).await?;
    let product = store::fetch(&t, id).await?;
    t.commit().await?;
    Ok((StatusCode::CREATED, Json(product)))
}

/// Changes a product (needs the products screen).
#[utoipa::path(put, path = "/products/{id}", tag = "products", security(("bearer" = [])),
    params(("id" = i64, Path, description = "product id")), request_body = ProductInput,
    responses((status = 200, body = Product), crate::error::ApiErrors))]
async fn update(t: Tenant, Path(id): Path<i64>, Json(input): Json<ProductInput>) -> AppResult<Json<Product>> {
    t.require_permission(MANAGE).await?;
    let p = input.validate()?;
    check_category(&t, p.category_id).await?;
    if !store::update(&t, id, &p).await? {
        return Err(AppError::not_found(Msg::ProductNotFound));
    }
    audit(&t, "product.update", "product", Some(id), serde_json::json!({ "code": p.code })).await?;
    let product = store::fetch(&t, id).await?;
    t.commit().await?;
    Ok(Json(product))
}

/// The till offers every active product for redemption: an inactive product comes back only
/// when it is worth something.
async fn worth_points(t: &Tenant, id: i64) -> AppResult<()> {
    let points = store::lock_inactive(t, id).await?.ok_or_else(|| AppError::not_found(Msg::ProductNotInactive))?;
    if points < 1 {
        return Err(AppError::bad_request(Msg::ProductPointsRequired.field(Field::PointsValue)));
    }
    Ok(())
}

removal_handlers! {
    tag: "products", id: "product id", access: MANAGE,
    /// Transactions of a product, for the delete confirmation (needs the products screen).
    usage: "/products/{id}/usage" => ProductUsage,
    /// Deletes a product, or makes one with transactions inactive (needs the products screen).
    remove: "/products/{id}",
    /// Makes an inactive product active again (needs the products screen).
    reactivate: "/products/{id}/reactivate" => Product, check: worth_points,
    read: store::fetch, detail: |_: &Product| serde_json::json!({}),
}
