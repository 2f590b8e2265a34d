//! A customer's personal data under Ley 1581 de 2012: reading everything held about one customer
//! (the access export), and erasing it (suppression and the retention rule; docs/privacy.md).

use chrono::{DateTime, NaiveDate, Utc};
use tokio_postgres::Row;
use tracing::instrument;

use super::ledger::{transaction_from_row, TRANSACTION_SELECT};
use crate::db::Conn;
use crate::error::AppResult;
use crate::points::Transaction;
use crate::tenant::customers::model::{Customer, CUSTOMER_COLUMNS};
use crate::tenant::data_requests::model::{DataRequest, COLUMNS as REQUEST_COLUMNS};

/// A customer as the access export shows it: the record and its dates.
pub struct CustomerRecord {
    pub customer: Customer,
    pub created_at: DateTime<Utc>,
    pub last_activity_at: Option<DateTime<Utc>>,
    pub suppressed_at: Option<DateTime<Utc>>,
}

/// The personal data of a customer about to be suppressed, read with the row locked.
pub struct Personal {
    pub id: i64,
    pub document: String,
    pub name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub points: i64,
    pub suppressed: bool,
    /// Whether a reclamo of the holder is open or incomplete.
    pub claim_in_progress: bool,
    /// The last accreditation or redemption (the enrolment before any).
    pub last_active: DateTime<Utc>,
    /// Whether the ledger refers to the customer: then the record is anonymised, not deleted.
    pub has_history: bool,
}

impl Personal {
    /// The values that identify the holder, as they may also appear in free text.
    pub fn identifying_values(&self) -> Vec<String> {
        [Some(&self.name), Some(&self.document), self.email.as_ref(), self.phone.as_ref(), self.address.as_ref()]
            .into_iter()
            .flatten()
            .map(|value| value.trim().to_string())
            .filter(|value| value.chars().count() >= 3)
            .collect()
    }
}

/// The document and name an anonymised customer keeps: `anon-<id>`, lower-case, which no real
/// document can be (documents are stored upper-cased), so the holder's document is free to enrol
/// again.
pub fn anonymous_label(id: i64) -> String {
    format!("anon-{id}")
}

/// A customer (active or not) with its dates.
#[instrument(level = "debug", skip(conn))]
pub async fn customer_record(conn: &Conn, id: i64) -> AppResult<Option<CustomerRecord>> {
    let stmt = conn
        .prepare_cached(&format!(
            "select {CUSTOMER_COLUMNS}, created_at, last_activity_at, suppressed_at from customers where id = $1"
        ))
        .await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| CustomerRecord {
        customer: Customer::from_row(&row),
        created_at: row.get("created_at"),
        last_activity_at: row.get("last_activity_at"),
        suppressed_at: row.get("suppressed_at"),
    }))
}

/// Every ledger row of a customer, oldest first.
#[instrument(level = "debug", skip(conn))]
pub async fn customer_transactions(conn: &Conn, id: i64) -> AppResult<Vec<Transaction>> {
    let stmt = conn
        .prepare_cached(&format!("{TRANSACTION_SELECT} where t.customer_id = $1 order by t.created_at, t.id"))
        .await?;
    conn.query(&stmt, &[&id]).await?.iter().map(transaction_from_row).collect()
}

/// Every request of a data holder linked to a customer, oldest first.
#[instrument(level = "debug", skip(conn))]
pub async fn customer_data_requests(conn: &Conn, id: i64, today: NaiveDate) -> AppResult<Vec<DataRequest>> {
    let stmt = conn
        .prepare_cached(&format!(
            "select {REQUEST_COLUMNS} from data_requests r where r.customer_id = $1 order by r.id"
        ))
        .await?;
    Ok(conn.query(&stmt, &[&id]).await?.iter().map(|row| DataRequest::from_row(row, today)).collect())
}

fn personal_from_row(row: &Row) -> Personal {
    Personal {
        id: row.get("id"),
        document: row.get("document"),
        name: row.get("name"),
        email: row.get("email"),
        phone: row.get("phone"),
        address: row.get("address"),
        points: row.get("points"),
        suppressed: row.get("suppressed"),
        claim_in_progress: row.get("claim_in_progress"),
        last_active: row.get("last_active"),
        has_history: row.get("has_history"),
    }
}

/// A customer's personal data, its row locked until the transaction ends (every posting locks it
/// first, so none can start referring to it meanwhile).
#[instrument(level = "debug", skip(conn))]
pub async fn lock_personal(conn: &Conn, id: i64) -> AppResult<Option<Personal>> {
    let stmt = conn
        .prepare_cached(
            "select id, document, name, email, phone, address, points, suppressed_at is not null as suppressed, \
             claim_in_progress, coalesce(last_activity_at, created_at) as last_active, \
             exists (select 1 from transactions t where t.customer_id = c.id) as has_history \
             from customers c where id = $1 for update",
        )
        .await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.as_ref().map(personal_from_row))
}

/// Deletes a customer without history.
#[instrument(level = "debug", skip(conn))]
pub async fn delete_customer(conn: &Conn, id: i64) -> AppResult<()> {
    let stmt = conn.prepare_cached("delete from customers where id = $1").await?;
    conn.execute(&stmt, &[&id]).await?;
    Ok(())
}

/// Replaces a customer's personal data for good: the document, the name (and so the search key)
/// become `anon-<id>`; e-mail, phone, address and birthdate are cleared; the record stays
/// inactive, with its balance and ledger.
#[instrument(level = "debug", skip(conn))]
pub async fn anonymise_customer(conn: &Conn, id: i64, at: DateTime<Utc>) -> AppResult<()> {
    let stmt = conn
        .prepare_cached(
            "update customers set document = $2, name = $2, email = null, phone = null, address = null, \
             birthdate = null, is_active = false, suppressed_at = $3 where id = $1",
        )
        .await?;
    conn.execute(&stmt, &[&id, &anonymous_label(id), &at]).await?;
    Ok(())
}

/// Replaces every `values` found in `text` (without regard to case) by `***`; `None` when none
/// is there.
pub fn redact(text: &str, values: &[String]) -> Option<String> {
    let fold = |c: char| c.to_lowercase().next().unwrap_or(c);
    let chars: Vec<char> = text.chars().collect();
    let folded: Vec<char> = chars.iter().copied().map(fold).collect();
    let needles: Vec<Vec<char>> = values.iter().map(|v| v.chars().map(fold).collect()).collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut changed = false;
    while i < chars.len() {
        let hit = needles.iter().filter(|n| !n.is_empty() && folded[i..].starts_with(n)).map(Vec::len).max();
        match hit {
            Some(len) => {
                out.push_str("***");
                i += len;
                changed = true;
            }
            None => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    changed.then_some(out)
}

/// The requests of the holder (linked to the customer, or filed with its document) keep their
/// dates, kind and status as proof of how they were handled; their document becomes `document`
/// and the holder's data found in their texts is redacted.
#[instrument(level = "debug", skip_all, fields(id = person.id))]
pub async fn scrub_data_requests(conn: &Conn, person: &Personal, document: &str) -> AppResult<()> {
    let values = person.identifying_values();
    let read = conn
        .prepare_cached(
            "select id, subject, details, answer, incomplete_reason, extension_reason from data_requests \
             where customer_id = $1 or document = $2 for update",
        )
        .await?;
    let write = conn
        .prepare_cached(
            "update data_requests set document = $2, subject = $3, details = $4, answer = $5, \
             incomplete_reason = $6, extension_reason = $7 where id = $1",
        )
        .await?;
    for row in conn.query(&read, &[&person.id, &person.document]).await? {
        let scrub = |column: &str| -> Option<String> {
            let text: Option<String> = row.get(column);
            text.map(|t| redact(&t, &values).unwrap_or(t))
        };
        let id: i64 = row.get("id");
        let (subject, details) = (scrub("subject").unwrap_or_default(), scrub("details").unwrap_or_default());
        let (answer, incomplete, extension) = (scrub("answer"), scrub("incomplete_reason"), scrub("extension_reason"));
        conn.execute(&write, &[&id, &document, &subject, &details, &answer, &incomplete, &extension]).await?;
    }
    Ok(())
}

/// Redacts the holder's data found in what people wrote on the customer's ledger rows (a
/// redemption's note, an invoice reference); the figures stay.
#[instrument(level = "debug", skip_all, fields(id = person.id))]
pub async fn scrub_ledger_texts(conn: &Conn, person: &Personal) -> AppResult<()> {
    let values = person.identifying_values();
    let read = conn
        .prepare_cached(
            "select id, description, invoice_reference from transactions where customer_id = $1 \
             and (description is not null or invoice_reference is not null)",
        )
        .await?;
    let write =
        conn.prepare_cached("update transactions set description = $2, invoice_reference = $3 where id = $1").await?;
    for row in conn.query(&read, &[&person.id]).await? {
        let description: Option<String> = row.get("description");
        let reference: Option<String> = row.get("invoice_reference");
        let new_description = description.as_deref().and_then(|t| redact(t, &values));
        let new_reference = reference.as_deref().and_then(|t| redact(t, &values));
        if new_description.is_some() || new_reference.is_some() {
            let id: i64 = row.get("id");
            let description = new_description.or(description);
            let reference = new_reference.or(reference);
            conn.execute(&write, &[&id, &description, &reference]).await?;
        }
    }
    Ok(())
}

/// The audit trail keeps who did what to the record, with the holder's document replaced by
/// `document` wherever an entry's detail named it.
#[instrument(level = "debug", skip_all)]
pub async fn scrub_audit(conn: &Conn, old_document: &str, document: &str) -> AppResult<()> {
    let stmt = conn
        .prepare_cached(
            "update audit_log set detail = jsonb_set(detail, '{document}', to_jsonb($2::text)) \
             where detail ->> 'document' = $1",
        )
        .await?;
    conn.execute(&stmt, &[&old_document, &document]).await?;
    Ok(())
}

/// Forgets the tills' kept answers (for retries with an idempotency key) that show the customer.
#[instrument(level = "debug", skip(conn))]
pub async fn delete_kept_answers(conn: &Conn, id: i64) -> AppResult<()> {
    let stmt = conn
        .prepare_cached(
            "delete from idempotency_keys where jsonb_path_exists(response, \
             '$.** ? (@.customerId == $id || @.updatedCustomer.id == $id)', jsonb_build_object('id', $1::bigint), true)",
        )
        .await?;
    conn.execute(&stmt, &[&id]).await?;
    Ok(())
}

/// Customers not yet suppressed whose last accreditation or redemption (or enrolment, before
/// any) is before `cutoff`, without a reclamo in progress, oldest first.
#[instrument(level = "debug", skip(conn))]
pub async fn idle_customers(conn: &Conn, cutoff: DateTime<Utc>) -> AppResult<Vec<i64>> {
    let stmt = conn
        .prepare_cached(
            "select id from customers where suppressed_at is null and not claim_in_progress \
             and coalesce(last_activity_at, created_at) < $1 order by coalesce(last_activity_at, created_at), id",
        )
        .await?;
    Ok(conn.query(&stmt, &[&cutoff]).await?.iter().map(|row| row.get(0)).collect())
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn redact_replaces_every_value_without_regard_to_case() {
        let values = vec!["Ana Ruiz".to_string(), "1020".to_string()];
        assert_eq!(redact("Soy ANA RUIZ, c.c. 1020.", &values).as_deref(), Some("Soy ***, c.c. ***."));
        assert_eq!(redact("Nada que ver", &values), None);
        assert_eq!(redact("Ñandú ñandú", &["ÑANDÚ".to_string()]).as_deref(), Some("*** ***"));
    }
}
