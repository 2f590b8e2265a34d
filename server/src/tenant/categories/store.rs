//! Data access of the product categories: every SQL statement of the entity. Functions run
//! inside the caller's tenant transaction and never commit.

use tokio_postgres::Row;
use tracing::instrument;

use super::model::{Category, CategoryUsage, FALLBACK_ICON, ICONS};
use crate::db::Conn;
use crate::error::{AppResult, Msg};
use crate::tenant::removal::one_count_usage;
use crate::tenant::store::{by_id, record, records};

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

/// The category holding a name, for [`crate::tenant::taken`].
pub const NAME_HOLDER: &str = "select id, is_active from categories where lower(name) = lower($1)";

/// Products in an active category.
pub const USAGE: &str =
    "select (select count(*) from products where category_id = c.id) from categories c where c.id = $1 and c.is_active";

one_count_usage!(CategoryUsage, products);

/// The active categories, or the inactive ones, sorted by name.
#[instrument(level = "debug", skip_all, fields(active = active))]
pub async fn list(conn: &Conn, active: bool) -> AppResult<Vec<Category>> {
    let select = "select id, name, icon from categories where is_active = $1 order by lower(name), id";
    records(conn, select, &[&active], Category::from_row).await
}

/// Adds a category; nothing when its name is taken.
#[instrument(level = "debug", skip_all)]
pub async fn insert(conn: &Conn, name: &str, icon: &str) -> AppResult<Option<Category>> {
    let insert = "insert into categories (name, icon) values ($1, $2) on conflict do nothing returning id, name, icon";
    record(conn, insert, &[&name, &icon], Category::from_row).await
}

/// Changes an active category's name and icon; nothing when there is none with this id.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn update(conn: &Conn, id: i64, name: &str, icon: &str) -> AppResult<Option<Category>> {
    let update = "update categories set name = $2, icon = $3 where id = $1 and is_active returning id, name, icon";
    record(conn, update, &[&id, &name, &icon], Category::from_row).await
}

/// A category by id, active or not.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn find(conn: &Conn, id: i64) -> AppResult<Category> {
    by_id(conn, "select id, name, icon from categories where id = $1", id, Msg::CategoryNotFound, Category::from_row)
        .await
}
