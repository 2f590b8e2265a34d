//! Company users: admins, supervisors and cashiers (cajeros).

use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use tokio_postgres::Row;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use axum::extract::State;

use crate::db::TenantTx;
use crate::domain::{self, Role};
use crate::error::{AppError, AppResult, Field, Lang, Msg, Params};
use crate::extract::{Json, Path, Query};
use crate::session::{self, ClientAddress, Tenant};
use crate::state::AppState;
use crate::tenant::removal::{self, DeleteResponse, Removal};
use crate::tenant::{audit, taken, StatusParams};
use crate::throttle::{self, PasswordCheck};

mod store;

/// Creates the company's `admin` account while its schema is provisioned.
pub async fn insert_admin(client: &tokio_postgres::Client, password_hash: &str) -> Result<(), tokio_postgres::Error> {
    client
        .execute("insert into users (username, password_hash, role) values ('admin', $1, 'admin')", &[&password_hash])
        .await?;
    Ok(())
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: i64,
    pub username: String,
    pub role: String,
    pub pos_id: Option<i64>,
    pub pos_name: Option<String>,
}

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

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserInput {
    /// Create only.
    username: Option<String>,
    /// Create only.
    password: Option<String>,
    /// admin, supervisor or cajero.
    #[schema(value_type = String, required = true, min_length = 1)]
    role: Option<String>,
    /// Required unless the role is admin (an admin has none).
    #[schema(value_type = Option<i64>)]
    pos_id: Option<serde_json::Value>,
}

impl UserInput {
    /// The role and point of sale, with the rule that only non-admins have (and need) one.
    fn role_and_pos(&self) -> AppResult<(Role, Option<i64>)> {
        let role = Role::parse(self.role.as_deref().unwrap_or_default().trim())?;
        let pos = domain::optional_id(Field::PosId, self.pos_id.as_ref())?;
        match role {
            Role::Admin => Ok((role, None)),
            _ => pos.map(|p| (role, Some(p))).ok_or_else(|| AppError::bad_request(Msg::UserPosRequired)),
        }
    }
}

/// Transactions made by a user, for the delete confirmation.
#[derive(Serialize, utoipa::ToSchema)]
pub struct UserUsage {
    pub transactions: i64,
}

/// A user with transactions is deactivated instead of deleted, and can no longer log in.
const REMOVAL: Removal = Removal {
    table: "users",
    entity: "user",
    usage: store::USAGE,
    inactive_too: false,
    not_found: Msg::UserNotFound,
    not_inactive: Msg::UserNotInactive,
    deleted: "user deleted",
    deactivated: "user has transactions: it was deactivated and can no longer log in",
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(update, remove))
        .routes(routes!(usage))
        .routes(routes!(reactivate))
        .routes(routes!(reset_password))
        .routes(routes!(change_own_password))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct PasswordReset {
    /// The user's new password, 8 to 128 characters.
    #[schema(value_type = String, required = true, min_length = 8)]
    password: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordChange {
    #[schema(value_type = String, required = true, min_length = 1)]
    current_password: Option<String>,
    /// 8 to 128 characters.
    #[schema(value_type = String, required = true, min_length = 8)]
    new_password: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct PasswordResetDone {
    pub message: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct PasswordChanged {
    pub message: String,
    /// A new session token for the caller: the one used for this request has ended.
    pub token: String,
}

/// Active users, sorted by username (admin and supervisor); the inactive ones with
/// `status=inactive` (admin).
#[utoipa::path(get, path = "/users", tag = "users", security(("bearer" = [])), params(StatusParams),
    responses((status = 200, body = Vec<User>), crate::error::ApiErrors))]
async fn list(t: Tenant, Query(status): Query<StatusParams>) -> AppResult<Json<Vec<User>>> {
    let active = status.active()?;
    if active {
        t.require_role(&[Role::Admin, Role::Supervisor])?;
    } else {
        t.require_admin()?;
    }
    let stmt = t.prepare_cached(&format!("{USER_SELECT} where u.is_active = $1 order by u.username")).await?;
    let rows = t.query(&stmt, &[&active]).await?;
    t.commit().await?;
    Ok(Json(rows.iter().map(User::from_row).collect()))
}

async fn check_pos(t: &Tenant, pos: Option<i64>) -> AppResult<()> {
    if let Some(pos) = pos {
        // `for share`: the point of sale cannot be deleted while this user is being saved.
        let stmt = t.prepare_cached("select 1 from points_of_sale where id = $1 and is_active for share").await?;
        if t.query_opt(&stmt, &[&pos]).await?.is_none() {
            return Err(AppError::bad_request(Msg::PosNotFound));
        }
    }
    Ok(())
}

/// Refuses a change that would leave the company without an active admin.
async fn keep_an_admin(t: &Tenant, id: i64) -> AppResult<()> {
    let stmt = t.prepare_cached("select count(*) from users where role = 'admin' and is_active and id <> $1").await?;
    // Serialise admin changes so two of them cannot each remove "another" admin.
    t.execute("lock table users in share row exclusive mode", &[]).await?;
    let others: i64 = t.query_one(&stmt, &[&id]).await?.get(0);
    if others == 0 {
        return Err(AppError::conflict(Msg::UserLastAdmin));
    }
    Ok(())
}

/// Adds a user (admin).
#[utoipa::path(post, path = "/users", tag = "users", security(("bearer" = [])), request_body = UserInput,
    responses((status = 201, body = User), crate::error::ApiErrors))]
async fn create(t: Tenant, Json(input): Json<UserInput>) -> AppResult<(StatusCode, Json<User>)> {
    t.require_admin()?;
    let blank = |v: &Option<String>| v.as_deref().map(str::trim).unwrap_or_default().is_empty();
    if blank(&input.username) || input.password.as_deref().unwrap_or_default().is_empty() || blank(&input.role) {
        return Err(AppError::bad_request(Msg::UserRequiredFields));
    }
    let username = domain::username(input.username.as_deref())?;
    let password = domain::new_password(Field::Password, input.password.as_deref())?;
    let (role, pos) = input.role_and_pos()?;
    check_pos(&t, pos).await?;
    let hash = session::hash_password(password).await?;
    let stmt = t
        .prepare_cached(
            "insert into users (username, password_hash, role, pos_id) values ($1, $2, $3, $4) \
             on conflict do nothing returning id",
        )
        .await?;
    let Some(row) = t.query_opt(&stmt, &[&username, &hash, &role.as_str(), &pos]).await? else {
        let lookup = "select id, is_active from users where username = $1";
        return Err(taken(&t, lookup, &username, Msg::UserExists, Msg::UserInactiveExists).await);
    };
    let id: i64 = row.get(0);
    audit(&t, "user.create", "user", Some(id), serde_json::json!({ "username": username, "role": role })).await?;
    let user = store::fetch(&t, id).await?;
    t.commit().await?;
    Ok((StatusCode::CREATED, Json(user)))
}

/// Changes a user's role and point of sale (admin).
#[utoipa::path(put, path = "/users/{id}", tag = "users", security(("bearer" = [])),
    params(("id" = i64, Path, description = "user id")), request_body = UserInput,
    responses((status = 200, body = User), crate::error::ApiErrors))]
async fn update(t: Tenant, Path(id): Path<i64>, Json(input): Json<UserInput>) -> AppResult<Json<User>> {
    t.require_admin()?;
    if input.role.as_deref().map(str::trim).unwrap_or_default().is_empty() {
        return Err(AppError::bad_request(Msg::UserRoleRequired));
    }
    let (role, pos) = input.role_and_pos()?;
    let current = store::fetch(&t, id).await?;
    if current.role == "admin" && role != Role::Admin {
        keep_an_admin(&t, id).await?;
    }
    check_pos(&t, pos).await?;
    let stmt = t.prepare_cached("update users set role = $2, pos_id = $3 where id = $1 and is_active").await?;
    t.execute(&stmt, &[&id, &role.as_str(), &pos]).await?;
    audit(&t, "user.update", "user", Some(id), serde_json::json!({ "role": role, "posId": pos })).await?;
    let user = store::fetch(&t, id).await?;
    t.commit().await?;
    Ok(Json(user))
}

/// Transactions made by a user, for the delete confirmation (admin).
#[utoipa::path(get, path = "/users/{id}/usage", tag = "users", security(("bearer" = [])),
    params(("id" = i64, Path, description = "user id")),
    responses((status = 200, body = UserUsage), crate::error::ApiErrors))]
async fn usage(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<UserUsage>> {
    t.require_admin()?;
    removal::usage(t, &REMOVAL, id).await
}

/// Deletes a user, or deactivates one with transactions (admin; never oneself).
#[utoipa::path(delete, path = "/users/{id}", tag = "users", security(("bearer" = [])),
    params(("id" = i64, Path, description = "user id")),
    responses((status = 200, body = DeleteResponse), crate::error::ApiErrors))]
async fn remove(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<DeleteResponse>> {
    t.require_admin()?;
    if id == t.user.id {
        return Err(AppError::bad_request(Msg::UserDeleteSelf));
    }
    let stmt = t.prepare_cached("select role from users where id = $1 and is_active for update").await?;
    let row = t.query_opt(&stmt, &[&id]).await?.ok_or_else(|| AppError::not_found(Msg::UserNotFound))?;
    if row.get::<_, String>("role") == "admin" {
        keep_an_admin(&t, id).await?;
    }
    removal::remove::<UserUsage>(t, &REMOVAL, id).await
}

/// Makes an inactive user active again, with the role, point of sale and password they had
/// (admin).
#[utoipa::path(post, path = "/users/{id}/reactivate", tag = "users", security(("bearer" = [])),
    params(("id" = i64, Path, description = "user id")),
    responses((status = 200, body = User), crate::error::ApiErrors))]
async fn reactivate(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<User>> {
    t.require_admin()?;
    removal::reactivate(t, &REMOVAL, id, store::fetch, |_: &User| serde_json::json!({})).await
}

/// Sets a user's password (admin); every session of that user ends. Audited, without the password.
#[utoipa::path(post, path = "/users/{id}/password", tag = "users", security(("bearer" = [])),
    params(("id" = i64, Path, description = "user id")), request_body = PasswordReset,
    responses((status = 200, body = PasswordResetDone), crate::error::ApiErrors))]
async fn reset_password(
    t: Tenant,
    lang: Lang,
    Path(id): Path<i64>,
    Json(input): Json<PasswordReset>,
) -> AppResult<Json<PasswordResetDone>> {
    t.require_admin()?;
    // One's own password is changed with the current one (`/me/password`): a session alone
    // cannot take its user's account over.
    if id == t.user.id {
        return Err(AppError::conflict(Msg::UserResetOwnPassword));
    }
    let password = domain::new_password(Field::Password, input.password.as_deref())?;
    let hash = session::hash_password(password).await?;
    let stmt = t
        .prepare_cached(
            "update users set password_hash = $2, session_version = session_version + 1 \
             where id = $1 and is_active returning username",
        )
        .await?;
    let row = t.query_opt(&stmt, &[&id, &hash]).await?.ok_or_else(|| AppError::not_found(Msg::UserNotFound))?;
    let username: String = row.get(0);
    audit(&t, "user.passwordReset", "user", Some(id), serde_json::json!({ "username": username })).await?;
    t.commit().await?;
    Ok(Json(PasswordResetDone { message: Msg::UserPasswordReset.render(lang, &Params::new()) }))
}

/// Changes the caller's own password, given the current one (checked and throttled like a
/// login). The caller's other sessions end; the answer carries a new token for this one.
#[utoipa::path(post, path = "/me/password", tag = "users", security(("bearer" = [])), request_body = PasswordChange,
    responses((status = 200, body = PasswordChanged), crate::error::ApiErrors))]
async fn change_own_password(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    t: Tenant,
    lang: Lang,
    Json(input): Json<PasswordChange>,
) -> AppResult<Json<PasswordChanged>> {
    if t.user.impersonated_by.is_some() {
        return Err(AppError::forbidden());
    }
    let current = input.current_password.unwrap_or_default();
    if current.is_empty() {
        return Err(AppError::bad_request(Msg::FieldRequired.field(Field::CurrentPassword)));
    }
    let password = domain::new_password(Field::NewPassword, input.new_password.as_deref())?;
    let (id, prefix) = (t.user.id, t.prefix.clone());
    let login = format!("{}@{prefix}", t.user.username);
    let check = PasswordCheck {
        login: &login,
        address: &address,
        company: Some(&prefix),
        actor: &t.user.username.clone(),
        via: "passwordChange",
    };
    let (t, verified) = t
        .between_transactions(&state, async {
            throttle::throttled(&state, check, async {
                let tx = TenantTx::begin(&state.pool, &prefix).await?;
                let stmt = tx.prepare_cached("select password_hash from users where id = $1 and is_active").await?;
                let hash: Option<String> = tx.query_opt(&stmt, &[&id]).await?.map(|row| row.get(0));
                tx.commit().await?;
                let hash = hash.unwrap_or(session::dummy_hash().await);
                Ok(session::verify_password(current, hash).await.then_some(()))
            })
            .await
        })
        .await?;
    if verified.is_none() {
        return Err(AppError::bad_request(Msg::CurrentPasswordIncorrect));
    }
    let hash = session::hash_password(password).await?;
    let stmt = t
        .prepare_cached(
            "update users set password_hash = $2, session_version = session_version + 1 \
             where id = $1 and is_active returning session_version",
        )
        .await?;
    let row = t.query_opt(&stmt, &[&id, &hash]).await?.ok_or_else(AppError::unauthorized)?;
    let claims = session::Claims { sv: row.get(0), ..t.claims().clone() };
    audit(&t, "user.passwordChange", "user", Some(id), serde_json::json!({})).await?;
    t.commit().await?;
    let token = state.keys.issue(claims)?;
    Ok(Json(PasswordChanged { message: Msg::UserPasswordChanged.render(lang, &Params::new()), token }))
}
