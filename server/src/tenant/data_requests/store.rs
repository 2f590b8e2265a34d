//! Data access of the data holders' requests: every SQL statement of the entity. Functions run
//! inside the caller's tenant transaction and never commit.

use chrono::NaiveDate;
use tracing::instrument;

use super::model::{DataRequest, NewRequest, COLUMNS};
use crate::db::Conn;
use crate::domain::Page;
use crate::error::AppResult;

/// What a change needs to know of a request, read with the row locked.
pub struct Current {
    pub kind: String,
    pub status: String,
    pub extended: bool,
    pub customer_id: Option<i64>,
    pub due_on: NaiveDate,
}

/// One page of the requests with this status and kind (every one when absent): open and
/// incomplete first, the soonest due first, then the others newest first; and how many there are.
#[instrument(level = "debug", skip_all, fields(page = page.page))]
pub async fn list(
    conn: &Conn,
    status: Option<&str>,
    kind: Option<&str>,
    page: &Page,
    today: NaiveDate,
) -> AppResult<(Vec<DataRequest>, i64)> {
    let filter = "($1::text is null or r.status = $1) and ($2::text is null or r.kind = $2)";
    let total_stmt = conn.prepare_cached(&format!("select count(*) from data_requests r where {filter}")).await?;
    let page_stmt = conn
        .prepare_cached(&format!(
            "select {COLUMNS} from data_requests r where {filter} \
             order by r.status in ('open', 'incomplete') desc, \
                      case when r.status in ('open', 'incomplete') then r.due_on end, \
                      case when r.status in ('open', 'incomplete') then r.id else -r.id end \
             limit $3 offset $4"
        ))
        .await?;
    let total: i64 = conn.query_one(&total_stmt, &[&status, &kind]).await?.get(0);
    let rows = conn.query(&page_stmt, &[&status, &kind, &page.page_size, &page.offset()]).await?;
    Ok((rows.iter().map(|row| DataRequest::from_row(row, today)).collect(), total))
}

/// The open requests due on or before `until` (overdue ones included), the soonest first.
#[instrument(level = "debug", skip_all)]
pub async fn due_by(conn: &Conn, until: NaiveDate, today: NaiveDate) -> AppResult<Vec<DataRequest>> {
    let stmt = conn
        .prepare_cached(&format!(
            "select {COLUMNS} from data_requests r where r.status = 'open' and r.due_on <= $1 order by r.due_on, r.id"
        ))
        .await?;
    Ok(conn.query(&stmt, &[&until]).await?.iter().map(|row| DataRequest::from_row(row, today)).collect())
}

/// The document of a customer (active or not).
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn customer_document(conn: &Conn, id: i64) -> AppResult<Option<String>> {
    let stmt = conn.prepare_cached("select document from customers where id = $1").await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| row.get(0)))
}

/// The customer (active or not) holding a document.
#[instrument(level = "debug", skip_all)]
pub async fn customer_by_document(conn: &Conn, document: &str) -> AppResult<Option<i64>> {
    let stmt = conn.prepare_cached("select id from customers where document = $1").await?;
    Ok(conn.query_opt(&stmt, &[&document]).await?.map(|row| row.get(0)))
}

/// Files a request.
#[instrument(level = "debug", skip_all)]
pub async fn insert(
    conn: &Conn,
    r: &NewRequest,
    filed_on: NaiveDate,
    due_on: NaiveDate,
    filed_by: &str,
    today: NaiveDate,
) -> AppResult<DataRequest> {
    let stmt = conn
        .prepare_cached(&format!(
            "with r as (insert into data_requests (customer_id, document, kind, subject, details, filed_on, due_on, filed_by) \
             values ($1, $2, $3, $4, $5, $6, $7, $8) returning *) select {COLUMNS} from r"
        ))
        .await?;
    let row = conn
        .query_one(
            &stmt,
            &[&r.customer_id, &r.document, &r.kind.as_str(), &r.subject, &r.details, &filed_on, &due_on, &filed_by],
        )
        .await?;
    Ok(DataRequest::from_row(&row, today))
}

/// A request's state, its row locked until the transaction ends.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn lock(conn: &Conn, id: i64) -> AppResult<Option<Current>> {
    let stmt = conn
        .prepare_cached(
            "select kind, status, extended_at is not null as extended, customer_id, due_on \
             from data_requests where id = $1 for update",
        )
        .await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| Current {
        kind: row.get("kind"),
        status: row.get("status"),
        extended: row.get("extended"),
        customer_id: row.get("customer_id"),
        due_on: row.get("due_on"),
    }))
}

/// Extends an open request once: its new due date and why.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn extend(conn: &Conn, id: i64, due_on: NaiveDate, reason: &str, today: NaiveDate) -> AppResult<DataRequest> {
    let stmt = conn
        .prepare_cached(&format!(
            "update data_requests as r set due_on = $2, extended_at = now(), extension_reason = $3 \
             where r.id = $1 returning {COLUMNS}"
        ))
        .await?;
    Ok(DataRequest::from_row(&conn.query_one(&stmt, &[&id, &due_on, &reason]).await?, today))
}

/// Marks a reclamo incomplete, saying what it lacks.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn mark_incomplete(conn: &Conn, id: i64, reason: &str, today: NaiveDate) -> AppResult<DataRequest> {
    let stmt = conn
        .prepare_cached(&format!(
            "update data_requests as r set status = 'incomplete', incomplete_reason = $2 \
             where r.id = $1 returning {COLUMNS}"
        ))
        .await?;
    Ok(DataRequest::from_row(&conn.query_one(&stmt, &[&id, &reason]).await?, today))
}

/// Reopens a completed reclamo with its new due date.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn reopen(conn: &Conn, id: i64, due_on: NaiveDate, today: NaiveDate) -> AppResult<DataRequest> {
    let stmt = conn
        .prepare_cached(&format!(
            "update data_requests as r set status = 'open', due_on = $2 where r.id = $1 returning {COLUMNS}"
        ))
        .await?;
    Ok(DataRequest::from_row(&conn.query_one(&stmt, &[&id, &due_on]).await?, today))
}

/// Records the answer given to the holder.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn answer(conn: &Conn, id: i64, answer: &str, by: &str, today: NaiveDate) -> AppResult<DataRequest> {
    let stmt = conn
        .prepare_cached(&format!(
            "update data_requests as r set status = 'answered', answer = $2, answered_at = now(), answered_by = $3 \
             where r.id = $1 returning {COLUMNS}"
        ))
        .await?;
    Ok(DataRequest::from_row(&conn.query_one(&stmt, &[&id, &answer, &by]).await?, today))
}

/// Closes a request.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn close(conn: &Conn, id: i64, today: NaiveDate) -> AppResult<DataRequest> {
    let stmt = conn
        .prepare_cached(&format!(
            "update data_requests as r set status = 'closed', closed_at = now() where r.id = $1 returning {COLUMNS}"
        ))
        .await?;
    Ok(DataRequest::from_row(&conn.query_one(&stmt, &[&id]).await?, today))
}

/// Marks a customer "reclamo en trámite" while one of their reclamos is open or incomplete, and
/// clears the mark when none is.
#[instrument(level = "debug", skip_all, fields(id = customer_id))]
pub async fn refresh_claim_mark(conn: &Conn, customer_id: i64) -> AppResult<()> {
    let stmt = conn
        .prepare_cached(
            "update customers set claim_in_progress = exists (select 1 from data_requests \
               where customer_id = $1 and kind = 'reclamo' and status in ('open', 'incomplete')) \
             where id = $1",
        )
        .await?;
    conn.execute(&stmt, &[&customer_id]).await?;
    Ok(())
}
