//! Data access of the product categories: every SQL statement of the entity. Functions run
//! inside the caller's tenant transaction and never commit.

use tokio_postgres::Row;
use tracing::instrument;

use super::{Category, CategoryUsage};
use crate::db::Conn;
use crate::error::{AppError, AppResult, Msg};
use crate::tenant::removal::Usage;

/// Products in an active category.
pub const USAGE: &str =
    "select (select count(*) from products where category_id = c.id) from categories c where c.id = $1 and c.is_active";

impl Usage for CategoryUsage {
    fn from_row(row: &Row) -> Self {
        CategoryUsage { products: row.get(0) }
    }

    fn in_use(&self) -> bool {
        self.products > 0
    }
}

/// A category by id, active or not.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn find(conn: &Conn, id: i64) -> AppResult<Category> {
    let stmt = conn.prepare_cached("select id, name, icon from categories where id = $1").await?;
    let row = conn.query_opt(&stmt, &[&id]).await?.ok_or_else(|| AppError::not_found(Msg::CategoryNotFound))?;
    Ok(Category::from_row(&row))
}
