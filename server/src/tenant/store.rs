//! Statements the tenant area's records share: the audit trail, reading records with the calling
//! store's statement, the record that holds a unique key, and the deletion and reactivation of a
//! record ([`super::removal`]). Functions run inside the caller's tenant transaction
//! (`search_path` is the company's schema) and never commit. `table` is always a constant of the
//! calling module, never a request's text.

use tokio_postgres::types::ToSql;
use tokio_postgres::Row;
use tracing::instrument;

use crate::db::Conn;
use crate::error::{AppError, AppResult, Msg};

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

/// The records that `select` finds with `params`, each read by `from_row`.
pub async fn records<T>(
    conn: &Conn,
    select: &str,
    params: &[&(dyn ToSql + Sync)],
    from_row: impl Fn(&Row) -> T,
) -> AppResult<Vec<T>> {
    let stmt = conn.prepare_cached(select).await?;
    Ok(conn.query(&stmt, params).await?.iter().map(from_row).collect())
}

/// The record that `statement` answers with `params` (a select, or an insert or update
/// `returning` it), read by `from_row`; nothing when there is none.
pub async fn record<T>(
    conn: &Conn,
    statement: &str,
    params: &[&(dyn ToSql + Sync)],
    from_row: impl FnOnce(&Row) -> T,
) -> AppResult<Option<T>> {
    let stmt = conn.prepare_cached(statement).await?;
    Ok(conn.query_opt(&stmt, params).await?.as_ref().map(from_row))
}

/// The record that `select` finds by its id (`$1`), read by `from_row`; a 404 `not_found` when
/// there is none.
pub async fn by_id<T>(
    conn: &Conn,
    select: &str,
    id: i64,
    not_found: Msg,
    from_row: impl FnOnce(&Row) -> T,
) -> AppResult<T> {
    record(conn, select, &[&id], from_row).await?.ok_or_else(|| AppError::not_found(not_found))
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

/// Locks a record for the rest of the transaction, so that nothing can start referring to it
/// while its deletion is decided; answers its `label` column (for the audit trail; `None` inside
/// when there is none to read), or nothing when there is no record (an inactive record counts
/// only with `inactive_too`).
#[instrument(level = "debug", skip_all, fields(table = table, id = id))]
pub async fn lock(
    conn: &Conn,
    table: &str,
    label: Option<&str>,
    id: i64,
    inactive_too: bool,
) -> AppResult<Option<Option<String>>> {
    let active = if inactive_too { "" } else { " and is_active" };
    let label = label.map_or_else(|| "null::text".to_string(), |column| format!("{column}::text"));
    let stmt = conn.prepare_cached(&format!("select {label} from {table} where id = $1{active} for update")).await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| row.get(0)))
}

/// What refers to a record: `usage` is the calling store's statement counting it by id.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn usage(conn: &Conn, usage: &str, id: i64) -> AppResult<Option<Row>> {
    let stmt = conn.prepare_cached(usage).await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?)
}

/// Makes a record inactive (a soft delete).
#[instrument(level = "debug", skip_all, fields(table = table, id = id))]
pub async fn deactivate(conn: &Conn, table: &str, id: i64) -> AppResult<()> {
    let stmt = conn.prepare_cached(&format!("update {table} set is_active = false where id = $1")).await?;
    conn.execute(&stmt, &[&id]).await?;
    Ok(())
}

/// Deletes a record (a hard delete).
#[instrument(level = "debug", skip_all, fields(table = table, id = id))]
pub async fn delete(conn: &Conn, table: &str, id: i64) -> AppResult<()> {
    let stmt = conn.prepare_cached(&format!("delete from {table} where id = $1")).await?;
    conn.execute(&stmt, &[&id]).await?;
    Ok(())
}

/// Makes an inactive record active again and answers its `label` column as [`lock`] does;
/// nothing when there is no inactive record with this id.
#[instrument(level = "debug", skip_all, fields(table = table, id = id))]
pub async fn activate(conn: &Conn, table: &str, label: Option<&str>, id: i64) -> AppResult<Option<Option<String>>> {
    let label = label.map_or_else(|| "null::text".to_string(), |column| format!("{column}::text"));
    let stmt = conn
        .prepare_cached(&format!(
            "update {table} set is_active = true where id = $1 and not is_active returning {label}"
        ))
        .await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| row.get(0)))
}
