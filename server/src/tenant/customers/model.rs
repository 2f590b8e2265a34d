//! A customer as the API answers it and takes it.

use serde::{Deserialize, Serialize};
use tokio_postgres::Row;

use crate::domain::{self, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Msg};

/// A customer as the API answers it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Customer {
    /// The customer's id (the `{id}` of the points operations).
    pub id: i64,
    /// The ID document, unique in the company: 3 to 20 letters, digits or `-`, stored without dots
    /// or spaces and upper-cased.
    pub document: String,
    /// The customer's full name, at most 200 characters.
    pub name: String,
    /// Null when not given.
    pub email: Option<String>,
    /// As written; null when not given.
    pub phone: Option<String>,
    /// Null when not given.
    pub address: Option<String>,
    /// `YYYY-MM-DD`; accreditations on that day and month, in the company's time zone, earn the
    /// birthday bonus (a 29 February birthday counts on 28 February in other years). Null when not
    /// given.
    #[schema(value_type = Option<String>, format = Date)]
    pub birthdate: Option<chrono::NaiveDate>,
    /// The balance in whole points: the sum of the customer's ledger, never below 0.
    pub points: i64,
    /// False once deleted while it had transactions: the till no longer finds it, its history stays
    /// and its points still expire; it can be reactivated.
    #[serde(rename = "is_active")]
    pub is_active: bool,
    /// True while a reclamo of the customer under Ley 1581 is open or incomplete: the record shows
    /// "reclamo en trámite" (docs/privacy.md).
    pub claim_in_progress: bool,
}

/// Columns of `Customer`, for `select` and `returning` lists.
pub const CUSTOMER_COLUMNS: &str =
    "id, document, name, email, phone, address, birthdate, points, is_active, claim_in_progress";

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
            claim_in_progress: row.get("claim_in_progress"),
        }
    }
}

/// Up to this many customers matching a text are collected first: the customer search sorts
/// them on its own, the transaction report reads their transactions through its customer index.
/// Past it, both match the text inside their statements (the search's page follows the name
/// index), since collecting them all reads every customer's search key whatever the page needs.
pub const FEW_MATCHES: i64 = 1000;

/// A customer's details as added, or as an update replaces them (every field but the document).
#[derive(Deserialize, utoipa::ToSchema)]
pub struct CustomerInput {
    /// 3 to 20 letters, digits or '-'; required when creating, kept when absent on an update.
    document: Option<String>,
    /// Required, at most 200 characters.
    #[schema(value_type = String, required = true, min_length = 1)]
    name: Option<String>,
    /// An email address, at most 254 characters; absent or empty: none.
    email: Option<String>,
    /// At most 40 characters; absent or empty: none.
    phone: Option<String>,
    /// At most 200 characters; absent or empty: none.
    address: Option<String>,
    /// `YYYY-MM-DD` (an ISO date-time is cut to its first 10 characters)
    birthdate: Option<String>,
}

/// A customer to add: the details and the customer's authorization. An update takes the details
/// alone (`CustomerInput`); the authorization changes through `PUT /customers/{id}/consents`.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewCustomer {
    #[serde(flatten)]
    pub details: CustomerInput,
    /// Required: the customer's authorization to the privacy notice in force (Ley 1581 de 2012,
    /// art. 9).
    pub consent: Option<crate::tenant::privacy::model::ConsentInput>,
}

/// A customer input once validated; `document` is empty on an update that keeps it.
pub struct ValidCustomer {
    pub document: String,
    pub name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub birthdate: Option<chrono::NaiveDate>,
}

impl CustomerInput {
    /// The customer, validated; `creating` requires the document.
    pub fn validate(&self, creating: bool) -> AppResult<ValidCustomer> {
        let blank = |v: &Option<String>| v.as_deref().map(str::trim).unwrap_or_default().is_empty();
        if creating && (blank(&self.name) || blank(&self.document)) {
            return Err(AppError::bad_request(Msg::CustomerNameAndDocumentRequired));
        }
        if blank(&self.name) {
            return Err(AppError::bad_request(Msg::CustomerNameRequired));
        }
        Ok(ValidCustomer {
            document: if creating || !blank(&self.document) {
                domain::document(self.document.as_deref())?
            } else {
                String::new()
            },
            name: domain::required_text(Field::Name, self.name.as_deref(), MAX_TEXT)?,
            email: domain::optional_email(self.email.as_deref())?,
            phone: domain::optional_text(Field::Phone, self.phone.as_deref(), 40)?,
            address: domain::optional_text(Field::Address, self.address.as_deref(), MAX_TEXT)?,
            birthdate: domain::optional_birthdate(self.birthdate.as_deref())?,
        })
    }
}

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct SearchParams {
    /// Case-insensitive part of the name or the document.
    pub text: Option<String>,
    /// From 1.
    pub page: Option<i64>,
    /// 10, 25 or 50.
    pub page_size: Option<i64>,
    /// `active` (default) or `inactive`.
    pub status: Option<String>,
}

/// Transactions that refer to a customer, for the delete confirmation.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CustomerUsage {
    /// Ledger rows of the customer: while there are any, deleting the customer deactivates it
    /// instead.
    pub transactions: i64,
}
