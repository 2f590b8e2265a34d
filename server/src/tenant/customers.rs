//! Customers.

use serde::Serialize;
use tokio_postgres::Row;

use crate::error::{AppError, AppResult};

/// A customer as the API answers it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Customer {
    pub id: i64,
    pub document: String,
    pub name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    /// `YYYY-MM-DD`
    #[schema(value_type = Option<String>, format = Date)]
    pub birthdate: Option<chrono::NaiveDate>,
    pub points: i64,
    #[serde(rename = "is_active")]
    pub is_active: bool,
}

/// Columns of `Customer`, for `select` and `returning` lists.
pub const CUSTOMER_COLUMNS: &str = "id, document, name, email, phone, address, birthdate, points, is_active";

impl Customer {
    pub fn from_row(row: &Row) -> Self {
        Customer {
            id: row.get("id"),
            document: row.get("document"),
            name: row.get("name"),
            email: row.get("email"),
            phone: row.get("phone"),
            address: row.get("address"),
            birthdate: row.get("birthdate"),
            points: row.get("points"),
            is_active: row.get("is_active"),
        }
    }
}

/// An active customer by id, or 404.
pub async fn find_active(client: &crate::db::Conn, id: i64) -> AppResult<Customer> {
    let stmt = client
        .prepare_cached(&format!("select {CUSTOMER_COLUMNS} from customers where id = $1 and is_active"))
        .await?;
    let row = client.query_opt(&stmt, &[&id]).await?.ok_or_else(|| AppError::not_found("customer not found"))?;
    Ok(Customer::from_row(&row))
}
