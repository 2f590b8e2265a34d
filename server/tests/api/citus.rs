//! What Citus schema-based sharding needs of the server (docs/scaling.md), checked on plain
//! PostgreSQL: Citus itself is not in the registries CI installs from.
//!
//! - No statement reads `platform.` and a company's table together: on Citus the platform is on
//!   the coordinator and the company on a worker, and such a statement cannot be routed.
//! - No `insert` holds a subquery in its `values` or its `returning`: Citus refuses them.
//! - Migrations run one statement per execution: Citus cannot forward a text of several DDL
//!   statements to its workers.
//!
//! The first two read the SQL of the server's source: every string literal that looks like SQL,
//! with the `{NAME}` of `format!` replaced by the constant of that name.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::helpers::spawn_acme;

fn server_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Every string literal of a Rust source file: its byte offset and its text, with `\`-newline
/// continuations joined and the common escapes undone.
fn string_literals(src: &str) -> Vec<(usize, String)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => i = src[i..].find('\n').map_or(b.len(), |n| i + n),
            b'/' if b.get(i + 1) == Some(&b'*') => i = src[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2),
            b'\'' => {
                // A char literal ('x', '\'', 'é') or a lifetime ('a).
                if b.get(i + 1) == Some(&b'\\') {
                    i = src[i + 3..].find('\'').map_or(b.len(), |n| i + 3 + n + 1);
                } else {
                    let len = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                    i += if b.get(i + 1 + len) == Some(&b'\'') { len + 2 } else { 1 };
                }
            }
            b'r' if (i == 0 || !is_ident_byte(b[i - 1])) && matches!(b.get(i + 1), Some(b'"') | Some(b'#')) => {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let open = i + 2 + hashes;
                let close = format!("\"{}", "#".repeat(hashes));
                let end = src[open..].find(&close).map_or(b.len(), |n| open + n);
                out.push((i, src[open..end].to_string()));
                i = end + close.len();
            }
            b'"' => {
                let start = i;
                let mut text = String::new();
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        match b.get(i + 1) {
                            Some(b'\n') => {
                                i += 2;
                                while i < b.len() && b[i].is_ascii_whitespace() {
                                    i += 1;
                                }
                                continue;
                            }
                            Some(b'n') => text.push('\n'),
                            Some(b't') => text.push('\t'),
                            Some(&c) => text.push(c as char),
                            None => {}
                        }
                        i += 2;
                        continue;
                    }
                    let ch = src[i..].chars().next().unwrap();
                    text.push(ch);
                    i += ch.len_utf8();
                }
                out.push((start, text));
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Whether a literal reads like an SQL statement or a piece of one.
fn looks_like_sql(text: &str) -> bool {
    let t = text.to_lowercase();
    ["select ", "insert into ", "update ", "delete from ", "create ", "alter ", "drop ", "with "]
        .iter()
        .any(|k| t.trim_start().starts_with(k) || t.contains(&format!(" {k}")))
        && (t.contains(" from ")
            || t.contains(" into ")
            || t.contains(" set ")
            || t.contains(" table ")
            || t.contains(" schema "))
}

/// The server's SQL: every SQL literal of `server/src`, named by file and line, with the
/// `{NAME}` of `format!` replaced by the text of the constant `NAME` (wherever it is defined).
fn server_sql() -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(&server_dir().join("src"), &mut files);
    let sources: Vec<(PathBuf, String)> =
        files.into_iter().map(|f| (f.clone(), std::fs::read_to_string(&f).unwrap())).collect();
    let mut constants = HashMap::new();
    for (_, src) in &sources {
        let literals = string_literals(src);
        for keyword in ["const ", "static "] {
            for (at, _) in src.match_indices(keyword) {
                let name: String =
                    src[at + keyword.len()..].chars().take_while(|c| c.is_ascii_uppercase() || *c == '_').collect();
                if name.len() < 2 || !src[at + keyword.len() + name.len()..].starts_with(':') {
                    continue;
                }
                if let Some((_, text)) = literals.iter().find(|(start, _)| *start > at && *start < at + 400) {
                    constants.insert(name, text.clone());
                }
            }
        }
    }
    let expand = |text: &str| {
        let mut text = text.to_string();
        for _ in 0..3 {
            for (name, value) in &constants {
                text = text.replace(&format!("{{{name}}}"), value);
            }
        }
        text
    };
    let mut statements = Vec::new();
    for (file, src) in &sources {
        for (at, text) in string_literals(src) {
            if looks_like_sql(&text) {
                let line = src[..at].matches('\n').count() + 1;
                let place = format!("{}:{line}", file.strip_prefix(server_dir()).unwrap().display());
                statements.push((place, expand(&text).to_lowercase()));
            }
        }
    }
    statements
}

/// The tables of a company's schema, from the tenant migrations.
fn tenant_tables() -> Vec<String> {
    let mut tables = Vec::new();
    for entry in std::fs::read_dir(server_dir().join("../tenant_migrations")).unwrap() {
        let sql = std::fs::read_to_string(entry.unwrap().path()).unwrap().to_lowercase();
        for (at, _) in sql.match_indices("create table ") {
            let rest = sql[at + "create table ".len()..].trim_start_matches("if not exists ");
            tables.push(rest.chars().take_while(|c| is_ident_byte(*c as u8)).collect());
        }
    }
    assert!(tables.len() >= 10, "the tenant migrations create the company's tables: {tables:?}");
    tables
}

/// The unqualified relations a statement names after `from`, `join`, `into`, `update`, `using`.
fn unqualified_relations(sql: &str) -> Vec<&str> {
    let words: Vec<&str> =
        sql.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')).filter(|w| !w.is_empty()).collect();
    words
        .windows(2)
        .filter(|pair| ["from", "join", "into", "update", "using"].contains(&pair[0]) && !pair[1].contains('.'))
        .map(|pair| pair[1])
        .collect()
}

fn reads_platform_and_a_company_table(sql: &str, tenant_tables: &[String]) -> bool {
    sql.contains("platform.") && unqualified_relations(sql).iter().any(|r| tenant_tables.iter().any(|t| t == r))
}

/// The text of each `insert` of a statement, up to its end (a `;`, the statement's end or the
/// parenthesis closing the CTE that holds it).
fn inserts(sql: &str) -> Vec<&str> {
    sql.match_indices("insert into ")
        .map(|(at, _)| {
            let mut depth = 0i32;
            let end = sql[at..]
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    depth < 0 || (c == ';' && depth == 0)
                })
                .map_or(sql.len(), |(n, _)| at + n);
            &sql[at..end]
        })
        .collect()
}

/// Whether an `insert` holds a subquery Citus refuses: in its `returning`, or anywhere in an
/// `insert ... values`.
fn insert_has_subquery(insert: &str) -> bool {
    let returning = insert.find(" returning ").map_or("", |at| &insert[at..]);
    let values_form = insert.contains(" values ") || insert.contains(" values(") || insert.contains(" default values");
    returning.contains("select") || (values_form && insert.contains("select"))
}

#[test]
fn the_checks_recognise_the_statements_citus_refused() {
    let tables = tenant_tables();
    let user_check = "select u.username from platform.companies c join users u on u.id = $1 where c.id = $2";
    assert!(reads_platform_and_a_company_table(user_check, &tables));
    assert!(!reads_platform_and_a_company_table("select 1 from platform.companies where id = $1", &tables));
    assert!(!reads_platform_and_a_company_table("select id from users where id = $1", &tables));

    let ledger = "insert into transactions (pos_id) values ($1) returning id, (select name from points_of_sale where id = $1) as pos_name";
    assert!(inserts(ledger).iter().any(|i| insert_has_subquery(i)));
    let in_values = "insert into audit_log (actor) values ((select username from users where id = $1))";
    assert!(inserts(in_values).iter().any(|i| insert_has_subquery(i)));
    let joined = "with inserted as (insert into transactions (pos_id) values ($1) returning id, pos_id) \
                  select i.id, p.name from inserted i left join points_of_sale p on p.id = i.pos_id";
    assert!(!inserts(joined).iter().any(|i| insert_has_subquery(i)), "{:?}", inserts(joined));
    let insert_select =
        "insert into batch_movements (batch_id) select plan.batch_id from plan join taken on taken.id = plan.batch_id";
    assert!(!inserts(insert_select).iter().any(|i| insert_has_subquery(i)));
}

#[test]
fn no_statement_reads_the_platform_schema_and_a_company_table_together() {
    let statements = server_sql();
    assert!(statements.len() > 100, "the scan finds the server's SQL: {}", statements.len());
    let tables = tenant_tables();
    let offending: Vec<&(String, String)> =
        statements.iter().filter(|(_, sql)| reads_platform_and_a_company_table(sql, &tables)).collect();
    assert!(offending.is_empty(), "on Citus these cannot be routed (docs/scaling.md): {offending:#?}");
}

#[test]
fn no_insert_holds_a_subquery_in_its_values_or_its_returning() {
    let statements = server_sql();
    let offending: Vec<(&String, &str)> = statements
        .iter()
        .flat_map(|(place, sql)| inserts(sql).into_iter().map(move |insert| (place, insert)))
        .filter(|(_, insert)| insert_has_subquery(insert))
        .collect();
    assert!(offending.is_empty(), "Citus refuses these (docs/scaling.md); join in a CTE instead: {offending:#?}");
}

#[test]
fn every_migration_file_cuts_into_single_statements() {
    for dir in ["../platform_migrations", "../tenant_migrations"] {
        for entry in std::fs::read_dir(server_dir().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let sql = std::fs::read_to_string(&path).unwrap();
            let statements =
                loyalty::migrate::statements::split(&sql).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(!statements.is_empty(), "{}", path.display());
            assert!(statements.iter().all(|s| !s.trim().is_empty()), "{}", path.display());
        }
    }
}

#[tokio::test]
async fn a_migration_runs_one_statement_per_execution() {
    let (app, _) = spawn_acme().await;
    // `current_query()` is the text of the execution running it: the whole file if the file
    // went out at once, this one statement when the runner cut it.
    let probe = refinery::Migration::unapplied(
        "V1000__probe",
        "create table probe (executed text);\n\
         -- a comment; with a semicolon\n\
         insert into probe select current_query();\n\
         create index probe_idx on probe (executed);",
    )
    .unwrap();
    let opts =
        loyalty::migrate::MigrateOptions { concurrency: 1, extra_tenant_migrations: vec![probe], ..Default::default() };
    let summary = loyalty::migrate::migrate_all(&app.db_url, &opts).await.unwrap();
    assert_eq!(summary.failed(), 0, "{:?}", summary.tenants);
    let db = app.db().await;
    let executed: String = db.query_one("select executed from tenant_acme.probe", &[]).await.unwrap().get(0);
    assert!(executed.trim_start().starts_with("-- a comment") && executed.contains("insert into probe"), "{executed}");
    assert!(!executed.contains("create table") && !executed.contains("create index"), "{executed}");
}
