//! A supervisor's or admin's approval of what a cajero may not do alone (a void, a return):
//! their credentials, checked as a login of theirs from the cajero's address, so approvals are
//! throttled and locked out like logins (docs/roles.md).

use crate::db::TenantTx;
use crate::domain::{Prefix, Role};
use crate::error::{AppError, AppResult, Msg};
use crate::session::{self, Tenant};
use crate::state::AppState;
use crate::throttle::{self, PasswordCheck};

use super::store;

/// A supervisor's or admin's credentials, as a cajero gives them.
#[derive(Clone)]
pub struct Approval {
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for Approval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Approval").field("username", &self.username).finish_non_exhaustive()
    }
}

impl Approval {
    /// The credentials of a request's `supervisorUsername` and `supervisorPassword`; none when
    /// both are empty or absent.
    pub fn new(username: Option<&str>, password: Option<&str>) -> Option<Self> {
        let username = username.map(str::trim).unwrap_or_default();
        let password = password.unwrap_or_default();
        if username.is_empty() && password.is_empty() {
            return None;
        }
        Some(Approval { username: username.to_lowercase(), password: password.to_string() })
    }
}

/// For a cajero: runs `check` (may this cajero ask for it at all?), requires `approval` and
/// checks it with no connection held (throttled as a login `via` the given path); answers the
/// request's transaction, opened again, and the approver's username. Supervisors and admins
/// need no approval: their transaction comes back as it was, with none.
pub async fn approve_cajero(
    state: &AppState,
    address: &str,
    t: Tenant,
    approval: Option<Approval>,
    via: &'static str,
    check: impl AsyncFnOnce(&Tenant) -> AppResult<()>,
) -> AppResult<(Tenant, Option<String>)> {
    if t.user.role != Role::Cajero {
        return Ok((t, None));
    }
    check(&t).await?;
    let approval = approval.ok_or_else(|| AppError::bad_request(Msg::VoidApprovalRequired))?;
    let (prefix, cashier) = (t.prefix.clone(), t.user.username.clone());
    let check = check_approval(state, &prefix, &cashier, address, &approval, via);
    let (t, approver) = t.between_transactions(state, check).await?;
    Ok((t, Some(approver)))
}

/// Checks a supervisor's or admin's credentials of this company as a login of `name@prefix`
/// from the cajero's address (counted, delayed and locked out alike); answers the approver's
/// username. Unknown users take the same argon2 work as wrong passwords.
pub(super) async fn check_approval(
    state: &AppState,
    prefix: &Prefix,
    cashier: &str,
    address: &str,
    approval: &Approval,
    via: &'static str,
) -> AppResult<String> {
    let refused = || AppError::Unauthorized(Msg::VoidIncorrectCredentials.into());
    // Nothing any account could match: no password to check, nothing to count (as a login).
    if approval.username.is_empty()
        || approval.password.is_empty()
        || approval.username.contains(char::is_control)
        || crate::domain::forbidden_character(&approval.username).is_some()
    {
        return Err(refused());
    }
    let login: String = if approval.username.contains('@') {
        approval.username.chars().take(100).collect()
    } else {
        format!("{}@{prefix}", approval.username).chars().take(100).collect()
    };
    let username = match login.rsplit_once('@') {
        Some((name, company)) if company == prefix.as_str() && !name.is_empty() => Some(name),
        _ => None,
    };
    let check = PasswordCheck { login: &login, address, company: Some(prefix), actor: cashier, via };
    let approver = throttle::throttled(state, check, async {
        let hash = match username {
            Some(name) => {
                let tx = TenantTx::begin(&state.pool, prefix).await?;
                let hash = store::approver_password_hash(&tx, name).await?;
                tx.commit().await?;
                hash.map(|hash| (name, hash))
            }
            None => None,
        };
        let Some((name, hash)) = hash else {
            session::verify_password(approval.password.clone(), session::dummy_hash().await).await;
            return Ok(None);
        };
        Ok(session::verify_password(approval.password.clone(), hash).await.then(|| name.to_string()))
    })
    .await?;
    approver.ok_or_else(refused)
}
