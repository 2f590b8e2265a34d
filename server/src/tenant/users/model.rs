//! A company user as the API answers it and takes it, and the password requests.

use serde::{Deserialize, Serialize};

use crate::domain::{self, Role};
use crate::error::{AppError, AppResult, Field, Msg};

/// A user of the company.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    /// The user's id in the company.
    pub id: i64,
    /// The login name before `@prefix`: lowercase letters, digits, `.`, `_` or `-`, unique in the
    /// company.
    pub username: String,
    /// `admin`, `supervisor` or `cajero` (docs/roles.md).
    pub role: String,
    /// The point of sale the user's accreditations and redemptions are recorded at; null for
    /// admins.
    pub pos_id: Option<i64>,
    /// That point of sale's name; null without one.
    pub pos_name: Option<String>,
}

/// A user to add, or a user's new role and point of sale.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserInput {
    /// Create only: letters, digits, `.`, `_` or `-`, at most 50 (stored lower-cased); unique in
    /// the company.
    pub username: Option<String>,
    /// Create only: 8 to 128 characters.
    pub password: Option<String>,
    /// admin, supervisor or cajero.
    #[schema(value_type = String, required = true, min_length = 1)]
    pub role: Option<String>,
    /// Required unless the role is admin (an admin has none).
    #[schema(value_type = Option<i64>)]
    pub pos_id: Option<serde_json::Value>,
}

impl UserInput {
    /// The role and point of sale, with the rule that only non-admins have (and need) one.
    pub fn role_and_pos(&self) -> AppResult<(Role, Option<i64>)> {
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
    /// Transactions the user posted: while there are any, deleting the user deactivates it instead.
    pub transactions: i64,
}

/// An admin's reset of another user's password.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct PasswordReset {
    /// The user's new password, 8 to 128 characters.
    #[schema(value_type = String, required = true, min_length = 8)]
    pub password: Option<String>,
}

/// A user's change of its own password.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordChange {
    /// The caller's current password, checked and throttled like a login.
    #[schema(value_type = String, required = true, min_length = 1)]
    pub current_password: Option<String>,
    /// 8 to 128 characters.
    #[schema(value_type = String, required = true, min_length = 8)]
    pub new_password: Option<String>,
}

/// The answer of a password reset.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PasswordResetDone {
    /// A confirmation in the request's language (`Accept-Language`, Spanish by default).
    pub message: String,
}

/// The answer of a password change.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PasswordChanged {
    /// A confirmation in the request's language (`Accept-Language`, Spanish by default).
    pub message: String,
    /// A new session token for the caller: the one used for this request has ended.
    pub token: String,
}
