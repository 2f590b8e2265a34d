//! Data access of the customers: every SQL statement of the entity. Functions run inside the
//! caller's tenant transaction and never commit.

use tokio_postgres::Row;
use tracing::instrument;

use super::{Customer, CustomerUsage, CUSTOMER_COLUMNS};
use crate::db::Conn;
use crate::error::{AppError, AppResult, Msg};
use crate::tenant::removal::Usage;

/// Transactions of an active customer.
pub const USAGE: &str = "select (select count(*) from transactions where customer_id = c.id) \
    from customers c where c.id = $1 and c.is_active";

impl Usage for CustomerUsage {
    fn from_row(row: &Row) -> Self {
        CustomerUsage { transactions: row.get(0) }
    }

    fn in_use(&self) -> bool {
        self.transactions > 0
    }
}

/// A customer by id, active or not.
#[instrument(level = "debug", skip_all, fields(id = id))]
pub async fn find(conn: &Conn, id: i64) -> AppResult<Customer> {
    let stmt = conn.prepare_cached(&format!("select {CUSTOMER_COLUMNS} from customers where id = $1")).await?;
    let row = conn.query_opt(&stmt, &[&id]).await?.ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    Ok(Customer::from_row(&row))
}
