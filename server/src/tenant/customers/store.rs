//! Data access of the customers: every SQL statement of the entity. Functions run inside the
//! caller's tenant transaction and never commit.

use tracing::instrument;

use super::model::{Customer, CustomerUsage, ValidCustomer, CUSTOMER_COLUMNS, FEW_MATCHES};
use crate::db::Conn;
use crate::domain::{self, Page};
use crate::error::{AppResult, Msg};
use crate::tenant::removal::one_count_usage;
use crate::tenant::store::by_id;

/// The customer holding a document, for [`crate::tenant::taken`].
pub const DOCUMENT_HOLDER: &str = "select id, is_active from customers where document = $1";

/// Transactions of an active customer.
pub const USAGE: &str = "select (select count(*) from transactions where customer_id = c.id) \
    from customers c where c.id = $1 and c.is_active";

one_count_usage!(CustomerUsage, transactions);

/// Every active customer, sorted by name.
#[instrument(level = "debug", skip_all)]
pub async fn list(conn: &Conn) -> AppResult<Vec<Customer>> {
    let stmt = conn
        .prepare_cached(&format!("select {CUSTOMER_COLUMNS} from customers where is_active order by lower(name), id"))
        .await?;
    Ok(conn.query(&stmt, &[]).await?.iter().map(Customer::from_row).collect())
}

/// One page of the active customers, or the inactive ones, whose name or document contains
/// `text` (all of them without one), sorted by name; and how many there are.
#[instrument(level = "debug", skip_all, fields(active = active, page = page.page))]
pub async fn search(conn: &Conn, active: bool, text: Option<&str>, page: &Page) -> AppResult<(Vec<Customer>, i64)> {
    // Literal conditions, so that the plans of the active list keep using its partial index.
    // Anonymised customers (docs/privacy.md) are no one to list or reactivate.
    let status = if active { "is_active" } else { "not is_active and suppressed_at is null" };
    let (items, total) = match text {
        None => {
            let total_stmt = conn.prepare_cached(&format!("select count(*) from customers where {status}")).await?;
            let page_stmt = conn
                .prepare_cached(&format!(
                    "select {CUSTOMER_COLUMNS} from customers where {status} \
                     order by lower(name), id limit $1 offset $2"
                ))
                .await?;
            let total: i64 = conn.query_one(&total_stmt, &[]).await?.get(0);
            let rows = conn.query(&page_stmt, &[&page.page_size, &page.offset()]).await?;
            (rows, total)
        }
        Some(text) => {
            // A substring cannot use an index, so finding the matches reads every customer's
            // search key once. Few matches (a document, a full name): that pass keeps their ids
            // and the page sorts only them. Many (the first letters typed): the page walks the
            // name index and stops after it, and a separate pass counts.
            let pattern = domain::like_pattern(&domain::search_text(text));
            let probe = conn
                .prepare_cached(&format!("select id from customers where {status} and search_key like $1 limit $2"))
                .await?;
            let ids: Vec<i64> =
                conn.query(&probe, &[&pattern, &(FEW_MATCHES + 1)]).await?.iter().map(|row| row.get(0)).collect();
            if ids.len() as i64 <= FEW_MATCHES {
                let page_stmt = conn
                    .prepare_cached(&format!(
                        "select {CUSTOMER_COLUMNS} from customers where id = any ($1) \
                         order by lower(name), id limit $2 offset $3"
                    ))
                    .await?;
                let rows = conn.query(&page_stmt, &[&ids, &page.page_size, &page.offset()]).await?;
                (rows, ids.len() as i64)
            } else {
                let total_stmt = conn
                    .prepare_cached(&format!("select count(*) from customers where {status} and search_key like $1"))
                    .await?;
                let page_stmt = conn
                    .prepare_cached(&format!(
                        "select {CUSTOMER_COLUMNS} from customers where {status} and search_key like $1 \
                         order by lower(name), id limit $2 offset $3"
                    ))
                    .await?;
                let total: i64 = conn.query_one(&total_stmt, &[&pattern]).await?.get(0);
                let rows = conn.query(&page_stmt, &[&pattern, &page.page_size, &page.offset()]).await?;
                (rows, total)
            }
        }
    };
    Ok((items.iter().map(Customer::from_row).collect(), total))
}

/// The active customer with this document.
#[instrument(level = "debug", skip_all)]
pub async fn by_document(conn: &Conn, document: &str) -> AppResult<Option<Customer>> {
    let stmt = conn
        .prepare_cached(&format!("select {CUSTOMER_COLUMNS} from customers where document = $1 and is_active"))
        .await?;
    Ok(conn.query_opt(&stmt, &[&document]).await?.as_ref().map(Customer::from_row))
}

/// Adds a customer; nothing when the document is taken.
#[instrument(level = "debug", skip_all)]
pub async fn insert(conn: &Conn, c: &ValidCustomer) -> AppResult<Option<Customer>> {
    let stmt = conn
        .prepare_cached(&format!(
            "insert into customers (document, name, email, phone, address, birthdate) \
             values ($1, $2, $3, $4, $5, $6) on conflict do nothing returning {CUSTOMER_COLUMNS}"
        ))
        .await?;
    let row = conn.query_opt(&stmt, &[&c.document, &c.name, &c.email, &c.phone, &c.address, &c.birthdate]).await?;
    Ok(row.as_ref().map(Customer::from_row))
}

/// Changes an active customer's details (the document only when given); nothing when there is
/// none with this id.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn update(conn: &Conn, id: i64, c: &ValidCustomer) -> AppResult<Option<Customer>> {
    let stmt = conn
        .prepare_cached(&format!(
            "update customers set document = coalesce(nullif($2, ''), document), name = $3, email = $4, \
             phone = $5, address = $6, birthdate = $7 where id = $1 and is_active returning {CUSTOMER_COLUMNS}"
        ))
        .await?;
    let row = conn.query_opt(&stmt, &[&id, &c.document, &c.name, &c.email, &c.phone, &c.address, &c.birthdate]).await?;
    Ok(row.as_ref().map(Customer::from_row))
}

/// A customer by id, active or not.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn find(conn: &Conn, id: i64) -> AppResult<Customer> {
    let select = format!("select {CUSTOMER_COLUMNS} from customers where id = $1");
    by_id(conn, &select, id, Msg::CustomerNotFound, Customer::from_row).await
}

/// Whether a customer's personal data was suppressed (anonymised).
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn is_suppressed(conn: &Conn, id: i64) -> AppResult<bool> {
    let stmt = conn
        .prepare_cached("select exists (select 1 from customers where id = $1 and suppressed_at is not null)")
        .await?;
    Ok(conn.query_one(&stmt, &[&id]).await?.get(0))
}
