//! Data access of the points of sale: every SQL statement of the entity. Functions run inside
//! the caller's tenant transaction and never commit.

use tokio_postgres::Row;
use tracing::instrument;

use super::model::{PointOfSale, PosUsage};
use crate::db::Conn;
use crate::error::{AppResult, Msg};
use crate::tenant::removal::Usage;
use crate::tenant::store::{by_id, record, records};

impl PointOfSale {
    fn from_row(row: &Row) -> Self {
        PointOfSale { id: row.get("id"), name: row.get("name") }
    }
}

/// The point of sale holding a name, for [`crate::tenant::taken`].
pub const NAME_HOLDER: &str = "select id, is_active from points_of_sale where lower(name) = lower($1)";

/// Users and transactions that refer to an active point of sale.
pub const USAGE: &str = "select (select count(*) from users where pos_id = p.id) as users, \
    (select count(*) from transactions where pos_id = p.id) as transactions \
    from points_of_sale p where p.id = $1 and p.is_active";

impl Usage for PosUsage {
    fn from_row(row: &Row) -> Self {
        PosUsage { users: row.get("users"), transactions: row.get("transactions") }
    }

    fn in_use(&self) -> bool {
        self.users > 0 || self.transactions > 0
    }
}

/// The active points of sale, or the inactive ones, sorted by name.
#[instrument(level = "debug", skip_all, fields(active = active))]
pub async fn list(conn: &Conn, active: bool) -> AppResult<Vec<PointOfSale>> {
    let select = "select id, name from points_of_sale where is_active = $1 order by lower(name), id";
    records(conn, select, &[&active], PointOfSale::from_row).await
}

/// Adds a point of sale; nothing when its name is taken.
#[instrument(level = "debug", skip_all)]
pub async fn insert(conn: &Conn, name: &str) -> AppResult<Option<PointOfSale>> {
    let insert = "insert into points_of_sale (name) values ($1) on conflict do nothing returning id, name";
    record(conn, insert, &[&name], PointOfSale::from_row).await
}

/// Renames an active point of sale; nothing when there is none with this id.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn rename(conn: &Conn, id: i64, name: &str) -> AppResult<Option<PointOfSale>> {
    let update = "update points_of_sale set name = $2 where id = $1 and is_active returning id, name";
    record(conn, update, &[&id, &name], PointOfSale::from_row).await
}

/// A point of sale by id, active or not.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn find(conn: &Conn, id: i64) -> AppResult<PointOfSale> {
    by_id(conn, "select id, name from points_of_sale where id = $1", id, Msg::PosNotFound, PointOfSale::from_row).await
}
