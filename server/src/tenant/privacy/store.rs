//! Data access of the privacy notices and the customers' authorizations: every SQL statement of
//! the area. Functions run inside the caller's tenant transaction and never commit, but for
//! [`active_company`], which reads the platform.

use tracing::instrument;

use super::model::{
    ConsentRecord, PrivacyNotice, Purpose, ValidNotice, CONSENT_COLUMNS, NOTICE_COLUMNS, REQUIRED_PURPOSE, TEMPLATE,
    TEMPLATE_PURPOSES,
};
use crate::db::Conn;
use crate::error::AppResult;

/// The id and name of the active company with this prefix, read on a platform connection.
#[instrument(level = "debug", skip_all)]
pub async fn active_company(pool: &deadpool_postgres::Pool, prefix: &str) -> AppResult<Option<(i64, String)>> {
    let conn = pool.get().await?;
    let stmt =
        conn.prepare_cached("select id, name from platform.companies where prefix = $1 and state = 'active'").await?;
    Ok(conn.query_opt(&stmt, &[&prefix]).await?.map(|row| (row.get(0), row.get(1))))
}

/// The notice in force (the highest version). A company without any gets version 1 from the
/// template, with its name, by `system`.
#[instrument(level = "debug", skip_all, fields(company = company_id))]
pub async fn current(conn: &Conn, company_id: i64) -> AppResult<PrivacyNotice> {
    let stmt = conn
        .prepare_cached(&format!("select {NOTICE_COLUMNS} from privacy_notices order by version desc limit 1"))
        .await?;
    if let Some(row) = conn.query_opt(&stmt, &[]).await? {
        return Ok(PrivacyNotice::from_row(&row));
    }
    let name_stmt = conn.prepare_cached("select name from platform.companies where id = $1").await?;
    let name: String = conn.query_opt(&name_stmt, &[&company_id]).await?.map(|row| row.get(0)).unwrap_or_default();
    let (body, purposes) = first_notice(&name);
    let insert = conn.prepare_cached(FIRST_NOTICE).await?;
    conn.execute(&insert, &[&body, &purposes]).await?;
    let row = conn.query_one(&stmt, &[]).await?;
    Ok(PrivacyNotice::from_row(&row))
}

/// Writes version 1, unless there is one: `$1` its text, `$2` its purposes (`first_notice`).
pub const FIRST_NOTICE: &str = "insert into privacy_notices (version, body, purposes, published_by) \
    values (1, $1, $2, 'system') on conflict do nothing";

/// Version 1's text for a company of this name, and its purposes as stored.
pub fn first_notice(company: &str) -> (String, serde_json::Value) {
    let purposes: Vec<Purpose> = TEMPLATE_PURPOSES
        .iter()
        .map(|(key, description)| Purpose {
            key: key.to_string(),
            description: description.to_string(),
            required: *key == REQUIRED_PURPOSE,
        })
        .collect();
    (TEMPLATE.replace("{empresa}", company), serde_json::to_value(purposes).unwrap_or_default())
}

/// Every version, newest first.
#[instrument(level = "debug", skip_all)]
pub async fn list(conn: &Conn) -> AppResult<Vec<PrivacyNotice>> {
    let stmt =
        conn.prepare_cached(&format!("select {NOTICE_COLUMNS} from privacy_notices order by version desc")).await?;
    Ok(conn.query(&stmt, &[]).await?.iter().map(PrivacyNotice::from_row).collect())
}

/// Publishes the next version. The table is locked so that two admins publishing at once get
/// consecutive versions.
#[instrument(level = "debug", skip_all)]
pub async fn publish(conn: &Conn, n: &ValidNotice, actor: (&str, Option<&str>)) -> AppResult<PrivacyNotice> {
    conn.batch_execute("lock table privacy_notices in share row exclusive mode").await?;
    let stmt = conn
        .prepare_cached(&format!(
            "insert into privacy_notices (version, body, purposes, published_by, impersonated_by) \
             select coalesce(max(version), 0) + 1, $1, $2, $3, $4 from privacy_notices returning {NOTICE_COLUMNS}"
        ))
        .await?;
    let purposes = serde_json::to_value(&n.purposes).unwrap_or_default();
    let row = conn.query_one(&stmt, &[&n.body, &purposes, &actor.0, &actor.1]).await?;
    Ok(PrivacyNotice::from_row(&row))
}

/// Records a customer's answers to purposes of a notice version.
#[instrument(level = "debug", skip_all, fields(customer = customer_id))]
pub async fn record(
    conn: &Conn,
    customer_id: i64,
    version: i32,
    answers: &[(String, bool)],
    channel: &str,
    actor: (&str, Option<&str>),
) -> AppResult<()> {
    let (purposes, granted): (Vec<&str>, Vec<bool>) = answers.iter().map(|(p, g)| (p.as_str(), *g)).unzip();
    let stmt = conn
        .prepare_cached(
            "insert into customer_consents \
               (customer_id, notice_version, purpose, granted, channel, recorded_by, impersonated_by) \
             select $1, $2, p, g, $5, $6, $7 from unnest($3::text[], $4::boolean[]) as a (p, g)",
        )
        .await?;
    conn.execute(&stmt, &[&customer_id, &version, &purposes, &granted, &channel, &actor.0, &actor.1]).await?;
    Ok(())
}

/// Every answer of a customer, newest first.
#[instrument(level = "debug", skip_all, fields(customer = customer_id))]
pub async fn history(conn: &Conn, customer_id: i64) -> AppResult<Vec<ConsentRecord>> {
    let stmt = conn
        .prepare_cached(&format!(
            "select {CONSENT_COLUMNS} from customer_consents where customer_id = $1 order by id desc"
        ))
        .await?;
    Ok(conn.query(&stmt, &[&customer_id]).await?.iter().map(ConsentRecord::from_row).collect())
}

/// The document of an active customer, locked until the transaction ends.
#[instrument(level = "debug", skip_all, fields(customer = customer_id))]
pub async fn lock_customer(conn: &Conn, customer_id: i64) -> AppResult<Option<String>> {
    let stmt = conn.prepare_cached("select document from customers where id = $1 and is_active for update").await?;
    Ok(conn.query_opt(&stmt, &[&customer_id]).await?.map(|row| row.get(0)))
}
