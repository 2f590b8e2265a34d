//! Data access of the company users: every SQL statement of the entity. Functions run inside
//! the caller's tenant transaction and never commit.

use tokio_postgres::Row;
use tracing::instrument;

use super::{User, UserUsage, USER_SELECT};
use crate::db::Conn;
use crate::error::{AppError, AppResult, Msg};
use crate::tenant::removal::Usage;

/// Transactions made by an active user.
pub const USAGE: &str = "select (select count(*) from transactions where cashier_id = u.id) \
    from users u where u.id = $1 and u.is_active";

impl Usage for UserUsage {
    fn from_row(row: &Row) -> Self {
        UserUsage { transactions: row.get(0) }
    }

    fn in_use(&self) -> bool {
        self.transactions > 0
    }
}

/// An active user by id.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn fetch(conn: &Conn, id: i64) -> AppResult<User> {
    let stmt = conn.prepare_cached(&format!("{USER_SELECT} where u.id = $1 and u.is_active")).await?;
    let row = conn.query_opt(&stmt, &[&id]).await?.ok_or_else(|| AppError::not_found(Msg::UserNotFound))?;
    Ok(User::from_row(&row))
}
