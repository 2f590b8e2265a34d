//! The platform: companies (tenants) and their lifecycle, super admins, and impersonation.

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db;
use crate::domain::Prefix;
use crate::error::{AppError, AppResult, Msg};
use crate::extract::{Json, Path};
use crate::session::{self, SessionResponse, SuperAdmin, UserView};
use crate::state::AppState;

pub mod maintenance;
mod model;
pub mod spares;
pub mod stats;
pub mod store;

pub use model::{Company, CompanyDetails, CompanyInput, CompanyStats, NewCompany, PlatformTotals, StatsRefresh};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_companies, create_company_handler))
        .routes(routes!(update_company, delete_company_handler))
        .routes(routes!(impersonate))
        .merge(stats::router())
}

/// Active companies, sorted by name.
#[utoipa::path(get, path = "/super/companies", tag = "companies", security(("bearer" = [])),
    responses((status = 200, body = Vec<Company>), crate::error::ApiErrors))]
async fn list_companies(_: SuperAdmin, State(state): State<AppState>) -> AppResult<Json<Vec<Company>>> {
    Ok(Json(store::active_companies(&state.pool).await?))
}

/// Creates a company, its schema and its `admin` user.
#[utoipa::path(post, path = "/super/companies", tag = "companies", security(("bearer" = [])),
    request_body = CompanyInput, responses((status = 201, body = Company), crate::error::ApiErrors))]
async fn create_company_handler(
    admin: SuperAdmin,
    State(state): State<AppState>,
    Json(input): Json<CompanyInput>,
) -> AppResult<(StatusCode, Json<Company>)> {
    let new = input.into_new()?;
    let company = create_company(&state, new, &admin.username).await?;
    Ok((StatusCode::CREATED, Json(company)))
}

/// Changes a company's details (never its prefix).
#[utoipa::path(put, path = "/super/companies/{id}", tag = "companies", security(("bearer" = [])),
    params(("id" = i64, Path, description = "company id")), request_body = CompanyInput,
    responses((status = 200, body = Company), crate::error::ApiErrors))]
async fn update_company(
    admin: SuperAdmin,
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Json(input): Json<CompanyInput>,
) -> AppResult<Json<Company>> {
    if input.name.as_deref().map(str::trim).unwrap_or_default().is_empty()
        || input.tax_id.as_deref().map(str::trim).unwrap_or_default().is_empty()
    {
        return Err(AppError::bad_request(Msg::CompanyNameAndTaxIdRequired));
    }
    let d = input.details()?;
    let company = store::update_company(&state.pool, id, &d, &admin.username)
        .await?
        .ok_or_else(|| AppError::not_found(Msg::CompanyNotFound))?;
    Ok(Json(company))
}

/// The answer of a company's deletion.
#[derive(Serialize, utoipa::ToSchema)]
pub struct MessageResponse {
    /// `company <name> deleted`, in English whatever the request's language.
    pub message: String,
}

/// Deletes a company with all its data, irreversibly.
#[utoipa::path(delete, path = "/super/companies/{id}", tag = "companies", security(("bearer" = [])),
    params(("id" = i64, Path, description = "company id")),
    responses((status = 200, body = MessageResponse), crate::error::ApiErrors))]
async fn delete_company_handler(
    admin: SuperAdmin,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> AppResult<Json<MessageResponse>> {
    let company = delete_company(&state, id, &admin.username).await?;
    Ok(Json(MessageResponse { message: format!("company {} deleted", company.name) }))
}

/// The company a super admin starts acting in, as its admin.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ImpersonateRequest {
    /// An active company's id.
    #[schema(value_type = i64, required = true)]
    company_id: Option<i64>,
}

/// Starts acting as a company's admin.
#[utoipa::path(post, path = "/super/impersonate", tag = "companies", security(("bearer" = [])),
    request_body = ImpersonateRequest, responses((status = 200, body = SessionResponse), crate::error::ApiErrors))]
async fn impersonate(
    admin: SuperAdmin,
    State(state): State<AppState>,
    Json(body): Json<ImpersonateRequest>,
) -> AppResult<Json<SessionResponse>> {
    let id = body.company_id.ok_or_else(|| AppError::bad_request(Msg::CompanyIdRequired))?;
    let company =
        store::active_company_by_id(&state.pool, id).await?.ok_or_else(|| AppError::not_found(Msg::CompanyNotFound))?;
    let prefix = Prefix::from_trusted(company.prefix.clone());
    let account = store::start_impersonation(&state.pool, &company, &prefix, &admin.username)
        .await?
        .ok_or_else(|| AppError::conflict(Msg::CompanyNoAdmin))?;
    let user = UserView {
        id: account.id,
        username: account.username,
        role: "admin".into(),
        company_id: Some(company.id),
        company: Some(company),
        pos_id: None,
        pos_name: None,
        impersonated_by: Some(admin.username.clone()),
        session_version: account.session_version,
    };
    let token = state.keys.issue(user.claims())?;
    tracing::info!(super_admin = %admin.username, company = %prefix, "impersonation started");
    Ok(Json(SessionResponse { token, user }))
}

// ---------------------------------------------------------------------------------------------
// Company lifecycle

/// Creates a company and provisions its schema. From a spare schema made ahead when one is ready:
/// one transaction that writes rows only ([`store::create_from_spare`]). Else, while asked: the
/// platform row (as `provisioning`, under an advisory lock on a dedicated connection), the schema
/// `tenant_<prefix>` as a copy of the template or by its migrations, the `admin` user and
/// default settings, then the row marked `active`; if any step fails nothing remains: the schema
/// and the row are removed.
pub async fn create_company(state: &AppState, new: NewCompany, actor: &str) -> AppResult<Company> {
    // The admin's password is hashed (tens of milliseconds of CPU) while the database works, and
    // is awaited only to insert the account.
    let mut password_hash = tokio::spawn(session::hash_password(new.admin_password.clone()));
    let template = state.tenant_template().await?;
    if let Some(template) = template.as_deref() {
        if let Some(company) = store::create_from_spare(&state.pool, &new, template, &mut password_hash, actor).await? {
            // The filler makes spares again once half of them or fewer are left.
            state.spares_wanted.notify_one();
            tracing::info!(company = %new.prefix, from_spare = true, "company created");
            return Ok(company);
        }
    }
    let url = state.config.db.url.expose().clone();
    let mut client = db::connect_dedicated(&url).await?;
    let mut company = store::insert_provisioning(&client, &new.details, &new.prefix).await?;
    store::lock_company(&client, company.id).await?;
    let schema = db::tenant_schema(&new.prefix);
    if let Err(err) = store::create_schema(&client, &schema).await {
        // Not ours to drop: only the row goes.
        store::delete_company_row(&client, company.id).await?;
        tracing::error!(company = %new.prefix, error = %err, "could not create the company schema");
        return Err(AppError::conflict(Msg::CompanySchemaExists));
    }
    match store::provision(&mut client, &schema, password_hash, template.as_deref()).await {
        Ok(version) => {
            store::activate(&mut client, &mut company, version, actor).await?;
            stats::refresh_new(&client, company.id, &new.prefix, &schema).await;
            state.spares_wanted.notify_one();
            tracing::info!(company = %new.prefix, from_spare = false, "company created");
            Ok(company)
        }
        Err(err) => {
            tracing::error!(company = %new.prefix, error = ?err, "provisioning failed, removing what was created");
            store::remove_company(&client, company.id, &schema).await.map_err(AppError::internal)?;
            Err(AppError::Internal(err))
        }
    }
}

/// Deletes a company: its tokens stop working at once (state `deleting`), then its schema and
/// row are dropped in one transaction.
pub async fn delete_company(state: &AppState, id: i64, actor: &str) -> AppResult<Company> {
    let client = db::connect_dedicated(state.config.db.url.expose()).await?;
    let company = store::mark_deleting(&client, id).await?.ok_or_else(|| AppError::not_found(Msg::CompanyNotFound))?;
    store::lock_company(&client, id).await?;
    let prefix = Prefix::from_trusted(company.prefix.clone());
    store::audit(&client, actor, "company.delete", &company, serde_json::json!({ "name": company.name })).await?;
    let schema = db::company_schema(&client, &prefix).await?.unwrap_or_else(|| db::tenant_schema(&prefix));
    store::remove_company(&client, id, &schema).await?;
    state.pool.forget_schema(&prefix);
    tracing::info!(company = %prefix, "company deleted");
    Ok(company)
}

/// Removes companies left half-created or half-deleted by a process that died part-way.
/// A company whose provisioning is still running elsewhere holds its lock and is left alone.
pub async fn clean_up_leftovers(database_url: &str) -> anyhow::Result<usize> {
    let client = db::connect_dedicated(database_url).await?;
    let mut removed = 0;
    for (id, prefix, schema) in store::unfinished_companies(&client).await? {
        if !store::try_lock_company(&client, id).await? {
            continue;
        }
        tracing::warn!(company = %prefix, "removing a company left half-provisioned or half-deleted");
        store::remove_company(&client, id, &schema).await?;
        store::unlock_company(&client, id).await?;
        removed += 1;
    }
    Ok(removed)
}

/// Creates a super admin, or resets the password of an existing one.
pub async fn upsert_super_admin(database_url: &str, username: &str, password: String) -> anyhow::Result<()> {
    let hash = session::hash_password(password).await?;
    let client = db::connect_dedicated(database_url).await?;
    store::upsert_super_admin(&client, username, &hash).await?;
    Ok(())
}
