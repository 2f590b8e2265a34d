//! The product catalog: what customers can redeem their points for.

use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use tokio_postgres::Row;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::{self, Role, MAX_LONG_TEXT, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Msg};
use crate::extract::{Json, Path};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::removal::{self, DeleteResponse, Removal};
use crate::tenant::{audit, taken};

mod store;

const MANAGE: &[&str] = &["/settings/products"];

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Product {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub description: Option<String>,
    pub image_url: Option<String>,
    /// Whole COP.
    pub price: i64,
    pub points_value: i64,
    #[serde(rename = "is_active")]
    pub is_active: bool,
    pub category_id: Option<i64>,
    pub category_name: Option<String>,
}

const PRODUCT_SELECT: &str = "select p.id, p.code, p.name, p.description, p.image_url, p.price, p.points_value, \
                              p.is_active, p.category_id, c.name as category_name \
                              from products p left join categories c on c.id = p.category_id";

impl Product {
    fn from_row(row: &Row) -> Self {
        Product {
            id: row.get("id"),
            code: row.get("code"),
            name: row.get("name"),
            description: row.get("description"),
            image_url: row.get("image_url"),
            price: row.get("price"),
            points_value: row.get("points_value"),
            is_active: row.get("is_active"),
            category_id: row.get("category_id"),
            category_name: row.get("category_name"),
        }
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductInput {
    #[schema(value_type = String, required = true, min_length = 1)]
    code: Option<String>,
    #[schema(value_type = String, required = true, min_length = 1)]
    name: Option<String>,
    description: Option<String>,
    /// Whole COP, 0 or more (a number or a string of digits).
    #[schema(value_type = Option<i64>)]
    price: Option<serde_json::Value>,
    /// Whole points, 0 or more (a number or a string of digits); at least 1 for an active product.
    #[schema(value_type = Option<i64>)]
    points_value: Option<serde_json::Value>,
    image_url: Option<String>,
    #[serde(rename = "is_active")]
    is_active: Option<bool>,
    /// Optional; must be an existing category.
    #[schema(value_type = Option<i64>)]
    category_id: Option<serde_json::Value>,
}

struct ValidProduct {
    code: String,
    name: String,
    description: Option<String>,
    price: i64,
    points_value: i64,
    image_url: Option<String>,
    is_active: bool,
    category_id: Option<i64>,
}

impl ProductInput {
    fn validate(&self) -> AppResult<ValidProduct> {
        let blank = |v: &Option<String>| v.as_deref().map(str::trim).unwrap_or_default().is_empty();
        if blank(&self.code) || blank(&self.name) {
            return Err(AppError::bad_request(Msg::ProductRequiredFields));
        }
        let product = ValidProduct {
            code: domain::required_text(Field::Code, self.code.as_deref(), 50)?,
            name: domain::required_text(Field::Name, self.name.as_deref(), MAX_TEXT)?,
            description: domain::optional_text(Field::Description, self.description.as_deref(), MAX_LONG_TEXT)?,
            price: domain::whole_number(Field::Price, self.price.as_ref(), 0)?,
            points_value: domain::whole_number(Field::PointsValue, self.points_value.as_ref(), 0)?,
            image_url: domain::optional_url(Field::ImageUrl, self.image_url.as_deref())?,
            is_active: self.is_active.unwrap_or(true),
            category_id: domain::optional_id(Field::CategoryId, self.category_id.as_ref())?,
        };
        // The till offers every active product for redemption: it must be worth something.
        if product.is_active && product.points_value < 1 {
            return Err(AppError::bad_request(Msg::ProductPointsRequired.field(Field::PointsValue)));
        }
        Ok(product)
    }
}

/// Transactions that refer to a product, for the delete confirmation.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ProductUsage {
    pub transactions: i64,
}

/// A product with transactions is made inactive instead of deleted. An inactive product can be
/// deleted too: the products screen lists every product, active or not, and edits its state
/// (docs/decisions.md).
const REMOVAL: Removal = Removal {
    table: "products",
    entity: "product",
    usage: store::USAGE,
    inactive_too: true,
    not_found: Msg::ProductNotFound,
    not_inactive: Msg::ProductNotInactive,
    deleted: "product deleted",
    deactivated: "product has transactions: it was made inactive",
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
    let stmt = t.prepare_cached(&format!("{PRODUCT_SELECT} where p.is_active order by lower(p.name), p.id")).await?;
    let rows = t.query(&stmt, &[]).await?;
    t.commit().await?;
    Ok(Json(rows.iter().map(Product::from_row).collect()))
}

/// Every product, active or not, sorted by name (admin and supervisor).
#[utoipa::path(get, path = "/products/all", tag = "products", security(("bearer" = [])),
    responses((status = 200, body = Vec<Product>), crate::error::ApiErrors))]
async fn list_all(t: Tenant) -> AppResult<Json<Vec<Product>>> {
    t.require_role(&[Role::Admin, Role::Supervisor])?;
    let stmt = t.prepare_cached(&format!("{PRODUCT_SELECT} order by lower(p.name), p.id")).await?;
    let rows = t.query(&stmt, &[]).await?;
    t.commit().await?;
    Ok(Json(rows.iter().map(Product::from_row).collect()))
}

async fn check_category(t: &Tenant, id: Option<i64>) -> AppResult<()> {
    if let Some(id) = id {
        let stmt = t.prepare_cached("select 1 from categories where id = $1 and is_active for share").await?;
        if t.query_opt(&stmt, &[&id]).await?.is_none() {
            return Err(AppError::bad_request(Msg::CategoryNotFound));
        }
    }
    Ok(())
}

/// Adds a product (needs the products screen).
#[utoipa::path(post, path = "/products", tag = "products", security(("bearer" = [])), request_body = ProductInput,
    responses((status = 201, body = Product), crate::error::ApiErrors))]
async fn create(t: Tenant, Json(input): Json<ProductInput>) -> AppResult<(StatusCode, Json<Product>)> {
    t.require_permission(MANAGE).await?;
    let p = input.validate()?;
    check_category(&t, p.category_id).await?;
    let stmt = t
        .prepare_cached(
            "insert into products (code, name, description, price, points_value, image_url, is_active, category_id) \
             values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict do nothing returning id",
        )
        .await?;
    let Some(row) = t
        .query_opt(
            &stmt,
            &[&p.code, &p.name, &p.description, &p.price, &p.points_value, &p.image_url, &p.is_active, &p.category_id],
        )
        .await?
    else {
        let lookup = "select id, is_active from products where lower(code) = lower($1)";
        return Err(taken(&t, lookup, &p.code, Msg::ProductExists, Msg::ProductInactiveExists).await);
    };
    let id: i64 = row.get(0);
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
    let stmt = t
        .prepare_cached(
            "update products set code = $2, name = $3, description = $4, price = $5, points_value = $6, \
             image_url = $7, is_active = $8, category_id = $9 where id = $1",
        )
        .await?;
    let changed = t
        .execute(
            &stmt,
            &[
                &id,
                &p.code,
                &p.name,
                &p.description,
                &p.price,
                &p.points_value,
                &p.image_url,
                &p.is_active,
                &p.category_id,
            ],
        )
        .await?;
    if changed == 0 {
        return Err(AppError::not_found(Msg::ProductNotFound));
    }
    audit(&t, "product.update", "product", Some(id), serde_json::json!({ "code": p.code })).await?;
    let product = store::fetch(&t, id).await?;
    t.commit().await?;
    Ok(Json(product))
}

/// Transactions of a product, for the delete confirmation (needs the products screen).
#[utoipa::path(get, path = "/products/{id}/usage", tag = "products", security(("bearer" = [])),
    params(("id" = i64, Path, description = "product id")),
    responses((status = 200, body = ProductUsage), crate::error::ApiErrors))]
async fn usage(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<ProductUsage>> {
    t.require_permission(MANAGE).await?;
    removal::usage(t, &REMOVAL, id).await
}

/// Deletes a product, or makes one with transactions inactive (needs the products screen).
#[utoipa::path(delete, path = "/products/{id}", tag = "products", security(("bearer" = [])),
    params(("id" = i64, Path, description = "product id")),
    responses((status = 200, body = DeleteResponse), crate::error::ApiErrors))]
async fn remove(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<DeleteResponse>> {
    t.require_permission(MANAGE).await?;
    removal::remove::<ProductUsage>(t, &REMOVAL, id).await
}

/// Makes an inactive product active again (needs the products screen).
#[utoipa::path(post, path = "/products/{id}/reactivate", tag = "products", security(("bearer" = [])),
    params(("id" = i64, Path, description = "product id")),
    responses((status = 200, body = Product), crate::error::ApiErrors))]
async fn reactivate(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<Product>> {
    t.require_permission(MANAGE).await?;
    let points = store::lock_inactive(&t, id).await?.ok_or_else(|| AppError::not_found(Msg::ProductNotInactive))?;
    // The till offers every active product for redemption: it must be worth something.
    if points < 1 {
        return Err(AppError::bad_request(Msg::ProductPointsRequired.field(Field::PointsValue)));
    }
    removal::reactivate(t, &REMOVAL, id, store::fetch, |_: &Product| serde_json::json!({})).await
}
