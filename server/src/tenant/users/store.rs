//! Data access of the company users: every SQL statement of the entity. Functions run inside
//! the caller's tenant transaction and never commit, but for [`insert_admin`].

use tokio_postgres::Row;
use tracing::instrument;

use super::model::{User, UserUsage};
use crate::db::Conn;
use crate::error::{AppResult, Msg};
use crate::tenant::removal::one_count_usage;
use crate::tenant::store::{by_id, records};

const USER_SELECT: &str = "select u.id, u.username, u.role, u.pos_id, p.name as pos_name \
                           from users u left join points_of_sale p on p.id = u.pos_id";

impl User {
    fn from_row(row: &Row) -> Self {
        User {
            id: row.get("id"),
            username: row.get("username"),
            role: row.get("role"),
            pos_id: row.get("pos_id"),
            pos_name: row.get("pos_name"),
        }
    }
}

/// Creates the company's `admin` account while its schema is provisioned.
#[instrument(level = "debug", skip_all)]
pub async fn insert_admin(
    client: &impl tokio_postgres::GenericClient,
    password_hash: &str,
) -> Result<(), tokio_postgres::Error> {
    client
        .execute("insert into users (username, password_hash, role) values ('admin', $1, 'admin')", &[&password_hash])
        .await?;
    Ok(())
}

/// The user holding a username, for [`crate::tenant::taken`].
pub const USERNAME_HOLDER: &str = "select id, is_active from users where username = $1";

/// Transactions made by an active user.
pub const USAGE: &str = "select (select count(*) from transactions where cashier_id = u.id) \
    from users u where u.id = $1 and u.is_active";

one_count_usage!(UserUsage, transactions);

/// The active users, or the inactive ones, sorted by username.
#[instrument(level = "debug", skip_all, fields(active = active))]
pub async fn list(conn: &Conn, active: bool) -> AppResult<Vec<User>> {
    let select = format!("{USER_SELECT} where u.is_active = $1 order by u.username");
    records(conn, &select, &[&active], User::from_row).await
}

/// An active user by id.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn fetch(conn: &Conn, id: i64) -> AppResult<User> {
    by_id(conn, &format!("{USER_SELECT} where u.id = $1 and u.is_active"), id, Msg::UserNotFound, User::from_row).await
}

/// Whether a point of sale is active, holding it (`for share`) so that it cannot be deleted
/// while the user assigned to it is saved.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn share_pos(conn: &Conn, id: i64) -> AppResult<bool> {
    let stmt = conn.prepare_cached("select 1 from points_of_sale where id = $1 and is_active for share").await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.is_some())
}

/// The active admins other than `id`, counted once the users table is locked against other
/// admin changes, so that two of them cannot each remove "another" admin.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn other_admins(conn: &Conn, id: i64) -> AppResult<i64> {
    let stmt =
        conn.prepare_cached("select count(*) from users where role = 'admin' and is_active and id <> $1").await?;
    conn.execute("lock table users in share row exclusive mode", &[]).await?;
    Ok(conn.query_one(&stmt, &[&id]).await?.get(0))
}

/// Adds a user and answers their id; nothing when the username is taken.
#[instrument(level = "debug", skip_all)]
pub async fn insert(
    conn: &Conn,
    username: &str,
    password_hash: &str,
    role: &str,
    pos: Option<i64>,
) -> AppResult<Option<i64>> {
    let stmt = conn
        .prepare_cached(
            "insert into users (username, password_hash, role, pos_id) values ($1, $2, $3, $4) \
             on conflict do nothing returning id",
        )
        .await?;
    Ok(conn.query_opt(&stmt, &[&username, &password_hash, &role, &pos]).await?.map(|row| row.get(0)))
}

/// Changes an active user's role and point of sale.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn update(conn: &Conn, id: i64, role: &str, pos: Option<i64>) -> AppResult<()> {
    let stmt = conn.prepare_cached("update users set role = $2, pos_id = $3 where id = $1 and is_active").await?;
    conn.execute(&stmt, &[&id, &role, &pos]).await?;
    Ok(())
}

/// Locks an active user for the rest of the transaction and answers their role; nothing when
/// there is none with this id.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn lock_role(conn: &Conn, id: i64) -> AppResult<Option<String>> {
    let stmt = conn.prepare_cached("select role from users where id = $1 and is_active for update").await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| row.get("role")))
}

/// An active user's password hash.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn password_hash(conn: &Conn, id: i64) -> AppResult<Option<String>> {
    let stmt = conn.prepare_cached("select password_hash from users where id = $1 and is_active").await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| row.get(0)))
}

/// Sets an active user's password and ends their sessions; answers their username and new
/// session version, or nothing when there is none with this id.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn set_password(conn: &Conn, id: i64, password_hash: &str) -> AppResult<Option<(String, i32)>> {
    let stmt = conn
        .prepare_cached(
            "update users set password_hash = $2, session_version = session_version + 1 \
             where id = $1 and is_active returning username, session_version",
        )
        .await?;
    Ok(conn.query_opt(&stmt, &[&id, &password_hash]).await?.map(|row| (row.get(0), row.get(1))))
}
