//! A migration file cut into its statements, so that the runner sends each one as an execution
//! of its own. Citus forwards a DDL statement's text to the workers as it arrived, and a text
//! holding several statements fails there (docs/scaling.md); PostgreSQL's extended protocol,
//! which the runner uses, refuses such a text too, so every test that migrates proves the cut.

use std::fmt;

/// Why a migration file could not be cut into statements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitError(String);

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SplitError {}

/// The statements of `sql` in order, each without its closing `;`. Semicolons inside quotes,
/// quoted identifiers, dollar-quoted bodies and comments do not end a statement; pieces that
/// hold only whitespace and comments are left out. A `begin atomic` body (whose statements end
/// in semicolons of their own) is refused: write function bodies dollar-quoted.
pub fn split(sql: &str) -> Result<Vec<&str>, SplitError> {
    let bytes = sql.as_bytes();
    let mut statements = Vec::new();
    let mut start = 0;
    // The statement's text outside comments and quotes, lower-cased with single spaces: is it
    // empty, does it open a `begin atomic` body.
    let mut code = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let next = bytes.get(i + 1).copied();
        match c {
            b'-' if next == Some(b'-') => {
                i = sql[i..].find('\n').map_or(bytes.len(), |n| i + n + 1);
                code.push(' ');
                continue;
            }
            b'/' if next == Some(b'*') => {
                i = block_comment_end(bytes, i)
                    .ok_or_else(|| SplitError(format!("unterminated comment at byte {i}")))?;
                code.push(' ');
                continue;
            }
            b'\'' => {
                let backslash_escapes =
                    i > 0 && matches!(bytes[i - 1], b'e' | b'E') && !(i > 1 && is_ident_byte(bytes[i - 2]));
                i = quoted_end(bytes, i, b'\'', backslash_escapes)
                    .ok_or_else(|| SplitError(format!("unterminated string at byte {i}")))?;
                code.push('\'');
                continue;
            }
            b'"' => {
                i = quoted_end(bytes, i, b'"', false)
                    .ok_or_else(|| SplitError(format!("unterminated quoted identifier at byte {i}")))?;
                code.push('"');
                continue;
            }
            b'$' if !(i > 0 && is_ident_byte(bytes[i - 1])) => {
                if let Some(tag_len) = dollar_tag_len(&bytes[i..]) {
                    let tag = &sql[i..i + tag_len];
                    let body = i + tag_len;
                    let close = sql[body..]
                        .find(tag)
                        .ok_or_else(|| SplitError(format!("unterminated {tag} body at byte {i}")))?;
                    i = body + close + tag_len;
                    code.push('$');
                    continue;
                }
            }
            b';' => {
                push_statement(&mut statements, &sql[start..i], &code)?;
                code.clear();
                start = i + 1;
                i += 1;
                continue;
            }
            _ => {}
        }
        if c.is_ascii_whitespace() {
            if !code.ends_with(' ') {
                code.push(' ');
            }
        } else {
            code.push(c.to_ascii_lowercase() as char);
        }
        i += 1;
    }
    push_statement(&mut statements, &sql[start..], &code)?;
    Ok(statements)
}

fn push_statement<'a>(statements: &mut Vec<&'a str>, text: &'a str, code: &str) -> Result<(), SplitError> {
    let code = code.trim();
    if code.is_empty() {
        return Ok(());
    }
    if code.contains("begin atomic") {
        return Err(SplitError(format!(
            "a `begin atomic` body cannot be cut into statements; write the function body dollar-quoted: {}",
            first_line(text)
        )));
    }
    statements.push(text.trim());
    Ok(())
}

/// The first line of a statement's text that is not blank or a comment, for messages.
pub fn first_line(text: &str) -> &str {
    text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("--")).unwrap_or_default()
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The index just past the `*/` closing the (nestable) comment opened at `open`.
fn block_comment_end(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0;
    let mut i = open;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'/', b'*') => {
                depth += 1;
                i += 2;
            }
            (b'*', b'/') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// The index just past the quote closing the one at `open`; a doubled quote stands for itself,
/// and with `backslash_escapes` (an `E'...'` string) so does a quote after a backslash.
fn quoted_end(bytes: &[u8], open: usize, quote: u8, backslash_escapes: bool) -> Option<usize> {
    let mut i = open + 1;
    while i < bytes.len() {
        let c = bytes[i];
        if backslash_escapes && c == b'\\' {
            i += 2;
            continue;
        }
        if c == quote {
            if bytes.get(i + 1) == Some(&quote) {
                i += 2;
                continue;
            }
            return Some(i + 1);
        }
        i += 1;
    }
    None
}

/// The length of the `$tag$` that starts `rest`, if it starts one (`$1` is a parameter).
fn dollar_tag_len(rest: &[u8]) -> Option<usize> {
    let mut i = 1;
    while i < rest.len() && rest[i] != b'$' {
        let ok = if i == 1 {
            rest[i].is_ascii_alphabetic() || rest[i] == b'_' || rest[i] >= 0x80
        } else {
            is_ident_byte(rest[i])
        };
        if !ok {
            return None;
        }
        i += 1;
    }
    (i < rest.len()).then_some(i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_end_at_semicolons_outside_quotes_comments_and_bodies() {
        let sql = "-- a comment; still a comment\n\
                   create table a (id int, note text default 'x;y''z;');\n\
                   /* block; /* nested; */ still; */ create index a_idx on a (id);\n\
                   comment on table a is E'it\\'s; fine';\n\
                   create function f() returns int language sql as $body$ select 1; $body$;\n\
                   create function g() returns int language plpgsql as $$ begin return 2; end $$;\n\
                   alter table \"odd;name\" add column \"x;\" int;\n\
                   select $1::int;\n\
                   -- trailing comment only\n";
        let statements = split(sql).unwrap();
        assert_eq!(statements.len(), 7, "{statements:#?}");
        assert!(statements[0].starts_with("-- a comment") && statements[0].ends_with("'x;y''z;')"));
        assert!(statements[1].ends_with("create index a_idx on a (id)"));
        assert_eq!(statements[2], "comment on table a is E'it\\'s; fine'");
        assert!(statements[3].ends_with("$body$ select 1; $body$"));
        assert!(statements[4].ends_with("end $$"));
        assert_eq!(statements[5], "alter table \"odd;name\" add column \"x;\" int");
        assert_eq!(statements[6], "select $1::int");
    }

    #[test]
    fn a_file_of_one_statement_without_a_final_semicolon_is_that_statement() {
        assert_eq!(split("  select 1  ").unwrap(), vec!["select 1"]);
        assert!(split("-- nothing\n\n/* at all */ ;;").unwrap().is_empty());
    }

    #[test]
    fn unterminated_quotes_comments_and_bodies_are_refused() {
        assert!(split("select 'abc;").is_err());
        assert!(split("select \"abc;").is_err());
        assert!(split("select 1; /* open").is_err());
        assert!(split("create function f() returns int as $x$ select 1;").is_err());
    }

    #[test]
    fn a_begin_atomic_body_is_refused_rather_than_cut_in_pieces() {
        let err = split("create function f() returns int language sql begin atomic select 1; end;").unwrap_err();
        assert!(err.to_string().contains("begin atomic"), "{err}");
    }

    #[test]
    fn dollar_signs_inside_identifiers_and_parameters_open_no_body() {
        assert_eq!(
            split("select a$b$ from t where x = $1; select 2").unwrap(),
            vec!["select a$b$ from t where x = $1", "select 2"]
        );
    }
}
