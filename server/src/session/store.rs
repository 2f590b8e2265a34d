//! The session's data access: what every request's token is checked against.

use deadpool_postgres::Pool;
use tracing::instrument;

use crate::db::TenantTx;
use crate::domain::Prefix;
use crate::error::AppResult;

/// Every company request's checks: the company is active under this prefix, and the user's row.
/// The company is active, under this prefix, and its schema is the transaction's (the one its
/// row names: `current_schema()` is null when the `search_path` names a schema that is gone).
pub const ACTIVE_COMPANY_CHECK: &str = "select 1 from platform.companies \
     where id = $1 and prefix = $2 and state = 'active' and schema_name = current_schema()";
/// The user's point of sale's name comes with it: a sale's receipt names it, and the ledger
/// row's statement then joins nothing (docs/performance.md, "A sale of fewer statements").
pub const USER_CHECK: &str = "select u.username, u.role, u.pos_id, p.name as pos_name, u.is_active, u.session_version \
     from users u left join points_of_sale p on p.id = u.pos_id where u.id = $1";

/// A company user's row as every request checks it.
pub struct UserCheck {
    pub username: String,
    pub role: String,
    pub pos_id: Option<i64>,
    pub pos_name: Option<String>,
    pub is_active: bool,
    pub session_version: i32,
}

/// Whether this super admin (id and username) still exists.
#[instrument(level = "debug", skip_all)]
pub async fn super_admin_exists(pool: &Pool, id: i64, username: &str) -> AppResult<bool> {
    let conn = pool.get().await?;
    let stmt = conn.prepare_cached("select id from platform.super_admins where id = $1 and username = $2").await?;
    Ok(conn.query_opt(&stmt, &[&id, &username]).await?.is_some())
}

/// Whether the company is active under this prefix, on the request's connection.
#[instrument(level = "debug", skip_all)]
pub async fn company_is_active(tx: &TenantTx, id: i64, prefix: &Prefix) -> Result<bool, tokio_postgres::Error> {
    let stmt = tx.prepare_cached(ACTIVE_COMPANY_CHECK).await?;
    Ok(tx.query_opt(&stmt, &[&id, &prefix.as_str()]).await?.is_some())
}

/// The user's row in the request's company (an `UNDEFINED_TABLE` error once its schema is gone).
#[instrument(level = "debug", skip_all)]
pub async fn user_check(tx: &TenantTx, id: i64) -> Result<Option<UserCheck>, tokio_postgres::Error> {
    let stmt = tx.prepare_cached(USER_CHECK).await?;
    Ok(tx.query_opt(&stmt, &[&id]).await?.map(|row| UserCheck {
        username: row.get("username"),
        role: row.get("role"),
        pos_id: row.get("pos_id"),
        pos_name: row.get("pos_name"),
        is_active: row.get("is_active"),
        session_version: row.get("session_version"),
    }))
}

/// Whether a super admin of this username exists (the one behind an impersonation).
#[instrument(level = "debug", skip_all)]
pub async fn super_admin_named(tx: &TenantTx, username: &str) -> AppResult<bool> {
    let stmt = tx.prepare_cached("select 1 from platform.super_admins where username = $1").await?;
    Ok(tx.query_opt(&stmt, &[&username]).await?.is_some())
}

/// The screens a role's permission list grants, as stored (a JSON array of paths).
#[instrument(level = "debug", skip_all, fields(role = role))]
pub async fn granted_screens(tx: &TenantTx, role: &str) -> AppResult<serde_json::Value> {
    let stmt = tx.prepare_cached("select coalesce(role_permissions -> $1, '[]'::jsonb) from settings").await?;
    Ok(tx.query_one(&stmt, &[&role]).await?.get(0))
}
