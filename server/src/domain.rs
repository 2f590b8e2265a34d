//! Domain values parsed once at the edge, so inner code cannot hold an invalid one.

use std::fmt;

use serde::{Deserialize, Serialize};
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

use crate::error::{AppError, Field, Msg};

/// A company prefix: `^[a-z][a-z0-9]{1,29}$`, never a reserved name. It is the only value ever
/// interpolated into an SQL identifier (`tenant_<prefix>`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Prefix(String);

const RESERVED_PREFIXES: &[&str] = &["pg", "public", "platform", "information", "admin", "system", "super"];

impl Prefix {
    pub fn parse(raw: &str) -> Result<Self, AppError> {
        let bytes = raw.as_bytes();
        let valid = (2..=30).contains(&bytes.len())
            && bytes[0].is_ascii_lowercase()
            && bytes.iter().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if !valid {
            return Err(AppError::bad_request(Msg::PrefixShape));
        }
        if RESERVED_PREFIXES.contains(&raw) {
            return Err(AppError::bad_request(Msg::PrefixReserved.with("prefix", raw)));
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
            _ => Err(AppError::bad_request(Msg::RoleInvalid)),
        }
    }
}

/// Longest free-text field (names, addresses, descriptions) the API accepts.
pub const MAX_TEXT: usize = 200;
/// Longest long-text field (descriptions, URLs).
pub const MAX_LONG_TEXT: usize = 2000;

/// A required text field: trimmed, not empty, at most `max` characters.
pub fn required_text(field: Field, value: Option<&str>, max: usize) -> Result<String, AppError> {
    let value = value.map(str::trim).unwrap_or_default();
    if value.is_empty() {
        return Err(AppError::bad_request(Msg::FieldRequired.field(field)));
    }
    check_length(field, value, max)?;
    Ok(value.to_string())
}

/// An optional text field: trimmed; empty becomes absent; at most `max` characters.
pub fn optional_text(field: Field, value: Option<&str>, max: usize) -> Result<Option<String>, AppError> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(value) => {
            check_length(field, value, max)?;
            Ok(Some(value.to_string()))
        }
    }
}

fn check_length(field: Field, value: &str, max: usize) -> Result<(), AppError> {
    if value.chars().count() > max {
        return Err(AppError::bad_request(Msg::FieldTooLong.field(field).with("max", max)));
    }
    match forbidden_character(value) {
        Some(Forbidden::Control) => Err(AppError::bad_request(Msg::FieldControlCharacters.field(field))),
        Some(Forbidden::Invisible) => Err(AppError::bad_request(Msg::FieldInvisibleCharacters.field(field))),
        None => Ok(()),
    }
}

/// A character no text field takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forbidden {
    /// A control character other than a line break or a tab (NUL included, which PostgreSQL
    /// cannot store).
    Control,
    /// A Unicode format character (category Cf): the bidirectional overrides and isolates
    /// (U+202A-202E, U+2066-2069), zero-width characters (U+200B-200F, U+2060, U+FEFF), the soft
    /// hyphen, tags and the like. Invisible, they can disguise text on receipts and reports.
    Invisible,
}

/// The one rule for the characters of every text the API takes (docs/decisions.md): the first
/// forbidden kind of character in `value`, if any.
pub fn forbidden_character(value: &str) -> Option<Forbidden> {
    value.chars().find_map(|c| {
        if c.is_control() && c != '\n' && c != '\t' {
            Some(Forbidden::Control)
        } else if c.general_category() == GeneralCategory::Format {
            Some(Forbidden::Invisible)
        } else {
            None
        }
    })
}

/// Shortest and longest password accepted for new accounts.
pub const MIN_PASSWORD: usize = 8;
pub const MAX_PASSWORD: usize = 128;

/// A new password: not trimmed (spaces are part of it), 8 to 128 characters.
pub fn new_password(field: Field, value: Option<&str>) -> Result<String, AppError> {
    let value = value.unwrap_or_default();
    if value.is_empty() {
        return Err(AppError::bad_request(Msg::FieldRequired.field(field)));
    }
    let len = value.chars().count();
    if !(MIN_PASSWORD..=MAX_PASSWORD).contains(&len) {
        return Err(AppError::bad_request(
            Msg::PasswordLength.field(field).with("min", MIN_PASSWORD).with("max", MAX_PASSWORD),
        ));
    }
    Ok(value.to_string())
}

/// A username within a company: 1 to 50 of letters, digits, '.', '_' or '-', stored lowercase.
pub fn username(value: Option<&str>) -> Result<String, AppError> {
    let value = value.map(str::trim).unwrap_or_default().to_lowercase();
    if value.is_empty() {
        return Err(AppError::bad_request(Msg::FieldRequired.field(Field::Username)));
    }
    let valid = value.len() <= 50 && value.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if !valid {
        return Err(AppError::bad_request(Msg::UsernameShape));
    }
    Ok(value)
}

/// An optional image address (logo, product image): what the Content-Security-Policy lets a
/// page load (`img-src 'self' https:`), that is an `https://` address with a host, or a path on
/// this site.
pub fn optional_url(field: Field, value: Option<&str>) -> Result<Option<String>, AppError> {
    let value = optional_text(field, value, MAX_LONG_TEXT)?;
    if value.as_deref().is_some_and(|url| !is_https_or_own_path(url)) {
        return Err(AppError::bad_request(Msg::FieldUrl.field(field)));
    }
    Ok(value)
}

/// Browsers read `\` as `/` and drop tabs and line breaks inside an address, so `/\host/x`
/// and `/<tab>/host/x` are `//host/x`: another host. Neither may appear anywhere.
fn is_https_or_own_path(url: &str) -> bool {
    if url.chars().any(|c| c == '\\' || c.is_whitespace()) {
        return false;
    }
    match url.get(..8) {
        Some(scheme) if scheme.eq_ignore_ascii_case("https://") => {
            let host = url[8..].split(['/', '?', '#']).next().unwrap_or_default();
            !host.is_empty()
        }
        _ => url.starts_with('/') && !url.starts_with("//"),
    }
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
            "",
            "a",
            "Abc",
            "1abc",
            "a-b",
            "a_b",
            "a b",
            "pg_catalog",
            "public",
            "platform",
            "ab'; drop",
            "é1",
            "a23456789012345678901234567890z",
        ] {
            assert!(Prefix::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn text_fields_are_trimmed_and_bounded() {
        assert_eq!(required_text(Field::Name, Some("  Tienda  "), 10).unwrap(), "Tienda");
        assert!(required_text(Field::Name, Some("   "), 10).is_err());
        assert!(required_text(Field::Name, None, 10).is_err());
        assert!(required_text(Field::Name, Some("abcdefghijk"), 10).is_err());
        assert_eq!(optional_text(Field::Phone, Some(" "), 10).unwrap(), None);
    }

    #[test]
    fn image_addresses_are_https_or_paths_on_this_site() {
        for ok in ["https://cdn.example/logo.png", "HTTPS://cdn.example", "/images/logo.png", "/a?b=//c"] {
            assert_eq!(optional_url(Field::LogoUrl, Some(ok)).unwrap().as_deref(), Some(ok), "{ok}");
        }
        for bad in [
            "//evil.example/x.png",
            "/\\evil.example/x.png",
            "/\t/evil.example/x.png",
            "http://evil.example/x.png",
            "https:///evil.example/x.png",
            "https://",
            "javascript:alert(1)",
            "data:image/png;base64,AAAA",
            "images/logo.png",
        ] {
            assert!(optional_url(Field::LogoUrl, Some(bad)).is_err(), "{bad:?}");
        }
        assert_eq!(optional_url(Field::LogoUrl, Some("  ")).unwrap(), None);
    }

    #[test]
    fn invisible_format_characters_are_refused_like_control_characters() {
        for invisible in [
            '\u{202E}',
            '\u{202A}',
            '\u{2066}',
            '\u{2069}',
            '\u{200B}',
            '\u{200D}',
            '\u{200F}',
            '\u{FEFF}',
            '\u{00AD}',
            '\u{2060}',
            '\u{E0041}',
        ] {
            let text = format!("Ana{invisible}María");
            assert_eq!(forbidden_character(&text), Some(Forbidden::Invisible), "{:?}", invisible);
            let error = required_text(Field::Name, Some(&text), 200).unwrap_err();
            assert_eq!(error.to_string(), "name contains invisible or text-direction characters");
        }
        assert_eq!(forbidden_character("a\u{0}b"), Some(Forbidden::Control));
        assert_eq!(forbidden_character("Ñandú café 日本 😀\nsegunda línea\t"), None);
    }

    #[test]
    fn usernames_are_lowercased_and_restricted() {
        assert_eq!(username(Some(" Ana.Maria ")).unwrap(), "ana.maria");
        assert!(username(Some("ana@shop")).is_err());
        assert!(username(Some("")).is_err());
    }
}

/// Largest money amount or points value the API accepts (COP or points).
pub const MAX_AMOUNT: i64 = 1_000_000_000_000;

/// An integer from JSON as forms send it: a number, or a string of digits. `None` when absent,
/// null or empty; `invalid()` for anything else.
fn json_integer(value: Option<&serde_json::Value>, invalid: impl Fn() -> AppError) -> Result<Option<i64>, AppError> {
    match value {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::Number(n)) => n.as_i64().map(Some).ok_or_else(invalid),
        Some(serde_json::Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(serde_json::Value::String(s)) => s.trim().parse::<i64>().map(Some).map_err(|_| invalid()),
        Some(_) => Err(invalid()),
    }
}

/// A whole number of 0 or more from JSON: a number, or a string of digits (as forms send it).
/// Absent means `default`.
pub fn whole_number(field: Field, value: Option<&serde_json::Value>, default: i64) -> Result<i64, AppError> {
    let invalid = || AppError::bad_request(Msg::FieldWholeNumber.field(field));
    let Some(n) = json_integer(value, invalid)? else { return Ok(default) };
    if !(0..=MAX_AMOUNT).contains(&n) {
        return Err(invalid());
    }
    Ok(n)
}

/// An optional id from JSON: a positive number, a string of digits, or absent/empty/null.
pub fn optional_id(field: Field, value: Option<&serde_json::Value>) -> Result<Option<i64>, AppError> {
    let invalid = || AppError::bad_request(Msg::FieldPositiveId.field(field));
    let id = json_integer(value, invalid)?;
    if id.is_some_and(|id| id <= 0) {
        return Err(invalid());
    }
    Ok(id)
}

/// Escapes `%`, `_` and `\` for a `like` pattern, and wraps the text for a substring match.
pub fn like_pattern(text: &str) -> String {
    let mut pattern = String::with_capacity(text.len() + 2);
    pattern.push('%');
    for c in text.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

/// Page sizes a paged list accepts.
pub const PAGE_SIZES: [i64; 3] = [10, 25, 50];

/// A validated page request.
#[derive(Clone, Copy, Debug)]
pub struct Page {
    pub page: i64,
    pub page_size: i64,
}

impl Page {
    pub fn parse(page: Option<i64>, page_size: Option<i64>) -> Result<Self, AppError> {
        let page = page.unwrap_or(1);
        let page_size = page_size.unwrap_or(10);
        if !(1..=1_000_000).contains(&page) {
            return Err(AppError::bad_request(Msg::PageInvalid));
        }
        if !PAGE_SIZES.contains(&page_size) {
            return Err(AppError::bad_request(Msg::PageSizeInvalid));
        }
        Ok(Page { page, page_size })
    }

    pub fn offset(&self) -> i64 {
        (self.page - 1) * self.page_size
    }
}

/// One page of a list and the size of the whole list.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Paged<T> {
    /// The page's rows, in the list's order.
    pub items: Vec<T>,
    /// Rows in the whole list.
    pub total: i64,
    /// The page answered, from 1.
    pub page: i64,
    /// Rows per page.
    pub page_size: i64,
}

/// A customer's ID document as stored and compared everywhere (lookup, add, edit, search):
/// dots and white space dropped, letters upper-cased, anything else kept as typed (the shape is
/// checked by [`document`]). "1.098.765.432" is 1098765432, "pa-778899" is PA-778899.
pub fn normalize_document(value: &str) -> String {
    value.chars().filter(|c| *c != '.' && !c.is_whitespace()).flat_map(char::to_uppercase).collect()
}

/// A search text as written for documents: the dots and spaces that group the digits of a
/// document ("79.888.777", "1 098 765 432") are dropped, so the text finds the stored document;
/// any other text (a name) is kept as it is.
pub fn search_text(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, c) in chars.iter().enumerate() {
        let grouping = (*c == '.' || c.is_whitespace())
            && i > 0
            && chars[i - 1].is_ascii_digit()
            && chars[i + 1..].iter().find(|n| !(**n == '.' || n.is_whitespace())).is_some_and(char::is_ascii_digit);
        if !grouping {
            out.push(*c);
        }
    }
    out
}

/// A customer's ID document: 3 to 20 letters, digits or '-' once normalised
/// ([`normalize_document`]).
pub fn document(value: Option<&str>) -> Result<String, AppError> {
    let value = normalize_document(value.unwrap_or_default());
    let valid = (3..=20).contains(&value.len()) && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if !valid {
        return Err(AppError::bad_request(Msg::DocumentShape));
    }
    Ok(value)
}

/// An optional e-mail address of a plain shape (something@domain.tld).
pub fn optional_email(value: Option<&str>) -> Result<Option<String>, AppError> {
    let value = optional_text(Field::Email, value, 254)?;
    if let Some(email) = &value {
        let ok = match email.split_once('@') {
            Some((local, domain)) => {
                !local.is_empty()
                    && domain.contains('.')
                    && !domain.starts_with('.')
                    && !domain.ends_with('.')
                    && !email.contains(char::is_whitespace)
                    && !domain.contains('@')
            }
            None => false,
        };
        if !ok {
            return Err(AppError::bad_request(Msg::EmailShape));
        }
    }
    Ok(value)
}

/// An optional birthdate: `YYYY-MM-DD`, or an ISO date-time cut to its first 10 characters;
/// not in the future and not before 1900.
pub fn optional_birthdate(value: Option<&str>) -> Result<Option<chrono::NaiveDate>, AppError> {
    let value = value.map(str::trim).unwrap_or_default();
    if value.is_empty() {
        return Ok(None);
    }
    let invalid = || AppError::bad_request(Msg::BirthdateShape);
    let day = value.get(..10).ok_or_else(invalid)?;
    let date = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").map_err(|_| invalid())?;
    let today = chrono::Utc::now().date_naive();
    if date > today || date < chrono::NaiveDate::from_ymd_opt(1900, 1, 1).unwrap() {
        return Err(AppError::bad_request(Msg::BirthdateRange));
    }
    Ok(Some(date))
}

#[cfg(test)]
mod input_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn whole_numbers_accept_numbers_and_digit_strings_only() {
        assert_eq!(whole_number(Field::Price, Some(&json!(1500)), 0).unwrap(), 1500);
        assert_eq!(whole_number(Field::Price, Some(&json!("2500")), 0).unwrap(), 2500);
        assert_eq!(whole_number(Field::Price, Some(&json!("")), 0).unwrap(), 0);
        assert_eq!(whole_number(Field::Price, None, 7).unwrap(), 7);
        for bad in [json!(-1), json!(1.5), json!("12a"), json!(true), json!([1]), json!(10_000_000_000_000i64)] {
            assert!(whole_number(Field::Price, Some(&bad), 0).is_err(), "{bad}");
        }
    }

    #[test]
    fn documents_drop_dots_and_spaces_and_upper_case_their_letters() {
        assert_eq!(document(Some("1.098.765.432")).unwrap(), "1098765432");
        assert_eq!(document(Some(" 79 888 777 ")).unwrap(), "79888777");
        assert_eq!(document(Some("pa-778899")).unwrap(), "PA-778899");
        assert_eq!(document(Some("Pa.778 899")).unwrap(), "PA778899");
        for bad in ["12", "", "...", "AB/123", "ÑA12345", "1234567890123456789012"] {
            assert!(document(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn search_texts_drop_only_the_grouping_of_digits() {
        assert_eq!(search_text("79.888.777"), "79888777");
        assert_eq!(search_text("1 098 765 432"), "1098765432");
        assert_eq!(search_text("Ana María"), "Ana María");
        assert_eq!(search_text("Calle 80 # 10"), "Calle 80 # 10");
        assert_eq!(search_text("pa-778.899"), "pa-778899");
        assert_eq!(search_text("79."), "79.");
    }

    #[test]
    fn like_patterns_escape_wildcards() {
        assert_eq!(like_pattern("Ana_50%"), "%ana\\_50\\%%");
    }

    #[test]
    fn pages_accept_the_listed_sizes_only() {
        assert!(Page::parse(Some(2), Some(25)).is_ok());
        assert!(Page::parse(Some(0), None).is_err());
        assert!(Page::parse(None, Some(100)).is_err());
        assert_eq!(Page::parse(Some(3), Some(10)).unwrap().offset(), 20);
    }

    #[test]
    fn birthdates_take_the_first_ten_characters_of_an_iso_date_time() {
        assert_eq!(
            optional_birthdate(Some("1990-04-12T05:00:00.000Z")).unwrap(),
            chrono::NaiveDate::from_ymd_opt(1990, 4, 12)
        );
        assert!(optional_birthdate(Some("12/04/1990")).is_err());
        assert!(optional_birthdate(Some("2999-01-01")).is_err());
        assert_eq!(optional_birthdate(Some("")).unwrap(), None);
    }

    #[test]
    fn emails_need_a_plain_shape() {
        assert!(optional_email(Some("ana@example.com")).is_ok());
        for bad in ["ana", "ana@", "@x.co", "ana@x", "a b@x.co"] {
            assert!(optional_email(Some(bad)).is_err(), "{bad}");
        }
    }
}
