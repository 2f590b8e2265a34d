//! Statements the tenant area's records share: the audit trail and the record that holds a
//! unique key. Functions run inside the caller's tenant transaction (`search_path` is the
//! company's schema) and never commit.

use tokio_postgres::types::ToSql;
use tracing::instrument;

use crate::db::Conn;

/// Records a change in the company's audit trail, by `actor` (and the super admin who
/// impersonates them, if any).
#[instrument(level = "debug", skip_all, fields(action = action, entity_id = ?entity_id))]
pub async fn insert_audit(
    conn: &Conn,
    (actor, impersonated_by): (&str, Option<&str>),
    action: &str,
    entity: &str,
    entity_id: Option<i64>,
    detail: &serde_json::Value,
) -> Result<(), tokio_postgres::Error> {
    let stmt = conn
        .prepare_cached(
            "insert into audit_log (actor, impersonated_by, action, entity, entity_id, detail) \
             values ($1, $2, $3, $4, $5, $6)",
        )
        .await?;
    conn.execute(&stmt, &[&actor, &impersonated_by, &action, &entity, &entity_id, detail]).await?;
    Ok(())
}

/// The record that holds a unique key, as `(id, is_active)`: `lookup` is the calling store's
/// statement selecting `id, is_active` by the key.
#[instrument(level = "debug", skip_all)]
pub async fn key_holder(
    conn: &Conn,
    lookup: &str,
    key: &(dyn ToSql + Sync),
) -> Result<Option<(i64, bool)>, tokio_postgres::Error> {
    let stmt = conn.prepare_cached(lookup).await?;
    Ok(conn.query_opt(&stmt, &[key]).await?.map(|row| (row.get("id"), row.get("is_active"))))
}
