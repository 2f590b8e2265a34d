//! A company user as the API answers it and takes it, and the password requests.

use serde::{Deserialize, Serialize};

use crate::domain::{self, Role};
use crate::error::{AppError, AppResult, Field, Msg};

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: i64,
    pub username: String,
    pub role: String,
    pub pos_id: Option<i64>,
    pub pos_name: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserInput {
    /// Create only.
    pub username: Option<String>,
    /// Create only.
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
    pub transactions: i64,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct PasswordReset {
    /// The user's new password, 8 to 128 characters.
    #[schema(value_type = String, required = true, min_length = 8)]
    pub password: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordChange {
    #[schema(value_type = String, required = true, min_length = 1)]
    pub current_password: Option<String>,
    /// 8 to 128 characters.
    #[schema(value_type = String, required = true, min_length = 8)]
    pub new_password: Option<String>,
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
