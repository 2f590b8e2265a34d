//! What login reads of an account: its stored credentials.

/// A super admin's stored credentials.
pub struct SuperAdminCredentials {
    pub id: i64,
    pub username: String,
    pub password_hash: String,
}

/// A company user's stored credentials, with what the session answer carries of the user.
pub struct UserCredentials {
    pub id: i64,
    pub username: String,
    pub password_hash: String,
    pub role: String,
    pub pos_id: Option<i64>,
    pub pos_name: Option<String>,
    pub is_active: bool,
    pub session_version: i32,
}
