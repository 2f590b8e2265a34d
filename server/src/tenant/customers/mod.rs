//! Customers.

use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::{self, Page, Paged, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Lang, Msg};
use crate::extract::{Json, Path, Query};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::removal::{removal_handlers, DeleteResponse, Removal};
use crate::tenant::{active_status, audit, privacy, taken};

pub mod model;
mod store;

use model::{Customer, CustomerInput, CustomerUsage, NewCustomer, SearchParams};

/// The screens whose users manage customers.
const MANAGE: &[&str] = &["/settings/customers"];

/// A customer with transactions is deactivated instead of deleted.
const REMOVAL: Removal = Removal {
    table: "customers",
    entity: "customer",
    label: None,
    usage: store::USAGE,
    inactive_too: false,
    not_found: Msg::CustomerNotFound,
    not_inactive: Msg::CustomerNotInactive,
    deleted: Msg::CustomerDeleted,
    deactivated: Msg::CustomerDeactivated,
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
    let list = store::list(&t).await?;
    t.commit().await?;
    Ok(Json(list))
}

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
    let (items, total) = store::search(&t, active, text.as_deref(), &page).await?;
    t.commit().await?;
    Ok(Json(Paged { items, total, page: page.page, page_size: page.page_size }))
}

/// The active customer with exactly this ID document.
#[utoipa::path(get, path = "/customers/by-document/{document}", tag = "customers", security(("bearer" = [])),
    params(("document" = String, Path, description = "ID document")),
    responses((status = 200, body = Customer), crate::error::ApiErrors))]
async fn by_document(t: Tenant, Path(document): Path<String>) -> AppResult<Json<Customer>> {
    // A document of a shape no customer can have is simply not found.
    let document = domain::document(Some(&document)).map_err(|_| AppError::not_found(Msg::CustomerNotFound))?;
    let customer =
        store::by_document(&t, &document).await?.ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    t.commit().await?;
    Ok(Json(customer))
}

/// Adds a customer with their authorization to the privacy notice in force, recorded with its
/// version, channel, who recorded it and when (needs the customers screen).
#[utoipa::path(post, path = "/customers", tag = "customers", security(("bearer" = [])), request_body = NewCustomer,
    responses((status = 201, body = Customer), crate::error::ApiErrors))]
async fn create(t: Tenant, Json(input): Json<NewCustomer>) -> AppResult<(StatusCode, Json<Customer>)> {
    t.require_permission(MANAGE).await?;
    let c = input.details.validate(true)?;
    let consent = privacy::check_consent(&t, input.consent.as_ref()).await?;
    let Some(customer) = store::insert(&t, &c).await? else {
        let (exists, inactive) = (Msg::CustomerDocumentExists, Msg::CustomerInactiveExists);
        return Err(taken(&t, store::DOCUMENT_HOLDER, &c.document, exists, inactive).await);
    };
    privacy::record_consent(&t, customer.id, &consent).await?;
    let detail = serde_json::json!({ "document": customer.document, "noticeVersion": consent.notice_version });
    audit(&t, "customer.create", "customer", Some(customer.id), detail).await?;
    crate::webhooks::emit(&t, crate::webhooks::Event::CustomerCreated, &customer).await?;
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
    let customer = store::update(&t, id, &c).await?.ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    audit(&t, "customer.update", "customer", Some(id), serde_json::json!({})).await?;
    t.commit().await?;
    Ok(Json(customer))
}

removal_handlers! {
    tag: "customers", id: "customer id", access: MANAGE,
    /// Transactions of a customer, for the delete confirmation.
    usage: "/customers/{id}/usage" => CustomerUsage,
    /// Deletes a customer, or deactivates one with transactions (needs the customers screen).
    remove: "/customers/{id}",
    /// Makes an inactive customer active again, with their history and points (needs the
    /// customers screen).
    reactivate: "/customers/{id}/reactivate" => Customer, check: not_suppressed,
    read: store::find, detail: |customer: &Customer| serde_json::json!({ "document": customer.document }),
}

/// An anonymised customer stays inactive for good (docs/privacy.md, "Suppression").
async fn not_suppressed(t: &Tenant, id: i64) -> AppResult<()> {
    if store::is_suppressed(t, id).await? {
        return Err(AppError::conflict(Msg::CustomerSuppressedNoReactivate));
    }
    Ok(())
}
