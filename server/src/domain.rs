//! Domain values parsed once at the edge, so inner code cannot hold an invalid one.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::AppError;

/// A company prefix: `^[a-z][a-z0-9]{1,29}$`, never a reserved name. It is the only value ever
/// interpolated into an SQL identifier (`tenant_<prefix>`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Prefix(String);

const RESERVED_PREFIXES: &[&str] = &["pg", "public", "platform", "information", "admin", "system", "super"];

impl Prefix {
    pub fn parse(raw: &str) -> Result<Self, AppError> {
        let bytes = raw.as_bytes();
        let valid = (2..=30).contains(&bytes.len())
            && bytes[0].is_ascii_lowercase()
            && bytes.iter().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if !valid {
            return Err(AppError::bad_request(
                "prefix must be 2 to 30 lowercase letters or digits, starting with a letter",
            ));
        }
        if RESERVED_PREFIXES.contains(&raw) {
            return Err(AppError::bad_request(format!("prefix '{raw}' is reserved, choose another")));
        }
        Ok(Prefix(raw.to_string()))
    }

    /// For values read back from the database, where the check constraint already holds.
    pub fn from_trusted(raw: String) -> Self {
        Prefix(raw)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Prefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A company user's role. The platform's super admin is not a company role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Admin,
    Supervisor,
    Cajero,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Supervisor => "supervisor",
            Role::Cajero => "cajero",
        }
    }

    pub fn parse(raw: &str) -> Result<Self, AppError> {
        match raw {
            "admin" => Ok(Role::Admin),
            "supervisor" => Ok(Role::Supervisor),
            "cajero" => Ok(Role::Cajero),
            _ => Err(AppError::bad_request("role must be one of admin, supervisor, cajero")),
        }
    }
}

/// Longest free-text field (names, addresses, descriptions) the API accepts.
pub const MAX_TEXT: usize = 200;
/// Longest long-text field (descriptions, URLs).
pub const MAX_LONG_TEXT: usize = 2000;

/// A required text field: trimmed, not empty, at most `max` characters.
pub fn required_text(field: &str, value: Option<&str>, max: usize) -> Result<String, AppError> {
    let value = value.map(str::trim).unwrap_or_default();
    if value.is_empty() {
        return Err(AppError::bad_request(format!("{field} is required")));
    }
    check_length(field, value, max)?;
    Ok(value.to_string())
}

/// An optional text field: trimmed; empty becomes absent; at most `max` characters.
pub fn optional_text(field: &str, value: Option<&str>, max: usize) -> Result<Option<String>, AppError> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(value) => {
            check_length(field, value, max)?;
            Ok(Some(value.to_string()))
        }
    }
}

fn check_length(field: &str, value: &str, max: usize) -> Result<(), AppError> {
    if value.chars().count() > max {
        return Err(AppError::bad_request(format!("{field} must be at most {max} characters")));
    }
    if value.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return Err(AppError::bad_request(format!("{field} contains control characters")));
    }
    Ok(())
}

/// Shortest and longest password accepted for new accounts.
pub const MIN_PASSWORD: usize = 8;
pub const MAX_PASSWORD: usize = 128;

/// A new password: not trimmed (spaces are part of it), 8 to 128 characters.
pub fn new_password(field: &str, value: Option<&str>) -> Result<String, AppError> {
    let value = value.unwrap_or_default();
    if value.is_empty() {
        return Err(AppError::bad_request(format!("{field} is required")));
    }
    let len = value.chars().count();
    if !(MIN_PASSWORD..=MAX_PASSWORD).contains(&len) {
        return Err(AppError::bad_request(format!(
            "{field} must be {MIN_PASSWORD} to {MAX_PASSWORD} characters long"
        )));
    }
    Ok(value.to_string())
}

/// A username within a company: 1 to 50 of letters, digits, '.', '_' or '-', stored lowercase.
pub fn username(value: Option<&str>) -> Result<String, AppError> {
    let value = value.map(str::trim).unwrap_or_default().to_lowercase();
    if value.is_empty() {
        return Err(AppError::bad_request("username is required"));
    }
    let valid = value.len() <= 50
        && value.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if !valid {
        return Err(AppError::bad_request(
            "username must be at most 50 letters, digits, '.', '_' or '-'",
        ));
    }
    Ok(value)
}

/// An optional web address (logo, product image): http(s) only.
pub fn optional_url(field: &str, value: Option<&str>) -> Result<Option<String>, AppError> {
    let value = optional_text(field, value, MAX_LONG_TEXT)?;
    if let Some(url) = &value {
        let lower = url.to_ascii_lowercase();
        if !(lower.starts_with("https://") || lower.starts_with("http://") || lower.starts_with('/')) {
            return Err(AppError::bad_request(format!("{field} must be an http(s) address")));
        }
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_accepts_lowercase_letters_and_digits() {
        for ok in ["ab", "shop1", "a2345678901234567890123456789z"] {
            assert!(Prefix::parse(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn prefix_rejects_bad_shapes_and_reserved_names() {
        for bad in [
            "", "a", "Abc", "1abc", "a-b", "a_b", "a b", "pg_catalog", "public", "platform",
            "ab'; drop", "é1", "a23456789012345678901234567890z",
        ] {
            assert!(Prefix::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn text_fields_are_trimmed_and_bounded() {
        assert_eq!(required_text("name", Some("  Tienda  "), 10).unwrap(), "Tienda");
        assert!(required_text("name", Some("   "), 10).is_err());
        assert!(required_text("name", None, 10).is_err());
        assert!(required_text("name", Some("abcdefghijk"), 10).is_err());
        assert_eq!(optional_text("phone", Some(" "), 10).unwrap(), None);
    }

    #[test]
    fn usernames_are_lowercased_and_restricted() {
        assert_eq!(username(Some(" Ana.Maria ")).unwrap(), "ana.maria");
        assert!(username(Some("ana@shop")).is_err());
        assert!(username(Some("")).is_err());
    }
}
