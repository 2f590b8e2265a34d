//! Company users: admins, supervisors and cashiers (cajeros).

use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db::TenantTx;
use crate::domain::{self, Role};
use crate::error::{AppError, AppResult, Field, Lang, Msg, Params};
use crate::extract::{Json, Path, Query};
use crate::session::{self, ClientAddress, Tenant};
use crate::state::AppState;
use crate::tenant::removal::{removal_handlers, DeleteResponse, Removal};
use crate::tenant::{audit, taken, StatusParams};
use crate::throttle::{self, PasswordCheck};

pub mod model;
mod store;

use model::{PasswordChange, PasswordChanged, PasswordReset, PasswordResetDone, User, UserInput, UserUsage};
pub use store::insert_admin;

/// A user with transactions is deactivated instead of deleted, and can no longer log in.
const REMOVAL: Removal = Removal {
    table: "users",
    entity: "user",
    label: Some("username"),
    usage: store::USAGE,
    inactive_too: false,
    not_found: Msg::UserNotFound,
    not_inactive: Msg::UserNotInactive,
    deleted: Msg::UserDeleted,
    deactivated: Msg::UserDeactivated,
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
    let list = store::list(&t, active).await?;
    t.commit().await?;
    Ok(Json(list))
}

async fn check_pos(t: &Tenant, pos: Option<i64>) -> AppResult<()> {
    match pos {
        Some(pos) if !store::share_pos(t, pos).await? => Err(AppError::bad_request(Msg::PosNotFound)),
        _ => Ok(()),
    }
}

/// Refuses a change that would leave the company without an active admin.
async fn keep_an_admin(t: &Tenant, id: i64) -> AppResult<()> {
    if store::other_admins(t, id).await? == 0 {
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
    let Some(id) = store::insert(&t, &username, &hash, role.as_str(), pos).await? else {
        return Err(taken(&t, store::USERNAME_HOLDER, &username, Msg::UserExists, Msg::UserInactiveExists).await);
    };
    let user = store::fetch(&t, id).await?;
    audit(&t, "user.create", "user", Some(id), serde_json::json!({ "username": username, "after": seen(&user) }))
        .await?;
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
    store::update(&t, id, role.as_str(), pos).await?;
    let user = store::fetch(&t, id).await?;
    let detail = serde_json::json!({ "username": user.username, "before": seen(&current), "after": seen(&user) });
    audit(&t, "user.update", "user", Some(id), detail).await?;
    t.commit().await?;
    Ok(Json(user))
}

/// Refuses to delete oneself or the last active admin; locks the user until the delete is
/// decided.
async fn removable(t: &Tenant, id: i64) -> AppResult<()> {
    if id == t.user.id {
        return Err(AppError::bad_request(Msg::UserDeleteSelf));
    }
    let role = store::lock_role(t, id).await?.ok_or_else(|| AppError::not_found(Msg::UserNotFound))?;
    if role == "admin" {
        keep_an_admin(t, id).await?;
    }
    Ok(())
}

removal_handlers! {
    tag: "users", id: "user id", access: admin,
    /// Transactions made by a user, for the delete confirmation (admin).
    usage: "/users/{id}/usage" => UserUsage,
    /// Deletes a user, or deactivates one with transactions (admin; never oneself).
    remove: "/users/{id}", check: removable,
    /// Makes an inactive user active again, with the role, point of sale and password they had
    /// (admin).
    reactivate: "/users/{id}/reactivate" => User,
    read: store::fetch, detail: |user: &User| serde_json::json!({ "after": seen(user) }),
}

/// A user as the audit trail shows them: role and point of sale (id and name).
fn seen(user: &User) -> serde_json::Value {
    serde_json::json!({ "role": user.role, "posId": user.pos_id, "posName": user.pos_name })
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
    let (username, _) =
        store::set_password(&t, id, &hash).await?.ok_or_else(|| AppError::not_found(Msg::UserNotFound))?;
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
                let hash = store::password_hash(&tx, id).await?;
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
    let (_, sv) = store::set_password(&t, id, &hash).await?.ok_or_else(AppError::unauthorized)?;
    let claims = session::Claims { sv, ..t.claims().clone() };
    let detail = serde_json::json!({ "username": t.user.username });
    audit(&t, "user.passwordChange", "user", Some(id), detail).await?;
    t.commit().await?;
    let token = state.keys.issue(claims)?;
    Ok(Json(PasswordChanged { message: Msg::UserPasswordChanged.render(lang, &Params::new()), token }))
}
