//! Data access of the API keys: every SQL statement of the entity. Functions run inside the
//! caller's tenant transaction and never commit.

use tokio_postgres::Row;
use tracing::instrument;

use super::model::{ApiKey, KeyHolder};
use crate::db::Conn;
use crate::error::AppResult;
use crate::tenant::store::{record, records};

impl ApiKey {
    fn from_row(row: &Row) -> Self {
        ApiKey {
            id: row.get("id"),
            name: row.get("name"),
            pos_id: row.get("pos_id"),
            pos_name: row.get("pos_name"),
            pos_active: row.get("pos_active"),
            hint: row.get("key_hint"),
            created_at: row.get("created_at"),
            created_by: row.get("created_by"),
            last_used_at: row.get("last_used_at"),
        }
    }
}

/// The keys that are not revoked, sorted by name.
#[instrument(level = "debug", skip_all)]
pub async fn list(conn: &Conn) -> AppResult<Vec<ApiKey>> {
    let select = "select k.id, k.name, k.pos_id, p.name as pos_name, p.is_active as pos_active, k.key_hint, \
                  k.created_at, k.created_by, k.last_used_at \
                  from api_keys k join points_of_sale p on p.id = k.pos_id \
                  where k.revoked_at is null order by lower(k.name), k.id";
    records(conn, select, &[], ApiKey::from_row).await
}

/// Whether an active point of sale has this id.
#[instrument(level = "debug", skip_all, fields(pos = pos_id))]
pub async fn pos_is_active(conn: &Conn, pos_id: i64) -> AppResult<bool> {
    let select = "select 1 from points_of_sale where id = $1 and is_active";
    Ok(record(conn, select, &[&pos_id], |_| ()).await?.is_some())
}

/// Adds a key; nothing when a key that is not revoked has its name.
#[instrument(level = "debug", skip_all, fields(pos = pos_id))]
pub async fn insert(
    conn: &Conn,
    name: &str,
    pos_id: i64,
    hash: &str,
    hint: &str,
    created_by: &str,
) -> AppResult<Option<i64>> {
    let insert = "insert into api_keys (name, pos_id, key_hash, key_hint, created_by) values ($1, $2, $3, $4, $5) \
                  on conflict do nothing returning id";
    record(conn, insert, &[&name, &pos_id, &hash, &hint, &created_by], |row| row.get(0)).await
}

/// Revokes a key that is not revoked yet; answers its name, nothing when there is none.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn revoke(conn: &Conn, id: i64, by: &str) -> AppResult<Option<String>> {
    let update = "update api_keys set revoked_at = now(), revoked_by = $2 \
                  where id = $1 and revoked_at is null returning name";
    record(conn, update, &[&id, &by], |row| row.get(0)).await
}

/// The key that is not revoked with this hash, counting this request in its minute and marking
/// it used; nothing when there is none.
#[instrument(level = "debug", skip_all)]
pub async fn present(conn: &Conn, hash: &str) -> AppResult<Option<KeyHolder>> {
    let update = "update api_keys k set last_used_at = now(), \
                    window_count = case when k.window_started_at > now() - interval '1 minute' \
                                        then k.window_count + 1 else 1 end, \
                    window_started_at = case when k.window_started_at > now() - interval '1 minute' \
                                             then k.window_started_at else now() end \
                  from points_of_sale p \
                  where k.key_hash = $1 and k.revoked_at is null and p.id = k.pos_id \
                  returning k.id, k.name, k.pos_id, p.name as pos_name, p.is_active as pos_active, \
                            k.window_count, k.rate_limit_per_minute";
    record(conn, update, &[&hash], |row| KeyHolder {
        id: row.get("id"),
        name: row.get("name"),
        pos_id: row.get("pos_id"),
        pos_name: row.get("pos_name"),
        pos_active: row.get("pos_active"),
        window_count: row.get("window_count"),
        rate_limit_per_minute: row.get("rate_limit_per_minute"),
    })
    .await
}
