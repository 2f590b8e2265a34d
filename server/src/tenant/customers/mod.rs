//! Customers.

use serde::Serialize;
use tokio_postgres::Row;

use crate::error::{AppError, AppResult, Field, Msg};

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
    let stmt =
        client.prepare_cached(&format!("select {CUSTOMER_COLUMNS} from customers where id = $1 and is_active")).await?;
    let row = client.query_opt(&stmt, &[&id]).await?.ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    Ok(Customer::from_row(&row))
}

// ---------------------------------------------------------------------------------------------
// HTTP

use axum::http::StatusCode;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::{self, Page, Paged, MAX_TEXT};
use crate::extract::{Json, Path, Query};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::removal::{self, DeleteResponse, Removal};
use crate::tenant::{active_status, audit, taken};

mod store;

/// The screens whose users manage customers.
const MANAGE: &[&str] = &["/settings/customers"];

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CustomerInput {
    /// 3 to 20 letters, digits or '-'; required when creating, kept when absent on an update.
    document: Option<String>,
    #[schema(value_type = String, required = true, min_length = 1)]
    name: Option<String>,
    email: Option<String>,
    phone: Option<String>,
    address: Option<String>,
    /// `YYYY-MM-DD` (an ISO date-time is cut to its first 10 characters)
    birthdate: Option<String>,
}

struct ValidCustomer {
    document: String,
    name: String,
    email: Option<String>,
    phone: Option<String>,
    address: Option<String>,
    birthdate: Option<chrono::NaiveDate>,
}

impl CustomerInput {
    fn validate(&self, creating: bool) -> AppResult<ValidCustomer> {
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
    text: Option<String>,
    /// From 1.
    page: Option<i64>,
    /// 10, 25 or 50.
    page_size: Option<i64>,
    /// `active` (default) or `inactive`.
    status: Option<String>,
}

/// Transactions that refer to a customer, for the delete confirmation.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CustomerUsage {
    pub transactions: i64,
}

/// A customer with transactions is deactivated instead of deleted.
const REMOVAL: Removal = Removal {
    table: "customers",
    entity: "customer",
    usage: store::USAGE,
    inactive_too: false,
    not_found: Msg::CustomerNotFound,
    not_inactive: Msg::CustomerNotInactive,
    deleted: "customer deleted",
    deactivated: "customer has transactions: it was deactivated",
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(search))
        .routes(routes!(by_document))
        .routes(routes!(update, remove))
        .routes(routes!(usage))
        .routes(routes!(reactivate))
}

/// Every active customer, sorted by name. Large companies use `/customers/search`.
#[utoipa::path(get, path = "/customers", tag = "customers", security(("bearer" = [])),
    responses((status = 200, body = Vec<Customer>), crate::error::ApiErrors))]
async fn list(t: Tenant) -> AppResult<Json<Vec<Customer>>> {
    let stmt = t
        .prepare_cached(&format!("select {CUSTOMER_COLUMNS} from customers where is_active order by lower(name), id"))
        .await?;
    let rows = t.query(&stmt, &[]).await?;
    t.commit().await?;
    Ok(Json(rows.iter().map(Customer::from_row).collect()))
}

/// Up to this many customers matching a text are collected first: the customer search sorts
/// them on its own, the transaction report reads their transactions through its customer index.
/// Past it, both match the text inside their statements (the search's page follows the name
/// index), since collecting them all reads every customer's search key whatever the page needs.
pub const FEW_MATCHES: i64 = 1000;

/// One page of active customers whose name or document contains `text`, sorted by name.
#[utoipa::path(get, path = "/customers/search", tag = "customers", security(("bearer" = [])),
    params(SearchParams), responses((status = 200, body = Paged<Customer>), crate::error::ApiErrors))]
async fn search(t: Tenant, Query(params): Query<SearchParams>) -> AppResult<Json<Paged<Customer>>> {
    let page = Page::parse(params.page, params.page_size)?;
    let text = domain::optional_text(Field::Text, params.text.as_deref(), MAX_TEXT)?;
    let active = active_status(params.status.as_deref())?;
    if !active {
        t.require_permission(MANAGE).await?;
    }
    // Literal conditions, so that the plans of the active list keep using its partial index.
    let status = if active { "is_active" } else { "not is_active" };
    let (items, total) = match text {
        None => {
            let total_stmt = t.prepare_cached(&format!("select count(*) from customers where {status}")).await?;
            let page_stmt = t
                .prepare_cached(&format!(
                    "select {CUSTOMER_COLUMNS} from customers where {status} \
                     order by lower(name), id limit $1 offset $2"
                ))
                .await?;
            let total: i64 = t.query_one(&total_stmt, &[]).await?.get(0);
            let rows = t.query(&page_stmt, &[&page.page_size, &page.offset()]).await?;
            (rows, total)
        }
        Some(text) => {
            // A substring cannot use an index, so finding the matches reads every customer's
            // search key once. Few matches (a document, a full name): that pass keeps their ids
            // and the page sorts only them. Many (the first letters typed): the page walks the
            // name index and stops after it, and a separate pass counts.
            let pattern = domain::like_pattern(&domain::search_text(&text));
            let probe = t
                .prepare_cached(&format!("select id from customers where {status} and search_key like $1 limit $2"))
                .await?;
            let ids: Vec<i64> =
                t.query(&probe, &[&pattern, &(FEW_MATCHES + 1)]).await?.iter().map(|row| row.get(0)).collect();
            if ids.len() as i64 <= FEW_MATCHES {
                let page_stmt = t
                    .prepare_cached(&format!(
                        "select {CUSTOMER_COLUMNS} from customers where id = any ($1) \
                         order by lower(name), id limit $2 offset $3"
                    ))
                    .await?;
                let rows = t.query(&page_stmt, &[&ids, &page.page_size, &page.offset()]).await?;
                (rows, ids.len() as i64)
            } else {
                let total_stmt = t
                    .prepare_cached(&format!("select count(*) from customers where {status} and search_key like $1"))
                    .await?;
                let page_stmt = t
                    .prepare_cached(&format!(
                        "select {CUSTOMER_COLUMNS} from customers where {status} and search_key like $1 \
                         order by lower(name), id limit $2 offset $3"
                    ))
                    .await?;
                let total: i64 = t.query_one(&total_stmt, &[&pattern]).await?.get(0);
                let rows = t.query(&page_stmt, &[&pattern, &page.page_size, &page.offset()]).await?;
                (rows, total)
            }
        }
    };
    t.commit().await?;
    Ok(Json(Paged {
        items: items.iter().map(Customer::from_row).collect(),
        total,
        page: page.page,
        page_size: page.page_size,
    }))
}

/// The active customer with exactly this ID document.
#[utoipa::path(get, path = "/customers/by-document/{document}", tag = "customers", security(("bearer" = [])),
    params(("document" = String, Path, description = "ID document")),
    responses((status = 200, body = Customer), crate::error::ApiErrors))]
async fn by_document(t: Tenant, Path(document): Path<String>) -> AppResult<Json<Customer>> {
    // A document of a shape no customer can have is simply not found.
    let document = domain::document(Some(&document)).map_err(|_| AppError::not_found(Msg::CustomerNotFound))?;
    let stmt = t
        .prepare_cached(&format!("select {CUSTOMER_COLUMNS} from customers where document = $1 and is_active"))
        .await?;
    let row = t.query_opt(&stmt, &[&document]).await?.ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    t.commit().await?;
    Ok(Json(Customer::from_row(&row)))
}

/// Adds a customer (needs the customers screen).
#[utoipa::path(post, path = "/customers", tag = "customers", security(("bearer" = [])), request_body = CustomerInput,
    responses((status = 201, body = Customer), crate::error::ApiErrors))]
async fn create(t: Tenant, Json(input): Json<CustomerInput>) -> AppResult<(StatusCode, Json<Customer>)> {
    t.require_permission(MANAGE).await?;
    let c = input.validate(true)?;
    let stmt = t
        .prepare_cached(&format!(
            "insert into customers (document, name, email, phone, address, birthdate) \
             values ($1, $2, $3, $4, $5, $6) on conflict do nothing returning {CUSTOMER_COLUMNS}"
        ))
        .await?;
    let Some(row) = t.query_opt(&stmt, &[&c.document, &c.name, &c.email, &c.phone, &c.address, &c.birthdate]).await?
    else {
        let lookup = "select id, is_active from customers where document = $1";
        return Err(taken(&t, lookup, &c.document, Msg::CustomerDocumentExists, Msg::CustomerInactiveExists).await);
    };
    let customer = Customer::from_row(&row);
    audit(&t, "customer.create", "customer", Some(customer.id), serde_json::json!({ "document": customer.document }))
        .await?;
    t.commit().await?;
    Ok((StatusCode::CREATED, Json(customer)))
}

/// Changes a customer's details (needs the customers screen).
#[utoipa::path(put, path = "/customers/{id}", tag = "customers", security(("bearer" = [])),
    params(("id" = i64, Path, description = "customer id")), request_body = CustomerInput,
    responses((status = 200, body = Customer), crate::error::ApiErrors))]
async fn update(t: Tenant, Path(id): Path<i64>, Json(input): Json<CustomerInput>) -> AppResult<Json<Customer>> {
    t.require_permission(MANAGE).await?;
    let c = input.validate(false)?;
    let stmt = t
        .prepare_cached(&format!(
            "update customers set document = coalesce(nullif($2, ''), document), name = $3, email = $4, \
             phone = $5, address = $6, birthdate = $7 where id = $1 and is_active returning {CUSTOMER_COLUMNS}"
        ))
        .await?;
    let row = t
        .query_opt(&stmt, &[&id, &c.document, &c.name, &c.email, &c.phone, &c.address, &c.birthdate])
        .await?
        .ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    let customer = Customer::from_row(&row);
    audit(&t, "customer.update", "customer", Some(id), serde_json::json!({})).await?;
    t.commit().await?;
    Ok(Json(customer))
}

/// Transactions of a customer, for the delete confirmation.
#[utoipa::path(get, path = "/customers/{id}/usage", tag = "customers", security(("bearer" = [])),
    params(("id" = i64, Path, description = "customer id")),
    responses((status = 200, body = CustomerUsage), crate::error::ApiErrors))]
async fn usage(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<CustomerUsage>> {
    t.require_permission(MANAGE).await?;
    removal::usage(t, &REMOVAL, id).await
}

/// Deletes a customer, or deactivates one with transactions (needs the customers screen).
#[utoipa::path(delete, path = "/customers/{id}", tag = "customers", security(("bearer" = [])),
    params(("id" = i64, Path, description = "customer id")),
    responses((status = 200, body = DeleteResponse), crate::error::ApiErrors))]
async fn remove(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<DeleteResponse>> {
    t.require_permission(MANAGE).await?;
    removal::remove::<CustomerUsage>(t, &REMOVAL, id).await
}

/// Makes an inactive customer active again, with their history and points (needs the
/// customers screen).
#[utoipa::path(post, path = "/customers/{id}/reactivate", tag = "customers", security(("bearer" = [])),
    params(("id" = i64, Path, description = "customer id")),
    responses((status = 200, body = Customer), crate::error::ApiErrors))]
async fn reactivate(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<Customer>> {
    t.require_permission(MANAGE).await?;
    let detail = |customer: &Customer| serde_json::json!({ "document": customer.document });
    removal::reactivate(t, &REMOVAL, id, store::find, detail).await
}
