//! Data access of the product catalog: every SQL statement of the entity. Functions run inside
//! the caller's tenant transaction and never commit.

use tokio_postgres::Row;
use tracing::instrument;

use super::{Product, ProductUsage, PRODUCT_SELECT};
use crate::db::Conn;
use crate::error::{AppError, AppResult, Msg};
use crate::tenant::removal::Usage;

/// Transactions of a product, active or not.
pub const USAGE: &str =
    "select (select count(*) from transactions where product_id = p.id) from products p where p.id = $1";

impl Usage for ProductUsage {
    fn from_row(row: &Row) -> Self {
        ProductUsage { transactions: row.get(0) }
    }

    fn in_use(&self) -> bool {
        self.transactions > 0
    }
}

/// A product by id, active or not.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn fetch(conn: &Conn, id: i64) -> AppResult<Product> {
    let stmt = conn.prepare_cached(&format!("{PRODUCT_SELECT} where p.id = $1")).await?;
    let row = conn.query_opt(&stmt, &[&id]).await?.ok_or_else(|| AppError::not_found(Msg::ProductNotFound))?;
    Ok(Product::from_row(&row))
}

/// Locks an inactive product for the rest of the transaction; answers its points value, or
/// nothing when there is no inactive product with this id.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn lock_inactive(conn: &Conn, id: i64) -> AppResult<Option<i64>> {
    let stmt =
        conn.prepare_cached("select points_value from products where id = $1 and not is_active for update").await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| row.get("points_value")))
}
