//! Login's data access: the accounts' stored credentials.

use tracing::instrument;

use super::model::{SuperAdminCredentials, UserCredentials};
use crate::db::{Pools, TenantTx};
use crate::domain::Prefix;
use crate::error::AppResult;

/// A super admin's credentials by username; the connection goes back before any password work.
#[instrument(level = "debug", skip_all)]
pub async fn super_admin_by_name(pools: &Pools, username: &str) -> AppResult<Option<SuperAdminCredentials>> {
    let conn = pools.get().await?;
    let row = conn
        .query_opt("select id, username, password_hash from platform.super_admins where username = $1", &[&username])
        .await?;
    Ok(row.map(|row| SuperAdminCredentials {
        id: row.get("id"),
        username: row.get("username"),
        password_hash: row.get("password_hash"),
    }))
}

/// A company user's credentials by username, with the name of their point of sale, in a
/// transaction of its own that is over before any password work.
#[instrument(level = "debug", skip_all, fields(company = %prefix))]
pub async fn company_user_by_name(
    pools: &Pools,
    prefix: &Prefix,
    username: &str,
) -> AppResult<Option<UserCredentials>> {
    let tx = TenantTx::begin(pools, prefix).await?;
    let row = tx
        .query_opt(
            "select u.id, u.username, u.password_hash, u.role, u.pos_id, u.is_active, u.session_version, p.name as pos_name \
             from users u left join points_of_sale p on p.id = u.pos_id where u.username = $1",
            &[&username],
        )
        .await?;
    tx.commit().await?;
    Ok(row.map(|row| UserCredentials {
        id: row.get("id"),
        username: row.get("username"),
        password_hash: row.get("password_hash"),
        role: row.get("role"),
        pos_id: row.get("pos_id"),
        pos_name: row.get("pos_name"),
        is_active: row.get("is_active"),
        session_version: row.get("session_version"),
    }))
}
