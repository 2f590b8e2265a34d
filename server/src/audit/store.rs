//! Data access of the audit trail's reader: every SQL statement of the area. Functions run
//! inside the caller's tenant transaction and never commit.

use chrono::{DateTime, Utc};
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;
use tracing::instrument;

use super::model::AuditEntry;
use crate::db::Conn;
use crate::error::AppResult;

/// How many matches past the page's end are counted exactly. Counting every entry of a large
/// trail would read it whole for a number no one needs beyond "many".
pub const COUNT_AHEAD: i64 = 10_000;

/// The reader's filters; `None` does not filter.
#[derive(Debug, Default)]
pub struct AuditFilter {
    /// The username who acted, or the super admin who impersonated them.
    pub actor: Option<String>,
    /// The action's code.
    pub action: Option<String>,
    /// Inclusive lower bound.
    pub from: Option<DateTime<Utc>>,
    /// Exclusive upper bound.
    pub until: Option<DateTime<Utc>>,
}

/// The `where` clause on `audit_log`, its parameters `$1` to `$4`. Statements are planned for
/// their parameters at each execution (the pool's `plan_cache_mode`), so an absent filter folds
/// away and the indexes of migration V16 serve the present ones.
const FILTER: &str = "where ($1::text is null or actor = $1 or impersonated_by = $1) \
     and ($2::text is null or action = $2) \
     and ($3::timestamptz is null or at >= $3) \
     and ($4::timestamptz is null or at < $4)";

fn entry_from_row(row: &Row) -> AuditEntry {
    AuditEntry {
        id: row.get("id"),
        at: row.get("at"),
        actor: row.get("actor"),
        impersonated_by: row.get("impersonated_by"),
        action: row.get("action"),
        entity: row.get("entity"),
        entity_id: row.get("entity_id"),
        detail: row.get("detail"),
    }
}

/// One page of the matching entries, newest first, and how many match: exactly when fewer than
/// the page's end plus [`COUNT_AHEAD`] do, else that many (the flag false).
#[instrument(level = "debug", skip_all, fields(limit = limit, offset = offset))]
pub async fn search(
    conn: &Conn,
    filter: &AuditFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<AuditEntry>, i64, bool)> {
    let params: [&(dyn ToSql + Sync); 4] = [&filter.actor, &filter.action, &filter.from, &filter.until];
    let count_up_to = offset.saturating_add(limit).saturating_add(COUNT_AHEAD);
    let count =
        conn.prepare_cached(&format!("select count(*) from (select from audit_log {FILTER} limit $5) m")).await?;
    let mut count_params = params.to_vec();
    count_params.push(&count_up_to);
    let total: i64 = conn.query_one(&count, &count_params).await?.get(0);
    let page = conn
        .prepare_cached(&format!(
            "select id, at, actor, impersonated_by, action, entity, entity_id, detail from audit_log {FILTER} \
             order by at desc, id desc limit $5 offset $6"
        ))
        .await?;
    let mut page_params = params.to_vec();
    page_params.push(&limit);
    page_params.push(&offset);
    let items = conn.query(&page, &page_params).await?.iter().map(entry_from_row).collect();
    Ok((items, total, total < count_up_to))
}
