//! The signed session, below every area: argon2id passwords, the JWT keys and claims, the
//! request extractors that turn a bearer token into a verified super admin or a company user
//! inside its tenant transaction, and the session answer that login and impersonation share.

use std::ops::Deref;
use std::sync::OnceLock;
use std::time::Duration;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use tokio_postgres::error::SqlState;
use tracing::Span;

use crate::config::Secret;
use crate::db::TenantTx;
use crate::domain::{Prefix, Role};
use crate::error::{AppError, AppResult, Msg};
use crate::state::AppState;

pub mod hs256;
mod store;

pub use store::{ACTIVE_COMPANY_CHECK, USER_CHECK};

pub const SUPER_ADMIN_ROLE: &str = "super_admin";

// ---------------------------------------------------------------------------------------------
// Passwords

/// Hashes a password with argon2id and a fresh salt, off the async threads.
pub async fn hash_password(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|hash| hash.to_string())
            .map_err(|err| anyhow::anyhow!("hashing password: {err}"))
    })
    .await?
}

/// Checks a password against a stored PHC string, off the async threads.
pub async fn verify_password(password: String, phc: String) -> bool {
    tokio::task::spawn_blocking(move || {
        let Ok(parsed) = PasswordHash::new(&phc) else { return false };
        Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok()
    })
    .await
    .unwrap_or(false)
}

/// A hash to verify against when the account does not exist, so that unknown and existing
/// users take the same time to refuse.
pub(crate) async fn dummy_hash() -> String {
    static DUMMY: OnceLock<String> = OnceLock::new();
    if let Some(hash) = DUMMY.get() {
        return hash.clone();
    }
    let hash = hash_password(crate::config::random_token(24)).await.unwrap_or_default();
    DUMMY.get_or_init(|| hash).clone()
}

// ---------------------------------------------------------------------------------------------
// Tokens

/// What a session token says about its holder.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Claims {
    pub uid: i64,
    pub username: String,
    pub role: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company_id: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pos_id: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impersonated_by: Option<String>,
    /// The user's session version when the token was issued; a password change or reset moves
    /// the user's on and ends every older session.
    #[serde(default)]
    pub sv: i32,
    pub iat: i64,
    pub exp: i64,
}

/// Signing and verification keys (HS256 only: `alg: none` and every other algorithm are refused).
pub struct JwtKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    ttl: Duration,
}

impl JwtKeys {
    pub fn new(secret: &Secret<String>, ttl: Duration) -> Self {
        hs256::install();
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp"]);
        JwtKeys {
            encoding: EncodingKey::from_secret(secret.expose().as_bytes()),
            decoding: DecodingKey::from_secret(secret.expose().as_bytes()),
            validation,
            ttl,
        }
    }

    /// Issues a token for these claims; `iat` and `exp` are set here.
    pub fn issue(&self, mut claims: Claims) -> AppResult<String> {
        let now = chrono::Utc::now().timestamp();
        claims.iat = now;
        claims.exp = now + self.ttl.as_secs() as i64;
        encode(&Header::new(Algorithm::HS256), &claims, &self.encoding).map_err(AppError::internal)
    }

    pub fn verify(&self, token: &str) -> Option<Claims> {
        match decode::<Claims>(token, &self.decoding, &self.validation) {
            Ok(data) => Some(data.claims),
            Err(err) => {
                tracing::debug!(reason = %err, "token refused");
                None
            }
        }
    }
}

fn bearer_claims(parts: &Parts, state: &AppState) -> AppResult<Claims> {
    let header = parts.headers.get(axum::http::header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let token = header.and_then(|h| h.strip_prefix("Bearer ").or_else(|| h.strip_prefix("bearer ")));
    let Some(token) = token else {
        tracing::debug!("request without bearer token");
        return Err(AppError::unauthorized());
    };
    state.keys.verify(token.trim()).ok_or_else(AppError::unauthorized)
}

// ---------------------------------------------------------------------------------------------
// Extractors

/// A platform super admin acting as such (not impersonating), checked against the database.
#[derive(Clone, Debug)]
pub struct SuperAdmin {
    pub id: i64,
    pub username: String,
}

impl FromRequestParts<AppState> for SuperAdmin {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> AppResult<Self> {
        let claims = bearer_claims(parts, state)?;
        if claims.role != SUPER_ADMIN_ROLE || claims.company_id.is_some() || claims.impersonated_by.is_some() {
            tracing::debug!("company token on a super-admin route");
            return Err(AppError::forbidden());
        }
        if !store::super_admin_exists(&state.pool, claims.uid, &claims.username).await? {
            tracing::debug!("super admin no longer exists");
            return Err(AppError::unauthorized());
        }
        Span::current().record("user", claims.username.as_str());
        Ok(SuperAdmin { id: claims.uid, username: claims.username })
    }
}

/// The company user behind a request, as the database says now (not as the token said).
#[derive(Clone, Debug)]
pub struct CurrentUser {
    pub id: i64,
    pub username: String,
    pub role: Role,
    pub pos_id: Option<i64>,
    /// That point of sale's name, as read with the user's row (or the key's).
    pub pos_name: Option<String>,
    pub impersonated_by: Option<String>,
    /// Set when a point of sale's API key acts (docs/integration.md): `username` is then the
    /// key's name, and the ledger records no cashier id.
    pub api_key_id: Option<i64>,
}

impl CurrentUser {
    /// The user id a ledger row records as its cashier: none for an API key.
    pub fn cashier_id(&self) -> Option<i64> {
        self.api_key_id.is_none().then_some(self.id)
    }
}

/// A company user's request: a verified user and an open transaction scoped to the
/// company's schema. A handler that takes it cannot forget the tenant. Commit explicitly.
pub struct Tenant {
    tx: TenantTx,
    pub user: CurrentUser,
    pub company_id: i64,
    pub prefix: Prefix,
    claims: Claims,
}

impl Tenant {
    pub async fn commit(self) -> AppResult<()> {
        self.tx.commit().await
    }

    pub fn is_admin(&self) -> bool {
        self.user.role == Role::Admin
    }

    /// Admin-only operations (rules, permissions, users, points of sale).
    pub fn require_admin(&self) -> AppResult<()> {
        if self.is_admin() {
            Ok(())
        } else {
            Err(AppError::forbidden())
        }
    }

    /// Operations open to the listed roles.
    pub fn require_role(&self, roles: &[Role]) -> AppResult<()> {
        if roles.contains(&self.user.role) {
            Ok(())
        } else {
            Err(AppError::forbidden())
        }
    }

    /// Operations a supervisor or cajero may do only when their role's permission list holds
    /// one of `paths` (the screens that offer the operation). Admins may always.
    pub async fn require_permission(&self, paths: &[&str]) -> AppResult<()> {
        let role = match self.user.role {
            Role::Admin => return Ok(()),
            Role::Supervisor => "supervisor",
            Role::Cajero => "cajero",
        };
        let granted = store::granted_screens(&self.tx, role).await?;
        let granted = granted.as_array().map(Vec::as_slice).unwrap_or_default();
        if granted.iter().any(|g| g.as_str().is_some_and(|g| paths.contains(&g))) {
            Ok(())
        } else {
            Err(AppError::forbidden())
        }
    }

    /// The verified claims of this request's token.
    pub fn claims(&self) -> &Claims {
        &self.claims
    }

    /// Who acted, for the audit trail: the user, and the super admin behind an impersonation.
    pub fn actor(&self) -> (&str, Option<&str>) {
        (self.user.username.as_str(), self.user.impersonated_by.as_deref())
    }
}

impl Deref for Tenant {
    type Target = TenantTx;

    fn deref(&self) -> &TenantTx {
        &self.tx
    }
}

impl FromRequestParts<AppState> for Tenant {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> AppResult<Self> {
        let claims = bearer_claims(parts, state)?;
        Tenant::open(state, claims).await
    }
}

impl Tenant {
    /// Checks the token's company and user against the database and opens the transaction.
    async fn open(state: &AppState, claims: Claims) -> AppResult<Self> {
        if claims.role == SUPER_ADMIN_ROLE {
            tracing::debug!("super admin token on a company route");
            return Err(AppError::Forbidden(Msg::SuperAdminMustImpersonate.into()));
        }
        let (Some(company_id), Some(prefix)) = (claims.company_id, claims.prefix.as_deref()) else {
            return Err(AppError::unauthorized());
        };
        let prefix = Prefix::parse(prefix).map_err(|_| AppError::unauthorized())?;
        // The transaction's start and the company's and user's checks go out in one round
        // trip, the checks keeping their plans (they find rows by key) and the handler's
        // statements planned as usual. The checks are two statements: on Citus the company's
        // row stays on the coordinator and the user's on the company's node, and no statement
        // may read both (docs/scaling.md).
        // The company check also holds that the schema this process read for the company is
        // still the one its row names: if not (the company was deleted and its prefix taken
        // since, through another process), the name is read again, once.
        let mut again = true;
        let (tx, row) = loop {
            let tx = TenantTx::connect(&state.pool, &prefix).await?;
            if !tx.company_found() {
                tracing::debug!("no active company under the token's prefix");
                return Err(AppError::unauthorized());
            }
            let company = store::company_is_active(&tx, company_id, &prefix);
            let user = store::user_check(&tx, claims.uid);
            let (started, kept, company, user, restored) =
                futures::join!(tx.start(), tx.keep_plans(), company, user, tx.plan_each_time());
            started?;
            kept?;
            let row = match (company?, user) {
                // After the checks succeeded, so the plan mode must have been restored too.
                (true, Ok(row)) => restored.map(|()| row)?,
                (false, _) if again && state.pool.forget_schema(&prefix) => {
                    again = false;
                    continue;
                }
                (false, _) => None,
                // The company's schema is gone: the company was deleted.
                (true, Err(err)) if err.code() == Some(&SqlState::UNDEFINED_TABLE) => None,
                (true, Err(err)) => return Err(err.into()),
            };
            break (tx, row);
        };
        let Some(row) = row.filter(|row| row.is_active) else {
            tracing::debug!("user or company no longer active");
            return Err(AppError::unauthorized());
        };
        if row.session_version != claims.sv {
            tracing::debug!("session ended by a password change");
            return Err(AppError::unauthorized());
        }
        if let Some(super_admin) = &claims.impersonated_by {
            if !store::super_admin_named(&tx, super_admin).await? {
                tracing::debug!("impersonating super admin no longer exists");
                return Err(AppError::unauthorized());
            }
        }
        let user = CurrentUser {
            id: claims.uid,
            username: row.username,
            role: Role::parse(&row.role)?,
            pos_id: row.pos_id,
            pos_name: row.pos_name,
            impersonated_by: claims.impersonated_by.clone(),
            api_key_id: None,
        };
        let span = Span::current();
        span.record("tenant", prefix.as_str());
        span.record("user", user.username.as_str());
        Ok(Tenant { tx, user, company_id, prefix, claims })
    }

    /// Rolls this request's transaction back, runs `work` with no connection held (waits and
    /// argon2 must not keep one), then opens a new transaction for the same user, checked again.
    pub async fn between_transactions<T>(
        self,
        state: &AppState,
        work: impl std::future::Future<Output = AppResult<T>>,
    ) -> AppResult<(Tenant, T)> {
        let Tenant { tx, claims, .. } = self;
        tx.rollback().await?;
        let output = work.await?;
        Ok((Tenant::open(state, claims).await?, output))
    }
}

/// The client's address (see [`client_address`]).
pub struct ClientAddress(pub String);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> AppResult<Self> {
        Ok(ClientAddress(client_address(&parts.headers, &parts.extensions, state.config.trust_proxy)))
    }
}

// ---------------------------------------------------------------------------------------------
// The session answer

/// The company details a logged-in user carries (header, receipt).
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompanyInfo {
    /// The company's id on the platform.
    pub id: i64,
    /// The trade name, for the header and receipts.
    pub name: String,
    /// An `https://` address or a path on this server; null when none.
    pub logo_url: Option<String>,
    /// The registered business name (razón social); null when not given.
    pub business_name: Option<String>,
    /// The company's tax id (NIT).
    pub tax_id: String,
    /// For receipts; null when not given.
    pub address: Option<String>,
    /// For receipts, as written; null when not given.
    pub phone: Option<String>,
    /// What follows `@` in the company's logins.
    pub prefix: String,
}

/// A logged-in user as the client stores it.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    /// The user's id in its company; for a super admin, its id on the platform.
    pub id: i64,
    /// The login name without the company's `@prefix`, lower case.
    pub username: String,
    /// `admin`, `supervisor` or `cajero` (docs/roles.md); `super_admin` for a super admin.
    pub role: String,
    /// The user's company; null for a super admin.
    pub company_id: Option<i64>,
    /// The company's details; null for a super admin.
    pub company: Option<CompanyInfo>,
    /// The point of sale the user's accreditations and redemptions are recorded at; null for admins
    /// and super admins.
    pub pos_id: Option<i64>,
    /// That point of sale's name; null without one.
    pub pos_name: Option<String>,
    /// The super admin acting as this company's admin; null outside an impersonation.
    pub impersonated_by: Option<String>,
    /// Goes into the token only.
    #[serde(skip)]
    #[schema(ignore)]
    pub session_version: i32,
}

/// A new session: its token and the user it is for.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SessionResponse {
    /// Sent as `Authorization: Bearer <token>`. It expires after the server's session lifetime, and
    /// ends sooner when the user's password changes or the user or company is deactivated.
    pub token: String,
    /// The user the token is for.
    pub user: UserView,
}

impl UserView {
    pub fn claims(&self) -> Claims {
        Claims {
            uid: self.id,
            username: self.username.clone(),
            role: self.role.clone(),
            company_id: self.company_id,
            prefix: self.company.as_ref().map(|c| c.prefix.clone()),
            pos_id: self.pos_id,
            impersonated_by: self.impersonated_by.clone(),
            sv: self.session_version,
            iat: 0,
            exp: 0,
        }
    }
}

/// The client's address: the connection's peer, or behind a trusted reverse proxy the address
/// it appended last to `X-Forwarded-For`.
fn client_address(headers: &HeaderMap, extensions: &Extensions, trust_proxy: bool) -> String {
    if trust_proxy {
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .rfind(|v| !v.is_empty());
        if let Some(address) = forwarded {
            return address.chars().take(64).collect();
        }
    }
    extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip().to_string())
        .unwrap_or_else(|| "unknown".into())
}
