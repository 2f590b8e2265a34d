//! A data holder's requests under Ley 1581 de 2012 (arts. 14-15): consultas and reclamos with
//! their legal clock in Colombian business days (`crate::calendar`, docs/privacy.md).

use axum::http::StatusCode;
use chrono::{NaiveDate, Utc};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::calendar;
use crate::domain::{Page, Paged};
use crate::error::{AppError, AppResult, Msg};
use crate::extract::{Json, Path, Query};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::{audit, settings};

pub mod model;
mod store;

use model::{
    Action, DataRequest, DataRequestInput, DataRequestUpdate, Kind, ListParams, DUE_SOON_DAYS, KINDS, STATUSES,
};

/// The screen whose users see and act on the requests (docs/roles.md).
pub const SCREEN: &str = "/solicitudes-datos";
const MANAGE: &[&str] = &[SCREEN];

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list, create)).routes(routes!(due)).routes(routes!(update))
}

/// Today in the company's time zone: the day a request is filed on, and from which days left count.
async fn today(t: &Tenant) -> AppResult<NaiveDate> {
    let zone = settings::load(t).await?.time_zone;
    let tz: chrono_tz::Tz = zone.parse().unwrap_or(chrono_tz::America::Bogota);
    Ok(Utc::now().with_timezone(&tz).date_naive())
}

/// One page of the requests, open ones first by due date (needs the requests screen).
#[utoipa::path(get, path = "/data-requests", tag = "data requests", security(("bearer" = [])),
    params(ListParams), responses((status = 200, body = Paged<DataRequest>), crate::error::ApiErrors))]
async fn list(t: Tenant, Query(params): Query<ListParams>) -> AppResult<Json<Paged<DataRequest>>> {
    t.require_permission(MANAGE).await?;
    let page = Page::parse(params.page, params.page_size)?;
    let status = one_of(params.status.as_deref(), &STATUSES, Msg::DataRequestStatusInvalid)?;
    let kind = one_of(params.kind.as_deref(), &KINDS, Msg::DataRequestKindInvalid)?;
    let today = today(&t).await?;
    let (items, total) = store::list(&t, status, kind, &page, today).await?;
    t.commit().await?;
    Ok(Json(Paged { items, total, page: page.page, page_size: page.page_size }))
}

/// A filter's value: absent or empty for none, else one of `allowed`.
fn one_of<'a>(value: Option<&'a str>, allowed: &[&str], invalid: Msg) -> AppResult<Option<&'a str>> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(v) if allowed.contains(&v) => Ok(Some(v)),
        Some(_) => Err(AppError::bad_request(invalid)),
    }
}

/// The open requests due within 2 business days or overdue, the soonest first, for the dashboard
/// (needs the requests screen).
#[utoipa::path(get, path = "/data-requests/due", tag = "data requests", security(("bearer" = [])),
    responses((status = 200, body = Vec<DataRequest>), crate::error::ApiErrors))]
async fn due(t: Tenant) -> AppResult<Json<Vec<DataRequest>>> {
    t.require_permission(MANAGE).await?;
    let today = today(&t).await?;
    let list = store::due_by(&t, calendar::add_business_days(today, DUE_SOON_DAYS), today).await?;
    t.commit().await?;
    Ok(Json(list))
}

/// Files a consulta or a reclamo; its due date is 10 (consulta) or 15 (reclamo) business days
/// from the day after today in the company's time zone. A reclamo marks its customer "reclamo en
/// trámite" (needs the requests screen).
#[utoipa::path(post, path = "/data-requests", tag = "data requests", security(("bearer" = [])),
    request_body = DataRequestInput, responses((status = 201, body = DataRequest), crate::error::ApiErrors))]
async fn create(t: Tenant, Json(input): Json<DataRequestInput>) -> AppResult<(StatusCode, Json<DataRequest>)> {
    t.require_permission(MANAGE).await?;
    let mut r = input.validate()?;
    match r.customer_id {
        Some(id) => {
            let document =
                store::customer_document(&t, id).await?.ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
            if document != r.document {
                return Err(AppError::bad_request(Msg::DataRequestDocumentMismatch));
            }
        }
        None => r.customer_id = store::customer_by_document(&t, &r.document).await?,
    }
    let today = today(&t).await?;
    let due_on = calendar::add_business_days(today, r.kind.term());
    let request = store::insert(&t, &r, today, due_on, t.actor().0, today).await?;
    if let Some(customer) = request.customer_id {
        store::refresh_claim_mark(&t, customer).await?;
    }
    let detail = serde_json::json!({ "kind": request.kind, "document": request.document, "dueOn": request.due_on });
    audit(&t, "dataRequest.create", "dataRequest", Some(request.id), detail).await?;
    t.commit().await?;
    Ok((StatusCode::CREATED, Json(request)))
}

/// Files a reclamo about a customer on the caller's behalf, without the requests screen: a
/// revocation of the required authorization (`tenant::privacy`) is one. Marks the customer
/// "reclamo en trámite" and records it in the audit trail like any filing.
pub async fn file_reclamo(
    t: &Tenant,
    customer_id: i64,
    document: &str,
    subject: &str,
    details: &str,
) -> AppResult<DataRequest> {
    let r = model::NewRequest {
        customer_id: Some(customer_id),
        document: document.to_string(),
        kind: Kind::Reclamo,
        subject: subject.to_string(),
        details: details.to_string(),
    };
    let today = today(t).await?;
    let due_on = calendar::add_business_days(today, r.kind.term());
    let request = store::insert(t, &r, today, due_on, t.actor().0, today).await?;
    store::refresh_claim_mark(t, customer_id).await?;
    let detail = serde_json::json!({ "kind": request.kind, "document": request.document, "dueOn": request.due_on });
    audit(t, "dataRequest.create", "dataRequest", Some(request.id), detail).await?;
    Ok(request)
}

/// Acts on a request: `extend` it once with a reason (a consulta by 5 business days, a reclamo by
/// 8), mark a reclamo `incomplete` or `complete` again (its 15 days start over), record its
/// `answer`, or `close` it (needs the requests screen).
#[utoipa::path(put, path = "/data-requests/{id}", tag = "data requests", security(("bearer" = [])),
    params(("id" = i64, Path, description = "request id")), request_body = DataRequestUpdate,
    responses((status = 200, body = DataRequest), crate::error::ApiErrors))]
async fn update(t: Tenant, Path(id): Path<i64>, Json(input): Json<DataRequestUpdate>) -> AppResult<Json<DataRequest>> {
    t.require_permission(MANAGE).await?;
    let action = input.validate()?;
    let current = store::lock(&t, id).await?.ok_or_else(|| AppError::not_found(Msg::DataRequestNotFound))?;
    let kind = Kind::parse(Some(&current.kind))?;
    let today = today(&t).await?;
    let status = current.status.as_str();
    let wrong_status = || AppError::conflict(Msg::DataRequestWrongStatus.with("status", status));
    let (name, request) = match action {
        Action::Extend { reason } => {
            if status != "open" {
                return Err(wrong_status());
            }
            if current.extended {
                return Err(AppError::conflict(Msg::DataRequestAlreadyExtended));
            }
            let due_on = calendar::add_business_days(current.due_on, kind.extension());
            ("extend", store::extend(&t, id, due_on, &reason, today).await?)
        }
        Action::Incomplete { reason } => {
            if kind != Kind::Reclamo {
                return Err(AppError::bad_request(Msg::DataRequestIncompleteOnlyReclamo));
            }
            if status != "open" {
                return Err(wrong_status());
            }
            ("incomplete", store::mark_incomplete(&t, id, &reason, today).await?)
        }
        Action::Complete => {
            if status != "incomplete" {
                return Err(wrong_status());
            }
            let due_on = calendar::add_business_days(today, kind.term());
            ("complete", store::reopen(&t, id, due_on, today).await?)
        }
        Action::Answer { answer } => {
            if status != "open" && status != "incomplete" {
                return Err(wrong_status());
            }
            ("answer", store::answer(&t, id, &answer, t.actor().0, today).await?)
        }
        Action::Close => {
            if status == "closed" {
                return Err(wrong_status());
            }
            ("close", store::close(&t, id, today).await?)
        }
    };
    if let Some(customer) = current.customer_id {
        store::refresh_claim_mark(&t, customer).await?;
    }
    let detail = serde_json::json!({ "from": status, "to": request.status, "dueOn": request.due_on });
    audit(&t, &format!("dataRequest.{name}"), "dataRequest", Some(id), detail).await?;
    t.commit().await?;
    Ok(Json(request))
}
