//! Data access of the product catalog: every SQL statement of the entity. Functions run inside
//! the caller's tenant transaction and never commit.

use tokio_postgres::Row;
use tracing::instrument;

use super::model::{Product, ProductUsage, ValidProduct};
use crate::db::Conn;
use crate::error::{AppResult, Msg};
use crate::tenant::removal::one_count_usage;
use crate::tenant::store::{by_id, records};

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

/// The product holding a code, for [`crate::tenant::taken`].
pub const CODE_HOLDER: &str = "select id, is_active from products where lower(code) = lower($1)";

/// Transactions of a product, active or not.
pub const USAGE: &str =
    "select (select count(*) from transactions where product_id = p.id) from products p where p.id = $1";

one_count_usage!(ProductUsage, transactions);

/// The active products, or every product with `all`, sorted by name.
#[instrument(level = "debug", skip_all, fields(all = all))]
pub async fn list(conn: &Conn, all: bool) -> AppResult<Vec<Product>> {
    let select = if all {
        format!("{PRODUCT_SELECT} order by lower(p.name), p.id")
    } else {
        format!("{PRODUCT_SELECT} where p.is_active order by lower(p.name), p.id")
    };
    records(conn, &select, &[], Product::from_row).await
}

/// Whether a category is active, holding it (`for share`) so that it cannot be deleted while
/// the product that names it is saved.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn share_category(conn: &Conn, id: i64) -> AppResult<bool> {
    let stmt = conn.prepare_cached("select 1 from categories where id = $1 and is_active for share").await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.is_some())
}

/// Adds a product and answers its id; nothing when its code is taken.
#[instrument(level = "debug", skip_all)]
pub async fn insert(conn: &Conn, p: &ValidProduct) -> AppResult<Option<i64>> {
    let stmt = conn
        .prepare_cached(
            "insert into products (code, name, description, price, points_value, image_url, is_active, category_id) \
             values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict do nothing returning id",
        )
        .await?;
    let row = conn
        .query_opt(
            &stmt,
            &[&p.code, &p.name, &p.description, &p.price, &p.points_value, &p.image_url, &p.is_active, &p.category_id],
        )
        .await?;
    Ok(row.map(|row| row.get(0)))
}

/// Changes a product, active or not; false when there is none with this id.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn update(conn: &Conn, id: i64, p: &ValidProduct) -> AppResult<bool> {
    let stmt = conn
        .prepare_cached(
            "update products set code = $2, name = $3, description = $4, price = $5, points_value = $6, \
             image_url = $7, is_active = $8, category_id = $9 where id = $1",
        )
        .await?;
    let changed = conn
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
    Ok(changed > 0)
}

/// A product by id, active or not.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn fetch(conn: &Conn, id: i64) -> AppResult<Product> {
    by_id(conn, &format!("{PRODUCT_SELECT} where p.id = $1"), id, Msg::ProductNotFound, Product::from_row).await
}

/// Locks an inactive product for the rest of the transaction; answers its points value, or
/// nothing when there is no inactive product with this id.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn lock_inactive(conn: &Conn, id: i64) -> AppResult<Option<i64>> {
    let stmt =
        conn.prepare_cached("select points_value from products where id = $1 and not is_active for update").await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| row.get("points_value")))
}
