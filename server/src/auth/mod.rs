//! Authentication: login of a company user or a super admin. The session itself (passwords,
//! tokens, extractors) is in `session`; the throttled password check in `throttle`.

use axum::extract::State;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::Prefix;
use crate::error::{AppError, AppResult, Msg};
use crate::extract::Json;
use crate::platform;
use crate::session::{dummy_hash, verify_password, ClientAddress, SessionResponse, UserView, SUPER_ADMIN_ROLE};
use crate::state::AppState;
use crate::throttle::{throttled, PasswordCheck};

mod model;
mod store;

// ---------------------------------------------------------------------------------------------
// Login

/// A login. A missing or empty field is refused with 400; a wrong pair with 401, and repeated
/// failures are slowed down and then locked, 429 (docs/reliability.md).
#[derive(Deserialize, utoipa::ToSchema)]
pub struct LoginRequest {
    /// `username@prefix` for a company user, the bare username for a super admin.
    #[schema(value_type = String, required = true, min_length = 1)]
    username: Option<String>,
    /// The user's password, as typed.
    #[schema(value_type = String, required = true, min_length = 1)]
    password: Option<String>,
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(login))
}

/// Logs in a company user (`username@prefix`) or a super admin (bare username).
#[utoipa::path(post, path = "/login", tag = "auth", request_body = LoginRequest,
    responses((status = 200, body = SessionResponse), crate::error::ApiErrors))]
async fn login(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    Json(body): Json<LoginRequest>,
) -> AppResult<Json<SessionResponse>> {
    let login = body.username.as_deref().map(str::trim).unwrap_or_default().to_lowercase();
    let password = body.password.unwrap_or_default();
    if login.is_empty() || password.is_empty() {
        return Err(AppError::bad_request(Msg::LoginRequired));
    }
    if login.contains(char::is_control) || crate::domain::forbidden_character(&login).is_some() {
        return Err(AppError::bad_request(Msg::LoginControlCharacters));
    }
    let login: String = login.chars().take(100).collect();
    let company = login.rsplit_once('@').and_then(|(_, prefix)| Prefix::parse(prefix).ok());
    let check =
        PasswordCheck { login: &login, address: &address, company: company.as_ref(), actor: "system", via: "login" };
    let user = throttled(&state, check, async {
        if password.len() > 1024 {
            return Ok(None);
        }
        match login.rsplit_once('@') {
            Some((username, prefix)) => company_login(&state, username, prefix, password).await,
            None => super_admin_login(&state, &login, password).await,
        }
    })
    .await?;
    let Some(user) = user else {
        return Err(AppError::Unauthorized(Msg::LoginFailed.into()));
    };
    let token = state.keys.issue(user.claims())?;
    tracing::info!(user = %user.username, company = ?user.company.as_ref().map(|c| &c.prefix), "login");
    Ok(Json(SessionResponse { token, user }))
}

async fn super_admin_login(state: &AppState, username: &str, password: String) -> AppResult<Option<UserView>> {
    let Some(admin) = store::super_admin_by_name(&state.pool, username).await? else {
        verify_password(password, dummy_hash().await).await;
        return Ok(None);
    };
    if !verify_password(password, admin.password_hash).await {
        return Ok(None);
    }
    Ok(Some(UserView {
        id: admin.id,
        username: admin.username,
        role: SUPER_ADMIN_ROLE.into(),
        company_id: None,
        company: None,
        pos_id: None,
        pos_name: None,
        impersonated_by: None,
        session_version: 0,
    }))
}

async fn company_login(
    state: &AppState,
    username: &str,
    prefix: &str,
    password: String,
) -> AppResult<Option<UserView>> {
    let company = match Prefix::parse(prefix) {
        Ok(prefix) => platform::store::active_company_by_prefix(&state.pool, &prefix).await?,
        Err(_) => None,
    };
    let Some(company) = company else {
        verify_password(password, dummy_hash().await).await;
        return Ok(None);
    };
    let prefix = Prefix::from_trusted(company.prefix.clone());
    // A login reads the company's schema name again: the process's may be a deleted company's
    // whose prefix this one took since, through another process.
    state.pool.forget_schema(&prefix);
    let Some(user) = store::company_user_by_name(&state.pool, &prefix, username).await? else {
        verify_password(password, dummy_hash().await).await;
        return Ok(None);
    };
    // An inactive user is refused only after the same work as a wrong password.
    if !verify_password(password, user.password_hash).await || !user.is_active {
        return Ok(None);
    }
    Ok(Some(UserView {
        id: user.id,
        username: user.username,
        role: user.role,
        company_id: Some(company.id),
        company: Some(company),
        pos_id: user.pos_id,
        pos_name: user.pos_name,
        impersonated_by: None,
        session_version: user.session_version,
    }))
}
