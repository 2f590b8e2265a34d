//! The supervisor or admin who approves a cajero's void (a read of the users table).

use tracing::instrument;

use crate::db::Conn;
use crate::error::AppResult;

/// The password hash of an active supervisor or admin of this company.
#[instrument(level = "debug", skip(conn))]
pub async fn approver_password_hash(conn: &Conn, username: &str) -> AppResult<Option<String>> {
    let stmt = conn
        .prepare_cached(
            "select password_hash from users \
             where username = $1 and is_active and role in ('admin', 'supervisor')",
        )
        .await?;
    Ok(conn.query_opt(&stmt, &[&username]).await?.map(|row| row.get(0)))
}
