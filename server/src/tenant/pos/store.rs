//! Data access of the points of sale: every SQL statement of the entity. Functions run inside
//! the caller's tenant transaction and never commit.

use tokio_postgres::Row;
use tracing::instrument;

use super::{PointOfSale, PosUsage};
use crate::db::Conn;
use crate::error::{AppError, AppResult, Msg};
use crate::tenant::removal::Usage;

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

/// A point of sale by id, active or not.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn find(conn: &Conn, id: i64) -> AppResult<PointOfSale> {
    let stmt = conn.prepare_cached("select id, name from points_of_sale where id = $1").await?;
    let row = conn.query_opt(&stmt, &[&id]).await?.ok_or_else(|| AppError::not_found(Msg::PosNotFound))?;
    Ok(PointOfSale::from_row(&row))
}
