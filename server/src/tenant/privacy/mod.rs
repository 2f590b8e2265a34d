//! The company's privacy notice, in versions never edited, public without login, and the
//! customers' authorizations to its purposes (Ley 1581 de 2012 art. 9; Decreto 1377 de 2013
//! arts. 5, 7 and 13-16; docs/privacy.md).

use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db::TenantTx;
use crate::domain::Prefix;
use crate::error::{AppError, AppResult, Msg};
use crate::extract::{Json, Path};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::{audit, data_requests};

pub mod model;
pub mod store;

use model::{ConsentInput, ConsentsUpdate, CustomerConsents, NoticeInput, PrivacyNotice, PublicNotice, ValidConsent};

/// The screens whose users manage customers, and so their authorizations.
const MANAGE: &[&str] = &["/settings/customers"];

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, publish))
        .routes(routes!(current))
        .routes(routes!(public_notice))
        .routes(routes!(consents, update_consents))
}

/// The notice in force, which enrolments must refer to.
pub async fn current_notice(t: &Tenant) -> AppResult<PrivacyNotice> {
    store::current(t, t.company_id).await
}

/// Checks an enrolment's authorization against the notice in force (400 when it is missing,
/// refers to another version or leaves out a required purpose).
pub async fn check_consent(t: &Tenant, input: Option<&ConsentInput>) -> AppResult<ValidConsent> {
    let notice = current_notice(t).await?;
    ConsentInput::validate(input, &notice)
}

/// Records a new customer's authorization, by the caller.
pub async fn record_consent(t: &Tenant, customer_id: i64, consent: &ValidConsent) -> AppResult<()> {
    store::record(t, customer_id, consent.notice_version, &consent.answers, &consent.channel, t.actor()).await
}

/// Every version of the notice, newest first (any user of the company).
#[utoipa::path(get, path = "/privacy-notices", tag = "privacy", security(("bearer" = [])),
    responses((status = 200, body = Vec<PrivacyNotice>), crate::error::ApiErrors))]
async fn list(t: Tenant) -> AppResult<Json<Vec<PrivacyNotice>>> {
    current_notice(&t).await?;
    let list = store::list(&t).await?;
    t.commit().await?;
    Ok(Json(list))
}

/// The notice in force, which the enrolment forms show (any user of the company).
#[utoipa::path(get, path = "/privacy-notices/current", tag = "privacy", security(("bearer" = [])),
    responses((status = 200, body = PrivacyNotice), crate::error::ApiErrors))]
async fn current(t: Tenant) -> AppResult<Json<PrivacyNotice>> {
    let notice = current_notice(&t).await?;
    t.commit().await?;
    Ok(Json(notice))
}

/// Publishes a new version of the notice, which is in force at once: enrolments must then refer
/// to it. No version is ever edited or deleted (admins only).
#[utoipa::path(post, path = "/privacy-notices", tag = "privacy", security(("bearer" = [])),
    request_body = NoticeInput, responses((status = 201, body = PrivacyNotice), crate::error::ApiErrors))]
async fn publish(t: Tenant, Json(input): Json<NoticeInput>) -> AppResult<(StatusCode, Json<PrivacyNotice>)> {
    t.require_admin()?;
    let notice = input.validate()?;
    current_notice(&t).await?;
    let published = store::publish(&t, &notice, t.actor()).await?;
    let purposes: Vec<&str> = published.purposes.iter().map(|p| p.key.as_str()).collect();
    let detail = serde_json::json!({ "version": published.version, "purposes": purposes });
    audit(&t, "privacy.publish", "privacyNotice", Some(published.version.into()), detail).await?;
    t.commit().await?;
    Ok((StatusCode::CREATED, Json(published)))
}

/// The notice in force of the company with this prefix, for anyone, without logging in. An
/// unknown or inactive company is a plain 404.
#[utoipa::path(get, path = "/public/{prefix}/privacy", tag = "privacy",
    params(("prefix" = String, Path, description = "the company's prefix")),
    responses((status = 200, body = PublicNotice), crate::error::ApiErrors))]
async fn public_notice(State(state): State<AppState>, Path(prefix): Path<String>) -> AppResult<Json<PublicNotice>> {
    let not_found = || AppError::not_found(Msg::PrivacyNoticeNotFound);
    let prefix = Prefix::parse(&prefix).map_err(|_| not_found())?;
    let (id, company) = store::active_company(&state.pool, prefix.as_str()).await?.ok_or_else(not_found)?;
    let tx = TenantTx::begin(&state.pool, &prefix).await?;
    let notice = store::current(&tx, id).await?;
    tx.commit().await?;
    Ok(Json(PublicNotice {
        company,
        version: notice.version,
        body: notice.body,
        purposes: notice.purposes,
        published_at: notice.published_at,
    }))
}

/// A customer's authorizations: the current answer to each purpose and every answer recorded
/// (needs the customers screen).
#[utoipa::path(get, path = "/customers/{id}/consents", tag = "privacy", security(("bearer" = [])),
    params(("id" = i64, Path, description = "customer id")),
    responses((status = 200, body = CustomerConsents), crate::error::ApiErrors))]
async fn consents(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<CustomerConsents>> {
    t.require_permission(MANAGE).await?;
    store::lock_customer(&t, id).await?.ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    let answer = customer_consents(&t, id, None).await?;
    t.commit().await?;
    Ok(Json(answer))
}

async fn customer_consents(t: &Tenant, id: i64, revocation: Option<i64>) -> AppResult<CustomerConsents> {
    let history = store::history(t, id).await?;
    let mut current: Vec<model::ConsentRecord> = Vec::new();
    for record in &history {
        if !current.iter().any(|c| c.purpose == record.purpose) {
            current.push(record.clone());
        }
    }
    current.sort_by(|a, b| a.purpose.cmp(&b.purpose));
    Ok(CustomerConsents { customer_id: id, current, history, revocation_request_id: revocation })
}

/// Grants or revokes a customer's optional purposes, against the notice in force. Revoking the
/// required `loyalty` purpose files a reclamo (art. 15) for the shop to answer, and marks the
/// customer "reclamo en trámite"; the authorization stays recorded until then (needs the
/// customers screen).
#[utoipa::path(put, path = "/customers/{id}/consents", tag = "privacy", security(("bearer" = [])),
    params(("id" = i64, Path, description = "customer id")), request_body = ConsentsUpdate,
    responses((status = 200, body = CustomerConsents), crate::error::ApiErrors))]
async fn update_consents(
    t: Tenant,
    Path(id): Path<i64>,
    Json(input): Json<ConsentsUpdate>,
) -> AppResult<Json<CustomerConsents>> {
    t.require_permission(MANAGE).await?;
    let document = store::lock_customer(&t, id).await?.ok_or_else(|| AppError::not_found(Msg::CustomerNotFound))?;
    let notice = current_notice(&t).await?;
    let change = input.validate(&notice)?;
    if !change.answers.is_empty() {
        store::record(&t, id, notice.version, &change.answers, &change.channel, t.actor()).await?;
        let detail = serde_json::json!({
            "version": notice.version,
            "channel": change.channel,
            "granted": change.answers.iter().filter(|a| a.1).map(|a| &a.0).collect::<Vec<_>>(),
            "revoked": change.answers.iter().filter(|a| !a.1).map(|a| &a.0).collect::<Vec<_>>(),
        });
        audit(&t, "customer.consents", "customer", Some(id), detail).await?;
    }
    let revocation = if change.revokes_required {
        let request = data_requests::file_reclamo(
            &t,
            id,
            &document,
            "Revocatoria de la autorización",
            "El titular revoca su autorización para la finalidad obligatoria «loyalty» (programa de fidelización).",
        )
        .await?;
        Some(request.id)
    } else {
        None
    };
    let answer = customer_consents(&t, id, revocation).await?;
    t.commit().await?;
    Ok(Json(answer))
}
