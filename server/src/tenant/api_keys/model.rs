//! An API key as the admin screen lists it, the request that makes one, and the key's own
//! format (docs/integration.md, "Keys").

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::domain::{self, Prefix};
use crate::error::{AppError, AppResult, Field, Msg};

/// What every key starts with.
pub const KEY_START: &str = "lk_";
/// The random part's length: 43 letters and digits, about 256 bits.
const SECRET_LEN: usize = 43;
/// A key's name is at most this long.
pub const MAX_NAME: usize = 100;

/// An API key of a point of sale, as listed (never the key itself).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKey {
    /// The key's id (the `{id}` of `DELETE /api-keys/{id}`).
    pub id: i64,
    /// The key's name, recorded as the cashier of what it posts.
    pub name: String,
    /// The point of sale its postings are recorded at.
    pub pos_id: i64,
    /// That point of sale's name.
    pub pos_name: String,
    /// Whether that point of sale is active (a key of an inactive one is refused).
    pub pos_active: bool,
    /// The key's last four characters, to tell keys apart.
    pub hint: String,
    /// When it was made.
    pub created_at: DateTime<Utc>,
    /// The admin who made it.
    pub created_by: String,
    /// When a request last came with it; null while never used.
    pub last_used_at: Option<DateTime<Utc>>,
}

/// A key to make.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyInput {
    /// Required, at most 100 characters, unique among the company's keys that are not revoked
    /// (without regard to case); the cashier name of what the key posts.
    #[schema(value_type = String, required = true, min_length = 1, example = "Caja 1 - Software POS")]
    pub name: Option<String>,
    /// An active point of sale of the company, where the key's postings are recorded.
    #[schema(value_type = i64, required = true, example = 1)]
    pub pos_id: Option<serde_json::Value>,
}

impl ApiKeyInput {
    /// The name and point of sale, validated.
    pub fn parse(&self) -> AppResult<(String, i64)> {
        if self.name.as_deref().map(str::trim).unwrap_or_default().is_empty() {
            return Err(AppError::bad_request(Msg::ApiKeyNameRequired));
        }
        let name = domain::required_text(Field::Name, self.name.as_deref(), MAX_NAME)?;
        let pos = domain::optional_id(Field::PosId, self.pos_id.as_ref())?
            .ok_or_else(|| AppError::bad_request(Msg::ApiKeyPosRequired))?;
        Ok((name, pos))
    }
}

/// A key just made: the only time the key itself is shown.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewApiKey {
    /// The key's id.
    pub id: i64,
    /// `lk_<company prefix>_<43 letters and digits>`, sent as `Authorization: Bearer <key>`.
    /// Only its SHA-256 is kept: it cannot be shown again.
    #[schema(example = "lk_demo_Q3vX8kLw2mZp9RtYb4NcJf7HsD1aGe6UiO0qWnTyVxE")]
    pub key: String,
}

/// A new key's text for the company, and what is kept of it: its hash and its hint.
pub struct Secret {
    pub key: String,
    pub hash: String,
    pub hint: String,
}

impl Secret {
    pub fn generate(prefix: &Prefix) -> Self {
        let key = format!("{KEY_START}{}_{}", prefix.as_str(), crate::config::random_token(SECRET_LEN));
        let hint = key[key.len() - 4..].to_string();
        Secret { hash: hash(&key), key, hint }
    }
}

/// The SHA-256 of a key, in hex: what the table keeps and looks keys up by.
pub fn hash(key: &str) -> String {
    Sha256::digest(key.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// A presented key's company and hash; `None` when it is not of a key's shape.
pub fn parse_presented(key: &str) -> Option<(Prefix, String)> {
    let rest = key.strip_prefix(KEY_START)?;
    let (prefix, secret) = rest.split_once('_')?;
    if secret.len() != SECRET_LEN || !secret.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    Some((Prefix::parse(prefix).ok()?, hash(key)))
}

/// A key that a request presented and the company still honours.
#[derive(Clone, Debug)]
pub struct KeyHolder {
    pub id: i64,
    pub name: String,
    pub pos_id: i64,
    pub pos_name: String,
    pub pos_active: bool,
    /// The requests of the current minute, this one included.
    pub window_count: i32,
    pub rate_limit_per_minute: i32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_key_names_its_company_and_parses_back_to_its_hash() {
        let prefix = Prefix::parse("acme").unwrap();
        let secret = Secret::generate(&prefix);
        assert!(secret.key.starts_with("lk_acme_"));
        assert_eq!(secret.key.len(), "lk_acme_".len() + SECRET_LEN);
        let (parsed, hash) = parse_presented(&secret.key).unwrap();
        assert_eq!(parsed.as_str(), "acme");
        assert_eq!(hash, secret.hash);
        assert_eq!(hash.len(), 64);
        assert!(secret.key.ends_with(&secret.hint));
    }

    #[test]
    fn texts_of_another_shape_are_not_keys() {
        let secret = Secret::generate(&Prefix::parse("acme").unwrap()).key;
        assert!(parse_presented(&secret[..secret.len() - 1]).is_none());
        assert!(parse_presented(&secret.replacen("lk_", "lx_", 1)).is_none());
        assert!(parse_presented("lk_acme").is_none());
        assert!(parse_presented("eyJhbGciOiJIUzI1NiJ9.e30.x").is_none());
        assert!(parse_presented(&format!("lk_Acme_{}", "a".repeat(SECRET_LEN))).is_none());
    }
}
